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
not hold across a redeal and no proof is attempted: the answer is the shortest of the cleaned
line found over all rounds, a beam's line that wins in the current round alone, and the best
line with its last round (after its last redeal) searched again by home beams of growing width
while the budget lasts, said as "best known" with no bound.

Every line is cleaned and replayed by the engine (``clean_line``) before it is kept.
"""

from __future__ import annotations

import heapq
import itertools

from app.engine import Status

from .gaps import COLUMNS, ROWS, GapsCore, card_code, fill_text, solve_gaps
from .lines import clean_line
from .result import Budget, BudgetExceeded
from .shortest import ShortestWin

FIRST_BEAM_WIDTH = 256  # the first beam's width; each next one is four times wider
BEAM_GROWTH = 4
SOLVE_SHARE = 3  # at most a third of the positions goes to the first win (``solve``) ...
A_STAR_SHARE = 2  # ... and in the last round half of what is left is kept back for A*


class _Par:
    def __init__(self, position, budget: Budget) -> None:
        self.position = position
        self.budget = budget
        self.spent = 0
        self.best: tuple[str, ...] | None = None
        self.lower = 0
        starters = tuple("CDHS".index(s) for s in (position.starters or ()))
        self.core = GapsCore(ROWS, COLUMNS, starters)
        self.grid = bytes(card_code(c) for c in position.grid)
        self.last_round = not position.can_redeal()
        self.lost = False
        self.keep_back = 0
        self.out_of_beam = False

    # --- the budget ------------------------------------------------------------------------
    def _tick(self, count: int = 1) -> None:
        before = self.spent
        self.spent += count
        if before // Budget.CHECK_EVERY != self.spent // Budget.CHECK_EVERY:
            self.budget.check(self.spent)

    def _left(self) -> int | None:
        """Positions left to this phase (those kept back for A* aside)."""
        total = self.budget.max_nodes
        return None if total is None else total - self.spent - self.keep_back

    def _keep(self, moves) -> int:
        """Keep ``moves`` when it is shorter than the best known, cleaned and replayed by the
        engine; the best length known."""
        line = clean_line(self.position, tuple(moves))
        if self.best is None or len(line) < len(self.best):
            self.best = line
        return len(self.best)

    def _proven(self) -> bool:
        return self.best is not None and self.lower >= len(self.best)

    def answer(self) -> ShortestWin:
        lower = self.lower if self.last_round else 0
        if self.best is None:
            return ShortestWin(None, (), False, lower, self.spent)
        return ShortestWin(True, self.best, self._proven(), min(lower, len(self.best)), self.spent)

    # --- the phases ------------------------------------------------------------------------
    def run(self) -> ShortestWin:
        if self.last_round:
            self.lower = self.core.bound(self.core.home(self.grid))
        try:
            won = self._any_win()
            if won is False:
                return ShortestWin(False, (), True, 0, self.spent)
            self._beams()
            self.keep_back = 0
            if not self.last_round:
                self._last_round_again()
            if self.last_round and not self._proven():
                self._astar()
                if self.lost:
                    return ShortestWin(False, (), True, 0, self.spent)
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
        left = self._left()
        self.keep_back = 0 if left is None or not self.last_round else left // A_STAR_SHARE
        self.out_of_beam = False
        while not self._proven():
            left = self._left()
            if left is not None and left < width:
                return
            line = self._beam(width)
            if self.out_of_beam:
                return
            if line is not None:
                before = None if self.best is None else len(self.best)
                if self._keep(line) == before and width > FIRST_BEAM_WIDTH:
                    return  # a wider beam gained nothing: the rest goes to A*
            elif self.best is not None and width > FIRST_BEAM_WIDTH:
                return
            width *= BEAM_GROWTH

    def _last_round_again(self) -> None:
        """Before the last round: the best line's last round searched again by home beams of
        growing width from the position its last redeal deals (that round is the last, so the
        beam's ranking holds there); a shorter end replaces the line's, the rounds before it
        kept as they are. Runs while the budget lasts."""
        line = self.best
        if not line or "N" not in line:
            return
        cut = len(line) - line[::-1].index("N")
        here = self.position
        for move in line[:cut]:
            here = here.apply(move)
        grid = [card_code(c) for c in here.grid]
        width = FIRST_BEAM_WIDTH
        while self.best is not None and len(self.best) > cut:
            left = self._left()
            if left is not None and left < width:
                return
            end = self._beam(width, grid, len(self.best) - cut)
            if self.out_of_beam:
                return
            if end is not None:
                self._keep(list(line[:cut]) + end)
            width *= BEAM_GROWTH

    def _beam(self, width: int, grid=None, limit: int | None = None) -> list[str] | None:
        """A home beam (``GapsCore.home_beam``) from ``grid`` (the position's), for a line
        shorter than ``limit`` (the best known), on the positions left."""
        core = self.core
        left = self._left()
        core.budget = Budget(left, None, self.budget.clock)
        core.budget.deadline = self.budget.deadline
        core.nodes = 0
        if grid is None:
            grid, limit = self.grid, None if self.best is None else len(self.best)
        try:
            line = core.home_beam(grid, width, limit)
        except BudgetExceeded:
            self.out_of_beam = True
            return None
        finally:
            self.spent += core.nodes
        return None if line is None else [fill_text(card, to) for card, to in line]

    def _astar(self) -> None:
        """A* below the best length known (module docstring, phase 3)."""
        upper = len(self.best) if self.best is not None else None
        line, lower, exhausted = astar(self.core, self.grid, upper, self._tick)
        self.lower = max(self.lower, lower)
        if line is not None:
            self.lower = max(self.lower, self._keep(fill_text(card, to) for card, to in line))
        elif exhausted and self.best is None:
            self.lost = True  # nothing wins at all


def astar(core: GapsCore, start, upper: int | None, tick) -> tuple[list | None, int, bool]:
    """A* over every fill of the round on ``core``'s board from ``start`` with the bound
    ``core.bound``, dropping every position whose bound reaches ``upper``: ``(line, lower,
    exhausted)``. ``line`` is a shortest win ((card, to) pairs) when one is shorter than
    ``upper``; ``lower`` a length every win reaches; ``exhausted`` says the queue ran out (no win
    shorter than ``upper``, so ``lower`` is ``upper``). ``tick()`` is called for every position
    expanded and may raise ``BudgetExceeded``, which ends the search with what it proved."""
    start = bytes(start)
    home = core.home(start)
    h0 = core.bound(home)
    limit = 1 << 30 if upper is None else upper
    counter = itertools.count()
    # a queue entry is (g + bound, -g, tie, grid); came[grid] = (g, parent, card, to, home, bound)
    came: dict[bytes, tuple] = {start: (0, None, 0, 0, home, h0)}
    queue = [(h0, 0, next(counter), start)]
    lower = h0
    try:
        while queue:
            f, neg_g, _, grid = heapq.heappop(queue)
            g = -neg_g
            entry = came[grid]
            if entry[0] != g:
                continue  # reached again by a shorter line since
            lower = max(lower, f)
            if f >= limit:
                break
            h = entry[5]
            if h == 0:
                return _came_line(came, grid), f, False
            tick()
            home = entry[4]
            for card, frm, to in core.all_fills(grid):
                child = bytearray(grid)
                child[frm], child[to] = 0, card
                after = bytes(child)
                old = came.get(after)
                if old is not None and old[0] <= g + 1:
                    continue
                moved = core.moved_home(home, card, frm, to)
                child_h = h if moved is None else core.bound(moved)
                if g + 1 + child_h >= limit:
                    continue
                came[after] = (g + 1, grid, card, to, home if moved is None else moved, child_h)
                heapq.heappush(queue, (g + 1 + child_h, -(g + 1), next(counter), after))
    except BudgetExceeded:
        # the last position popped was left unexpanded, and every one queued has at least its
        # g + bound: that is a bound every win reaches
        return None, lower, False
    return None, limit, True


def _came_line(came: dict, grid: bytes) -> list:
    line = []
    while True:
        _, parent, card, to, _, _ = came[grid]
        if parent is None:
            break
        line.append((card, to))
        grid = parent
    line.reverse()
    return line


def shortest_gaps(position, budget: Budget | None = None) -> ShortestWin:
    """The shortest win from a Gaps engine position (module docstring)."""
    if position.status is Status.WON:
        return ShortestWin(True, (), True, 0, 0)
    return _Par(position, budget or Budget(None, None)).run()
