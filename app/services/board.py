"""What a tap means and what the board shows, decided from the engine's legal moves.

The templates and the JavaScript know no rules: they draw the slots this module
describes (which card is playable, selected, a partner of the selection) and post
taps back. A tap either plays a move or changes the selection; the selection lives
in the page (a hidden field or the URL), never in the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from app.engine import Card, InvalidMoveError
from app.engine.pyramid import Draw, Recycle, location_text

PYRAMID_SIZE = 28
GAPS_COLUMNS = 13


@dataclass(frozen=True)
class Tap:
    """The outcome of a tap: a move to play, or a new selection (None = nothing selected)."""

    move: object | None = None
    selected: str | None = None
    note: str | None = None  # a message key when the tap did nothing useful


def _locations(move) -> tuple[str, ...]:
    """The places a Pyramid removal takes cards from, as text (none for other moves)."""
    locs = getattr(move, "locs", None)
    return _location_texts(locs) if locs is not None else ()


@lru_cache(maxsize=4096)  # a board reads every legal move's places, two or three times a tap
def _location_texts(locs: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(location_text(loc) for loc in locs)


# ---------------------------------------------------------------- Pyramid family

def pyramid_tap(position, selected: str | None, loc: str) -> Tap:
    position.card_at(loc)  # raises InvalidMoveError for text that is no location of this game
    moves = [m for m in position.legal_moves() if loc in _locations(m)]
    if selected == loc:
        return Tap(selected=None)
    if selected:
        pair = [m for m in moves if set(_locations(m)) == {selected, loc}]
        if pair:
            return Tap(move=pair[0])
    alone = [m for m in moves if _locations(m) == (loc,)]
    if alone:
        return Tap(move=alone[0])
    if moves:
        return Tap(selected=loc)
    return Tap(selected=None, note="not_playable")


class Slot(NamedTuple):
    """One place of a Pyramid-family board as drawn. A named tuple, not a dataclass: a board
    builds dozens per move and the page looks each row of them up in its cache of drawn rows,
    and a tuple is built, hashed and compared in C."""

    loc: str
    card: Card | None
    playable: bool = False
    selected: bool = False
    partner: bool = False


@dataclass(frozen=True)
class PyramidBoard:
    pyramids: tuple[tuple[tuple[Slot, ...], ...], ...]  # pyramid → row → slots (None card = removed)
    stock: Slot | None
    waste: Slot | None
    reserves: tuple[tuple[tuple[Card, ...], Slot | None], ...]  # Giza: lower cards, then the top as a slot
    stock_count: int
    waste_count: int
    can_draw: bool
    can_recycle: bool
    passes_left: int | None
    pass_number: int
    cards_left: int
    selected: str | None
    family: str = "pyramid"

    @property
    def cleared(self) -> bool:
        """No card left in any pyramid."""
        return self.cards_left == 0


# (layout index, location) of each row of a first ("P") and second ("Q") pyramid
_PYRAMID_ROWS = tuple(
    tuple(tuple((base + r * (r + 1) // 2 + c, f"{letter}{r * (r + 1) // 2 + c}") for c in range(r + 1))
          for r in range(7))
    for base, letter in ((0, "P"), (PYRAMID_SIZE, "Q"))
)
_new_slot = tuple.__new__  # Slot(...) through the tuple's own constructor: a board builds dozens


def pyramid_board(position, selected: str | None) -> PyramidBoard:
    legal = position.legal_moves()
    places = [_locations(m) for m in legal]
    playable = {loc for locs in places for loc in locs}
    if selected not in playable:
        selected = None
    partners = {loc for locs in places if selected in locs for loc in locs if loc != selected}

    def slot(loc: str, card: Card | None) -> Slot:
        return _new_slot(Slot, (loc, card, loc in playable, loc == selected, loc in partners))

    layout, removed = position.layout, position.removed  # removed: a bit per layout index
    pyramids = tuple(
        tuple(  # a row is hashable: the page draws (and caches) it as a whole
            tuple([slot(loc, None if removed >> i & 1 else layout[i]) for i, loc in row])
            for row in rows)
        for rows in _PYRAMID_ROWS[:len(layout) // PYRAMID_SIZE]
    )
    reserves = tuple(
        (tuple(pile[:-1]), slot(f"G{k}", pile[-1]) if pile else None)
        for k, pile in enumerate(position.reserves)
    )
    return PyramidBoard(
        pyramids=pyramids,
        stock=slot("S", position.stock[0]) if position.stock else None,
        waste=slot("W", position.waste[0]) if position.waste else None,
        reserves=reserves,
        stock_count=len(position.stock),
        waste_count=len(position.waste),
        can_draw=bool(legal) and isinstance(legal[-1], Draw),  # a draw or recycle comes last
        can_recycle=bool(legal) and isinstance(legal[-1], Recycle),
        passes_left=position.passes_left,
        pass_number=position.pass_number,
        cards_left=len(position.layout) - position.simple_score,
        selected=selected,
    )


# ---------------------------------------------------------------- Gaps

def parse_pos(text: str) -> tuple[int, int] | None:
    try:
        r, c = (int(part) for part in text.split("."))
    except ValueError:
        return None
    return (r, c) if 0 <= r < 4 and 0 <= c < GAPS_COLUMNS else None


def gaps_tap(position, selected: str | None, pos: str) -> Tap:
    """Tap a card that fits a gap to move it there; tap a gap to fill it or choose among cards."""
    where = parse_pos(pos)
    if where is None:
        raise InvalidMoveError(f"{pos[:8]!r} is not a position: use row.column, e.g. 2.5")
    r, c = where
    card = position.grid[r * GAPS_COLUMNS + c]
    if card is None:
        fills = position.moves_into(r, c)
        chosen = [f for f in fills if f.card.code == selected]
        if chosen:
            return Tap(move=chosen[0])
        if len(fills) == 1:
            return Tap(move=fills[0])
        if fills:
            return Tap(selected=pos)
        return Tap(note="dead_gap")
    fills = position.moves_of_card(card)
    if selected == card.code:
        return Tap(selected=None)
    chosen = [f for f in fills if f"{f.row}.{f.col}" == selected]
    if chosen:
        return Tap(move=chosen[0])
    if len(fills) == 1:
        return Tap(move=fills[0])
    if fills:
        return Tap(selected=card.code)
    return Tap(note="not_playable")


class Cell(NamedTuple):
    """One cell of a Gaps board as drawn (a named tuple for the reason given at ``Slot``)."""

    pos: str
    card: Card | None
    playable: bool = False
    selected: bool = False
    partner: bool = False
    dead: bool = False
    in_place: bool = False
    after: Card | None = None  # the card left of a gap, for its accessible name


@dataclass(frozen=True)
class GapsBoard:
    rows: tuple[tuple[Cell, ...], ...]  # hashable: the page draws (and caches) a row as a whole
    starters: tuple[str, ...]
    round: int
    rounds_left: int | None
    can_redeal: bool
    early_redeal: bool  # a redeal now would skip possible fills: ask first
    in_place: int
    selected: str | None
    family: str = "gaps"
    redeal_suits: list[str] = field(default_factory=list)


def gaps_board(position, selected: str | None) -> GapsBoard:
    legal = position.legal_moves()
    fills = [m for m in legal if str(m) != "N"]
    playable_cards = {f.card.code for f in fills}
    playable_gaps = {f"{f.row}.{f.col}" for f in fills}
    if selected not in playable_cards | playable_gaps:
        selected = None
    partners: set[str] = set()
    for f in fills:
        if selected == f.card.code:
            partners.add(f"{f.row}.{f.col}")
        elif selected == f"{f.row}.{f.col}":
            partners.add(f.card.code)
    prefixes = position.correct_prefix_lengths()
    rows = []
    for r in range(4):
        row = []
        for c in range(GAPS_COLUMNS):
            card = position.grid[r * GAPS_COLUMNS + c]
            pos = f"{r}.{c}"
            if card is None:
                row.append(Cell(
                    pos, None, pos in playable_gaps, pos == selected, pos in partners,
                    dead=position.is_dead_gap(r, c),
                    after=position.grid[r * GAPS_COLUMNS + c - 1] if c else None,
                ))
            else:
                row.append(Cell(
                    pos, card, card.code in playable_cards, card.code == selected,
                    card.code in partners, in_place=c < prefixes[r],
                ))
        rows.append(tuple(row))
    can_redeal = any(str(m) == "N" for m in legal)
    return GapsBoard(
        rows=tuple(rows),
        starters=tuple(position.starters),
        round=position.round,
        rounds_left=position.rounds_left,
        can_redeal=can_redeal,
        early_redeal=can_redeal and bool(fills),
        in_place=sum(prefixes),
        selected=selected,
    )


# ---------------------------------------------------------------- both

def board_for(position, selected: str | None):
    if hasattr(position, "grid"):
        return gaps_board(position, selected)
    return pyramid_board(position, selected)


def tap(position, selected: str | None, target: str) -> Tap:
    if hasattr(position, "grid"):
        return gaps_tap(position, selected, target)
    return pyramid_tap(position, selected, target)


def end_reason(position) -> str | None:
    """A message key saying why the game ended (None while playing); the engine decides."""
    return position.end_reason


@dataclass(frozen=True)
class Announcement:
    """What just happened, for the aria-live region (the template words it)."""

    kind: str                      # remove, draw, recycle, fill, redeal, undo
    cards: tuple[Card, ...] = ()
    row: int | None = None
    col: int | None = None
    round: int | None = None
    move: str = ""


def describe(move, before, after) -> Announcement:
    text = str(move)
    if text == "D":
        return Announcement("draw", cards=(after.waste[0],), move=text)
    if text == "R":
        return Announcement("recycle", move=text)
    if text == "N":
        return Announcement("redeal", round=after.round, move=text)
    if hasattr(move, "row"):
        return Announcement("fill", cards=(move.card,), row=move.row, col=move.col, move=text)
    cards = tuple(c for c in (before.card_at(loc) for loc in _locations(move)) if c is not None)
    return Announcement("remove", cards=cards, move=text)
