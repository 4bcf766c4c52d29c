"""Specific rules, each on a position built for it."""

import random

import pytest

from app.engine import (
    GameRecord,
    IllegalMoveError,
    InvalidMoveError,
    deal_for_seed,
    format_deal,
    get_game,
    parse_deal,
)
from app.engine.cards import Card
from app.engine.gaps import Fill, GapsPosition
from app.engine.pyramid import PyramidPosition

from .strategies import new_record
from .vectors import load

PYRAMID = get_game("pyramid")


def pyramid_from(codes: str, **options) -> PyramidPosition:
    """A pyramid deal whose first cards are ``codes``; the rest of the deck follows in order."""
    first = codes.split()
    rest = [c for c in format_deal(deal_for_seed("pyramid", 0)).split() if c not in first]
    return PYRAMID.new_position(parse_deal(" ".join(first + rest)), PYRAMID.parse_rules(options))


def legal(position) -> list[str]:
    return sorted(str(m) for m in position.legal_moves())


@pytest.mark.parametrize(
    "case", [c for c in load("solve.jsonl") if c["winnable"]], ids=lambda c: c["deal"][:11]
)
def test_example_wins_from_the_vectors_end_in_won(case):
    variant = get_game(case["game"])
    record = GameRecord.from_text(case["game"], variant.parse_rules(case["options"]), case["deal"], case["example_win"])
    assert record.position.status == "won"
    assert record.position.legal_moves() == ()
    with pytest.raises(IllegalMoveError):
        record.play("D")


def test_kings_go_alone_from_pyramid_stock_and_waste():
    # Row 6 = P21..P27; put a king at P21 and the stock top, another king second in stock.
    position = pyramid_from("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 2D 3D 4D 5D 6D 7D 8D 9D TD JD "
                            "KC 2H 3H 4H 5H 6H 3S KD KH")
    assert legal(position) == ["D", "P21", "S"]
    position = position.apply("D")
    assert legal(position) == ["D", "P21", "S", "W"]


def test_stock_top_pairs_with_waste_top_and_pyramid():
    position = pyramid_from("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 2D 3D 4D 5D 6D 7D 8D 9D TD JD "
                            "2H 3H 4H 5H 2S 3S 7H 6S 7S")
    # S = 6S pairs with 7H (P27); after a draw W = 6S and S = 7S pair.
    assert legal(position) == ["D", "P27+S"]
    assert "S+W" in legal(position.apply("D"))


def test_one_pass_then_lost_and_recycle_with_more_passes():
    record = new_record(("pyramid", {}), 3)
    while "D" in legal(record.position):
        record = record.play("D")
    position = record.position
    assert "R" not in legal(position)
    three = GameRecord.from_text("pyramid", PYRAMID.parse_rules({"passes": "3"}), format_deal(record.deal), record.moves_text)
    assert "R" in legal(three.position)
    after = three.play("R").position
    assert after.pass_number == 2 and after.waste == ()
    assert after.stock == three.position.waste[::-1]  # unshuffled: first drawn is on top again


def test_overlap_pairs_a_card_with_its_only_remaining_cover():
    # P20 (row 5, col 5) is covered by P26 and P27. Remove P27 (a king); then P20=6C and
    # P26=7H pair under --overlap only.
    codes = ("2C 3C 4C 5C 6D 7C 8C 9C TC JC QC 2D 3D 4D 5D 6H 7D 8D 9D TD 6C "
             "2H 3H 4H 5H 2S 7H KC 9S")
    plain = pyramid_from(codes).apply("P27")
    relaxed = pyramid_from(codes, overlap="true").apply("P27")
    assert "P20+P26" not in legal(plain)
    assert "P20+P26" in legal(relaxed)
    assert relaxed.apply("P20+P26").is_removed(20)


def test_unlimited_passes_is_lost_only_when_no_cycle_can_remove_anything():
    rules = PYRAMID.parse_rules({"passes": "unlimited"})
    record = GameRecord.new("pyramid", rules, deal_for_seed("pyramid", 5))
    assert record.position.status == "playing"
    # Draw through the whole stock many times: the status never turns lost while some
    # stock card still pairs with an open pyramid card.
    for _ in range(60):
        record = record.play("D" if "D" in legal(record.position) else "R")
    assert record.position.status == "playing" and record.position.pass_number > 1


def test_unlimited_lost_when_stock_cannot_meet_any_partner():
    # Open row 6 holds only 2s and 3s; the stock has no J, Q, K or pairs of neighbours
    # summing to 13 (ordered so no two neighbours make 13).
    pyramid = ("JC QC KC JD QD KD JH QH KH JS QS KS TC TD TH TS 9C 9D 9H 9S 8C "
               "2C 2D 2H 2S 3C 3D 3H")
    stock = "7C 7D 7H 7S 5C 5D 5H 5S 4C 4D 4H 4S 8D 8H 8S 6C 6D 6H 6S AC AD AH AS 3S"
    deal = parse_deal(f"{pyramid} {stock}")
    unlimited = PYRAMID.new_position(deal, PYRAMID.parse_rules({"passes": "unlimited"}))
    assert unlimited.status == "lost"
    assert "D" in legal(unlimited)  # drawing is still allowed, it just cannot help
    one_pass = PYRAMID.new_position(deal, PYRAMID.parse_rules({}))
    assert one_pass.status == "playing"


def test_unlimited_is_playing_while_the_pyramid_pairs_though_the_stock_cannot_help():
    # the same stock, and a jack open beside the 2s: no cycle of the stock meets anything,
    # but the pyramid itself pairs (a regression: this was called lost)
    pyramid = ("3H QC KC JD QD KD JH QH KH JS QS KS TC TD TH TS 9C 9D 9H 9S 8C "
               "2C 2D 2H 2S 3C 3D JC")
    stock = "7C 7D 7H 7S 5C 5D 5H 5S 4C 4D 4H 4S 8D 8H 8S 6C 6D 6H 6S AC AD AH AS 3S"
    position = PYRAMID.new_position(parse_deal(f"{pyramid} {stock}"), PYRAMID.parse_rules({"passes": "unlimited"}))
    assert "P21+P27" in legal(position)
    assert position.status == "playing" and position.end_reason is None


def test_goal_all_needs_the_stock_empty_too():
    case = next(c for c in load("solve.jsonl") if c["winnable"] and c["game"] == "pyramid")
    rules = PYRAMID.parse_rules({**case["options"], "goal": "all"})
    record = GameRecord.from_text("pyramid", rules, case["deal"], case["example_win"])
    position = record.position
    assert position.removed == position.full_mask
    assert (position.stock or position.waste) and position.status != "won"
    # what is left to go is what is left in the stock and the waste, not an empty pyramid's 0
    assert position.cards_left == len(position.stock) + len(position.waste) > 0


@pytest.mark.parametrize(("game", "options", "left"), [
    ("pyramid", {"goal": "pyramid"}, 28), ("pyramid", {"goal": "all"}, 52), ("giza", {"goal": "all"}, 52),
    ("double-pyramid", {"goal": "pyramid"}, 56),
])
def test_cards_left_counts_every_card_the_goal_needs_gone(game, options, left):
    variant = get_game(game)
    position = variant.new_position(deal_for_seed(game, 3), variant.parse_rules(options))
    assert position.cards_left == left


def test_giza_reserve_tops_are_the_last_of_each_three():
    giza = get_game("giza")
    deal = deal_for_seed("giza", 8)
    position = giza.new_position(deal, giza.parse_rules())
    for k in range(8):
        assert position.card_at(f"G{k}") == deal[30 + 3 * k]
    with pytest.raises(InvalidMoveError):
        giza.parse_move("S+W")


def test_double_pyramid_uses_q_locations_in_canonical_order():
    double = get_game("double-pyramid")
    move = double.parse_move(" w + q5 ")
    assert str(move) == "Q5+W"
    assert str(double.parse_move("q3+p27")) == "P27+Q3"
    with pytest.raises(InvalidMoveError):
        PYRAMID.parse_move("Q3")
    position = double.new_position(deal_for_seed("double-pyramid", 2), double.parse_rules())
    assert len(position.stock) == 48
    assert all(str(m) for m in position.legal_moves())


@pytest.mark.parametrize("bad", ["", "P", "P28", "X", "P1+P1", "P1+P2+P3", "G1", "D2", "S+"])
def test_malformed_pyramid_moves_are_invalid_not_illegal(bad):
    with pytest.raises(InvalidMoveError):
        PYRAMID.parse_move(bad)


def test_pyramid_moves_parse_loosely_and_print_canonically():
    assert str(PYRAMID.parse_move(" p24 + p3 ")) == "P3+P24"
    assert str(PYRAMID.parse_move("w+s")) == "S+W"
    assert str(PYRAMID.parse_move("p12+W")) == "P12+W"


GAPS = get_game("gaps")


@pytest.mark.parametrize("bad", ["7H", "7H>4.0", "7H>0.13", "ZZ>1.1", "7H>1", "NN"])
def test_malformed_gaps_moves_are_invalid(bad):
    with pytest.raises(InvalidMoveError):
        GAPS.parse_move(bad)


def test_gaps_moves_parse_loosely():
    assert str(GAPS.parse_move("10h > 2.5")) == "TH>2.5"
    assert str(GAPS.parse_move("n")) == "N"


def test_danish_rule_aces_become_starters_in_deal_order():
    deal = deal_for_seed("gaps", 12)
    rules = GAPS.parse_rules({"aces": "starters"})
    position = GAPS.new_position(deal, rules)
    assert position.starters == tuple(c.suit for c in deal if c.rank == 1)
    for r, c in position.gap_positions():
        if c == 0:
            assert [str(m.card) for m in position.moves_into(r, c)] == [f"2{position.starters[r]}"]


def gaps_game_with_redeal(seed: int, options: dict) -> GameRecord:
    record = new_record(("gaps", options), seed)
    for _ in range(25):  # play some fills so prefixes exist, then redeal
        fills = [m for m in record.position.legal_moves() if str(m) != "N"]
        if not fills:
            break
        record = record.play(fills[0])
    return record


@pytest.mark.parametrize("options", [{}, {"aces": "starters"}])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_redeal_keeps_prefixes_and_leaves_one_gap_after_each(seed, options):
    record = gaps_game_with_redeal(seed, options)
    before = record.position
    after = record.play("N").position
    prefixes = before.correct_prefix_lengths()
    assert after.round == before.round + 1
    assert after.correct_prefix_lengths()[0] >= 0
    for r in range(4):
        row_before = before.grid[13 * r : 13 * r + 13]
        row_after = after.grid[13 * r : 13 * r + 13]
        assert row_after[: prefixes[r]] == row_before[: prefixes[r]]
        assert row_after[prefixes[r]] is None
        assert None not in row_after[prefixes[r] + 1 :]
    assert sorted(map(str, filter(None, after.grid))) == sorted(map(str, filter(None, before.grid)))


def test_redeal_depends_only_on_deal_and_round():
    record = gaps_game_with_redeal(6, {})
    redealt = record.play("N")
    again = redealt.undo().redo()
    assert again.position == redealt.position
    replayed = GameRecord.from_text("gaps", record.rules, format_deal(record.deal), redealt.moves_text)
    assert replayed.position == redealt.position


def test_rounds_run_out():
    record = new_record(("gaps", {"rounds": "2"}), 9)
    record = record.play("N")
    assert record.position.round == 2 and record.position.rounds_left == 0
    assert "N" not in legal(record.position)
    with pytest.raises(IllegalMoveError):
        record.play("N")


def test_a_won_gaps_layout_is_won_and_takes_no_moves():
    rows = [" ".join(f"{r}{s}" for r in "23456789TJQK") + f" A{s}" for s in "CDHS"]
    position = GapsPosition.from_deal(GAPS.parse_rules(), parse_deal(" ".join(rows)))
    assert position.status == "won" and position.legal_moves() == ()
    assert position.simple_score == 48


def test_a_fill_moves_its_card_whether_or_not_it_is_the_shared_card_object():
    position = GAPS.new_position(deal_for_seed("gaps", 12), GAPS.parse_rules())
    shared = next(m for m in position.legal_moves() if isinstance(m, Fill))
    equal = Fill(Card(shared.card.rank, shared.card.suit), shared.row, shared.col)
    assert equal.card is not shared.card and position.apply(equal) == position.apply(shared)
    assert position.apply(shared).grid.count(shared.card) == 1


def test_a_layout_with_every_gap_in_the_last_column_is_won_only_in_suit_order():
    rows = [" ".join(f"{r}{s}" for r in "23456789TJQK") + f" A{s}" for s in "CDHS"]
    swapped = " ".join(rows).replace("5C", "xx").replace("6C", "5C").replace("xx", "6C")
    position = GapsPosition.from_deal(GAPS.parse_rules(), parse_deal(swapped))
    assert not position.is_won() and position.correct_prefix_lengths() == (3, 12, 12, 12)


def test_a_stuck_last_round_is_lost():
    rows = [f"A{s} " + " ".join(f"{r}{s}" for r in "KQJT98765432") for s in "CDHS"]
    position = GapsPosition.from_deal(GAPS.parse_rules({"rounds": "1"}), parse_deal(" ".join(rows)))
    # Every gap is in column 0 and takes a 2: still playing.
    assert position.status == "playing"
    rows = [f"K{s} A{s} " + " ".join(f"{r}{s}" for r in "QJT98765432") for s in "CDHS"]
    stuck = GapsPosition.from_deal(GAPS.parse_rules({"rounds": "1"}), parse_deal(" ".join(rows)))
    assert stuck.status == "lost" and stuck.legal_moves() == ()
    three = GapsPosition.from_deal(GAPS.parse_rules(), parse_deal(" ".join(rows)))
    assert three.status == "playing" and legal(three) == ["N"]


def test_end_reasons_name_why_the_game_ended():
    case = next(c for c in load("solve.jsonl") if c["winnable"] and c["game"] == "pyramid")
    won = GameRecord.from_text("pyramid", PYRAMID.parse_rules(case["options"]), case["deal"], case["example_win"])
    assert won.position.end_reason == "won_pyramid"
    assert won.at(0).position.end_reason is None
    lost = next(c for c in load("replay.jsonl") if c["game"] == "pyramid" and c["trace"][-1]["status"] == "lost")
    record = GameRecord.from_text("pyramid", PYRAMID.parse_rules(lost["options"]), lost["deal"], lost["moves"])
    assert record.position.end_reason == "lost_stock"
    giza = next(c for c in load("replay.jsonl") if c["game"] == "giza")
    record = GameRecord.from_text("giza", get_game("giza").parse_rules(), giza["deal"], giza["moves"])
    assert record.position.end_reason == "lost_giza"
    rows = [f"K{s} A{s} " + " ".join(f"{r}{s}" for r in "QJT98765432") for s in "CDHS"]
    stuck = GapsPosition.from_deal(GAPS.parse_rules({"rounds": "1"}), parse_deal(" ".join(rows)))
    assert stuck.end_reason == "lost_gaps"
    double = get_game("double-pyramid")
    start = double.new_position(deal_for_seed("double-pyramid", 1), double.parse_rules())
    cleared = PyramidPosition(start.table, start.rules, start.layout, (1 << len(start.layout)) - 1, start.stock)
    assert cleared.status == "won" and cleared.end_reason == "won_pyramids"  # both, not "the pyramid"


def test_a_redeal_gives_up_moves_while_a_card_can_still_be_moved():
    """A player is asked before a redeal that gives up fills still possible; never in Pyramid."""
    from app.engine import REDEAL

    record = new_record(("gaps", {}), 21)
    assert any(str(m) != "N" for m in record.position.legal_moves())
    assert record.position.gives_up_moves(REDEAL)
    rng = random.Random(21)
    for _ in range(1000):  # random fills until only the redeal is left: then it gives nothing up
        fills = [m for m in record.position.legal_moves() if isinstance(m, Fill)]
        if not fills:
            break
        assert record.position.gives_up_moves(REDEAL) and not record.position.gives_up_moves(fills[0])
        record = record.play(rng.choice(fills))
    assert record.position.legal_moves() == (REDEAL,) and not record.position.gives_up_moves(REDEAL)
    pyramid = new_record(("pyramid", {"passes": "1"}), 3).position
    assert not any(pyramid.gives_up_moves(m) for m in pyramid.legal_moves())
