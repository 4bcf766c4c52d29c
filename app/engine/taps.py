"""What a tap on the board means: a move to play, or a new selection, decided from the
position's legal moves only.

Each variant points at its family's tap (``Variant.tap``: ``pyramid_tap``, ``gaps_tap``), so
nothing outside the engine asks which game it holds. The selection lives in the page (a
hidden field, or the flash after a plain form post), never in the database. The board's view
models (app/web/views/boards.py) carry the same answers for each place, so the page can show them
before the server answers (tests/web/views/test_boards.py holds them to these).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .errors import InvalidMoveError
from .gaps import COLUMNS, REDEAL, ROWS, Fill, GapsMove
from .pyramid import DRAW, STOCK, PyramidMove, Remove, location_text, parse_location

# What a tap that plays nothing says, as a message key the page words: a pyramid card still
# covered by a card below it, a free pyramid card that no free card makes 13 with now, a Gaps
# card that cannot be played now (no gap after its predecessor), a gap no card can fill, a Gaps
# card already in place (it may still be moved). "no_pair" (two cards that make no pair) is said
# with the two cards (``Tap.cards``); in a Gaps round where no card can move, any card or gap
# tapped says to redeal ("stuck").
NOTES = ("covered", "no_partner", "not_playable", "dead_gap", "in_place", "stuck")


@dataclass(frozen=True)
class Tap:
    """The outcome of a tap: a move to play, or a new selection (None = nothing selected)."""

    move: PyramidMove | GapsMove | None = None
    selected: str | None = None
    note: str | None = None  # a message key when the tap did nothing useful
    cards: tuple[Card, ...] = ()  # "no_pair": the selected card and the tapped one, in that order


def places(move: PyramidMove | GapsMove) -> tuple[str, ...]:
    """The places a Pyramid removal takes its cards from, as the board names them (P12, S, G3)."""
    return tuple(location_text(loc) for loc in move.locs) if isinstance(move, Remove) else ()


STOCK_PLACE = location_text(STOCK)  # "S": the stock's top card, as the board names it


def pyramid_tap(position, selected: str | None, loc: str) -> Tap:
    """A card that goes alone (a king) is removed at once; a card with partners is selected,
    and tapping one of its partners then removes the pair; the selected card again deselects.
    The stock's top card lies face up, but a player taps a stock to turn a card: a tap on it
    when it can't be played draws (the draw button's move)."""
    # a place as the board names it ("p21 " is P21): InvalidMoveError for no place of this game
    loc = location_text(parse_location(loc, position.table))
    if selected is not None and _selectable(position, selected):
        selected = location_text(parse_location(selected, position.table))
    moves = [m for m in position.legal_moves() if loc in places(m)]
    if selected == loc:
        return Tap(selected=None)
    if selected:
        pair = [m for m in moves if set(places(m)) == {selected, loc}]
        if pair:
            return Tap(move=pair[0])
    alone = [m for m in moves if places(m) == (loc,)]
    if alone:
        return Tap(move=alone[0])
    if moves:
        if selected and _selectable(position, selected):
            # the player meant a pair: say why it is none, and take the new card as the selection
            return Tap(selected=loc, note="no_pair", cards=(position.card_at(selected), position.card_at(loc)))
        return Tap(selected=loc)
    if loc == STOCK_PLACE and position.is_legal(DRAW):
        return Tap(move=DRAW)
    # a card that can't be played leaves the selection as it was: the next tap may still pair it;
    # a pyramid card says so when a card below it still lies on it (a newcomer's first question)
    index = parse_location(loc, position.table)
    covered = index < STOCK and not position.is_removed(index) and not position.is_available(index)
    return Tap(selected=selected if selected and _selectable(position, selected) else None,
               note="covered" if covered else "no_partner")


def _selectable(position, loc: str) -> bool:
    try:
        position.card_at(loc)
    except InvalidMoveError:
        return False
    return any(loc in places(m) for m in position.legal_moves())


def parse_pos(text: str) -> tuple[int, int] | None:
    """A Gaps place as the board names it: "row.column", both from 0."""
    try:
        r, c = (int(part) for part in text.split("."))
    except ValueError:
        return None
    return (r, c) if 0 <= r < ROWS and 0 <= c < COLUMNS else None


def pos_text(fill: Fill) -> str:
    return f"{fill.row}.{fill.col}"


def gaps_tap(position, selected: str | None, pos: str) -> Tap:
    """Tap a card that fits one gap to move it there; a card that fits several (a 2), or a gap
    that takes several cards, is selected first, and the second tap picks. A card already in
    its row's correct run (a 2 in column 0 with what follows it) is only selected, with a word:
    one tap never takes a finished part of a row apart; the gap tapped next moves it. The
    selection is a card (its code, or its place) or a gap (its place)."""
    where = parse_pos(pos)
    if where is None:
        raise InvalidMoveError(f"{pos[:8]!r} is not a position: use row.column, e.g. 2.5")
    r, c = where
    card = position.grid[r * COLUMNS + c]
    # a selected card may be named by its place, as the page's script names it
    held = parse_pos(selected) if selected else None
    if held is not None and position.grid[held[0] * COLUMNS + held[1]] is not None:
        selected = position.grid[held[0] * COLUMNS + held[1]].code
    if card is None:
        fills = position.moves_into(r, c)
        chosen = [f for f in fills if f.card.code == selected]
        if chosen:
            return Tap(move=chosen[0])
        if len(fills) == 1:
            return Tap(move=fills[0])
        if fills:
            return Tap(selected=pos)
        return Tap(note="stuck" if stuck(position) else "dead_gap")
    fills = position.moves_of_card(card)
    if selected == card.code:
        return Tap(selected=None)
    chosen = [f for f in fills if pos_text(f) == selected]
    if chosen:
        return Tap(move=chosen[0])
    if fills and c < position.correct_prefix_lengths()[r]:
        return Tap(selected=card.code, note="in_place")
    if len(fills) == 1:
        return Tap(move=fills[0])
    if fills:
        return Tap(selected=card.code)
    return Tap(note="stuck" if stuck(position) else "not_playable")


def stuck(position) -> bool:
    """A Gaps round where no card can move and a redeal is left: what is tapped says to redeal."""
    return position.is_legal(REDEAL) and not any(isinstance(m, Fill) for m in position.legal_moves())
