"""The shortest win of a Pyramid-family position, proven: A* over every move, each counting 1.

``shortest_win(position)`` first asks the exact search (``solve``) for any win: none means
no win at all; one gives an upper bound ``U`` (its cleaned length). A* then looks only for
strictly shorter lines (it drops every position whose bound reaches ``U``). When A* pops a
won position, that line is a shortest win; when it runs out of positions, nothing shorter
than ``U`` exists and the known line is a shortest win. When the budget runs out first,
the answer is the known line, not proven, with the smallest bound A* had reached: every
win needs at least that many moves.

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
unlimited passes it may use one pass more than the group has cards: a shortest relaxed win
needs no more, as a pass that takes nothing away comes back to where it started). A move
changes one group's relaxed position (a recycle: all of them), so a child's bound is its
parent's with one ``d(g)`` looked up again.

The same holds for relaxed games on several value groups at once (the cards of groups g1, g2,
g3 kept, every other card free): the moves on their cards are still disjoint from the other
games' moves, and a joint game also charges what single groups leave out (one group's cards
covering another's, or lying between them in the stock), so its bound is at least the sum of
its groups' and cuts far more positions. Each joint game is much larger to explore, so A*
starts with single groups and takes groups three together only for a deal that single groups
do not settle within ``QUICK_NODES`` positions (``_search``).
"""

from __future__ import annotations

import functools
import heapq
from dataclasses import dataclass

from app.engine import PyramidPosition, Status, get_game

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

SHORTEST_NODES = 300_000  # positions A* may expand by default
SHORTEST_SECONDS = 10.0
INF = 1 << 30
QUICK_NODES = 50_000  # positions A* expands with the cheap bound before it takes the strong one
QUICK_GROUPS, DEEP_GROUPS = 1, 3  # value groups per relaxed game of each bound


@dataclass(frozen=True, slots=True)
class ShortestWin:
    """``winnable``: ``True`` (``moves`` wins), ``False`` (proven: nothing wins) or ``None``
    (no win known within the budget). ``proven``: no win is shorter than ``moves`` (with
    ``winnable`` False: no win exists). ``lower_bound``: every win needs at least this many
    moves (``len(moves)`` when proven). ``nodes``: positions A* expanded."""

    winnable: bool | None
    moves: tuple[str, ...] = ()
    proven: bool = False
    lower_bound: int = 0
    nodes: int = 0


def proves_shortest(position) -> bool:
    """Whether ``shortest_win`` searches this position (its variant says so: the Pyramid
    family)."""
    return get_game(position.game).shortest_win


def shortest_win(position, *, budget_nodes: int | None = SHORTEST_NODES,
                 budget_seconds: float | None = SHORTEST_SECONDS) -> ShortestWin:
    """The shortest win from a Pyramid-family engine position (``app.engine.PyramidPosition``),
    proven when the budget allows (see the module docstring). Answers are cached per
    position and budget."""
    if not proves_shortest(position):
        raise TypeError(f"no shortest-win search for {type(position).__name__}")
    return _cached(position, budget_nodes, budget_seconds)


@functools.lru_cache(maxsize=256)
def _cached(position: PyramidPosition, budget_nodes, budget_seconds) -> ShortestWin:
    if position.status is Status.WON:
        return ShortestWin(True, (), True, 0, 0)
    # one allowance for both searches: the time in all, the nodes for each
    budget = Budget(budget_nodes, budget_seconds)
    problem = problem_of(position)
    won, known, _ = solve_problem(problem, budget)
    if won is False:
        return ShortestWin(False, (), True, 0, 0)
    if won:
        known = clean_line(position, known)
    search, line, lower = _search(problem, budget, len(known) if won else None)
    if line is not None:
        moves = tuple(problem.move_text(m) for m in line)
        replayed = position
        for move in moves:  # the engine checks A*'s line before anyone sees it
            replayed = replayed.apply(move)
        if replayed.status is Status.WON:
            return ShortestWin(True, moves, True, len(moves), search.nodes)
    if won and lower >= len(known):
        return ShortestWin(True, known, True, len(known), search.nodes)
    if won:
        return ShortestWin(True, known, False, lower, search.nodes)
    if search.exhausted:
        return ShortestWin(False, (), True, 0, search.nodes)
    return ShortestWin(None, (), False, lower, search.nodes)


def _search(problem: PyramidProblem, budget: Budget, upper: int | None) -> tuple[ShortestSearch, list | None, int]:
    """A* with the bound of single value groups while it is cheap; a deal it does not settle
    within ``QUICK_NODES`` positions is searched again with the bound of groups taken three
    together (``QUICK_GROUPS`` / ``DEEP_GROUPS``): each of its relaxed games costs far more to
    explore, but it cuts the positions A* must expand several times over on the hard deals."""
    quick = Budget(QUICK_NODES if budget.max_nodes is None else min(QUICK_NODES, budget.max_nodes), None)
    quick.deadline, quick.clock = budget.deadline, budget.clock
    search = ShortestSearch(problem, quick, QUICK_GROUPS)
    line, lower = search.run(upper)
    if line is not None or search.exhausted or (budget.max_nodes is not None and budget.max_nodes <= QUICK_NODES):
        return search, line, lower
    try:
        budget.check(0)  # the time is shared: none left, no second search
    except BudgetExceeded:
        return search, line, lower
    deep = ShortestSearch(problem, budget, DEEP_GROUPS)
    line, deeper = deep.run(upper)
    deep.nodes += search.nodes
    return deep, line, max(lower, deeper) if line is None else deeper


class _GroupGame:
    """The relaxed game on one value group (module docstring), recycles free, with the
    shortest win from each of its positions memoised. Its positions are packed like the
    real ones (``ShortestSearch.pack``) with only the group's cards: removed layout cards,
    the pointer at the group's next card in the stock, the group's sequence cards left and
    the pass; in Giza, the group's cards left in each pile. With unlimited passes the pass
    counts up to one more than the group has cards: a shortest relaxed win never needs more
    (a pass that takes no card away comes back to where it started)."""

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
        self.passes = pr.passes if pr.passes is not None else \
            len(self.lay) + self.sm.bit_count() + 1
        self.memo: dict[int, int] = {}
        self.shapes: dict[int, tuple] = {}

    def project(self, pm: int, p: int, am: int, pas: int, heights: int) -> int:
        """The relaxed position of a real one, packed."""
        search = self.search
        if self.piles:
            gh = 0
            for k, below in enumerate(self.below):
                gh |= below[heights >> 2 * k & 3] << 2 * k
            return pm & self.lm | gh << search.P
        am &= self.sm
        return search.pack(pm & self.lm, _first(am, p, self.n), am, pas)

    def distance(self, key: int) -> int:
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self._giza(key) if self.piles else self._stock(key)
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
        search = self.search
        search.relaxed += 1
        if not search.relaxed & 1023 and search.budget is not None:
            search.budget.check(search.nodes)

    def _stock(self, key: int) -> int:
        search = self.search
        pm, p, am, pas, _ = search.unpack(key)
        n, vals, seq = self.n, search.vals, search.problem.sequence
        if pm == self.lm and (search.problem.goal != "all" or not am):
            return 0
        self._tick()
        pack, d = search.pack, self.distance
        ex, pairs = self._shape(pm)
        best = INF
        for bits in pairs:
            best = min(best, d(pack(pm | bits, p, am, pas)))
        below = am & ((1 << p) - 1)
        waste = below.bit_length() - 1 if below else -1
        if p < n:
            after = am & ~(1 << p)
            for x in ex:
                if vals[x] + seq[p] == 13:
                    best = min(best, d(pack(pm | 1 << x, _first(after, p + 1, n), after, pas)))
        if waste >= 0:
            after = am & ~(1 << waste)
            for x in ex:
                if vals[x] + seq[waste] == 13:
                    best = min(best, d(pack(pm | 1 << x, p, after, pas)))
            if p < n and seq[p] + seq[waste] == 13:
                both = after & ~(1 << p)
                best = min(best, d(pack(pm, _first(both, p + 1, n), both, pas)))
        if p < n:
            best = min(best, d(pack(pm, _first(am, p + 1, n), am, pas)))
        if best < INF:
            best += 1
        if p == n and pas < self.passes:  # a recycle, free (even with an empty waste)
            best = min(best, d(pack(pm, _first(am, 0, n), am, pas + 1)))
        return best

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

    def __init__(self, problem: PyramidProblem, budget: Budget | None = None, together: int = 1) -> None:
        self.problem = problem
        self.budget = budget
        self.nodes = 0
        self.relaxed = 0
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
        self.games = [_GroupGame(self, tuple(groups[i:i + together])) for i in range(0, len(groups), together)]
        # per layout card: the layout cards it could ever pair with (not in its own chain)
        kids = [_bits(c) for c in self.covers]
        self.layout_partners = [
            sum(1 << y for y in range(self.L) if y != x and self.vals[x] + self.vals[y] == 13
                and (not (self.under[x] >> y & 1 or self.under[y] >> x & 1)
                     or (problem.overlap and (y in kids[x] or x in kids[y]))))
            for x in range(self.L)]
        self.seq_of_value = [sum(1 << k for k in range(n) if seq[k] == v) for v in range(14)]
        self.game_of: list[_GroupGame | None] = [None] * 14
        for game in self.games:
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
        open layout king is the only move when there is one."""
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
                out.append((DRAW, pack(pm, _first(am, p + 1, n), am, pas), stock_group))
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
                out.append((RECYCLE, pack(pm, _first(am, 0, n), am,
                                          pas if passes is None else pas + 1), -1))
        return out

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
            pas = 1  # a fresh count of relaxed passes from every real position
        return game.distance(game.project(pm, p, am, pas, heights))

    def bound(self, key: int) -> int:
        """kings + Σ d(g) (module docstring); ``INF`` when some group is lost."""
        total = self.kings(key)
        for game in self.games:
            d = self.group_distance(game, key)
            if d >= INF:
                return INF
            total += d
        return total

    # --- A* --------------------------------------------------------------------------------
    def run(self, upper: int | None = None) -> tuple[list | None, int]:
        pr = self.problem
        n = self.n
        if pr.reserves:
            heights = 0
            for k, pile in enumerate(pr.reserves):
                heights |= len(pile) << 2 * k
            start = pr.removed | heights << self.P
        else:
            am = (1 << n) - 1
            start = self.pack(pr.removed, _first(am, pr.pointer, n), am,
                              pr.pass_number if pr.passes is not None else 1)
        lower = 0
        heap: list = []
        game_of = self.game_of
        distance = self.group_distance
        try:
            h = self.bound(start)
            lower = min(h, INF)
            if h >= INF or (upper is not None and h >= upper):
                self.exhausted = True
                return None, lower
            # position -> (moves to it, parent, move, its bound)
            best = {start: (0, None, None, h)}
            heap = [(h, 0, start)]
            budget, check_every = self.budget, Budget.CHECK_EVERY
            while heap:
                f, negative, here = heapq.heappop(heap)
                g = -negative
                entry = best[here]
                if g > entry[0]:
                    continue
                lower = f
                if self.is_won(here):
                    return self._line(best, here), f
                self.nodes += 1
                if budget is not None and self.nodes % check_every == 0:
                    budget.check(self.nodes)
                h = entry[3]
                for move, child, group in self.successors(here):
                    seen = best.get(child)
                    if seen is not None and seen[0] <= g + 1:
                        continue
                    # the bound changes in the one group a move touches (all: a recycle)
                    if seen is not None:
                        hc = seen[3]
                    elif group < 0:
                        hc = self.bound(child)
                    elif group == 0:
                        hc = h - (self.kings(here) - self.kings(child))
                    else:
                        game = game_of[group]
                        d = distance(game, child)
                        hc = INF if d >= INF else h - distance(game, here) + d
                    if hc >= INF or (upper is not None and g + 1 + hc >= upper):
                        continue
                    best[child] = (g + 1, here, move, hc)
                    heapq.heappush(heap, (g + 1 + hc, -(g + 1), child))
            self.exhausted = True
            return None, upper if upper is not None else lower
        except BudgetExceeded:
            # every shortest line still has a position waiting, with a bound no larger
            return None, min([lower] + ([heap[0][0]] if heap else []))

    @staticmethod
    def _line(best: dict, here) -> list:
        line = []
        while True:
            _, parent, move, _ = best[here]
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
