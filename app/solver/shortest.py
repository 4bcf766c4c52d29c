"""The shortest win of a Pyramid-family position, proven: A* over every move, each counting 1.

``shortest_win(position)`` first asks the exact search (``solve``) for any win: none means
no win at all; one gives an upper bound ``U`` (its cleaned length). A* then looks only for
strictly shorter lines (it drops every position whose bound reaches ``U``). When A* pops a
won position, that line is a shortest win; when it runs out of positions, nothing shorter
than ``U`` exists and the known line is a shortest win. When the budget runs out first,
beam searches look for a shorter line with the positions kept back for them (``_Par``), and
the answer is the shortest line known, not proven, with the smallest bound A* had reached:
every win needs at least that many moves. The budget counts positions (A*'s and the
beams', and the relaxed games' on an allowance of their own), never seconds, so the same deal
gets the same answer on any machine.

A position is the removed layout mask, the stock pointer, the mask of the stock and waste
cards still there (one fixed sequence: waste bottom … waste top, stock top … stock bottom;
the waste is the cards before the pointer), the pass number (left out with unlimited
passes, where it changes nothing) and, in Giza, the height of each reserve pile.

Moves: every removal (a king alone, a pair summing to 13 among available cards), ``D`` and
``R``, as the engine allows them. Three reductions keep a shortest line:

- an available layout king goes at once: it must go some time, it costs one move whenever
  it goes, and taking it away only uncovers cards (a king is never a partner);
- an open layout card whose one partner left in the whole game (layout, stock, waste or
  reserves) is available now goes with it at once: every win removes that pair, and doing
  it earlier only uncovers cards and, for a stock or waste partner, saves the moves that
  would pass it or keep it on the waste; an open card with no partner left means no win;
- a king on top of the stock is removed, never drawn: both cost one move and both take it
  off the stock, but drawn it would lie on the waste and cover the waste below it.

With the reach bound (Double Pyramid) positions whose stock and waste hold the same values in
the same order are one (``ShortestSearch.canonical``): the game from a position depends only on
its values, and every move is told by its place, so A* expands one of them (with two decks a
stock holds about four cards of each value, and two lines that took different cards of one value
often leave the same values).

The bound (admissible: A* re-opens a position reached by a shorter line, so its first won
position is a shortest win) comes from value-group relaxations, as in ``pyramid_last``: the
relaxed game on one group {v, 13 − v} keeps that group's cards, and every other card may
be taken away at any time for free. A real line maps to a relaxed line of each group: its
moves on the group's cards (pairs and draws) are relaxed moves, every other move is
nothing, and a recycle is a relaxed recycle, which the relaxed game makes for free. So
the real moves on a group's cards are at least that group's relaxed shortest win ``d(g)``;
those sets of moves are disjoint and kings go alone, so a win needs at least kings that
must go + Σ d(g) moves. Each ``d(g)`` is computed exactly, on demand, by a memoised
search of the relaxed game, acyclic because the pass is part of its position (with
unlimited passes a flag is: a pass that takes no stock or waste card away is never needed,
``_GroupGame``). A move
changes one group's relaxed position (a recycle: all of them), so a child's bound is its
parent's with one ``d(g)`` looked up again.

The same holds for relaxed games on several value groups at once (the cards of groups g1, g2,
g3 kept, every other card free): the moves on their cards are still disjoint from the other
games' moves, and a joint game also charges what single groups leave out (one group's cards
covering another's, or lying between them in the stock), so its bound is at least the sum of
its groups' and cuts far more positions. Every partition of the groups into joint games gives
such a bound, and which one is largest differs from position to position, so the strong bound
is the largest over three partitions into threes, chosen to join between them as many pairs
of groups as they can (13 of the 15; all ten partitions cut a little more, but exploring their
twenty games costs more than it saves). Each joint game is much larger to explore, so A* starts with single
groups and takes groups three together only for a deal of one pyramid that single groups do
not settle within a sixth of the budget (``_Par._prove``).

With two pyramids (limited passes, the pyramids the goal) the bound also counts the stock's
depth (``ShortestSearch._reach_bound``). Each relaxed game knows, besides its shortest win, the
least depth any of its wins takes or draws a stock card from (``n``: every win recycles). A
real win projects to a relaxed win of every game, so it goes at least as deep as the deepest
of those, ``deep``, and takes or draws every stock card up to there: a stock king among them
costs a move no relaxed game counts, and each game's line must take or draw its own cards up
to ``deep`` (``_GroupGame.reaching``, at least its shortest win); when ``deep`` is ``n`` the
real win recycles, a move of its own. One pyramid's deals are proven sooner without it: it
cuts positions, but each costs far more.

With the reach bound and one partition the bound also counts the waste's burial
(``ShortestSearch._burial``): a relaxed game takes its own waste cards as though nothing lay over
them. Cards leave the waste only from its top or by a recycle, so the waste cards a real win takes
away in this pass are those over some card (the cut): each group's relaxed line takes its own of
those away before a recycle and leaves its top waste card under the cut there until one, and each
king over the cut costs a move. For that cut each group's line is a relaxed win with those
conditions, the real win goes as deep as the deepest of their least reaches, and the reach bound
over those wins holds; so does the least over the cuts. A card buried under other groups' cards
thus costs their clearing, or a pass and the whole stock drawn. It is dear to take (games with
conditions to explore), so A* takes it for a position only when about to expand it, and puts the
position back when it is higher (a child gets the bound without it); the beams rank by the bound
without it.

A search with the reach bound (``ShortestSearch.compiled``) runs its A* and beams in the
compiled core, ``_core.c``: the same moves, bound and pruning, this module being its
specification (the tests hold the two to the same shortest wins), at about 20 times the speed;
``CORE_POSITIONS`` of its positions count one of the budget (``CORE_BURIAL_POSITIONS`` of its A*'s
with the burial). With it, Double Pyramid's beams
before A* are ``CORE_BEAMS`` (leaving A* at least one part in ``CORE_ASTAR_SHARE``), the wide
ones ranking their positions by the bound plus what the cards on the waste and in the stock may
still cost (``ShortestSearch.beam``), and A* gets every position left.
"""

from __future__ import annotations

import contextlib
import functools
import heapq
import itertools
from dataclasses import dataclass

from app.engine import PyramidPosition, Status

from .lines import clean_line
from .pyramid import solve_problem
from .pyramid_problem import (
    DRAW,
    KING,
    RECYCLE,
    RESERVE,
    STOCK,
    WASTE,
    PyramidProblem,
    geometry,
    problem_of,
)
from .result import Budget, BudgetExceeded

try:  # the compiled A* (``setup.py`` builds it; without it the search runs in Python)
    from . import _core  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - a machine without a C compiler
    _core = None

PAR_POSITIONS = 300_000  # positions a par search may look at by default (all its phases together)
# The compiled A* (``_core``) expands this many positions for one of the budget: about the
# ratio of its speed to Python's, so that its phase costs the CPU a Python phase would
CORE_POSITIONS = 25
# ... but its A* with the waste's burial (``ShortestSearch._burial``, Double Pyramid) takes that bound
# for each position it expands, dearer than a position: this many of those count one (fewer would
# lose proofs the budget makes; 12 instead of 10 since the core's bound asks memory less: one proof
# more on the held-out seeds, bounds a little higher, the slowest deal 7.9 s of CPU: docs/par.md)
CORE_BURIAL_POSITIONS = 12
CORE_MAX_SEQUENCE = 50  # stock and waste cards the core packs in a position
# positions one call of the core may expand whatever the budget: it keeps every position it makes
# (about 50 bytes per expansion; 7.5 million, the par budget's, peak at about 380 MB)
CORE_MAX_POSITIONS = 16_000_000
INF = 1 << 30
QUICK_SHARE = 6  # one part in six of the positions goes to A* with the cheap bound first ...
BEST_KNOWN_SHARE = 5  # ... and one in five is kept for the best-known line, if A* proves nothing
# With two pyramids, beams up to this width look for a short line before A* (its length is A*'s
# ceiling, and the line is the best known if A* runs out); the reach bound makes A* worth most
# of the budget, and one part in this many is kept for wider beams
EARLY_BEAM_WIDTH = 512
# The compiled core's beams before A* (``_core``, whose beams are cheaper): (width, weights) of
# each (``ShortestSearch.beam``). Two narrow ones ranked by the bound alone find a line at little
# cost, which the next beams and A* only look below (a deal whose par it is is proven sooner).
# The wide ones rank with weights (two moves a waste card and one a stock card; a quarter move a
# waste card): ranked by the bound alone a beam four times as wide finds longer lines, the two
# rankings find different lines, and the positions wider beams would take go to A* (its bound)
CORE_BEAMS = ((256, (0, 0)), (4096, (0, 0)), (16_384, (8, 4)), (16_384, (1, 0)))
# ... and the beams before A* leave it at least one part in this many of the positions: its
# bound is the answer's lower bound
CORE_ASTAR_SHARE = 10
TWO_PYRAMIDS_BEST_KNOWN_SHARE = 10
QUICK_GROUPS, DEEP_GROUPS = 1, 3  # value groups per relaxed game of each bound
FIRST_BEAM_WIDTH = 64  # the best-known search's first width; each next run doubles it
RELAXED_PER_POSITION = 8  # relaxed positions a search may explore per position it may expand
DEEP_PARTITIONS = 3  # partitions of the groups into threes the strong bound takes the largest of


@dataclass(frozen=True, slots=True)
class ShortestWin:
    """``winnable``: ``True`` (``moves`` wins), ``False`` (proven: nothing wins) or ``None``
    (no win known within the budget). ``proven``: no win is shorter than ``moves`` (with
    ``winnable`` False: no win exists). ``lower_bound``: every win needs at least this many
    moves (``len(moves)`` when proven). ``nodes``: positions looked at, by every phase."""

    winnable: bool | None
    moves: tuple[str, ...] = ()
    proven: bool = False
    lower_bound: int = 0
    nodes: int = 0


def shortest_win(position, *, budget_nodes: int | None = PAR_POSITIONS,
                 budget_seconds: float | None = None) -> ShortestWin:
    """The shortest win from a Pyramid-family engine position (``app.engine.PyramidPosition``),
    proven when the budget allows, else the shortest line found with the bound every win
    reaches (module docstring). The budget is in positions, so that the answer is the same on
    any machine; ``budget_seconds`` only caps the time on top. Answers are cached per position
    and budget."""
    if not isinstance(position, PyramidPosition):
        raise TypeError(f"no shortest-win search for {type(position).__name__}")
    return _cached(position, budget_nodes, budget_seconds)


@functools.lru_cache(maxsize=256)
def _cached(position: PyramidPosition, budget_nodes, budget_seconds) -> ShortestWin:
    if position.status is Status.WON:
        return ShortestWin(True, (), True, 0, 0)
    return _Par(position, Budget(budget_nodes, budget_seconds)).run()


class _Par:
    """One par search, in phases that share one allowance of positions (``spent``):

    1. ``_any_win``: the exact search (``solve``) finds a win, or proves there is none;
    2. ``_prove``: A* proves a shortest win shorter than the best line known, or that none is;
    3. ``_best_known``: where A* ran out, beam searches of growing width look for a shorter
       line with the positions kept back for them.

    Every line is replayed by the engine (``clean_line``) before it is kept."""

    def __init__(self, position: PyramidPosition, budget: Budget) -> None:
        self.position = position
        self.problem = problem_of(position)
        self.budget = budget
        self.spent = 0
        self.best: tuple[str, ...] | None = None  # the shortest winning line known
        self.lower = 0

    def run(self) -> ShortestWin:
        try:
            won = self._any_win()
            if won is False:
                return ShortestWin(False, (), True, 0, self.spent)
            search = self._prove()
            if self._proven():
                return self._answer()
            if search is not None and search.exhausted:  # no win at all, and none was known
                return ShortestWin(False, (), True, 0, self.spent)
            self._best_known(search, _widths(FIRST_BEAM_WIDTH if self.problem.pyramids == 1 else 2 * EARLY_BEAM_WIDTH))
        except BudgetExceeded:
            pass
        return self._answer()

    def _answer(self) -> ShortestWin:
        if self.best is None:
            return ShortestWin(None, (), False, self.lower, self.spent)
        return ShortestWin(True, self.best, self._proven(), min(self.lower, len(self.best)), self.spent)

    def _proven(self) -> bool:
        return self.best is not None and self.lower >= len(self.best)

    def _allowance(self, cap: int | None = None, keep_back: int = 0) -> Budget:
        """The budget of the next phase: the positions left but ``keep_back``, at most ``cap``;
        ``BudgetExceeded`` when none are left."""
        total = self.budget.max_nodes
        left = None if total is None else total - self.spent - keep_back
        if cap is not None:
            left = cap if left is None else min(left, cap)
        phase = Budget(left, None, self.budget.clock)
        phase.deadline = self.budget.deadline
        phase.check(0)
        return phase

    def _keep(self, moves) -> None:
        """Keep ``moves`` (notation) when it is a win shorter than the best known, cleaned and
        replayed by the engine."""
        line = clean_line(self.position, tuple(moves))
        if self.best is None or len(line) < len(self.best):
            self.best = line

    def _any_win(self) -> bool | None:
        """The exact search, on at most half the positions (A* may still find a win)."""
        total = self.budget.max_nodes
        phase = self._allowance(None if total is None else total // 2)
        won, moves, nodes = solve_problem(self.problem, phase)
        self.spent += nodes
        if won:
            self._keep(moves)
        return won

    def _prove(self) -> ShortestSearch | None:
        """A* with the bound of single value groups while it is cheap; a deal of one pyramid it
        does not settle within one part in ``QUICK_SHARE`` of the positions is searched again
        with the bound of groups taken three together: each of those relaxed games costs far
        more to explore, but it cuts the positions A* must expand several times over on the
        hard deals. With two pyramids such a game is too large to pay for itself, and A* keeps
        the cheap bound, and beams of widths up to ``EARLY_BEAM_WIDTH`` first find a short line
        (the exact search's first win is far longer): A* then only looks for shorter ones, and
        the line stands if it runs out. One part in ``BEST_KNOWN_SHARE`` is kept back for
        ``_best_known``. Answers the first search (its relaxed games are the cheap ones)."""
        total = self.budget.max_nodes
        share = BEST_KNOWN_SHARE if self.problem.pyramids == 1 else TWO_PYRAMIDS_BEST_KNOWN_SHARE
        keep_back = 0 if total is None else total // share
        phases: tuple[tuple[int, int | None], ...] = ((QUICK_GROUPS, None),)
        if self.problem.pyramids == 1:
            phases = ((QUICK_GROUPS, None if total is None else max(1, total // QUICK_SHARE)), (DEEP_GROUPS, None))
        first = None
        for together, cap in phases:
            search = ShortestSearch(self.problem, self._allowance(cap, keep_back), together)
            if total is not None and self.problem.pyramids > 1:
                # the relaxed games' allowance is the whole search's, not a phase's: the early
                # beams' phase is followed by A* and the last beams on the same relaxed games
                search.relaxed_cap = RELAXED_PER_POSITION * total
            first = first or search
            if self.problem.pyramids > 1:
                if search.compiled():  # wide beams are cheap there, and A* gets every position left
                    with contextlib.suppress(BudgetExceeded):  # the beams reached A*'s share: A* runs all the same
                        self._best_known(search, CORE_BEAMS, 0 if total is None else total // CORE_ASTAR_SHARE)
                    keep_back = 0
                else:
                    self._best_known(search, _widths(FIRST_BEAM_WIDTH, EARLY_BEAM_WIDTH), keep_back)
                search.budget, search.nodes = self._allowance(cap, keep_back), 0
            line, lower = search.run(None if self.best is None else len(self.best))
            self.spent += search.nodes
            self.lower = max(self.lower, lower)
            if line is not None:
                self._keep(self.problem.move_text(m) for m in line)
            if self._proven() or search.exhausted:
                return search
        return first

    def _best_known(self, search: ShortestSearch | None, beams, keep_back: int = 0) -> None:
        """Beam searches (``ShortestSearch.beam``), one for each (width, weights) of ``beams``,
        with the positions left but ``keep_back``, each looking for a line shorter than the best
        known; a line as short as the bound ends the search (it is proven). A beam is
        deterministic: one as wide as an earlier one, ranked alike, finds nothing new."""
        if search is None:
            return
        for width, weights in beams:
            if self._proven():
                return
            phase = self._allowance(None, keep_back)
            search.budget, search.nodes = phase, 0
            try:
                line = search.beam(width, None if self.best is None else len(self.best), weights)
            finally:
                self.spent += search.nodes
            if line is not None:
                self._keep(self.problem.move_text(m) for m in line)


class _GroupGame:
    """The relaxed game on one value group (module docstring), recycles free, with the
    shortest win from each of its positions memoised. Its positions are packed like the
    real ones (``ShortestSearch.pack``) with only the group's cards: removed layout cards,
    the pointer at the group's next card in the stock, the group's sequence cards left and
    the pass; in Giza, the group's cards left in each pile.

    With unlimited passes the pass's place holds a flag instead, "a recycle may come": set at
    the start and by every move that takes a stock or waste card away, cleared by a recycle.
    A pass that takes no stock or waste card away (only draws and layout pairs) comes back to
    where it started, so a shortest relaxed win without it, its draws and its recycle (the
    layout pairs kept) is no longer: the relaxed game that recycles only after taking a card
    away has the same shortest wins, and, every pass taking a card, no cycles (a pass count
    would multiply the positions by up to one more than the group has cards)."""

    def __init__(self, search: ShortestSearch, groups: tuple[int, ...]) -> None:
        pr = search.problem
        vals, seq = search.vals, pr.sequence
        self.search = search
        self.groups = groups
        values = {v for g in groups for v in (g, 13 - g)}
        self.lm = sum(1 << i for i in range(search.L) if vals[i] in values)
        self.lay = [i for i in range(search.L) if self.lm >> i & 1]
        self.cov = {x: search.under[x] & self.lm for x in self.lay}
        self.sm = sum(1 << k for k in range(len(seq)) if seq[k] in values)
        self.n = len(seq)
        # Giza: the group's cards of each pile (bottom first), and per real height how many
        self.piles = [tuple(v for v in pile if v in values) for pile in pr.reserves]
        self.below = [[sum(1 for v in pile[:h] if v in values) for h in range(len(pile) + 1)]
                      for pile in pr.reserves]
        self.passes = pr.passes  # None: unlimited (the pass's place is the recycle flag)
        self.memo: dict[int, int] = {}
        self.shapes: dict[int, tuple] = {}
        self.reaches: dict[int, int] = {}  # the reach bound's memos (``reach``, ``reaching``)
        self.reached: dict[int, int] = {}
        self.helds: dict[tuple, tuple[int, int]] = {}  # the waste's burial (``held``, ``burying``)
        self.buried: dict[tuple, int] = {}
        self.deep_shift = search.S + (pr.passes or 1).bit_length() + 1

    def project(self, pm: int, p: int, am: int, pas: int, heights: int) -> int:
        """The relaxed position of a real one, packed."""
        search = self.search
        if self.piles:
            gh = 0
            for k, below in enumerate(self.below):
                gh |= below[heights >> 2 * k & 3] << 2 * k
            return pm & self.lm | gh << search.P
        am &= self.sm
        x = am >> p
        p = p + (x & -x).bit_length() - 1 if x else self.n
        return pm & self.lm | p << search.P | am << search.A | pas << search.S

    def distance(self, key: int) -> int:
        got = self.memo.get(key)
        if got is None:
            if self.piles:
                got = self._giza(key)
            elif self.search.reach_bound:
                got = self._stock_reach(key)
            else:
                got = self._stock(key)
            self.memo[key] = got
        return got

    def _shape(self, rm: int) -> tuple:
        """Open cards of the group in shape ``rm`` and the pairs among them (with overlap,
        also a card and the one card of the group still over it, when that one is open)."""
        got = self.shapes.get(rm)
        if got is None:
            vals, cov = self.search.vals, self.cov
            ex = [x for x in self.lay if not rm >> x & 1 and not cov[x] & ~rm]
            pairs = [(1 << x) | (1 << y) for a, x in enumerate(ex) for y in ex[a + 1:]
                     if vals[x] + vals[y] == 13]
            if self.search.problem.overlap:
                for x in self.lay:
                    left = cov[x] & ~rm
                    if not rm >> x & 1 and left and not left & (left - 1):
                        y = left.bit_length() - 1
                        if vals[x] + vals[y] == 13 and not cov[y] & ~rm:
                            pairs.append((1 << x) | left)
            got = self.shapes[rm] = (tuple(ex), tuple(pairs))
        return got

    def _tick(self) -> None:
        """Relaxed positions have an allowance of their own, ``RELAXED_PER_POSITION`` for each
        position the search may expand (the time budget, if any, is checked too)."""
        search = self.search
        search.relaxed += 1
        if not search.relaxed & 1023 and search.budget is not None:
            budget = search.budget
            cap = search.relaxed_cap
            if cap is None and budget.max_nodes is not None:
                cap = RELAXED_PER_POSITION * budget.max_nodes
            if cap is not None and search.relaxed >= cap:
                raise BudgetExceeded
            budget.check(search.nodes)

    def _stock(self, key: int) -> int:
        """The shortest relaxed win from ``key`` (a game with a stock): every move costs one,
        but a recycle."""
        search = self.search
        if key & search.full == self.lm and (not search.goal_all or not key >> search.A & search.seq_mask):
            return 0
        self._tick()
        memo, distance = self.memo, self.distance
        best = INF
        for child, cost, _touch in self._moves(key):
            got = memo.get(child)
            if got is None:
                got = distance(child)
            if cost + got < best:
                best = cost + got
        return best

    def _moves(self, key: int) -> list[tuple[int, int, int]]:
        """The relaxed moves from ``key`` (a game with a stock) as (child, cost, the sequence
        index of the stock card it takes or draws: -1 for none, ``n`` for a recycle). The hottest
        loop of the par search: the packing is written out."""
        search = self.search
        P, A, S = search.P, search.A, search.S
        pm, p, am, pas = key & search.full, key >> P & 63, key >> A & search.seq_mask, key >> S
        n, vals, seq = self.n, search.vals, search.problem.sequence
        passes = self.passes
        taken = (pas if passes is not None else 1) << S
        ex, pairs = self._shape(pm)
        out = [(key | bits, 1, -1) for bits in pairs]
        below = am & ((1 << p) - 1)
        waste = below.bit_length() - 1 if below else -1
        if p < n:
            after = am & ~(1 << p)
            x = after >> (p + 1)
            rest = (p + (x & -x).bit_length() if x else n) << P | after << A | taken
            partner = 13 - seq[p]
            for y in ex:
                if vals[y] == partner:
                    out.append((pm | 1 << y | rest, 1, p))
            x = am >> (p + 1)
            out.append((pm | (p + (x & -x).bit_length() if x else n) << P | am << A | pas << S, 1, p))
        if waste >= 0:
            after = am & ~(1 << waste)
            rest = p << P | after << A | taken
            partner = 13 - seq[waste]
            for y in ex:
                if vals[y] == partner:
                    out.append((pm | 1 << y | rest, 1, -1))
            if p < n and seq[p] == partner:
                both = after & ~(1 << p)
                x = both >> (p + 1)
                out.append((pm | (p + (x & -x).bit_length() if x else n) << P | both << A | taken, 1, p))
        if p == n and (pas < passes if passes is not None else pas):
            x = am & -am
            out.append((pm | ((x.bit_length() - 1) if x else n) << P | am << A
                        | (pas + 1 if passes is not None else 0) << S, 0, n))
        return out

    def _stock_reach(self, key: int) -> int:
        """``_stock`` that also keeps ``reach`` of ``key``: the least, over the relaxed wins from
        it, of the deepest sequence index a win takes or draws a card from (-1: none; ``n``:
        every win recycles; ``INF``: none wins). Every real win touches the stock that deep
        (``ShortestSearch._reach_bound``)."""
        if key & self.search.full == self.lm:  # the goal (the pyramid: the reach bound's only one)
            self.reaches[key] = -1
            return 0
        self._tick()
        best = deepest = INF
        distance, reaches = self.distance, self.reaches
        for child, cost, touch in self._moves(key):
            d = distance(child)
            if d < INF:
                best = min(best, cost + d)
                deepest = min(deepest, max(touch, reaches[child]))
        reaches[key] = deepest
        return best

    def reach(self, key: int) -> int:
        got = self.reaches.get(key)
        if got is None:
            self.distance(key)
            got = self.reaches[key]
        return got

    def reaching(self, key: int, deep: int) -> int:
        """The shortest relaxed win from ``key`` that takes or draws every card of the group
        in the stock up to sequence index ``deep`` (the relaxed pointer goes past it, or a
        recycle comes); ``distance`` once that is done."""
        search = self.search
        P = search.P
        if key >> P & 63 > deep:
            return self.distance(key)
        memo_key = key | (deep + 1) << self.deep_shift
        got = self.reached.get(memo_key)
        if got is None:
            self._tick()
            got = INF
            n, distance, reaching = self.n, self.distance, self.reaching
            for child, cost, touch in self._moves(key):
                d = distance(child) if touch == n or child >> P & 63 > deep else reaching(child, deep)
                got = min(got, cost + d)
            self.reached[memo_key] = got
        return got

    def _held(self, key: int, need: int, frozen: int) -> tuple[int, int]:
        """``need`` and ``frozen`` as they stand at ``key``: the cards of ``need`` still on the
        waste, and ``frozen`` only while it is there (-1: none)."""
        am = key >> self.search.A & self.search.seq_mask
        return need & am, frozen if frozen >= 0 and am >> frozen & 1 else -1

    def held(self, key: int, need: int, frozen: int) -> tuple[int, int]:
        """The shortest relaxed win from ``key`` that, before any recycle, takes every card of
        ``need`` (a mask of sequence indices, cards on the waste) away and never takes the waste
        card ``frozen`` (a sequence index; -1: none) from the waste, and the least, over those
        wins, of the deepest sequence index one takes or draws a card from (as ``reach``: ``n``
        a recycle, ``INF`` none wins). ``ShortestSearch._burial`` says why."""
        need, frozen = self._held(key, need, frozen)
        if not need and frozen < 0:
            return self.distance(key), self.reach(key)
        search = self.search
        if not need and key & search.full == self.lm:  # won, the frozen card left on the waste
            return 0, -1
        memo_key = (key, need, frozen)
        got = self.helds.get(memo_key)
        if got is None:
            self._tick()
            best = deepest = INF
            S, pas = search.S, key >> search.S
            for child, cost, touch in self._moves(key):
                if child >> S != pas:  # a recycle: only once every card of ``need`` is gone
                    if need:
                        continue
                    d, reach = self.distance(child), self.n
                elif frozen >= 0 and not child >> search.A >> frozen & 1:
                    continue
                else:
                    d, reach = self.held(child, need, frozen)
                if d < INF:
                    best = min(best, cost + d)
                    deepest = min(deepest, max(touch, reach))
            got = self.helds[memo_key] = (best, deepest)
        return got

    def burying(self, key: int, deep: int, need: int, frozen: int) -> int:
        """The shortest of ``held``'s wins from ``key`` that also reaches ``deep`` as
        ``reaching`` does (-1: any)."""
        if deep < 0:
            return self.held(key, need, frozen)[0]
        need, frozen = self._held(key, need, frozen)
        if not need and frozen < 0:
            return self.reaching(key, deep)
        search = self.search
        if not need and key & search.full == self.lm:  # won, the frozen card left on the waste
            return 0 if (key >> search.P & 63) > deep else self.reaching(key, deep)
        memo_key = (key, need, frozen, deep)
        got = self.buried.get(memo_key)
        if got is None:
            self._tick()
            got = INF
            S, pas = search.S, key >> search.S
            for child, cost, _touch in self._moves(key):
                if child >> S != pas:  # a recycle: only once every card of ``need`` is gone
                    if need:
                        continue
                    d = self.distance(child)
                elif frozen >= 0 and not child >> search.A >> frozen & 1:
                    continue
                else:
                    d = self.burying(child, deep, need, frozen)
                got = min(got, cost + d)
            self.buried[memo_key] = got
        return got

    def _giza(self, key: int) -> int:
        search = self.search
        P = search.P
        pm, gh = key & search.full, key >> P
        if pm == self.lm and (search.problem.goal != "all" or not gh):
            return 0
        self._tick()
        vals, d = search.vals, self.distance
        ex, pairs = self._shape(pm)
        best = INF
        for bits in pairs:
            best = min(best, d(pm | bits | gh << P))
        tops = []
        for k, pile in enumerate(self.piles):
            h = gh >> 2 * k & 3
            if h:
                tops.append((k, pile[h - 1]))
        for k, v in tops:
            lower = gh - (1 << 2 * k)
            for x in ex:
                if vals[x] + v == 13:
                    best = min(best, d(pm | 1 << x | lower << P))
            for k2, v2 in tops:
                if k2 > k and v + v2 == 13:
                    best = min(best, d(pm | (lower - (1 << 2 * k2)) << P))
        return best + 1 if best < INF else INF


def _partitions(groups: tuple[int, ...], size: int):
    """The ways to cut ``groups`` into blocks of ``size`` (the last may be smaller), each block
    in order: ``(1, 2), (3, 4)`` but never ``(3, 4), (1, 2)``."""
    if not groups:
        yield ()
        return
    first, rest = groups[0], groups[1:]
    for others in itertools.combinations(rest, min(size, len(groups)) - 1):
        block = (first, *others)
        for tail in _partitions(tuple(g for g in rest if g not in others), size):
            yield (block, *tail)


def _joining(partitions: list[tuple], count: int) -> list[tuple]:
    """``count`` of ``partitions`` (all when there are no more), taken one by one to join in a
    game the most pairs of groups that no partition taken so far joins: a game of several
    groups sees what single groups miss between the groups it joins."""

    def pairs(blocks: tuple) -> set[tuple[int, int]]:
        return {pair for block in blocks for pair in itertools.combinations(block, 2)}

    chosen: list[tuple] = []
    joined: set[tuple[int, int]] = set()
    while partitions and len(chosen) < count:
        gains = [len(pairs(blocks) - joined) for blocks in partitions]
        best = partitions.pop(gains.index(max(gains)))  # the first of the best
        chosen.append(best)
        joined |= pairs(best)
    return chosen


def _widths(width: int, last_width: int | None = None):
    """Beams ranked by the bound alone (``_Par._best_known``), ``width`` wide, then each twice
    as wide as the last, up to ``last_width`` (no end: until the budget runs out)."""
    while last_width is None or width <= last_width:
        yield width, (0, 0)
        width *= 2


def _first(am: int, q: int, n: int) -> int:
    """The first sequence index at or after ``q`` whose card is still there (``n``: none)."""
    x = am >> q
    return q + (x & -x).bit_length() - 1 if x else n


def _group(v: int) -> int:
    return 0 if v == KING else min(v, 13 - v)


class ShortestSearch:
    """A* over a ``PyramidProblem`` (module docstring). ``run(upper)`` answers ``(line,
    lower)``: a shortest line (engine locations, ``DRAW``, ``RECYCLE``) shorter than
    ``upper`` or ``None``, and a bound every win reaches. ``exhausted`` tells whether every
    position below ``upper`` was expanded; ``BudgetExceeded`` never escapes.

    A position is one integer: the removed layout mask, then the stock pointer (6 bits),
    the mask of the sequence cards left and the pass (3 bits); in Giza, after the layout
    mask, each pile's height (2 bits a pile)."""

    def __init__(self, problem: PyramidProblem, budget: Budget | None = None, together: int = 1,
                 reach_always: bool = False) -> None:
        self.problem = problem
        self.budget = budget
        self.nodes = 0
        self.relaxed = 0  # positions of the relaxed games explored
        self.relaxed_cap: int | None = None  # their allowance (else by the budget, ``_tick``)
        self.exhausted = False
        self.covers, _, self.under = geometry(problem.rows, problem.pyramids)
        self.L = len(problem.values)
        self.vals = list(problem.values)
        self.full = (1 << self.L) - 1
        seq = problem.sequence
        self.n = n = len(seq)
        self.P = self.L
        self.A = self.L + 6
        self.S = self.A + n
        self.seq_mask = (1 << n) - 1
        self.pile_values = problem.reserves
        self._exposed: dict[int, tuple] = {}
        self.goal_all = problem.goal == "all"
        groups = sorted({_group(v) for v in self.vals + list(seq)
                         + [v for pile in problem.reserves for v in pile]} - {0})
        games: dict[tuple[int, ...], _GroupGame] = {}
        # the bound's partitions of the value groups into relaxed games (one, of single groups,
        # for the cheap bound); each is a bound of its own, and the bound is the largest
        self.partitions = [tuple(games.setdefault(block, _GroupGame(self, block)) for block in blocks)
                           for blocks in _joining(list(_partitions(tuple(groups), together)), DEEP_PARTITIONS)]
        # per layout card: the layout cards it could ever pair with (not in its own chain)
        kids = [_bits(c) for c in self.covers]
        self.layout_partners = [
            sum(1 << y for y in range(self.L) if y != x and self.vals[x] + self.vals[y] == 13
                and (not (self.under[x] >> y & 1 or self.under[y] >> x & 1)
                     or (problem.overlap and (y in kids[x] or x in kids[y]))))
            for x in range(self.L)]
        self.seq_of_value = [sum(1 << k for k in range(n) if seq[k] == v) for v in range(14)]
        # the reach bound (``bound``), for two pyramids (limited passes, the pyramids the goal): one
        # pyramid's deals are proven sooner without it (fewer positions, each far dearer)
        self.reach_bound = bool(n) and problem.passes is not None and not self.goal_all \
            and (problem.pyramids > 1 or reach_always)
        self.games = list(games.values())
        self.seq_kings = sum(1 << k for k in range(n) if seq[k] == KING)
        self.layout_kings = sum(1 << i for i in range(self.L) if self.vals[i] == KING)
        # the waste's burial (``_burial``): its cases add the games of one partition
        self.burial = self.reach_bound and len(self.partitions) == 1
        self.game_of: list[_GroupGame | None] = [None] * 14  # in the first partition
        for game in self.partitions[0]:
            for g in game.groups:
                self.game_of[g] = self.game_of[13 - g] = game

    def pack(self, pm: int, p: int, am: int, pas: int) -> int:
        return pm | p << self.P | am << self.A | pas << self.S

    def unpack(self, key: int) -> tuple:
        """(layout mask, pointer, sequence mask, pass, pile heights)."""
        if self.pile_values:
            return key & self.full, 0, 0, 1, key >> self.P
        return (key & self.full, key >> self.P & 63, key >> self.A & self.seq_mask,
                key >> self.S, 0)

    # --- moves ---------------------------------------------------------------------------
    def exposed(self, pm: int) -> tuple:
        got = self._exposed.get(pm)
        if got is None:
            covers, vals = self.covers, self.vals
            ex = tuple(i for i in range(self.L) if not pm >> i & 1 and not covers[i] & ~pm)
            pairs = [(x, y) for a, x in enumerate(ex) for y in ex[a + 1:]
                     if vals[x] + vals[y] == 13]
            if self.problem.overlap:  # a card and the one card still covering it
                for x in range(self.L):
                    kids = _bits(covers[x] & ~pm)
                    if not pm >> x & 1 and len(kids) == 1 and kids[0] in ex \
                            and vals[x] + vals[kids[0]] == 13:
                        pairs.append((x, kids[0]))
            kings = tuple(i for i in ex if vals[i] == KING)
            got = self._exposed[pm] = (ex, tuple(pairs), kings)
        return got

    def successors(self, key: int) -> list:
        """(move, child, value group the move touches: 0 kings only, -1 all) triples; an
        open layout king is the only move when there is one. With the reach bound each child's
        stock and waste are packed ``canonical`` when the position's are (every position the
        search makes: a start's sequence is whole, so packed so already): taking the stock's top
        card or the waste's keeps the packing (the rest of each is packed from its bottom); a
        draw puts the card at the first index of its value over the waste's top; a recycle packs
        the whole sequence as a stock again."""
        pm, p, am, pas, heights = self.unpack(key)
        ex, pairs, kings = self.exposed(pm)
        if kings:
            i = kings[0]
            return [((i,), key | 1 << i, 0)]
        forced = self.forced(key, pm, p, am, heights, ex, pairs)
        if forced is not None:
            return forced
        vals, seq, n = self.vals, self.problem.sequence, self.n
        # (locations, or the draw or recycle), child key, value group
        out: list[tuple[tuple, int, int]] = [((x, y), key | 1 << x | 1 << y, _group(vals[x])) for x, y in pairs]
        if self.pile_values:
            P = self.P
            tops = []
            for k, pile in enumerate(self.pile_values):
                h = heights >> 2 * k & 3
                if h:
                    tops.append((k, pile[h - 1]))
            for k, v in tops:
                lower = key - (1 << (P + 2 * k))
                if v == KING:
                    out.append(((RESERVE + k,), lower, 0))
                    continue
                for x in ex:
                    if vals[x] + v == 13:
                        out.append(((x, RESERVE + k), lower | 1 << x, _group(v)))
                for k2, v2 in tops:
                    if k2 > k and v + v2 == 13:
                        out.append(((RESERVE + k, RESERVE + k2), lower - (1 << (P + 2 * k2)),
                                    _group(v)))
            return out
        pack = self.pack
        below = am & ((1 << p) - 1)
        waste = below.bit_length() - 1 if below else -1
        if p < n:
            sv = seq[p]
            after = am & ~(1 << p)
            if sv == KING:
                out.append(((STOCK,), pack(pm, _first(after, p + 1, n), after, pas), 0))
            else:
                stock_group = _group(sv)
                for x in ex:
                    if vals[x] + sv == 13:
                        out.append(((x, STOCK), pack(pm | 1 << x, _first(after, p + 1, n), after,
                                                     pas), stock_group))
                if waste >= 0 and seq[waste] + sv == 13:
                    both = after & ~(1 << waste)
                    out.append(((STOCK, WASTE), pack(pm, _first(both, p + 1, n), both, pas),
                                stock_group))
                drawn = am
                if self.reach_bound:  # the drawn card at the first index of its value over the waste's top
                    x = self.seq_of_value[sv] >> (waste + 1) << (waste + 1)
                    drawn = am & ~(1 << p) | (x & -x)
                out.append((DRAW, pack(pm, _first(am, p + 1, n), drawn, pas), stock_group))
        if waste >= 0:
            wv = seq[waste]
            after = am & ~(1 << waste)
            if wv == KING:
                out.append(((WASTE,), pack(pm, p, after, pas), 0))
            else:
                for x in ex:
                    if vals[x] + wv == 13:
                        out.append(((x, WASTE), pack(pm | 1 << x, p, after, pas), _group(wv)))
            passes = self.problem.passes
            if p == n and (passes is None or pas < passes):
                child = pack(pm, _first(am, 0, n), am, pas if passes is None else pas + 1)
                out.append((RECYCLE, self.canonical(child) if self.reach_bound else child, -1))
        return out

    def canonical(self, key: int) -> int:
        """``key`` with its stock and waste cards packed at the one set of sequence indices A*
        keeps among all those holding the same values in the same order: the waste's at the
        earliest indices that do (its bottom card first), the stock's at the latest (its bottom
        card first). The game from a position depends only on the values in the layout, waste and
        stock, and every move is told by its place (the stock, the waste, a layout card), so
        positions with the same values are one: two lines that took different cards of one value
        (a card drawn and taken from the waste, or the next card of that value taken from the
        stock) reach the same values and are one position here. So is the bound: each relaxed
        game sees the same values in the same order, and its reach is the same place in the
        stock. A position whose sequence is whole (a start) is packed so already."""
        pm, p, am, pas, _heights = self.unpack(key)
        seq, n, of_value = self.problem.sequence, self.n, self.seq_of_value
        out, k = 0, 0
        waste = am & ((1 << p) - 1)
        while waste:  # the waste from its bottom: each card at the first index of its value from k
            low = waste & -waste
            waste ^= low
            x = of_value[seq[low.bit_length() - 1]] >> k << k
            k = (x & -x).bit_length()
            out |= 1 << (k - 1)
        first = n
        stock = am >> p << p
        while stock:  # the stock from its bottom: each card at the last index of its value under first
            i = stock.bit_length() - 1
            stock ^= 1 << i
            first = (of_value[seq[i]] & ((1 << first) - 1)).bit_length() - 1
            out |= 1 << first
        return self.pack(pm, first, out, pas)

    def forced(self, key, pm, p, am, heights, ex, pairs) -> list | None:
        """The one move to make when an open layout card has a single partner left in the
        whole game and that partner is available now (module docstring); [] when an open
        card has no partner left at all; else None."""
        vals, n = self.vals, self.n
        for x in ex:
            u = 13 - vals[x]
            layout = self.layout_partners[x] & ~pm
            stock = am & self.seq_of_value[u] if n else 0
            count = layout.bit_count() + stock.bit_count()
            reserve = []
            for k, pile in enumerate(self.pile_values):
                for depth, v in enumerate(pile[:heights >> 2 * k & 3]):
                    if v == u:
                        reserve.append((k, depth))
            count += len(reserve)
            if count > 1:
                continue
            if not count:
                return []
            if layout:
                y = layout.bit_length() - 1
                pair = (x, y) if (x, y) in pairs else (y, x)
                if pair in pairs:
                    return [(pair, key | 1 << x | 1 << y, _group(vals[x]))]
            elif stock:
                c = stock.bit_length() - 1
                below = am & ((1 << p) - 1)
                if c == p:
                    after = am & ~(1 << p)
                    return [((x, STOCK), self.pack(pm | 1 << x, _first(after, p + 1, n), after,
                                                  key >> self.S), _group(u))]
                if below and c == below.bit_length() - 1:
                    return [((x, WASTE), self.pack(pm | 1 << x, p, am & ~(1 << c), key >> self.S),
                             _group(u))]
            else:
                k, depth = reserve[0]
                if depth == (heights >> 2 * k & 3) - 1:
                    return [((x, RESERVE + k), (key | 1 << x) - (1 << (self.P + 2 * k)), _group(u))]
        return None

    def is_won(self, key: int) -> bool:
        if key & self.full != self.full:
            return False
        if not self.goal_all:
            return True
        if self.pile_values:
            return not key >> self.P  # no reserve card left
        return not key >> self.A & self.seq_mask  # no stock or waste card left

    # --- the bound -----------------------------------------------------------------------
    def kings(self, key: int) -> int:
        """Kings that must still go (each needs a move of its own)."""
        pm, _p, am, _pas, heights = self.unpack(key)
        count = sum(1 for i in range(self.L) if not pm >> i & 1 and self.vals[i] == KING)
        if self.goal_all:
            seq = self.problem.sequence
            count += sum(1 for k in range(self.n) if am >> k & 1 and seq[k] == KING)
            for k, pile in enumerate(self.pile_values):
                count += sum(1 for v in pile[:heights >> 2 * k & 3] if v == KING)
        return count

    def group_distance(self, game: _GroupGame, key: int) -> int:
        pm, p, am, pas, heights = self.unpack(key)
        if self.problem.passes is None:
            pas = 1  # unlimited: the relaxed game may recycle (``_GroupGame``)
        return game.distance(game.project(pm, p, am, pas, heights))

    def bound(self, key: int, burial: bool = True) -> int:
        """kings + the largest Σ d(g) over the partitions (module docstring); ``INF`` when
        some relaxed game is lost. ``burial``: with the reach bound, the waste's burial too
        (``_burial``)."""
        pm, p, am, pas, heights = self.unpack(key)
        if self.problem.passes is None:
            pas = 1  # unlimited: the relaxed game may recycle (``_GroupGame``)
        if self.reach_bound:
            return self._reach_bound(pm, p, am, pas, burial)
        best = 0
        for games in self.partitions:
            total = 0
            for game in games:
                total += game.distance(game.project(pm, p, am, pas, heights))
            best = max(best, total)
        return INF if best >= INF else self.kings(key) + best

    def _reach_bound(self, pm: int, p: int, am: int, pas: int, burial: bool = True) -> int:
        """The bound with the stock's depth counted (module docstring): every win takes or
        draws each stock card up to the deepest index some relaxed game's every win reaches;
        a stock king among them costs a move of its own, and each relaxed game's line must
        pass its own cards that far (``_GroupGame.reaching``)."""
        P, A, n = self.P, self.A, self.n
        rest = pas << self.S
        keys = []
        deep = -1
        for game in self.games:  # ``project``, written out: the hottest loop of the search
            mine = am & game.sm
            x = mine >> p
            key = pm & game.lm | (p + (x & -x).bit_length() - 1 if x else n) << P | mine << A | rest
            got = game.reaches.get(key)
            if got is None:
                got = game.reach(key)
            if got > deep:
                deep = got
            keys.append(key)
        if deep >= INF:
            return INF
        lengths: dict[_GroupGame, int] = {}
        for game, key in zip(self.games, keys, strict=True):
            lengths[game] = game.memo[key] if key >> P & 63 > deep else game.reaching(key, deep)
        best = 0
        for games in self.partitions:
            total = 0
            for game in games:
                total += lengths[game]
            best = max(best, total)
        if best >= INF:
            return INF
        best += self._uncounted(pm, p, am, deep)
        if burial and self.burial:
            best = self._burial(pm, p, am, keys, best)
        return best

    def _burial(self, pm: int, p: int, am: int, keys: list[int], best: int) -> int:
        """The bound with the waste's burial. Cards leave the waste only taken away (from its top)
        or by a recycle, so the waste cards a win takes away in this pass, before any recycle, are
        those over some card (the cut; none, or all): each group's relaxed line takes its own of
        those away before a recycle and never takes its top waste card under the cut from the
        waste before one (its cards under that one stay too), and each king over the cut costs a
        move no relaxed game counts. So, for the cut a real win makes, each group's line is a
        relaxed win with those conditions (``_GroupGame.held`` and ``burying``), the real win goes
        as deep as the deepest of their least reaches (``held`` too), and the bound is
        ``_reach_bound``'s with those wins and that depth; the least over the cuts is a bound, and
        so is ``best`` (the bound without them). A group's relaxed game takes its own waste cards
        as though nothing lay over them: a card it needs under other groups' cards costs the
        clearing of those, or a pass. (Each cut's conditions imply those of one of the two cases
        of every single waste card, taken this pass with the cards over it or left there, the
        burial before: this one is never lower.)"""
        games, kings = self.games, self.seq_kings
        waste = am & ((1 << p) - 1)
        cuts = _bits(waste & ~kings)
        if not cuts:
            return best
        cuts = [p, *reversed(cuts)]  # none taken first (the likeliest to be no higher), then down from the top
        least = INF
        for t in cuts:
            top = waste >> t << t
            under = waste & ((1 << t) - 1) & ~kings
            conditions = []
            for game in games:
                mine = under & game.sm
                conditions.append((top & game.sm, mine.bit_length() - 1 if mine else -1))
            case = self._burial_case(pm, p, am, keys, conditions)
            if case < INF:
                case += (top & kings).bit_count()
            if case <= best:
                return best
            least = min(least, case)
        return max(best, least)

    def _burial_case(self, pm: int, p: int, am: int, keys: list[int], conditions: list[tuple[int, int]]) -> int:
        """``_reach_bound`` with each group's relaxed wins held to its (need, frozen) of
        ``conditions`` (``_burial``)."""
        deep = -1
        for game, key, (need, frozen) in zip(self.games, keys, conditions, strict=True):
            deep = max(deep, game.held(key, need, frozen)[1])
        if deep >= INF:
            return INF
        total = 0
        for game, key, (need, frozen) in zip(self.games, keys, conditions, strict=True):
            total += game.burying(key, deep, need, frozen)
        if total >= INF:
            return INF
        return self._uncounted(pm, p, am, deep) + total

    def _uncounted(self, pm: int, p: int, am: int, deep: int) -> int:
        """The moves of a win that reaches ``deep`` that no relaxed game counts: each king left in
        the layout, each stock king up to ``deep``, and the recycle when every relaxed win of some
        group recycles (``deep`` is ``n``): then so does every real win, a move of its own."""
        kings = (pm ^ self.full) & self.layout_kings
        stock_kings = am & self.seq_kings & ((2 << deep) - 1) >> p << p if deep >= p else 0
        return kings.bit_count() + stock_kings.bit_count() + (1 if deep == self.n else 0)

    def child_bound(self, here: int, h: int, child: int, group: int) -> int:
        """The bound of ``child``, reached from ``here`` (bound ``h``) by a move on the cards of
        value group ``group`` (0: a king alone; -1: every group, a recycle). With one partition
        only that group's relaxed position changed; with several, the largest sum may be
        another partition's, and the bound is taken again."""
        if group < 0 or len(self.partitions) > 1 or self.reach_bound:
            return self.bound(child, burial=False)  # A* takes the burial when it expands (``run``)
        if group == 0:
            return h - (self.kings(here) - self.kings(child))
        game = self.game_of[group]
        assert game is not None  # every group on the table has its relaxed game
        d = self.group_distance(game, child)
        return INF if d >= INF else h - self.group_distance(game, here) + d

    def start(self) -> int:
        """The problem's position, packed."""
        pr = self.problem
        if pr.reserves:
            heights = 0
            for k, pile in enumerate(pr.reserves):
                heights |= len(pile) << 2 * k
            return pr.removed | heights << self.P
        am = (1 << self.n) - 1
        return self.pack(pr.removed, _first(am, pr.pointer, self.n), am,
                         pr.pass_number if pr.passes is not None else 1)

    def _expanded(self) -> None:
        self.nodes += 1
        if self.budget is not None:
            self.budget.check(self.nodes)

    # --- A* --------------------------------------------------------------------------------
    def compiled(self) -> bool:
        """Whether ``run`` and ``beam`` hand the search to the compiled core (``_core``): the
        reach bound's games (limited passes, the pyramids the goal, no overlap) whose relaxed
        games have at most 32 cards each, when the core is built."""
        return _core is not None and self.reach_bound and not self.problem.overlap \
            and self.n <= CORE_MAX_SEQUENCE and all(game.lm.bit_count() + game.sm.bit_count() <= 32
                                                    for game in self.games)

    def run(self, upper: int | None = None) -> tuple[list | None, int]:
        """A* (module docstring): ``(line, lower)``, a shortest line below ``upper`` or
        ``None``, and a bound every win reaches."""
        if self.compiled():
            return self._run_compiled(upper)
        start = self.start()
        lower = 0
        heap: list = []
        try:
            h = self.bound(start)
            lower = min(h, INF)
            if h >= INF or (upper is not None and h >= upper):
                self.exhausted = True
                return None, lower
            # position -> (moves to it, its bound, parent, move)
            best: dict[int, tuple] = {start: (0, h, None, None)}
            heap = [(h, 0, start)]
            # a position's bound has the waste's burial in it once A* is about to expand it: the
            # many positions made and never expanded are spared it (children get ``cheap``)
            exact = {start}
            cheap = self.burial
            while heap:
                f, negative, here = heapq.heappop(heap)
                g = -negative
                entry = best[here]
                if g > entry[0]:
                    continue
                if cheap and here not in exact:
                    exact.add(here)
                    full = self.bound(here)
                    if full > entry[1]:  # higher: it waits for its f, or goes (no win below upper)
                        if full < INF and (upper is None or g + full < upper):
                            best[here] = (g, full, *entry[2:])
                            heapq.heappush(heap, (g + full, negative, here))
                        continue
                lower = f
                if self.is_won(here):
                    return _line(best, here), f
                self._expanded()
                h = entry[1]
                for move, child, group in self.successors(here):
                    seen = best.get(child)
                    if seen is not None and seen[0] <= g + 1:
                        continue
                    if seen is not None:
                        hc = seen[1]
                    elif cheap:
                        hc = self.bound(child, burial=False)
                    else:
                        hc = self.child_bound(here, h, child, group)
                    if hc >= INF or (upper is not None and g + 1 + hc >= upper):
                        continue
                    best[child] = (g + 1, hc, here, move)
                    heapq.heappush(heap, (g + 1 + hc, -(g + 1), child))
            self.exhausted = True
            return None, upper if upper is not None else lower
        except BudgetExceeded:
            # every shortest line still has a position waiting, with a bound no larger
            return None, min([lower] + ([heap[0][0]] if heap else []))

    def _compiled(self, upper: int | None, width: int = 0,
                  weights: tuple[int, int] = (0, 0)) -> tuple[list | None, int, str]:
        """``run`` (or with ``width`` and ``weights``, ``beam``) in the compiled core: the same moves, bound and
        pruning (``_core.c`` says how it follows this class); ``CORE_POSITIONS`` of its positions
        count one of the budget. Answers the line, the bound and how it ended."""
        pr, budget = self.problem, self.budget
        rate = CORE_BURIAL_POSITIONS if self.burial and not width else CORE_POSITIONS
        nodes = CORE_MAX_POSITIONS
        if budget is not None and budget.max_nodes is not None:
            nodes = min(nodes, budget.max_nodes * rate)
        cap = self.relaxed_cap
        relaxed = RELAXED_PER_POSITION * nodes if cap is None else cap * CORE_POSITIONS
        seconds = 0.0
        if budget is not None and budget.deadline is not None:
            seconds = max(budget.deadline - budget.clock(), 1e-6)
        assert _core is not None
        line, lower, expanded, outcome = _core.search(
            self.vals, self.covers, self.under, self.layout_partners, pr.sequence,
            [[game.groups for game in games] for games in self.partitions], pr.removed, pr.pointer,
            pr.pass_number, pr.passes, -1 if upper is None else upper, nodes, min(relaxed, 1 << 62), seconds, width,
            *weights)
        self.nodes += -(-expanded // rate)
        if line is not None:  # the draw and the recycle are known by identity (``move_text``)
            line = [DRAW if m == DRAW else RECYCLE if m == RECYCLE else m for m in line]
        return line, lower, outcome

    def _run_compiled(self, upper: int | None) -> tuple[list | None, int]:
        line, lower, outcome = self._compiled(upper)
        self.exhausted = outcome == "exhausted"
        if self.exhausted and upper is None:
            lower = INF
        return line, lower

    # --- the best-known line -------------------------------------------------------------------
    def beam(self, width: int, upper: int | None = None, weights: tuple[int, int] = (0, 0)) -> list | None:
        """A line shorter than ``upper`` found by a beam search: level by level, the ``width``
        positions of the least estimate (then the most cards gone) among the new ones. The
        estimate is the bound plus ``weights`` (waste, stock), in quarter moves, for each card on
        the waste and each card left in the stock: the bound counts only the stock a win must
        pass, not the draws that cards buried on the waste or left in the stock still cost, and
        beams ranked by different weights find different lines (``BEAMS``). It drops positions,
        so it proves nothing; ``None`` when it finds no such line or the budget runs out."""
        if self.compiled():
            return self._compiled(upper, width, weights)[0]
        waste_weight, stock_weight = weights
        start = self.start()
        h = self.bound(start)
        if h >= INF:
            return None
        parents: dict[int, tuple] = {start: (None, None)}  # position -> (parent, move)
        level = [(h, start)]
        depth = 0
        try:
            while level and (upper is None or depth + 1 < upper):
                depth += 1
                scored = []
                for h, here in level:
                    self._expanded()
                    for move, child, group in self.successors(here):
                        if child in parents:
                            continue
                        parents[child] = (here, move)
                        if self.is_won(child):
                            return _line(parents, child)
                        hc = self.child_bound(here, h, child, group)
                        if hc < INF and (upper is None or depth + hc < upper):
                            estimate = 4 * hc
                            if waste_weight or stock_weight:
                                _pm, p, am, _pas, _heights = self.unpack(child)
                                waste = (am & ((1 << p) - 1)).bit_count()
                                estimate += waste_weight * waste + stock_weight * (am.bit_count() - waste)
                            scored.append((estimate, -(child & self.full).bit_count(), hc, child))
                level = [(hc, child) for _, _, hc, child in heapq.nsmallest(width, scored)]
        except BudgetExceeded:
            pass
        return None


def _line(parents: dict, here) -> list:
    """The moves from the first position to ``here`` (``parents``: position -> a tuple ending
    in its parent and the move from there)."""
    line = []
    while True:
        parent, move = parents[here][-2:]
        if parent is None:
            break
        line.append(move)
        here = parent
    line.reverse()
    return line


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
