"""Winning lines made clean: no position twice, and no move that the rest of the line does
not need.

A search's winning line is the path its depth-first descent happened to take. In Gaps that
path wanders: it moves a card and later moves it again, and it shuffles 2s between the
gaps of column 0 (a 2 in column 0 may jump to any other gap there, and back, at any time).
``clean_line(position, moves)`` returns a line from the same position that is no longer,
still legal and still wins, with no position reached twice. Every line it returns has been
replayed by the engine (``app.engine``) and ends ``won``.

Gaps. A line is cut at its redeals (``N``) into rounds, and each round is cleaned on its own
with its end kept: in the last round the won grid; before a redeal, what the redeal depends
on (each row's correct run, and the other cards in row-major order), so that the next round
is dealt the same. Three rewrites, repeated while the line gets shorter:

- *Loops.* Where a grid comes back, the moves in between are dropped.
- *Column-0 shuffles, planned again.* A 2 never leaves column 0 once it is there; all it
  can do is jump to another column-0 gap (a *shuffle*). Shuffles only read and write
  column 0, and the only other moves that care about column 0 are those that fill a
  column-0 gap with a 2 from elsewhere (the gap must be there), that put a 3 in column 1
  (its 2 must be on its left), and that take a card out of column 0 (a new gap there).
  Every other move commutes with every shuffle. So all shuffles are taken out and the
  fewest are put back, just before those moves, that give each of them the column 0 it
  needs and give the round's end its column 0: a shortest path over the arrangements of
  column 0 (at most 4 cells), by dynamic programming over those moves in order.
- *Moves undone later.* A card moved from ``s`` to ``a`` and next moved from ``a`` to ``b``
  can go from ``s`` to ``b`` at once, if every move in between stays legal without it (then
  the grids agree again after the second move; when ``b`` is ``s``, both moves go). Before
  a redeal, a card's last move of the round goes too when the rest stays legal and the
  redeal sees the same cards in the same order (a card moved into the gap beside it).

Pyramid family. Nothing moves back, but draws and recycles can come round to the same
cards: a position that repeats (the pass number aside, which only ever grows, so the cut
line has passes to spare) is a loop, and is cut.

``line_from(start, line, position)`` is what a hint needs to keep one line: the rest of a
kept line from the position the player is in, when the line passes through it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from app.engine import (
    REDEAL,
    Fill,
    GapsPosition,
    IllegalMoveError,
    InvalidMoveError,
    PyramidPosition,
    Status,
)
from app.engine.gaps import COLUMNS, ROWS

from .gaps import card_code, code_card, fill_text

COLUMN_0 = tuple(row * COLUMNS for row in range(ROWS))  # the first cell of each row
MAX_REWRITES = 6  # rounds of rewrites: they stop once one gains nothing, or after this many


class LineError(ValueError):
    """The line given is not a winning line from the position given."""


# --- the entry points --------------------------------------------------------------------
def clean_line(position, moves: Sequence[str]) -> tuple[str, ...]:
    """A winning line from ``position`` that is no longer than ``moves``, with no position
    reached twice and no move that the rest does not need (see the module docstring).

    ``moves`` must be a complete winning line from ``position`` in the notation; a line that
    is illegal or does not end ``won`` raises ``LineError``. The result is replayed by the
    engine before it is returned."""
    moves = tuple(moves)
    try:
        clean = CLEANERS[type(position)]
    except KeyError:
        raise TypeError(f"no line cleaning for {type(position).__name__}") from None
    cleaned = clean(position, moves)
    if cleaned != moves:
        checked = _winning_prefix(position, cleaned)
        if checked is not None:
            return checked
    # the line as given (an unchanged line, or, defensively, a rewrite the engine refused)
    checked = _winning_prefix(position, moves)
    if checked is None:
        raise LineError("the line does not win from this position")
    return checked


def line_from(start, line: Sequence[str], position) -> tuple[str, ...] | None:
    """The rest of ``line``, a winning line from ``start``, from ``position`` on: ``None``
    when ``line`` does not pass through ``position`` (or is not legal from ``start``).

    A hint that keeps one line calls this with the line it kept (from any earlier position
    of the game) and the position now: the next hint is the first move of the answer."""
    here = start
    rest: tuple[str, ...] | None = tuple(line) if here == position else None
    for index, move in enumerate(line):
        try:
            here = here.apply(move)
        except (IllegalMoveError, InvalidMoveError):
            return None
        if here == position:
            rest = tuple(line[index + 1:])
    return rest


def _winning_prefix(position, moves: tuple[str, ...]) -> tuple[str, ...] | None:
    """``moves`` replayed by the engine, up to the move that wins (``None``: not a win)."""
    here = position
    for index, move in enumerate(moves):
        try:
            here = here.apply(move)
        except (IllegalMoveError, InvalidMoveError):
            # a won position takes no more moves: the line won before its end
            return moves[:index] if here.status is Status.WON else None
    return moves if here.status is Status.WON else None


def _cut_loops(keys_after: Sequence, first_key) -> list[int]:
    """Indices of the moves to keep so that no key repeats: ``keys_after[i]`` is the
    position's key after move ``i``, ``first_key`` before the first move."""
    kept: list[int] = []
    at = {first_key: 0}  # key -> how many kept moves lead to it
    trail = [first_key]
    for i, key in enumerate(keys_after):
        seen = at.get(key)
        if seen is None:
            kept.append(i)
            at[key] = len(kept)
            trail.append(key)
            continue
        for dropped in trail[seen + 1:]:
            del at[dropped]
        del trail[seen + 1:]
        del kept[seen:]
    return kept


# --- Pyramid family ------------------------------------------------------------------------
def _pyramid_key(position: PyramidPosition) -> tuple:
    return position.removed, position.stock, position.waste, position.reserves


def _clean_pyramid(position: PyramidPosition, moves: tuple[str, ...]) -> tuple[str, ...]:
    here, keys = position, []
    for move in moves:
        try:
            here = here.apply(move)
        except (IllegalMoveError, InvalidMoveError) as exc:
            raise LineError(f"the line is not legal from this position: {exc}") from None
        keys.append(_pyramid_key(here))
    if here.status is not Status.WON:
        raise LineError("the line does not win from this position")
    return tuple(moves[i] for i in _cut_loops(keys, _pyramid_key(position)))


# --- Gaps -------------------------------------------------------------------------------
class _Round:
    """One round of a Gaps line, packed: the start grid (bytes, a card as ``gaps.card_code``,
    0 for a gap), its fills as (card, cell), and the grid they end on. ``starters`` holds
    each row's suit index under the Danish house rule (empty otherwise); ``last`` tells
    whether the round ends the line (won) or a redeal follows."""

    def __init__(self, grid: bytes, fills: list[tuple[int, int]], starters: tuple[int, ...],
                 last: bool) -> None:
        self.start = grid
        self.fills = fills
        self.starters = starters
        self.last = last
        end = self.play(fills, grid)
        if end is None:
            raise LineError("the line is not legal from this position")
        self.end = end
        self.redeal = self.gathered(end)

    def gathered(self, grid: bytes) -> tuple:
        """What a redeal from ``grid`` depends on: each row's correct run (kept), and the
        other cards in row-major order (shuffled and dealt again)."""
        kept: list[int] = []
        rest: list[int] = []
        for row in range(len(COLUMN_0)):
            base = row * COLUMNS
            first = grid[base]
            n = 0
            if first & 15 == 2 and (not self.starters or self.starters[row] == first >> 4):
                n = 1
                while n < COLUMNS - 1 and grid[base + n] == first + n:
                    n += 1
            kept.append(n)
            rest.extend(x for x in grid[base + n: base + COLUMNS] if x)
        return tuple(kept), tuple(rest)

    def legal(self, grid: bytearray, card: int, cell: int) -> bool:
        """The rule of a fill (the engine checks the finished line again)."""
        if grid[cell]:
            return False
        if cell % COLUMNS == 0:
            row = cell // COLUMNS
            return card & 15 == 2 and (not self.starters or self.starters[row] == card >> 4)
        return grid[cell - 1] + 1 == card and card & 15 != 1

    def play(self, fills: Sequence[tuple[int, int]], grid: bytes) -> bytes | None:
        """The grid after ``fills`` from ``grid``; ``None`` if one of them is not legal."""
        here = bytearray(grid)
        for card, cell in fills:
            if not self.legal(here, card, cell):
                return None
            here[here.index(card)] = 0
            here[cell] = card
        return bytes(here)

    def grids(self, fills: Sequence[tuple[int, int]]) -> list[bytes]:
        """The grid before each fill and after the last (the fills are legal)."""
        here = bytearray(self.start)
        out = [self.start]
        for card, cell in fills:
            here[here.index(card)] = 0
            here[cell] = card
            out.append(bytes(here))
        return out

    # the rewrites
    def clean(self) -> list[tuple[int, int]]:
        fills = self.fills
        for _ in range(MAX_REWRITES):
            before = len(fills)
            fills = self.without_loops(fills)
            fills = self.replanned(fills)
            fills = self.without_undone(fills)
            fills = self.without_loops(fills)
            if len(fills) >= before:
                break
        return fills

    def without_loops(self, fills: list) -> list:
        grids = self.grids(fills)
        return [fills[i] for i in _cut_loops(grids[1:], grids[0])]

    def without_undone(self, fills: list) -> list:
        """Each card's move that its next move makes pointless dropped (module docstring).
        Before a redeal, a card's last move in the round goes too when the redeal does not
        see it (the same runs and the same cards in the same order, gaps aside)."""
        grids = self.grids(fills)
        i = 0
        while i < len(fills):
            card = fills[i][0]
            j = next((k for k in range(i + 1, len(fills)) if fills[k][0] == card), None)
            if j is None:
                if self.last:
                    i += 1
                    continue
                after = self.play(fills[i + 1:], grids[i])
                if after is None or self.gathered(after) != self.redeal:
                    i += 1
                    continue
                fills = fills[:i] + fills[i + 1:]
            else:
                back = fills[j][1] == grids[i].index(card)
                between = fills[i + 1: j] if back else fills[i + 1: j + 1]
                if self.play(between, grids[i]) != grids[j + 1]:
                    i += 1
                    continue
                fills = fills[:i] + between + fills[j + 1:]
            grids = self.grids(fills)
        return fills

    def replanned(self, fills: list) -> list:
        """The column-0 shuffles taken out and the fewest put back (module docstring)."""
        here = bytearray(self.start)
        steps: list[tuple[tuple[int, int], tuple | None]] = []  # a fill, its column-0 event
        shuffles = 0
        for card, cell in fills:
            frm = here.index(card)
            if cell % COLUMNS == 0 and frm % COLUMNS == 0:
                shuffles += 1
            else:
                # what the fill needs in column 0 and what it leaves there, as (row, content)
                needs: tuple = ()
                makes: tuple = ()
                if cell % COLUMNS == 0:
                    needs, makes = ((cell // COLUMNS, 0),), ((cell // COLUMNS, card),)
                elif cell % COLUMNS == 1 and card & 15 == 3:
                    needs = ((cell // COLUMNS, card - 1),)
                if frm % COLUMNS == 0:
                    makes += ((frm // COLUMNS, 0),)
                steps.append(((card, cell), (needs, makes) if needs or makes else None))
            here[frm] = 0
            here[cell] = card
        if not shuffles:
            return fills
        events = [event for _, event in steps if event is not None]
        plan = self._plan_column_0(bytes(self.start[c] for c in COLUMN_0), events,
                                   bytes(here[c] for c in COLUMN_0))
        if plan is None:
            return fills
        out: list = []
        done = 0
        for fill, event in steps:
            if event is not None:
                out.extend(plan[done])
                done += 1
            out.append(fill)
        out.extend(plan[done])
        return out if len(out) < len(fills) else fills

    def _shuffles_from(self, arrangement: bytes) -> dict[bytes, tuple]:
        """Every column-0 arrangement reachable by shuffles, with the shuffles (breadth-first)."""
        paths: dict[bytes, tuple[tuple[int, int], ...]] = {arrangement: ()}
        frontier = [arrangement]
        while frontier:
            following = []
            for here in frontier:
                for i, card in enumerate(here):
                    if card & 15 != 2:
                        continue
                    for j, target in enumerate(here):
                        if target or (self.starters and self.starters[j] != card >> 4):
                            continue
                        moved = bytearray(here)
                        moved[i], moved[j] = 0, card
                        there = bytes(moved)
                        if there not in paths:
                            paths[there] = paths[here] + ((card, j * COLUMNS),)
                            following.append(there)
            frontier = following
        return paths

    def _plan_column_0(self, first: bytes, events: list[tuple], last: bytes) -> list | None:
        """The fewest shuffles before each event and before the end: a list of len(events)
        + 1 lists of fills, or ``None`` if no plan exists. An arrangement is the contents of
        column 0, row 0 first; ``events`` are (needs, makes), each a tuple of (row, content):
        what a move requires in column 0 and what it leaves there."""
        reach: dict[bytes, dict] = {}

        def shuffles(arrangement):
            got = reach.get(arrangement)
            if got is None:
                got = reach[arrangement] = self._shuffles_from(arrangement)
            return got

        layer = {first: (0, None)}
        history = []
        for needs, makes in events:
            following: dict[bytes, tuple] = {}
            for here, (cost, _) in layer.items():
                for ready, path in shuffles(here).items():
                    if any(ready[row] != content for row, content in needs):
                        continue
                    made = bytearray(ready)
                    for row, content in makes:
                        made[row] = content
                    after = bytes(made)
                    total = cost + len(path)
                    if after not in following or total < following[after][0]:
                        following[after] = (total, (here, path))
            history.append(following)
            layer = following
        best = None
        for here, (cost, _) in layer.items():
            path = shuffles(here).get(last)
            if path is not None and (best is None or cost + len(path) < best[0]):
                best = (cost + len(path), here, path)
        if best is None:
            return None
        _, here, path = best
        plan = [list(path)]
        for following in reversed(history):
            _, (before, path) = following[here]
            plan.append(list(path))
            here = before
        plan.reverse()
        return plan


def _clean_gaps(position: GapsPosition, moves: tuple[str, ...]) -> tuple[str, ...]:
    rounds: list[list[tuple[int, int]]] = [[]]
    for text in moves:
        try:
            move = position.parse_move(text)
        except InvalidMoveError as exc:
            raise LineError(str(exc)) from None
        if isinstance(move, Fill):
            rounds[-1].append((card_code(move.card), move.row * COLUMNS + move.col))
        else:
            rounds.append([])
    starters = tuple("CDHS".index(s) for s in position.starters)
    out: list[str] = []
    here = position
    for k, fills in enumerate(rounds):
        one = _Round(bytes(card_code(c) for c in here.grid), fills, starters, k + 1 == len(rounds))
        cleaned = one.clean()
        out.extend(fill_text(card, cell) for card, cell in cleaned)
        if k + 1 < len(rounds):
            out.append(str(REDEAL))
            end = one.play(cleaned, one.start)
            assert end is not None  # the cleaned round replays
            grid = tuple(code_card(x) for x in end)
            try:
                here = replace(here, grid=grid).apply(REDEAL)
            except IllegalMoveError:
                raise LineError("the line redeals with no round left") from None
    return tuple(out)


CLEANERS: dict[type, Callable[[Any, tuple[str, ...]], tuple[str, ...]]] = {
    GapsPosition: _clean_gaps, PyramidPosition: _clean_pyramid,
}
