"""What the board shows: view models of a position for the templates, and words for a move.

The templates and the JavaScript know no rules: they draw the places these models describe
(which card is playable, selected, a partner of the selection) and post taps back
(app.services.taps says what a tap means). One builder per layout family, found through
``BOARDS`` by the variant's ``family``; each family's module-level helpers know that family's
move types, so nothing here asks which family a position is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, cast

from app.engine import Card, GameRecord, Move, Position
from app.engine.gaps import COLUMNS, ROWS, Fill, GapsPosition, Redeal
from app.engine.pyramid import PYRAMID_SIZE, Draw, PyramidPosition, Recycle

from .taps import places, pos_text


class Slot(NamedTuple):
    """One place of a Pyramid-family board. Hashable: the page keeps each drawn card and row
    (app.web.boardcache)."""

    loc: str
    card: Card | None
    playable: bool = False
    selected: bool = False
    partner: bool = False
    covered: bool = False  # both cards below it still lie on it: only its top strip shows


@dataclass(frozen=True)
class PyramidBoard:
    pyramids: tuple[tuple[tuple[Slot, ...], ...], ...]  # pyramid → row → slots (None card = removed)
    stock: Slot | None
    waste: Slot | None
    reserves: tuple[tuple[tuple[Card, ...], Slot | None], ...]  # Giza: lower cards, then the top
    stock_count: int
    waste_count: int
    can_draw: bool
    can_recycle: bool
    passes_left: int | None
    pass_number: int
    cards_left: int
    selected: str | None
    family: str = "pyramid"
    gone: tuple[Card, ...] = ()  # the pyramids' removed cards: the pile a won game's cascade throws


    @property
    def cleared(self) -> bool:
        """No card left in any pyramid (``cards_left`` also counts the stock where all must go)."""
        return all(s.card is None for pyramid in self.pyramids for row in pyramid for s in row)

    @property
    def single_pass(self) -> bool:
        """One pass through the stock and no turnover: no pass to count."""
        return self.pass_number == 1 and self.passes_left == 0

    @property
    def has_stock(self) -> bool:
        """A stock to draw from (Giza deals its cards to reserves instead)."""
        return not self.reserves


# (layout index, location) of each row of a first ("P") and second ("Q") pyramid
_PYRAMID_ROWS = tuple(
    tuple(tuple((base + r * (r + 1) // 2 + c, f"{letter}{r * (r + 1) // 2 + c}") for c in range(r + 1))
          for r in range(7))
    for base, letter in ((0, "P"), (PYRAMID_SIZE, "Q"))
)


def pyramid_board(position, selected: str | None) -> PyramidBoard:
    legal = position.legal_moves()
    taken = [places(m) for m in legal]
    playable = {loc for locs in taken for loc in locs}
    if selected not in playable:
        selected = None
    partners = {loc for locs in taken if selected in locs for loc in locs if loc != selected}

    def slot(loc: str, card: Card | None, covered: bool = False) -> Slot:
        return Slot(loc, card, loc in playable, loc == selected, loc in partners, covered)

    def covered(rows, r: int, c: int) -> bool:
        below = rows[r + 1] if r + 1 < len(rows) else ()
        return bool(below) and all(position.card_at(i) is not None for i, _ in below[c:c + 2])

    layout = position.layout
    pyramids = tuple(
        tuple(tuple(slot(loc, position.card_at(i), covered(rows, r, c)) for c, (i, loc) in enumerate(row))
              for r, row in enumerate(rows))
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
        can_draw=any(isinstance(m, Draw) for m in legal),
        can_recycle=any(isinstance(m, Recycle) for m in legal),
        passes_left=position.passes_left,
        pass_number=position.pass_number,
        cards_left=position.cards_left,
        selected=selected,
        gone=tuple(card for i, card in enumerate(layout) if position.card_at(i) is None),
    )


class Cell(NamedTuple):
    """One cell of a Gaps board (hashable, as ``Slot``)."""

    pos: str
    row: int
    col: int
    card: Card | None
    playable: bool = False
    selected: bool = False
    partner: bool = False
    dead: bool = False
    in_place: bool = False
    after: Card | None = None  # the card left of a gap, for its accessible name


@dataclass(frozen=True)
class GapsBoard:
    rows: tuple[tuple[Cell, ...], ...]
    starters: tuple[str, ...]
    round: int
    rounds_left: int | None
    can_redeal: bool
    early_redeal: bool  # a redeal now would skip possible fills: ask first
    in_place: int
    places: int         # cards a won game has in place
    selected: str | None
    family: str = "gaps"
    has_stock: bool = False  # every card is dealt to the grid


def gaps_board(position, selected: str | None) -> GapsBoard:
    legal = position.legal_moves()
    fills = [m for m in legal if isinstance(m, Fill)]
    playable_cards = {f.card.code for f in fills}
    playable_gaps = {pos_text(f) for f in fills}
    if selected not in playable_cards | playable_gaps:
        selected = None
    partners: set[str] = set()
    for f in fills:
        if selected == f.card.code:
            partners.add(pos_text(f))
        elif selected == pos_text(f):
            partners.add(f.card.code)
    prefixes = position.correct_prefix_lengths()
    rows = []
    for r in range(ROWS):
        row = []
        for c in range(COLUMNS):
            card = position.grid[r * COLUMNS + c]
            pos = f"{r}.{c}"
            if card is None:
                row.append(Cell(
                    pos, r, c, None, pos in playable_gaps, pos == selected, pos in partners,
                    dead=position.is_dead_gap(r, c),
                    after=position.grid[r * COLUMNS + c - 1] if c else None,
                ))
            else:
                row.append(Cell(
                    pos, r, c, card, card.code in playable_cards, card.code == selected,
                    card.code in partners, in_place=c < prefixes[r],
                ))
        rows.append(tuple(row))
    can_redeal = any(isinstance(m, Redeal) for m in legal)
    return GapsBoard(
        rows=tuple(rows),
        starters=tuple(position.starters),
        round=position.round,
        rounds_left=position.rounds_left,
        can_redeal=can_redeal,
        early_redeal=can_redeal and bool(fills),
        in_place=sum(prefixes),
        places=ROWS * (COLUMNS - 1),
        selected=selected,
    )


BOARDS: dict[str, Callable[[Position, str | None], PyramidBoard | GapsBoard]] = {
    "pyramid": pyramid_board,
    "gaps": gaps_board,
}


# ---------------------------------------------------------------- a move in words

@dataclass(frozen=True)
class Announcement:
    """What a move did, for the live region, the replay and hints (the templates word it)."""

    kind: str                      # remove, draw, recycle, fill, redeal, undo, autofinish; no_pair (a tap)
    cards: tuple[Card, ...] = ()
    row: int | None = None
    col: int | None = None
    round: int | None = None
    count: int = 0                 # autofinish: moves played
    undone: Announcement | None = None  # undo: the move taken back (its last, for a group)


def describe(move: Move, before: Position, after: Position) -> Announcement:
    """The announcement of ``move``, played from ``before`` to ``after``."""
    # a move is of its position's game: each cast only names that position's type for the checker
    if isinstance(move, Draw):
        return Announcement("draw", cards=(cast(PyramidPosition, after).waste[0],))
    if isinstance(move, Recycle):
        return Announcement("recycle")
    if isinstance(move, Redeal):
        return Announcement("redeal", round=cast(GapsPosition, after).round)
    if isinstance(move, Fill):
        return Announcement("fill", cards=(move.card,), row=move.row, col=move.col)
    cards = tuple(c for c in (cast(PyramidPosition, before).card_at(loc) for loc in move.locs) if c is not None)
    return Announcement("remove", cards=cards)


def hint_targets(move: Move) -> dict[str, str]:
    """What the page highlights for a hinted move: card places, a Gaps card and gap, or a
    button (its data-action)."""
    if isinstance(move, Draw):
        return {"action": "draw"}
    if isinstance(move, Recycle):
        return {"action": "recycle"}
    if isinstance(move, Redeal):
        return {"action": "redeal"}
    if isinstance(move, Fill):
        return {"cards": move.card.code, "pos": pos_text(move)}
    return {"locs": " ".join(places(move))}


def said_moves(record: GameRecord, start: int = 0) -> tuple[Announcement, ...]:
    """The record's moves from ply ``start`` to its cursor, each in words (``describe``)."""
    positions = record.positions()
    return tuple(describe(record.moves[k], positions[k], positions[k + 1]) for k in range(start, record.cursor))


def motion_steps(record: GameRecord, start: int) -> str:
    """The cards the moves from ply ``start`` to the cursor took, moved or drew, each with the
    step that did it ("KH:1 7S:2 6D:2"): the page plays a group of moves (auto-finish) one after
    another from this, without knowing the rules. A card touched twice keeps its last step."""
    steps: dict[str, int] = {}
    for step, said in enumerate(said_moves(record, start), 1):
        for card in said.cards:
            steps[card.code] = step
    return " ".join(f"{code}:{step}" for code, step in steps.items())
