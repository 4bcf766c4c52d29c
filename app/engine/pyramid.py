"""Pyramid, Giza and Double Pyramid: remove uncovered pairs that sum to 13, kings alone.

The layout is one or two pyramids of 28 cards, row by row from the apex. ``P{i}`` is
row ``r``, column ``c`` with ``i = r*(r+1)/2 + c``; it is covered by ``(r+1, c)`` and
``(r+1, c+1)``. Double Pyramid's right pyramid ``Q0``–``Q27`` is stored at 28–55.

Locations are small integers so that moves sort canonically by number: pyramid
indices 0–55 (P then Q), then ``S`` (stock top), ``W`` (waste top), ``G0``–``G7``
(Giza reserve tops).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TypeGuard

from .cards import Card
from .errors import IllegalMoveError, InvalidMoveError
from .outcome import Status, Termination
from .rules import PyramidRules

PYRAMID_SIZE = 28
ROWS = 7
STOCK = 100
WASTE = 101
RESERVE = 200
ROW_BONUS = (25, 50, 75, 100, 150, 250, 500)  # bottom row (6) first, apex (row 0) last
POINTS_PER_REMOVAL = 5  # the pairs scoring system (pair_points)
PAIR_TOTAL = 13  # two cards pair when their values add up to this; a king is this alone


def value(card: Card) -> int:
    """What a card counts in a pair: its rank, the ace 1, the jack 11, the queen 12, the king 13."""
    return card.rank


def pair_total(a: Card, b: Card) -> int:
    """What two cards add up to (they pair when it is ``PAIR_TOTAL``)."""
    return value(a) + value(b)


def row_indices(row: int) -> range:
    """The indices of a pyramid's row ``row`` (0 is the apex, 6 the bottom row), from the
    pyramid's first card: row r holds r + 1 cards, after the r(r + 1)/2 of the rows above it.
    Card c of row r is covered by cards c and c + 1 of row r + 1."""
    first = row * (row + 1) // 2
    return range(first, first + row + 1)


def _geometry(size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Per pyramid index: its covering children and their bit mask."""
    children: list[tuple[int, ...]] = []
    for base in range(0, size, PYRAMID_SIZE):
        for r in range(ROWS):
            for c in range(r + 1):
                if r + 1 < ROWS:
                    below = base + row_indices(r + 1)[c]
                    children.append((below, below + 1))
                else:
                    children.append(())
    masks = tuple(sum(1 << j for j in kids) for kids in children)
    return tuple(children), masks


CHILDREN, COVER_MASK = _geometry(2 * PYRAMID_SIZE)


def location_text(loc: int) -> str:
    if loc < PYRAMID_SIZE:
        return f"P{loc}"
    if loc < 2 * PYRAMID_SIZE:
        return f"Q{loc - PYRAMID_SIZE}"
    if loc == STOCK:
        return "S"
    if loc == WASTE:
        return "W"
    return f"G{loc - RESERVE}"


@dataclass(frozen=True, slots=True)
class PyramidTable:
    """How a game of the family lays its deal out, the data its rules read: ``pyramids`` of
    28 cards side by side (a second one's places are ``Q0``–``Q27``), then the stock, or in
    its place ``reserve_piles`` piles of three face-up cards (``G0``…: no stock, no waste).
    ``game`` is the game's name, for messages."""

    game: str
    pyramids: int = 1
    reserve_piles: int = 0

    @property
    def size(self) -> int:
        """Cards in the pyramid(s)."""
        return PYRAMID_SIZE * self.pyramids

    @property
    def has_stock(self) -> bool:
        """The cards beside the pyramids form a stock to draw from (else they lie in reserve piles)."""
        return not self.reserve_piles


def deal_key(table: PyramidTable, deal: Sequence[Card]) -> str:
    """The deal as play sees it (``Variant.deal_key``): two deals with the same key are one game.
    Play reads a card's rank only as the group {v, 13 − v} it pairs within (a king alone), so the
    groups are named in the order they first come, and the two ranks of each by which comes
    first; and a pyramid mirrored (each row read from its other end), or two pyramids swapped,
    is the same game with its places renamed. The key is the least over those, its reserve piles
    (Giza) in order of what they hold. A line found on a deal plays on any deal of its key, its
    places renamed."""
    size = table.size
    layouts = [tuple(deal[k * PYRAMID_SIZE:(k + 1) * PYRAMID_SIZE]) for k in range(table.pyramids)]
    rest = tuple(deal[size:])
    keys = []
    for flips in itertools.product((False, True), repeat=table.pyramids):
        shaped = [_mirrored(layout) if flip else layout for layout, flip in zip(layouts, flips, strict=True)]
        for order in itertools.permutations(shaped):
            names: dict[int, str] = {}
            pyramids = "".join(_named(c, names) for layout in order for c in layout)
            if table.reserve_piles:
                piles = sorted("".join(_named(c, names) for c in rest[3 * k:3 * k + 3])
                               for k in range(table.reserve_piles))
                keys.append(pyramids + "/" + "/".join(piles))
            else:
                keys.append(pyramids + "/" + "".join(_named(c, names) for c in rest))
    return min(keys)


def _mirrored(layout: tuple[Card, ...]) -> tuple[Card, ...]:
    """A pyramid's cards with each row read from its other end."""
    return tuple(layout[row_indices(row)[-1 - i]] for row in range(ROWS) for i in range(row + 1))


def _named(card: Card, names: dict[int, str]) -> str:
    """A card by its rank's group, named in the order the groups come (``names``: rank → name)."""
    if card.rank == 13:
        return "K"
    if card.rank not in names:
        group = "abcdef"[len(names) // 2]
        names[card.rank], names[13 - card.rank] = group + "+", group + "-"
    return names[card.rank]


_LOCATION = re.compile(r"^(?:([PQ])(\d{1,2})|([SW])|G(\d))$")


def parse_location(text: str, table: PyramidTable) -> int:
    """Parse ``P12``, ``Q3``, ``S``, ``W`` or ``G5`` on ``table``; ``InvalidMoveError`` otherwise."""
    m = _LOCATION.match(text.strip().upper())
    if m is None:
        raise InvalidMoveError(f"{text.strip()!r} is not a location (P0–P27, S, W, G0–G7)")
    kind, number, pile_kind, pile = m.groups()
    if kind == "P" or (kind == "Q" and table.pyramids > 1):
        index = int(number)
        if index >= PYRAMID_SIZE:
            raise InvalidMoveError(f"{text.strip()!r}: a pyramid has positions 0–27")
        return index + (PYRAMID_SIZE if kind == "Q" else 0)
    if pile_kind and not table.reserve_piles:
        return STOCK if pile_kind == "S" else WASTE
    if pile is not None and int(pile) < table.reserve_piles:
        return RESERVE + int(pile)
    raise InvalidMoveError(f"{text.strip()!r} is not a location in {table.game}")


@dataclass(frozen=True, slots=True)
class Draw:
    """``D``: the top card of the stock goes face up onto the waste."""

    def __str__(self) -> str:
        return "D"


@dataclass(frozen=True, slots=True)
class Recycle:
    """``R``: with the stock empty and a pass left, the waste is turned over unshuffled."""

    def __str__(self) -> str:
        return "R"


@dataclass(frozen=True, slots=True)
class Remove:
    """``X`` (a king alone) or ``X+Y`` (a pair summing to 13), locations in canonical order."""

    locs: tuple[int, ...]

    @property
    def locations(self) -> tuple[str, ...]:
        return tuple(location_text(loc) for loc in self.locs)

    def __str__(self) -> str:
        return "+".join(location_text(loc) for loc in self.locs)


DRAW = Draw()
RECYCLE = Recycle()
PyramidMove = Draw | Recycle | Remove


def parse_pyramid_move(text: str, table: PyramidTable) -> PyramidMove:
    """Parse ``D``, ``R``, ``X`` or ``X+Y`` (any order, any case); print back canonically."""
    token = text.strip().upper()
    if token == "D":
        return DRAW
    if token == "R":
        return RECYCLE
    parts = token.split("+")
    if not token or len(parts) > 2:
        raise InvalidMoveError(f"{text.strip()!r} is not a move (D, R, X or X+Y)")
    locs = tuple(sorted(parse_location(part, table) for part in parts))
    if len(locs) == 2 and locs[0] == locs[1]:
        raise InvalidMoveError(f"{text.strip()!r} names the same location twice")
    return Remove(locs)


@dataclass(frozen=True, slots=True)
class PyramidPosition:
    """A Pyramid-family position. ``removed`` is a bit mask over ``layout``.

    A pyramid card is available when both cards below it are gone (row 6 from the
    start). The stock top (``S``), the waste top (``W``) and, in Giza, each reserve top
    are available too. Available cards pair when their values sum to 13; an available
    king goes alone. With ``rules.overlap`` a card may also pair with the one card that
    still covers it, when that card is its only remaining cover.
    """

    table: PyramidTable
    rules: PyramidRules
    layout: tuple[Card, ...]
    removed: int = 0
    stock: tuple[Card, ...] = ()
    waste: tuple[Card, ...] = ()
    pass_number: int = 1
    reserves: tuple[tuple[Card, ...], ...] = ()
    # Legal moves are asked for several times per position (apply, status, rendering).
    _legal: list = field(init=False, default_factory=list, compare=False, repr=False)

    @classmethod
    def from_deal(cls, table: PyramidTable, rules: PyramidRules, deal: tuple[Card, ...]) -> PyramidPosition:
        layout, rest = deal[:table.size], deal[table.size:]
        if table.reserve_piles:
            reserves = tuple(rest[3 * k : 3 * k + 3] for k in range(table.reserve_piles))
            return cls(table, rules, layout, reserves=reserves)
        return cls(table, rules, layout, stock=rest)

    @property
    def game(self) -> str:
        """The game's name in the notation."""
        return self.table.game

    # --- what is where -------------------------------------------------------------
    @property
    def full_mask(self) -> int:
        return (1 << self.table.size) - 1

    def is_removed(self, index: int) -> bool:
        return bool(self.removed >> index & 1)

    def is_available(self, index: int) -> bool:
        """Whether pyramid card ``index`` is still there with nothing covering it."""
        cover = COVER_MASK[index]
        return not self.removed >> index & 1 and self.removed & cover == cover

    def card_at(self, location: str | int) -> Card | None:
        """The card at a location (``P12``, ``S``, ``G3``…), or ``None`` if it is empty."""
        loc = parse_location(location, self.table) if isinstance(location, str) else location
        if loc < STOCK:
            return None if self.removed >> loc & 1 else self.layout[loc]
        if loc == STOCK:
            return self.stock[0] if self.stock else None
        if loc == WASTE:
            return self.waste[0] if self.waste else None
        pile = self.reserves[loc - RESERVE]
        return pile[-1] if pile else None

    @property
    def passes_left(self) -> int | None:
        """Recycles still allowed (``None`` = unlimited)."""
        if self.rules.passes is None:
            return None
        return self.rules.passes - self.pass_number

    def available(self) -> list[tuple[int, Card]]:
        """Every available card with its location, in canonical location order."""
        removed, layout = self.removed, self.layout
        out = [
            (i, layout[i])
            for i in range(len(layout))
            if not removed >> i & 1 and removed & COVER_MASK[i] == COVER_MASK[i]
        ]
        if self.stock:
            out.append((STOCK, self.stock[0]))
        if self.waste:
            out.append((WASTE, self.waste[0]))
        for k, pile in enumerate(self.reserves):
            if pile:
                out.append((RESERVE + k, pile[-1]))
        return out

    # --- moves ---------------------------------------------------------------------
    def removals(self) -> list[Remove]:
        """Every king and pair that can be removed now."""
        by_rank: list[list[int]] = [[] for _ in range(14)]
        for loc, c in self.available():
            by_rank[c.rank].append(loc)
        moves = [Remove((loc,)) for loc in by_rank[13]]
        for rank in range(1, 7):
            for a in by_rank[rank]:
                for b in by_rank[13 - rank]:
                    moves.append(Remove((a, b) if a < b else (b, a)))
        if self.rules.overlap:
            moves.extend(self._overlap_pairs())
        return moves

    def _overlap_pairs(self) -> list[Remove]:
        removed, layout = self.removed, self.layout
        pairs = []
        for i, kids in enumerate(CHILDREN[: len(layout)]):
            if not kids or removed >> i & 1:
                continue
            left = [j for j in kids if not removed >> j & 1]
            if len(left) == 1:
                j = left[0]
                if self.is_available(j) and layout[i].rank + layout[j].rank == 13:
                    pairs.append(Remove((i, j)))
        return pairs

    def can_recycle(self) -> bool:
        passes = self.rules.passes
        return not self.stock and bool(self.waste) and (passes is None or self.pass_number < passes)

    def legal_moves(self) -> tuple[PyramidMove, ...]:
        """Removals, then ``D`` while the stock has cards, then ``R`` while a pass remains.

        A won game takes no more moves.
        """
        if not self._legal:
            moves: list[PyramidMove] = []
            if not self.is_won():
                moves.extend(self.removals())
                if self.stock:
                    moves.append(DRAW)
                elif self.can_recycle():
                    moves.append(RECYCLE)
            self._legal.append(tuple(moves))
        return self._legal[0]

    def gives_up_moves(self, move: object) -> bool:
        """Never asked: drawing past a card that could pair is how the family is played."""
        return False

    def parse_move(self, text: str) -> PyramidMove:
        return parse_pyramid_move(text, self.table)

    def is_legal(self, move: object) -> TypeGuard[PyramidMove]:
        """Whether ``move`` is one of ``legal_moves()``, decided for that move alone: ``D`` while
        the stock has cards, ``R`` when it is empty and a pass remains, a king alone or two
        cards that sum to 13, each available (or, with ``rules.overlap``, a card and the one
        card still covering it); a won game takes none."""
        if not isinstance(move, PyramidMove) or self.is_won():
            return False
        if isinstance(move, Draw):
            return bool(self.stock)
        if isinstance(move, Recycle):
            return not self.stock and self.can_recycle()
        locs = move.locs
        if len(locs) not in (1, 2) or list(locs) != sorted(set(locs)):
            return False  # the notation's one form of a pair: its places in order
        ranks = [card.rank if card else 0 for card in map(self._available_card, locs)]
        if 0 in ranks:  # one is not available: only an overlap pair may still be allowed
            return len(locs) == 2 and self._overlap_pair(*locs)
        return sum(ranks) == 13

    def _available_card(self, loc: int) -> Card | None:
        if loc < 0:
            return None
        if loc < STOCK:
            return self.layout[loc] if loc < self.table.size and self.is_available(loc) else None
        if loc >= RESERVE and loc - RESERVE >= len(self.reserves):
            return None
        return self.card_at(loc)

    def _overlap_pair(self, a: int, b: int) -> bool:
        """``a`` and the one card still covering it pair under ``rules.overlap``."""
        if not self.rules.overlap or b >= self.table.size:
            return False
        return Remove((a, b)) in self._overlap_pairs()

    def apply(self, move: object) -> PyramidPosition:
        """The position after ``move`` (a move or its notation); ``IllegalMoveError`` if the rules
        do not allow it, as for another game's move."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if not self.is_legal(move):
            raise IllegalMoveError(f"{move} is not a legal move here")
        return self.play_unchecked(move)

    def play_unchecked(self, move: PyramidMove) -> PyramidPosition:
        """``apply`` without the legality check, for callers that took ``move`` from ``legal_moves``."""
        if move is DRAW or isinstance(move, Draw):
            return replace(self, stock=self.stock[1:], waste=(self.stock[0], *self.waste))
        if move is RECYCLE or isinstance(move, Recycle):
            return replace(
                self, stock=self.waste[::-1], waste=(), pass_number=self.pass_number + 1
            )
        removed, stock, waste, reserves = self.removed, self.stock, self.waste, self.reserves
        for loc in move.locs:
            if loc < STOCK:
                removed |= 1 << loc
            elif loc == STOCK:
                stock = stock[1:]
            elif loc == WASTE:
                waste = waste[1:]
            else:
                k = loc - RESERVE
                reserves = (*reserves[:k], reserves[k][:-1], *reserves[k + 1:])
        return replace(self, removed=removed, stock=stock, waste=waste, reserves=reserves)

    # --- status --------------------------------------------------------------------
    def is_won(self) -> bool:
        """Won when every pyramid card is gone (``goal all``: every card gone)."""
        if self.removed != self.full_mask:
            return False
        if self.rules.goal == "all":
            return not self.stock and not self.waste and not any(self.reserves)
        return True

    @property
    def status(self) -> Status:
        """``WON``; ``LOST`` when no legal move is left (unlimited passes: when no removal is
        possible now or after any sequence of draws and recycles); else ``PLAYING``."""
        if self.is_won():
            return Status.WON
        legal = self.legal_moves()
        if legal and not isinstance(legal[0], (Draw, Recycle)):  # removals come first: one is possible now
            return Status.PLAYING
        if self.rules.passes is None:
            return Status.PLAYING if self._removal_after_cycling() else Status.LOST
        return Status.PLAYING if legal else Status.LOST

    @property
    def end_reason(self) -> Termination | None:
        """Why the game is over (``None`` while playing): ``WON_PYRAMID`` (``WON_PYRAMIDS``
        when there are two), ``WON_ALL``; ``LOST_GIZA`` (no open pair or king), ``LOST_STOCK``
        (nothing pairs and the stock and passes are used up), ``LOST_PYRAMID`` (unlimited
        passes: no cycle of the stock can bring a pair or a king)."""
        status = self.status
        if status is Status.WON:
            if self.rules.goal == "all":
                return Termination.WON_ALL
            return Termination.WON_PYRAMIDS if self.table.pyramids > 1 else Termination.WON_PYRAMID
        if status is Status.PLAYING:
            return None
        if self.table.reserve_piles:
            return Termination.LOST_GIZA
        return Termination.LOST_PYRAMID if self.rules.passes is None else Termination.LOST_STOCK

    def _removal_after_cycling(self) -> bool:
        # Drawing and recycling without removing anything only rotates the split point of
        # one fixed sequence (waste bottom … waste top, stock top … stock bottom): any card
        # of it becomes the stock top, and any two neighbours become waste top + stock top.
        sequence = self.waste[::-1] + self.stock
        open_ranks = {c.rank for loc, c in self.available() if loc < STOCK}
        for i, c in enumerate(sequence):
            if c.rank == 13 or 13 - c.rank in open_ranks:
                return True
            if i and sequence[i - 1].rank + c.rank == 13:
                return True
        return False

    @property
    def simple_score(self) -> int:
        """Cards removed from the pyramid(s)."""
        return self.removed.bit_count()

    @property
    def cards_left(self) -> int:
        """Cards still to go before the game is won: the pyramid(s)' cards, and where every
        card must go (``goal all``) also the stock's, the waste's and the reserves'."""
        left = self.table.size - self.removed.bit_count()
        if self.rules.goal == "all":
            left += len(self.stock) + len(self.waste) + sum(len(pile) for pile in self.reserves)
        return left

    def pair_points(self, played: Sequence[object]) -> int:
        """The ``pairs`` scoring system (app.engine.scoring): 5 points per pair or king removed
        by ``played`` (the moves that led here), and a bonus for each row cleared, the higher
        the row the larger (``ROW_BONUS``), per pyramid."""
        removals = sum(1 for move in played if isinstance(move, Remove))
        return POINTS_PER_REMOVAL * removals + sum(ROW_BONUS[ROWS - 1 - row] for row in self.cleared_rows())

    def cleared_rows(self) -> list[int]:
        """Rows (0 = apex) that are empty, once per pyramid."""
        cleared = []
        for base in range(0, self.table.size, PYRAMID_SIZE):
            for r in range(ROWS):
                first = base + row_indices(r).start
                mask = ((1 << (r + 1)) - 1) << first
                if self.removed & mask == mask:
                    cleared.append(r)
        return cleared

    def to_json(self) -> dict:
        """The ``position`` object of ``tretten replay``."""
        pyramid = [None if self.removed >> i & 1 else c.code for i, c in enumerate(self.layout)]
        out: dict = {
            "pyramid": pyramid,
            "stock": [c.code for c in self.stock],
            "waste": [c.code for c in self.waste],
        }
        if self.table.reserve_piles:
            out["reserves"] = [[c.code for c in pile] for pile in self.reserves]
        out["pass"] = self.pass_number
        return out
