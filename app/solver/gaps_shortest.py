"""The shortest win of a Gaps position: proven where the search can (the last round), else the
shortest line known with the bound every win reaches.

Bound (admissible). A fill moves one card, so a win needs at least as many fills as there are
cards outside their cell of the won grid. Which suit a row is built in is not fixed under the
international rule (any 2 opens a row), so the bound is the least count over the ways to give the
four suits the four rows (24; under the Danish rule one way, each row its starter's suit): with
``home[s][r]`` the cards of suit ``s`` already in their cell of row ``r``, the bound is 48 minus
the largest ``sum(home[s][rows[s]])``. A fill changes ``home`` only for the card it moves, so a
child's bound is its parent's with one count changed.

Search (``_Par``), in phases sharing one allowance of positions:

1. ``solve`` (``app.solver.gaps``) finds a win or proves there is none; its line, cleaned
   (``lines.clean_line``), is the first best known.
2. Beams (last round only): level by level every fill of every kept position, the new positions
   ranked by the bound (fewest cards left to place), then by fewer dead gaps and more (X − 1, X)
   neighbours; widths ``FIRST_BEAM_WIDTH``, four times that, …, while they find shorter lines. A
   beam drops positions, so it proves nothing, but every level is one move: the first won
   position it meets is its shortest line, often far shorter than the depth-first one.
3. A* (last round only) over every fill with the bound, dropping every position whose bound
   reaches the best length known: a won position popped is a shortest win; an exhausted queue
   proves the best known line shortest. Cut by the budget, the smallest ``g + bound`` still
   queued is a bound every win reaches.

Before the last round a redeal can lay a card in its cell without a fill, so the bound above does
not hold across a redeal and no proof is attempted: the answer is the shorter of the cleaned
line found over all rounds and a beam's line that wins in the current round alone, said as "best
known" with no bound.

Every line is cleaned and replayed by the engine (``clean_line``) before it is kept.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass

from app.engine import Status

from .gaps import COLUMNS, ROWS, GapsCore, card_code, fill_text, solve_gaps
from .lines import clean_line
from .result import Budget, BudgetExceeded

CARDS = ROWS * (COLUMNS - 1)  # cards the won grid places (48)
FIRST_BEAM_WIDTH = 256  # the first beam's width; each next one is four times wider
BEAM_GROWTH = 4
BEAM_POSITIONS_PER_NODE = 1  # a beam position costs about as much as an A* position
SOLVE_SHARE = 2  # at most one part in two of the positions goes to the first win (``solve``)
PERMUTATIONS = tuple(itertools.permutations(range(ROWS)))


@dataclass(frozen=True, slots=True)
class GapsShortest:
    """The answer, as ``app.solver.shortest.ShortestWin`` has it (same fields)."""

    winnable: bool | None
    moves: tuple[str, ...] = ()
    proven: bool = False
    lower_bound: int = 0
    nodes: int = 0


class _Board:
    """Packed grids (``GapsCore``'s codes, ``bytes``) with the bound and the fills."""

    def __init__(self, starters: tuple[int, ...]) -> None:
        self.core = GapsCore(ROWS, COLUMNS, starters)
        self.starters = starters
        self.assignments = ((tuple(starters.index(s) for s in range(ROWS)),) if starters
                            else PERMUTATIONS)  # suit -> row

    def home(self, grid) -> list[int]:
        """``home[4 * suit + row]``: cards of the suit in their cell of that row."""
        home = [0] * (ROWS * ROWS)
        for i, x in enumerate(grid):
            if x:
                row, col = divmod(i, COLUMNS)
                if col == (x & 15) - 2:
                    home[4 * (x >> 4) + row] += 1
        return home

    def bound(self, home) -> int:
        best = 0
        for rows in self.assignments:
            total = home[rows[0]] + home[4 + rows[1]] + home[8 + rows[2]] + home[12 + rows[3]]
            if total > best:
                best = total
        return CARDS - best

    def fills(self, grid) -> list[tuple[int, int, int]]:
        """Every legal fill as (card, from, to)."""
        core = self.core
        where = [0] * 64
        gaps = []
        for i, x in enumerate(grid):
            if x:
                where[x] = i
            else:
                gaps.append(i)
        good, other, bad = core._fill_groups(list(grid), where, gaps)
        return good + other + bad

    @staticmethod
    def moved_home(home, card: int, frm: int, to: int):
        """``home`` after the fill, or None when the fill changes no count."""
        rank_col = (card & 15) - 2
        was = frm % COLUMNS == rank_col
        now = to % COLUMNS == rank_col
        if not was and not now:
            return None
        home = list(home)
        if was:
            home[4 * (card >> 4) + frm // COLUMNS] -= 1
        if now:
            home[4 * (card >> 4) + to // COLUMNS] += 1
        return home

    def dead_and_adjacent(self, grid) -> int:
        """The beam's tie-break: dead gaps count against, (X − 1, X) neighbours for."""
        score = 0
        for i, x in enumerate(grid):
            c = i % COLUMNS
            if not c:
                continue
            left = grid[i - 1]
            if x:
                if left and x == left + 1:
                    score -= 1
            elif not left or left & 15 == COLUMNS:
                score += 2
        return score


class _Cut(Exception):
    pass


class _Par:
    def __init__(self, position, budget: Budget) -> None:
        self.position = position
        self.budget = budget
        self.spent = 0
        self.best: tuple[str, ...] | None = None
        self.lower = 0
        starters = tuple("CDHS".index(s) for s in (position.starters or ()))
        self.board = _Board(starters)
        self.grid = bytes(card_code(c) for c in position.grid)
        self.last_round = not position.can_redeal()
        self.lost = False

    # --- the budget ------------------------------------------------------------------------
    def _tick(self, count: int = 1) -> None:
        before = self.spent
        self.spent += count
        if before // Budget.CHECK_EVERY != self.spent // Budget.CHECK_EVERY:
            self.budget.check(self.spent)

    def _left(self) -> int | None:
        total = self.budget.max_nodes
        return None if total is None else total - self.spent

    def _keep(self, moves) -> None:
        line = clean_line(self.position, tuple(moves))
        if self.best is None or len(line) < len(self.best):
            self.best = line

    def _proven(self) -> bool:
        return self.best is not None and self.lower >= len(self.best)

    def answer(self) -> GapsShortest:
        lower = self.lower if self.last_round else 0
        if self.best is None:
            return GapsShortest(None, (), False, lower, self.spent)
        return GapsShortest(True, self.best, self._proven(), min(lower, len(self.best)), self.spent)

    # --- the phases ------------------------------------------------------------------------
    def run(self) -> GapsShortest:
        if self.last_round:
            self.lower = self.board.bound(self.board.home(self.grid))
        try:
            won = self._any_win()
            if won is False:
                return GapsShortest(False, (), True, 0, self.spent)
            self._beams()
            if self.last_round and not self._proven():
                self._astar()
                if self.lost:
                    return GapsShortest(False, (), True, 0, self.spent)
        except BudgetExceeded:
            pass
        return self.answer()

    def _any_win(self) -> bool | None:
        left = self._left()
        phase = Budget(None if left is None else max(1, left // SOLVE_SHARE), None, self.budget.clock)
        phase.deadline = self.budget.deadline
        result = solve_gaps(self.position, phase)
        self.spent += result.nodes
        if result.winnable:
            self._keep(result.moves)
        self.budget.check(self.spent)
        return result.winnable

    def _beams(self) -> None:
        """Beams of growing width in the current round (module docstring, phase 2)."""
        width = FIRST_BEAM_WIDTH
        while not self._proven():
            left = self._left()
            if left is not None and left < width:
                return
            line = self._beam(width)
            if line is not None:
                before = self.best
                self._keep(line)
                if before is not None and len(self.best) >= len(before) and width > FIRST_BEAM_WIDTH:
                    return  # a wider beam gained nothing: the rest goes to A*
            elif self.best is not None and width > FIRST_BEAM_WIDTH:
                return
            width *= BEAM_GROWTH

    def _beam(self, width: int) -> list[str] | None:
        board = self.board
        start = self.grid
        home = board.home(start)
        limit = len(self.best) if self.best is not None else 10 ** 6
        level = [(start, home, board.bound(home))]
        seen = {start}
        parents: list[list] = []
        made = 0
        depth = 0
        while level and depth + 1 < limit:
            depth += 1
            candidates = []
            for index, (grid, home, h) in enumerate(level):
                for card, frm, to in board.fills(grid):
                    child = bytearray(grid)
                    child[frm], child[to] = 0, card
                    child_b = bytes(child)
                    if child_b in seen:
                        continue
                    seen.add(child_b)
                    made += 1
                    if made == BEAM_POSITIONS_PER_NODE:
                        made = 0
                        self._tick()
                    moved = board.moved_home(home, card, frm, to)
                    child_home = home if moved is None else moved
                    child_h = h if moved is None else board.bound(moved)
                    if child_h == 0:
                        return self._beam_line(parents, index, card, to)
                    if depth + child_h >= limit:
                        continue
                    candidates.append((child_h, board.dead_and_adjacent(child_b), index, card, to,
                                       child_b, child_home))
            if len(candidates) > width:
                candidates.sort(key=_rank)
                del candidates[width:]
            parents.append([(index, card, to) for _, _, index, card, to, _, _ in candidates])
            level = [(grid, home, h) for h, _, _, _, _, grid, home in candidates]
        return None

    @staticmethod
    def _beam_line(parents: list, index: int, card: int, to: int) -> list[str]:
        line = [fill_text(card, to)]
        for level in reversed(parents):
            index, card, to = level[index]
            line.append(fill_text(card, to))
        line.reverse()
        return line

    def _astar(self) -> None:
        """A* below the best length known (module docstring, phase 3)."""
        board = self.board
        start = self.grid
        home = board.home(start)
        h0 = board.bound(home)
        upper = len(self.best) if self.best is not None else 10 ** 6
        counter = itertools.count()
        # entry: f, -g, tie, grid; came[grid] = (g, parent grid, card, to, home, h)
        came: dict[bytes, tuple] = {start: (0, None, 0, 0, home, h0)}
        queue = [(h0, 0, next(counter), start)]
        try:
            while queue:
                f, neg_g, _, grid = heapq.heappop(queue)
                g = -neg_g
                entry = came[grid]
                if entry[0] != g:
                    continue  # reached again by a shorter line
                if f > self.lower:
                    self.lower = f
                if f >= upper:
                    break
                h = entry[5]
                if h == 0:
                    self._keep(self._line(came, grid))
                    self.lower = max(self.lower, len(self.best))
                    return
                self._tick()
                home = entry[4]
                for card, frm, to in board.fills(grid):
                    child = bytearray(grid)
                    child[frm], child[to] = 0, card
                    child_b = bytes(child)
                    old = came.get(child_b)
                    if old is not None and old[0] <= g + 1:
                        continue
                    moved = board.moved_home(home, card, frm, to)
                    child_home = home if moved is None else moved
                    child_h = h if moved is None else board.bound(moved)
                    if g + 1 + child_h >= upper:
                        continue
                    came[child_b] = (g + 1, grid, card, to, child_home, child_h)
                    heapq.heappush(queue, (g + 1 + child_h, -(g + 1), next(counter), child_b))
        except BudgetExceeded:
            if queue:
                self.lower = max(self.lower, min(upper, queue[0][0]))
            raise
        # the queue ran out below ``upper``: no win is shorter than the best known (with none
        # known, no win at all)
        if self.best is None:
            self.lost = True
        self.lower = max(self.lower, upper)

    @staticmethod
    def _line(came: dict, grid: bytes) -> list[str]:
        line = []
        while True:
            _, parent, card, to, _, _ = came[grid]
            if parent is None:
                break
            line.append(fill_text(card, to))
            grid = parent
        line.reverse()
        return line


def _rank(candidate: tuple) -> tuple:
    return candidate[0], candidate[1]


def shortest_gaps(position, budget: Budget | None = None) -> GapsShortest:
    """The shortest win from a Gaps engine position (module docstring)."""
    if position.status is Status.WON:
        return GapsShortest(True, (), True, 0, 0)
    return _Par(position, budget or Budget(None, None)).run()
