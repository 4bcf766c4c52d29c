"""What a tap means is the variant's (``Variant.tap``, app/engine/taps.py): each variant taps
as its family does, and a place the board does not have is the engine's error."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from app.engine import GAMES, PRESETS, GameRecord, InvalidMoveError, deal_for_seed, get_game
from app.engine.gaps import COLUMNS, ROWS, Fill, GapsPosition
from app.engine.pyramid import DRAW, RESERVE, STOCK, WASTE, Remove, location_text, parse_location
from app.engine.taps import NOTES, STOCK_PLACE, Tap, gaps_tap, places, pyramid_tap, stuck

from .strategies import CONFIGS, new_record, seeds


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_variant_taps_as_its_family(name):
    variant = GAMES[name]
    position = GameRecord.new(name, variant.parse_rules(), deal_for_seed(name, 7)).position
    family_tap = gaps_tap if variant.family == "gaps" else pyramid_tap
    target = "0.1" if variant.family == "gaps" else "S" if variant.name != "giza" else "G0"
    assert isinstance(variant.tap(position, None, target), Tap)
    assert variant.tap(position, None, target) == family_tap(position, None, target)
    with pytest.raises(InvalidMoveError):
        variant.tap(position, None, "nowhere")


def _stock_cards(name: str, seed: int):
    """The positions met drawing through a deal's stock, each with what its stock's card can do."""
    variant = GAMES[name]
    position = GameRecord.new(name, variant.parse_rules(), deal_for_seed(name, seed)).position
    while position.stock:
        yield position, [m for m in position.legal_moves() if "S" in places(m)]
        position = position.apply(DRAW)


@pytest.mark.parametrize("name", ["pyramid", "double-pyramid"])
def test_a_tap_on_the_stock_card_that_makes_no_pair_draws(name):
    """A player taps a stock to turn a card: the stock's top card lies face up, and when it can't
    be played a tap on it draws, as the draw button does, whatever was selected."""
    met = {"draws": 0, "selects": 0}
    for position, moves in _stock_cards(name, 7):
        tap = pyramid_tap(position, None, "S")
        if not moves:
            assert tap == Tap(move=DRAW)
            assert pyramid_tap(position, "P27", "S").move == DRAW  # a free card selected: the same
            met["draws"] += 1
        elif any(places(m) == ("S",) for m in moves):  # a king goes alone
            assert places(tap.move) == ("S",)
        else:  # it pairs: selected, as any card with partners
            assert tap == Tap(selected="S")
            met["selects"] += 1
    assert all(met.values()), met


def test_only_the_stock_card_draws():
    """The waste's card and a covered card of the pyramid, which can't be played, are refused: a
    tap on them draws nothing."""
    refused = 0
    for position, _ in _stock_cards("pyramid", 7):
        assert pyramid_tap(position, None, "P0") == Tap(note="covered")
        if position.card_at("W") is not None and not any("W" in places(m) for m in position.legal_moves()):
            assert pyramid_tap(position, None, "W") == Tap(note="no_partner")
            refused += 1
    assert refused


# --- properties: every game and preset, positions reached by random legal moves ------------------
#
# The tap is the board's whole interface (the draw, recycle and redeal buttons aside): each answer
# it gives must be a legal move, every removal or fill must be two taps away at most, and each rule
# the module's docstrings state holds in any position met in play, with any selection the page may
# hold (one a tap gave, a stale one, or text the page did not write).

TAP_CONFIGS = [*CONFIGS, *((preset.game, preset.options) for preset in PRESETS.values())]
configs = st.sampled_from(TAP_CONFIGS)
JUNK = "nowhere"  # a selection no board has: a tap must not trip over it
TAP_SETTINGS = settings(max_examples=50, deadline=None)


def _pairs(position):
    return [m for m in tapped_moves(position) if isinstance(m, Remove) and len(m.locs) == 2]


def _strangers(position) -> bool:
    """Two playable cards that make no pair (a tap from one to the other says "no_pair")."""
    mine = {p for m in _pairs(position) for p in places(m)}
    return any({a, b} != set(places(m)) for a in mine for b in mine if a < b for m in _pairs(position))


def _in_place_movable(position) -> bool:
    prefixes = position.correct_prefix_lengths()
    return any(position.moves_of_card(position.grid[r * COLUMNS]) for r in range(ROWS) if prefixes[r])


# What a walk may be steered towards: it stops at the last position along it that has the feature
# (rare ones in a random game: a Gaps card in its row's run that may still move, a covered card
# that pairs under "overlap"), so that each rule is met often, not once in a while.
FEATURES = {
    "pyramid": {
        "a pair": lambda p: bool(_pairs(p)),
        "two playable cards that make no pair": _strangers,
        "a pair with a covered card (overlap)": lambda p: any(
            loc < STOCK and not p.is_available(loc) for m in _pairs(p) for loc in m.locs),
        "a king": lambda p: any(len(m.locs) == 1 for m in tapped_moves(p)),
        "a stock card that cannot be played": lambda p: bool(p.stock) and not in_moves(p, STOCK_PLACE),
    },
    "gaps": {
        "a gap that takes several cards": lambda p: any(len(p.moves_into(r, 0)) > 1 for r, c in p.gap_positions()
                                                        if c == 0),
        "a card that fits several gaps": lambda p: len({m.card for m in tapped_moves(p)}) < len(tapped_moves(p)),
        "a card in its row's run that may still move": _in_place_movable,
    },
}


@st.composite
def walks(draw, games=None):
    """A game (a config of strategies.CONFIGS, or a preset's), a deal's seed, and a random walk:
    how many moves at most, the seed that picks them, and what to stop at, if anything."""
    config = draw(st.sampled_from([c for c in TAP_CONFIGS if games is None or c[0] in games]))
    family = get_game(config[0]).family
    feature = draw(st.sampled_from([None, *FEATURES[family]]))
    return config, draw(seeds), draw(st.integers(0, 150)), draw(st.integers(0, 2**32 - 1)), feature


def reached(walk):
    """The variant and the position a walk reaches: up to ``depth`` random legal moves (draws,
    recycles and redeals included) from the deal, stopping at the last position along the way
    that has the walk's feature, if any does."""
    config, seed, depth, chance_seed, feature = walk
    record = new_record(config, seed)
    variant, position, played = record.variant, record.position, []
    wanted = FEATURES[variant.family][feature] if feature else None
    chance = random.Random(chance_seed)
    stop = (position, 0)
    for _ in range(depth):
        legal = position.legal_moves()
        if not legal:
            break
        move = chance.choice(legal)
        position = position.apply(move)
        played.append(str(move))
        if wanted is not None and wanted(position):
            stop = (position, len(played))
    if wanted is not None and (wanted(stop[0]) or not wanted(position)):
        position, played = stop[0], played[: stop[1]]
    note(f"moves: {' '.join(played)}")
    return variant, position


def board_places(position) -> list[str]:
    """Every place of the board, as the board names it (the page taps only these)."""
    if isinstance(position, GapsPosition):
        return [f"{r}.{c}" for r in range(ROWS) for c in range(COLUMNS)]
    table = position.table
    beside = [RESERVE + k for k in range(table.reserve_piles)] if table.reserve_piles else [STOCK, WASTE]
    return [location_text(loc) for loc in [*range(table.size), *beside]]


def tapped_moves(position) -> list:
    """The moves a tap should reach: removals and fills (drawing, recycling and redealing have
    their buttons)."""
    return [m for m in position.legal_moves() if isinstance(m, (Remove, Fill))]


def in_moves(position, place: str) -> bool:
    """Whether the card (or gap) at ``place`` takes part in a legal removal or fill."""
    if isinstance(position, GapsPosition):
        r, c = (int(part) for part in place.split("."))
        here = position.grid[r * COLUMNS + c]
        return any(m.card == here if here is not None else (m.row, m.col) == (r, c) for m in tapped_moves(position))
    return any(place in places(m) for m in tapped_moves(position))


def gaps_cell(position, place: str):
    r, c = (int(part) for part in place.split("."))
    return position.grid[r * COLUMNS + c]


def check_answer(position, selected, place, tap: Tap) -> None:
    """What holds of any tap: a Tap; a move (legal, and it applies) or a selection, never both; a
    note from the documented ones, and the two cards exactly when it is "no_pair"."""
    assert isinstance(tap, Tap)
    if tap.move is not None:
        assert tap.move in position.legal_moves(), (selected, place, tap)
        position.apply(tap.move)  # raises IllegalMoveError if the rules do not allow it
        assert tap.selected is None and tap.note is None and tap.cards == (), (selected, place, tap)
    assert tap.note is None or tap.note in (*NOTES, "no_pair"), (selected, place, tap)
    assert (tap.note == "no_pair") == bool(tap.cards), (selected, place, tap)
    if tap.selected is not None:  # a selection is a place of the board, or (Gaps) a card's code
        assert tap.selected in board_places(position) or (
            isinstance(position, GapsPosition) and any(c is not None and c.code == tap.selected for c in position.grid)
        ), (selected, place, tap)


@TAP_SETTINGS
@given(walk=walks())
def test_every_tap_answers_a_legal_move_or_a_selection(walk):
    """Each place tapped with each selection the page may hold (none, any place, text no board
    has) answers a legal move that applies, or a selection, with a documented note."""
    variant, position = reached(walk)
    board = board_places(position)
    for selected in [None, JUNK, *board]:
        for place in board:
            check_answer(position, selected, place, variant.tap(position, selected, place))


@TAP_SETTINGS
@given(walk=walks())
def test_every_removal_and_fill_is_at_most_two_taps_away(walk):
    """The tap interface is complete: each legal removal or fill is played by one tap, or by a
    tap that selects and a second tap from that selection; nothing else is reached."""
    variant, position = reached(walk)
    board = board_places(position)
    reach: dict = {}
    for first in board:
        tap = variant.tap(position, None, first)
        if tap.move is not None:
            reach.setdefault(tap.move, (first,))
        elif tap.selected is not None:
            for second in board:
                then = variant.tap(position, tap.selected, second)
                if then.move is not None:
                    reach.setdefault(then.move, (first, second))
    missing = [str(m) for m in tapped_moves(position) if m not in reach]
    assert not missing, f"no tap sequence plays {missing}"
    legal = position.legal_moves()
    assert all(move in legal for move in reach), {str(m): taps for m, taps in reach.items() if m not in legal}


@TAP_SETTINGS
@given(walk=walks())
def test_a_tap_on_what_cannot_be_played_plays_nothing(walk):
    """A card or gap in no legal removal or fill answers no move (the Pyramid stock's card draws
    instead, while the stock has cards), says why with a documented note, and a Pyramid card
    leaves a playable selection as it was."""
    variant, position = reached(walk)
    board = board_places(position)
    selectable = [p for p in board if in_moves(position, p)]
    for place in (p for p in board if not in_moves(position, p)):
        tap = variant.tap(position, None, place)
        if isinstance(position, GapsPosition):
            plain = "not_playable" if gaps_cell(position, place) else "dead_gap"
            assert tap == Tap(note="stuck" if stuck(position) else plain), (place, tap)
        elif place == STOCK_PLACE and DRAW in position.legal_moves():
            assert tap == Tap(move=DRAW), tap
        else:
            index = parse_location(place, position.table)
            covered = index < STOCK and position.card_at(index) is not None and not position.is_available(index)
            assert tap == Tap(note="covered" if covered else "no_partner"), (place, tap)
        for selected in [JUNK, *board]:
            again = variant.tap(position, selected, place)
            assert again.note in (*NOTES, None) and not again.cards, (selected, place, again)
            if selected == place:  # the selected card again deselects (a dead gap stays dead)
                dead = isinstance(position, GapsPosition) and gaps_cell(position, place) is None
                assert again == Tap(note="dead_gap" if dead else None), (selected, place, again)
                continue
            if tap.move is not None:  # the stock draws whatever else was selected
                assert again == tap, (selected, place, again)
                continue
            assert again.move is None, (selected, place, again)
            if not isinstance(position, GapsPosition):  # the next tap may still pair the selection
                assert again == Tap(selected=selected if selected in selectable else None, note=tap.note), (selected,
                                                                                                             again)


@TAP_SETTINGS
@given(walk=walks(games=("pyramid", "giza", "double-pyramid")))
def test_pyramid_taps_follow_their_rules(walk):
    """``pyramid_tap``'s rules: a king is removed at once; a card with partners is selected, and a
    tap on a partner then removes the pair; the selected card again deselects; a playable card
    that makes no pair with the selection becomes the selection, with "no_pair" and the two cards
    (selected first)."""
    variant, position = reached(walk)
    board = board_places(position)
    removals = tapped_moves(position)
    for place in board:
        assert variant.tap(position, place, place) == Tap()  # the selected card again deselects
        mine = [m for m in removals if place in places(m)]
        king = Remove((parse_location(place, position.table),))
        if king in mine:
            for selected in [None, JUNK, *(p for p in board if p != place)]:
                assert variant.tap(position, selected, place) == Tap(move=king), (selected, place)
            continue
        if not mine:
            continue
        assert variant.tap(position, None, place) == Tap(selected=place)
        partners = {p for m in mine for p in places(m) if p != place}
        for other in board:
            if other == place or not in_moves(position, other):
                continue
            tap = variant.tap(position, other, place)
            if other in partners:
                pair = Remove(tuple(sorted(parse_location(p, position.table) for p in (place, other))))
                assert tap == Tap(move=pair), (other, place, tap)
            else:  # the player meant a pair: "no_pair", and the card tapped becomes the selection
                cards = (position.card_at(other), position.card_at(place))
                assert tap == Tap(selected=place, note="no_pair", cards=cards), (other, place, tap)
    for move in removals:  # the places a removal names are the board's, in the move's order
        assert [parse_location(p, position.table) for p in places(move)] == list(move.locs)
    assert all(places(m) == () for m in position.legal_moves() if not isinstance(m, Remove))


@TAP_SETTINGS
@given(walk=walks(games=("gaps",)))
def test_gaps_taps_follow_their_rules(walk):
    """``gaps_tap``'s rules: a card that fits one gap is moved there and a gap that takes one card
    is filled; a card that fits several, or a gap that takes several, is selected and the second
    tap picks; a card in its row's correct run is only selected, with "in_place" (one tap never
    takes a finished part of a row apart), and the gap tapped next moves it; a selected card is
    the same selection named by its code or its place."""
    variant, position = reached(walk)
    board = board_places(position)
    prefixes = position.correct_prefix_lengths()
    for place in board:
        r, c = (int(part) for part in place.split("."))
        here = gaps_cell(position, place)
        tap = variant.tap(position, None, place)
        if here is None:
            fills = position.moves_into(r, c)
            if len(fills) == 1:
                assert tap == Tap(move=fills[0]), (place, tap)
            elif fills:
                assert tap == Tap(selected=place), (place, tap)
                for fill in fills:  # the second tap, on the card, picks
                    at = position.grid.index(fill.card)
                    assert variant.tap(position, place, f"{at // COLUMNS}.{at % COLUMNS}") == Tap(move=fill)
            continue
        fills = position.moves_of_card(here)
        in_place = c < prefixes[r]
        if fills and in_place:
            assert tap == Tap(selected=here.code, note="in_place"), (place, tap)
        elif len(fills) == 1:
            assert tap == Tap(move=fills[0]), (place, tap)
        elif fills:
            assert tap == Tap(selected=here.code), (place, tap)
        if fills and (in_place or len(fills) > 1):
            for fill in fills:  # the gap tapped next moves it, the card named either way
                for selected in (here.code, place):
                    assert variant.tap(position, selected, f"{fill.row}.{fill.col}") == Tap(move=fill)
        # a card selected by its place is the card selected by its code, whatever is tapped next
        for other in board:
            assert variant.tap(position, place, other) == variant.tap(position, here.code, other), (place, other)
            if in_place:  # only the gap it goes to takes it out of its row's run
                moved = variant.tap(position, other, place).move
                assert moved is None or f"{moved.row}.{moved.col}" == other, (other, place, moved)


@given(config=configs, place=st.sampled_from(["Q0", "Q27", "P28", "S", "W", "G0", "G8", "0.0", "3.12", "4.0",
                                              "0.13", "1.x", "P0", "", "X1"]))
@settings(max_examples=60, deadline=None)
def test_a_place_the_board_does_not_have_is_the_engines_error(config, place):
    """``Variant.tap`` raises ``InvalidMoveError`` for a place that is not on its board, and
    answers for each place that is."""
    position = new_record(config, 0).position
    variant = get_game(config[0])
    if place in board_places(position):
        assert isinstance(variant.tap(position, None, place), Tap)
    else:
        with pytest.raises(InvalidMoveError):
            variant.tap(position, None, place)


def test_a_place_written_loosely_is_the_place():
    """"p21" or " P21" is P21, as the notation reads it: the same answer, never a refusal."""
    position = GameRecord.new("pyramid", PRESETS["pyramid"].rules, deal_for_seed("pyramid", 1)).position
    for place in ("P21", "p21", " P21", "P21 "):
        assert pyramid_tap(position, None, place) == pyramid_tap(position, None, "P21"), place
    assert pyramid_tap(position, None, "P21").move is not None
