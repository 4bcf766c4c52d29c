"""Gaps (Montana, "13-kabalen"): four rows of thirteen, build each row from 2 to K in suit.

The deal is laid row-major; every ace is taken out and leaves a gap. A gap in column 0
takes a 2 (under the Danish house rule only the 2 of the row's starter suit). Any other
gap takes only the successor in suit of its left neighbour; a gap right of a king or
of another gap is dead. ``N`` gathers every card outside the rows' correct prefixes,
shuffles them and deals them back with one gap right after each prefix.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TypeGuard

from .cards import Card, card, format_deal, parse_card, suits_renamed
from .errors import IllegalMoveError, InvalidMoveError, NotationError
from .outcome import Status, Termination
from .rules import GapsRules
from .seeding import shuffled, text_seed

ROWS, COLUMNS = 4, 13
POINTS_PER_CARD, POINTS_PER_ROW = 5, 100  # the pairs scoring system (pair_points)



def deal_key(deal: Sequence[Card]) -> str:
    """The deal as play sees it (``Variant.deal_key``): two deals with the same key are one game,
    at least until a redeal (its shuffle is the deal text's). Each row is built in one suit, but
    which suit is play's no concern, nor which row is which: the key is the least, over the
    orders of the rows, of the cards with their suits renamed in the order they come. A line
    found on a deal plays on any deal of its key, its cards and rows renamed."""
    rows = [tuple(deal[r * COLUMNS:(r + 1) * COLUMNS]) for r in range(ROWS)]
    return min(suits_renamed([c for row in order for c in row]) for order in itertools.permutations(rows))


@dataclass(frozen=True, slots=True)
class Fill:
    """``{card}>{r}.{c}``: move ``card`` into the gap at row ``r``, column ``c``."""

    card: Card
    row: int
    col: int

    def __str__(self) -> str:
        return f"{self.card.code}>{self.row}.{self.col}"


@dataclass(frozen=True, slots=True)
class Redeal:
    """``N``: gather and redeal, starting the next round."""

    def __str__(self) -> str:
        return "N"


REDEAL = Redeal()
GapsMove = Fill | Redeal
_FILL = re.compile(r"^(\w{2,3})\s*>\s*(\d+)\s*\.\s*(\d+)$")


def parse_gaps_move(text: str) -> GapsMove:
    """Parse ``7H>2.5`` (any case, ``10`` for ``T``) or ``N``."""
    token = text.strip().upper()
    if token == "N":
        return REDEAL
    m = _FILL.match(token)
    if m is None:
        raise InvalidMoveError(f"{text.strip()!r} is not a move (card>row.col, or N)")
    try:
        moving = parse_card(m.group(1))
    except NotationError as exc:
        raise InvalidMoveError(str(exc)) from None
    row, col = int(m.group(2)), int(m.group(3))
    if row >= ROWS or col >= COLUMNS:
        raise InvalidMoveError(f"{text.strip()!r}: rows are 0–3 and columns 0–12")
    return Fill(moving, row, col)


def _cell_of(grid: list[Card | None], moving: Card) -> int:
    """Where ``moving`` lies: the shared card is found by identity (``==`` on cards is a Python
    call per cell); another equal card, by equality."""
    for i, c in enumerate(grid):
        if c is moving:
            return i
    return grid.index(moving)


@dataclass(frozen=True, slots=True)
class GapsPosition:
    """A Gaps position: ``grid`` holds 52 cells row-major, ``None`` for a gap.

    ``deal`` is the canonical deal text; with ``round`` it fixes the redeal shuffle.
    ``starters`` is the suit of each row's starter ace under the Danish house rule.
    """

    rules: GapsRules
    deal: str
    grid: tuple[Card | None, ...]
    round: int = 1
    starters: tuple[str, ...] = ()
    _legal: list = field(init=False, default_factory=list, compare=False, repr=False)

    game = "gaps"

    @classmethod
    def from_deal(cls, rules: GapsRules, deal: tuple[Card, ...]) -> GapsPosition:
        """The start position: the deal laid row-major, every ace taken out."""
        grid = tuple(None if c.rank == 1 else c for c in deal)
        starters = tuple(c.suit for c in deal if c.rank == 1) if rules.aces == "starters" else ()
        return cls(rules, format_deal(deal), grid, 1, starters)

    # --- rows ------------------------------------------------------------------------
    def row_suit(self, row: int) -> str | None:
        """The suit row ``row`` is built in: its starter's, or that of the 2 in column 0."""
        if self.starters:
            return self.starters[row]
        first = self.grid[row * COLUMNS]
        return first.suit if first is not None and first.rank == 2 else None

    def correct_prefix_lengths(self) -> tuple[int, ...]:
        """Per row, how many cards from column 0 already run 2, 3, 4… in the row's suit."""
        lengths = []
        for r in range(ROWS):
            suit, n = self.row_suit(r), 0
            if suit is not None:
                base = r * COLUMNS
                while n < COLUMNS - 1 and self.grid[base + n] == card(n + 2, suit):
                    n += 1
            lengths.append(n)
        return tuple(lengths)

    @property
    def rounds_left(self) -> int | None:
        """Redeals still allowed (``None`` = unlimited)."""
        return None if self.rules.rounds is None else self.rules.rounds - self.round

    def can_redeal(self) -> bool:
        return self.rules.rounds is None or self.round < self.rules.rounds

    # --- gaps and moves ----------------------------------------------------------------
    def gap_positions(self) -> tuple[tuple[int, int], ...]:
        return tuple(divmod(i, COLUMNS) for i, c in enumerate(self.grid) if c is None)

    def is_dead_gap(self, row: int, col: int) -> bool:
        """A gap whose left neighbour is a king or another gap can never be filled."""
        if col == 0 or self.grid[row * COLUMNS + col] is not None:
            return False
        left = self.grid[row * COLUMNS + col - 1]
        return left is None or left.rank == 13

    def moves_into(self, row: int, col: int) -> tuple[Fill, ...]:
        """The fills of the gap at (row, col), in canonical order."""
        if self.grid[row * COLUMNS + col] is not None:
            return ()
        if col == 0:
            suits = (self.starters[row],) if self.starters else "CDHS"
            return tuple(Fill(card(2, s), row, 0) for s in suits)
        left = self.grid[row * COLUMNS + col - 1]
        if left is None or left.rank == 13:
            return ()
        return (Fill(card(left.rank + 1, left.suit), row, col),)

    def moves_of_card(self, moving: Card) -> tuple[Fill, ...]:
        return tuple(m for m in self.legal_moves() if isinstance(m, Fill) and m.card == moving)

    def legal_moves(self) -> tuple[GapsMove, ...]:
        """Every fill of every gap, then ``N`` while rounds remain. A won game has none."""
        if not self._legal:
            moves: list[GapsMove] = []
            if not self.is_won():
                for i, c in enumerate(self.grid):
                    if c is None:
                        moves.extend(self.moves_into(*divmod(i, COLUMNS)))
                if self.can_redeal():
                    moves.append(REDEAL)
            self._legal.append(tuple(moves))
        return self._legal[0]

    def gives_up_moves(self, move: object) -> bool:
        """A redeal while a card can still be moved gives that move up: the player is asked first."""
        legal = self.legal_moves()
        return move == REDEAL and REDEAL in legal and len(legal) > 1

    def parse_move(self, text: str) -> GapsMove:
        return parse_gaps_move(text)

    def is_legal(self, move: object) -> TypeGuard[GapsMove]:
        """Whether ``move`` is one of ``legal_moves()``, decided for that move alone: a fill of
        its gap, or ``N`` while rounds remain; a won game takes none."""
        if not isinstance(move, GapsMove) or self.is_won():
            return False
        if isinstance(move, Redeal):
            return self.can_redeal()
        return 0 <= move.row < ROWS and 0 <= move.col < COLUMNS and move in self.moves_into(move.row, move.col)

    def apply(self, move: object) -> GapsPosition:
        """The position after ``move`` (a move or its notation); ``IllegalMoveError`` if the rules
        do not allow it, as for another game's move."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if not self.is_legal(move):
            raise IllegalMoveError(f"{move} is not a legal move here")
        return self.play_unchecked(move)

    def play_unchecked(self, move: GapsMove) -> GapsPosition:
        if isinstance(move, Redeal):
            return self.redealt()
        grid = list(self.grid)
        grid[_cell_of(grid, move.card)] = None
        grid[move.row * COLUMNS + move.col] = move.card
        return replace(self, grid=tuple(grid))

    def redealt(self) -> GapsPosition:
        """Gather and redeal (see ``docs/seeded-deals.md``): keep each row's correct prefix,
        gather the other cards row-major, shuffle them with the seed of
        ``"{deal} {next round}"`` and deal them back row by row, one gap after each prefix."""
        prefixes = self.correct_prefix_lengths()
        kept = {r * COLUMNS + c for r in range(ROWS) for c in range(prefixes[r])}
        gathered = [c for i, c in enumerate(self.grid) if c is not None and i not in kept]
        next_round = self.round + 1
        cards = iter(shuffled(gathered, text_seed(f"{self.deal} {next_round}")))
        grid: list[Card | None] = []
        for r in range(ROWS):
            row = [*self.grid[r * COLUMNS : r * COLUMNS + prefixes[r]], None]
            row.extend(next(cards) for _ in range(COLUMNS - len(row)))
            grid.extend(row)
        return replace(self, grid=tuple(grid), round=next_round)

    # --- status ------------------------------------------------------------------------
    def is_won(self) -> bool:
        """Won when every row holds 2 to K of one suit in columns 0–11 (gap in column 12)."""
        grid = self.grid
        if any(grid[r * COLUMNS + COLUMNS - 1] is not None for r in range(ROWS)):
            return False  # a card in the last column: asked before every move, so answered cheaply
        return self.correct_prefix_lengths() == (COLUMNS - 1,) * ROWS

    @property
    def status(self) -> Status:
        if self.is_won():
            return Status.WON
        return Status.PLAYING if self.legal_moves() else Status.LOST

    @property
    def end_reason(self) -> Termination | None:
        """``WON_GAPS``, ``LOST_GAPS`` (every gap dead and no redeal left), or ``None``."""
        return {Status.WON: Termination.WON_GAPS, Status.LOST: Termination.LOST_GAPS}.get(self.status)

    @property
    def simple_score(self) -> int:
        """Cards in the rows' correct prefixes (at most 48)."""
        return sum(self.correct_prefix_lengths())

    @property
    def cards_left(self) -> int:
        """Cards not yet in their row's correct run."""
        return ROWS * (COLUMNS - 1) - self.simple_score

    def pair_points(self, played: Sequence[object] = ()) -> int:
        """The ``pairs`` scoring system (app.engine.scoring): 5 points per card in its row's
        correct run and 100 per finished row; the moves that led here do not count."""
        prefixes = self.correct_prefix_lengths()
        finished = sum(1 for n in prefixes if n == COLUMNS - 1)
        return POINTS_PER_CARD * sum(prefixes) + POINTS_PER_ROW * finished

    def to_json(self) -> dict:
        out: dict = {"grid": [None if c is None else c.code for c in self.grid]}
        if self.starters:
            out["starters"] = list(self.starters)
        out["round"] = self.round
        return out
