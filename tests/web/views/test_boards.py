"""The answers a board carries (app.web.views.boards) are what a tap there does (app.engine.taps).

The page shows a tap's answer before the server's; these check, place by place, in positions
met in play, that the answer the board wrote is the one the server then gives.
"""

from __future__ import annotations

import random

import pytest

from app.engine import Fill, GameRecord, Status, deal_for_seed, get_preset
from app.engine.gaps import COLUMNS
from app.engine.pyramid import DRAW, Draw
from app.engine.taps import gaps_tap, places, pyramid_tap
from app.solver import solve
from app.web.views.boards import gaps_board, pyramid_board


def positions(preset_slug: str, seed: int, plies: int = 40):
    """The positions of a game played by random legal moves (draws and redeals included)."""
    preset = get_preset(preset_slug)
    record = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed))
    chance = random.Random(seed)
    for _ in range(plies):
        yield record.position
        legal = record.position.legal_moves()
        if not legal:
            return
        record = record.play(chance.choice(legal))


def slots(board):
    for pyramid in board.pyramids:
        for row in pyramid:
            yield from (s for s in row if s.card is not None)
    for pile in (board.stock, board.waste):
        if pile is not None:
            yield pile
    for _, top in board.reserves:
        if top is not None:
            yield top


@pytest.mark.parametrize("preset,seed", [("pyramid", 2), ("pyramid", 7), ("double-pyramid", 3), ("giza", 5)])
def test_each_pyramid_place_says_what_its_tap_does(preset, seed):
    seen = {"alone": 0, "pairs": 0, "strangers": 0, "refused": 0} | ({"draws": 0} if preset != "giza" else {})
    for position in positions(preset, seed):
        board = pyramid_board(position, None)
        for slot in slots(board):
            alone = pyramid_tap(position, None, slot.loc)
            if slot.draws:  # the stock's card with no pair: a tap turns the next one
                assert not slot.playable and slot.loc == "S" and alone.move == DRAW
                assert slot.answers == {"data-move": board.draw_move}
                seen["draws"] += 1
                continue
            if not slot.playable:
                assert alone.note == ("covered" if slot.under else "no_partner") and alone.move is None
                seen["refused"] += 1
                continue
            if slot.alone:
                assert places(alone.move) == (slot.loc,)
                seen["alone"] += 1
                continue
            assert alone.move is None and alone.selected == slot.loc and slot.partners
            for other in slot.partners:
                assert set(places(pyramid_tap(position, slot.loc, other).move)) == {slot.loc, other}
                seen["pairs"] += 1
            for other, card in slot.strangers:
                tap = pyramid_tap(position, other, slot.loc)
                assert tap.move is None and tap.selected == slot.loc and tap.note == "no_pair"
                assert tap.cards == (card, slot.card)
                seen["strangers"] += 1
    assert all(seen.values()), seen  # every kind of answer was met and checked


@pytest.mark.parametrize("seed", [21, 4, 11])
def test_each_gaps_place_says_what_its_tap_does(seed):
    seen = {"moves": 0, "pairs": 0, "refused": 0}
    for position in positions("gaps", seed, plies=30):
        board = gaps_board(position, None)
        for cell in (c for row in board.rows for c in row):
            tap = gaps_tap(position, None, cell.pos)
            if not cell.playable:
                plain = "not_playable" if cell.card else "dead_gap"
                assert tap.move is None and tap.note == ("stuck" if board.stuck else plain)
                seen["refused"] += 1
                continue
            if cell.move:
                assert isinstance(tap.move, Fill)
                card_pos, gap_pos = (cell.pos, cell.move) if cell.card else (cell.move, cell.pos)
                assert f"{tap.move.row}.{tap.move.col}" == gap_pos
                at = position.grid.index(tap.move.card)
                assert f"{at // COLUMNS}.{at % COLUMNS}" == card_pos
                seen["moves"] += 1
            else:
                assert tap.move is None and tap.note == cell.note and len(cell.partners) >= 1
            # selected (a card by its place, as the page names it), a tap on a partner fills
            for other in cell.partners:
                fill = gaps_tap(position, cell.pos, other).move
                gap = other if cell.card else cell.pos
                assert isinstance(fill, Fill) and f"{fill.row}.{fill.col}" == gap
                seen["pairs"] += 1
    assert all(seen.values()), seen


def test_a_won_gaps_board_marks_no_gap_dead():
    """Each gap of a won board lies after its row's king, where no card can go: the end of the
    game, not a dead end, so it is not marked dead (it is, one move before)."""
    preset = get_preset("gaps")
    record = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, 7))
    for move in solve(record.position, budget_nodes=300_000).moves:
        before, record = record, record.play(move)
    assert record.position.status is Status.WON
    assert not any(cell.dead for row in gaps_board(record.position, None).rows for cell in row)
    assert any(cell.dead for row in gaps_board(before.position, None).rows for cell in row)


def test_a_board_marks_the_partners_of_its_selection():
    position = next(p for p in positions("pyramid", 2) if any(s.partners for s in slots(pyramid_board(p, None))))
    chosen = next(s for s in slots(pyramid_board(position, None)) if s.partners)
    board = pyramid_board(position, chosen.loc)
    marked = {s.loc for s in slots(board) if s.partner}
    assert marked == set(chosen.partners) and board.selected == chosen.loc


def answers_now(board) -> dict[str, list]:
    """A board's own answers as the page reads them on its places (their ``data-`` attributes),
    in the form the board before it wrote them one move ahead."""
    places = [(c.pos, c) for row in board.rows for c in row] if hasattr(board, "rows") else \
        [(s.loc, s) for s in slots(board)]
    return {at: [a.get("data-partners", "").split(), a.get("data-move", ""), a.get("data-note", "")]
            for at, a in ((at, p.answers) for at, p in places) if "data-refusal" not in a}


@pytest.mark.parametrize("preset,seed,build", [("pyramid", 2, pyramid_board), ("giza", 5, pyramid_board),
                                                ("double-pyramid", 3, pyramid_board), ("gaps", 21, gaps_board)])
def test_the_answers_one_move_ahead_are_the_next_boards(preset, seed, build):
    checked = 0
    for position in positions(preset, seed, plies=25):
        board = build(position, None)
        for move in position.legal_moves():
            if str(move) == "N":  # a redeal: its cards are the server's to show
                continue
            after_position = position.apply(move)
            nxt = build(after_position, None)  # the board that comes after the move
            after = answers_now(nxt)
            ahead = next(v for k, v in board.ahead.items() if k == shown_as(position, move))
            # what the page will show is answered as the next board does; a card it cannot
            # show yet (the stock's next) is left out, and so is any answer naming it
            if "covered" in ahead:  # the pyramid's cards a card below lies on: so their refusal says
                refused = {s.loc for s in slots(nxt) if s.under}
                assert set(ahead["covered"]) == refused and all(p.startswith(("P", "Q")) for p in refused)
            # the figures the next board prints (templates/boards), shown with the move
            assert ahead["counts"] == ({"in-place": f"{nxt.in_place}/{nxt.places}"} if hasattr(nxt, "rows") else
                                       {"stock": str(nxt.stock_count), "waste": str(nxt.waste_count),
                                        "cards-left": str(nxt.cards_left), "pass": str(nxt.pass_number),
                                        "passes-left": "∞" if nxt.passes_left is None else str(nxt.passes_left)})
            if any(isinstance(m, Draw) for m in after_position.legal_moves()):
                # a draw is answered only where the page shows the card it draws: not one under
                # the stock card that went (a second draw offline drew a card unseen)
                shown_top = None if isinstance(move, Draw) or "S" in places(move) else position.card_at("S")
                assert ("draw" in ahead) is (after_position.card_at("S") == shown_top)
            if "unplayable" in ahead:  # a free card left out is refused as the next board refuses it
                refusals = {s.answers.get("data-refusal") for s in slots(nxt) if not s.under} - {None}
                assert refusals <= {ahead["unplayable"]}
            if hasattr(nxt, "rows"):  # the Gaps places drawn as a dead gap, or as a card in place
                cells = [c for row in nxt.rows for c in row]
                assert ahead["dead"] == [c.pos for c in cells if c.dead]
                assert ahead["placed"] == [c.pos for c in cells if c.in_place]
            for place, answer in ahead.items():
                if place in ("draw", "recycle", "covered", "counts", "unplayable", "stuck", "dead", "placed"):
                    continue
                assert answer[1:] == after[place][1:] and set(answer[0]) <= set(after[place][0])
            for place in after.keys() - ahead.keys() - {"covered"}:
                assert place in ("S", "W")  # a Giza reserve's next card lies in sight: answered
            checked += 1
    assert checked > 20


def shown_as(position, move) -> str:
    """How the page names a move it shows (static/js/app.js)."""
    text = str(move)
    if text == "D":
        return "S>W"
    if text == "R":
        return "W"
    if isinstance(move, Fill):
        at = position.grid.index(move.card)
        return f"{at // COLUMNS}.{at % COLUMNS}>{move.row}.{move.col}"
    return " ".join(sorted(places(move)))


def _stuck_gaps(seed: int):
    """A Gaps position of seed ``seed`` where no card can move, fills played until none is left."""
    preset = get_preset("gaps")
    return _stuck_after(GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed)).position)


def test_a_stuck_gaps_board_says_to_redeal_and_only_then():
    """No card can move and a redeal is left: the board says so (its button the one to press);
    while a card can move, or with no redeal left, it does not."""
    position = _stuck_gaps(3)
    assert position.status is Status.PLAYING and gaps_board(position, None).stuck
    # and every card or gap tapped says so, as the board's answers do
    cells = [c for row in gaps_board(position, None).rows for c in row]
    assert {gaps_tap(position, None, c.pos).note for c in cells} == {"stuck"}
    assert {c.answers["data-refusal"] for c in cells} == {"stuck"}
    later = position.apply(next(m for m in position.legal_moves() if not isinstance(m, Fill)))  # the redeal
    assert not gaps_board(later, None).stuck
    while later.status is Status.PLAYING and (redeal := [m for m in later.legal_moves() if not isinstance(m, Fill)]):
        later = _stuck_after(later.apply(redeal[0]))
    assert not gaps_board(later, None).stuck  # the last round over: nothing to redeal


def _stuck_after(position):
    """Fills played until none is left, each chosen at random (the first may go round in a circle)."""
    chance = random.Random(7)
    while fills := [m for m in position.legal_moves() if isinstance(m, Fill)]:
        position = position.apply(chance.choice(fills))
    return position


@pytest.mark.parametrize(("preset", "seed"), [("gaps", 3), ("gaps-danish", 13), ("gaps", 8)])
def test_a_gaps_hint_marks_what_the_player_taps_to_make_it(preset, seed):
    """A hint marked the card and its gap; a card that fits one gap goes at its first tap, so the
    gap was tapped next and filled with a card no hint named (two moves for one hint)."""
    from app.web.views.boards import _card_pos, marks
    seen = {"one tap": 0, "two taps": 0}
    for position in positions(preset, seed, 60):
        for move in (m for m in position.legal_moves() if isinstance(m, Fill)):
            marked = marks(move, position)
            card_pos = _card_pos(position, move)
            assert marked["cards"] == move.card.code
            if not marked["pos"]:
                seen["one tap"] += 1
                assert gaps_tap(position, None, card_pos).move == move
            else:
                seen["two taps"] += 1
                first = gaps_tap(position, None, card_pos)
                assert first.move is None and first.selected == move.card.code
                assert gaps_tap(position, first.selected, marked["pos"]).move == move
    # (with the Danish rule each 2 has its row: a card with two gaps is one in place)
    assert seen["one tap"] and (seen["two taps"] or preset == "gaps-danish"), seen
