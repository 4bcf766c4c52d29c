"""Exact search for the Pyramid family (Pyramid, Giza, Double Pyramid) on a packed position.

A position is a few integers. ``pm`` is a bit mask of the removed layout cards: the
removed set is always closed under "covers", so a single pyramid only ever shows one of
1,430 shapes, and the per-shape facts (open cards, pairs among them, values left) are
computed once per deal and cached. Suits never matter, so with a limited number of passes
the stock and the waste are kept as their card values, four bits a card, top card in the
lowest bits (two positions that differ only in which of two equal cards went are one);
with unlimited passes and goal ``pyramid`` the stock is just a count per value (every
stock card can be brought up at any time, and taking stock cards away never opens
anything); with unlimited passes and goal ``all`` it is a removed-mask over the fixed
stock sequence, with the pointer left out (draws and recycles reach every split of the
sequence). Giza has a removed-mask over its 24 reserve slots.

Every search here and in ``pyramid_last`` and ``pyramid_multi`` runs the same depth-first
skeleton (``depth_first``) with its own packing, forced moves, loss proofs and moves, and a
transposition table of packed positions, so every position is expanded at most once; that
makes a ``False`` a proof. Only sound reductions:

- an available king goes at once (removing it never takes a move away), and so does a
  layout card together with its only partner left when both are available;
- a dead position is cut off: a layout card whose every possible partner is gone or can
  never meet it (a card under or over it in the same pyramid, a card under it in the
  same reserve pile), or a value whose layout cards outnumber their partners (Hall's
  condition on the whole group);
- in the last pass two waste cards never meet again: a waste card whose partners are gone
  from the layout and from the stock stays for good, so the cards under it are dropped;
  and two relaxations of the rest of the game (counting partners, and the order in which
  cards can open up) prove many positions lost long before the stock runs out;
- with a limited number of passes a position is not searched again at a later pass.

A search that starts before the last pass of a limited number (``pyramid-3``, 2-pass games)
runs in ``pyramid_multi``, unless the unlimited-passes search below finds the deal lost
first: a position is (removed layout, stock pointer, mask of the stock and waste cards
left, pass), pruned by value-group relaxations that keep the passes (one to five groups),
with their memos shared by every pass of the deal; its docstring gives the argument.

A search that starts in the last pass (every one-pass game, and a game resumed in its last
pass) runs in ``pyramid_last``: the same kind of search on (removed layout, stock pointer,
waste mask), pruned by value-group relaxations (the game restricted to one to four pairs of
complementary values, every other card free to go), each a proof of loss; its docstring
gives the argument. Giza's search here uses the same relaxations (``relaxations.GizaGame``) once
it has expanded ``giza_relax_after`` positions. Unlimited passes are searched here as
before.

Moves are produced as tuples of engine locations (layout index, ``STOCK``, ``WASTE``,
``RESERVE + k``), ``DRAW`` or ``RECYCLE``, and written in the notation at the end; with
unlimited passes the draws and recycles are put back when the line is written out.
"""

from __future__ import annotations

from collections.abc import Callable

from .depth_first import DEAD_END, WON, depth_first
from .pyramid_last import giza_relaxations, run_last_pass
from .pyramid_multi import run_multi_pass
from .pyramid_problem import DRAW, KING, RECYCLE, RESERVE, STOCK, WASTE, PyramidProblem, ShapeFacts, geometry
from .pyramid_stock import StockSearch
from .relaxations import refuted
from .result import Budget, BudgetExceeded

_RESERVE_TOP = {0: 2, 4: 1, 6: 0, 7: -1}  # removed bits of a pile (bottom = bit 0) -> top slot


class _Capped(Exception):
    """The plain search ran out of its positions (see ``PyramidSearch._run_capped``)."""


class PyramidSearch:
    """One search over one ``PyramidProblem``; ``run()`` answers ``(winnable, moves)``."""

    free_precheck = True  # a multi-pass deal lost with unlimited passes is lost
    stock_first_nodes = 1000  # pyramid_multi after the plain search (``pyramid_stock``) for this many
    multi_relax_after = 500  # ... with its relaxations once this many positions are expanded
    giza_relax_after = 50  # Giza's value-group relaxations once this many positions are expanded

    def __init__(self, problem: PyramidProblem, budget: Budget | None = None) -> None:
        self.problem = problem
        self.budget = budget
        self.nodes = 0
        # what every expanded position calls; _run_capped puts a capped one in its place
        self._tick: Callable[[], None] = self._count_node
        self.covers, self.kids, self.under = geometry(problem.rows, problem.pyramids)
        self.L = len(problem.values)
        self._exp_cache: dict[int, ShapeFacts] = {}
        self._open_cache: dict[int, tuple] = {}
        self._clear_cache: dict[int, tuple[bool, int]] = {}
        self._build_slots()

    # --- per-deal tables ------------------------------------------------------------
    def _build_slots(self) -> None:
        """Slots: layout 0..L-1, then the stock sequence or the 24 reserve slots.

        ``part[s]``: mask of the slots that could ever pair with slot ``s``;
        ``must[v]``: the slots of value ``v`` that have to go for a win (layout cards; with
        goal ``all`` in Giza the reserve cards too: there a pile can bury a card's only
        partners under it)."""
        pr, L = self.problem, self.L
        vals = list(pr.values)
        removed = pr.removed
        extra_removed = 0
        pile_of: list[int] = [-1] * L
        if pr.reserves:
            for k in range(8):
                pile = pr.reserves[k] if k < len(pr.reserves) else ()
                if len(pile) > 3:
                    raise ValueError("a Giza reserve holds at most three cards")
                for d in range(3):
                    vals.append(pile[d] if d < len(pile) else 0)
                    pile_of.append(k)
                    if d >= len(pile):
                        extra_removed |= 1 << (3 * k + d)
        else:
            vals.extend(pr.sequence)
            pile_of.extend([-1] * len(pr.sequence))
        self.vals = vals
        self.extra_removed = extra_removed  # reserve slots empty from the start
        nslots = len(vals)
        under, kids = self.under, self.kids
        alive0 = ~(removed | (extra_removed << L))
        part = [0] * nslots
        for s in range(nslots):
            v = vals[s]
            if not v or v == KING or not alive0 >> s & 1:
                continue
            m = 0
            for t in range(nslots):
                if t == s or vals[t] + v != 13 or not alive0 >> t & 1:
                    continue
                if s < L and t < L:
                    apart = not (under[s] >> t & 1 or under[t] >> s & 1)
                    if not apart and pr.overlap and (t in kids[s] or s in kids[t]):
                        apart = True
                    if not apart:
                        continue
                if s >= L and t >= L and pile_of[s] >= 0 and pile_of[s] == pile_of[t]:
                    continue
                m |= 1 << t
            part[s] = m
        self.part = part
        must: list[tuple[int, ...]] = [()] * 14
        for v in range(1, 13):
            limit = nslots if (pr.reserves and pr.goal == "all") else L
            must[v] = tuple(s for s in range(limit) if vals[s] == v and alive0 >> s & 1)
        self.must = must
        full_p = (1 << L) - 1
        self.layout_part = [m & full_p for m in part[:L]]
        self.layout_of = [tuple(i for i in must[v] if i < L) for v in range(14)]

    def _dead(self, alive: int, v: int) -> bool:
        """Whether the cards of value ``v`` or ``13 - v`` that must go can no longer all go."""
        part, must = self.part, self.must
        for u in (v, 13 - v):
            union = 0
            count = 0
            for s in must[u]:
                if alive >> s & 1:
                    m = part[s] & alive
                    if not m:
                        return True
                    union |= m
                    count += 1
            if count > 1 and union.bit_count() < count:
                return True
        return False

    def _dead_after(self, alive: int, touched: int) -> bool:
        """``_dead`` for the value group of the last move (``touched``; -1: every group)."""
        if touched < 0:
            return any(self._dead(alive, v) for v in range(1, 7))
        return self._dead(alive, touched)

    def _dead_counts(self, pm: int, cnt: int, v: int) -> bool:
        """``_dead`` for a stock kept as value counts (``cnt``: four bits a value): whether
        the layout cards of value ``v`` or ``13 - v`` can no longer all find distinct
        partners among the layout cards apart from them and the stock and waste cards."""
        alive = ~pm
        ppart, layout_of = self.layout_part, self.layout_of
        for u in (v, 13 - v):
            spare = (cnt >> (4 * (13 - u))) & 15
            union = 0
            count = 0
            for i in layout_of[u]:
                if alive >> i & 1:
                    m = ppart[i] & alive
                    if not m and not spare:
                        return True
                    union |= m
                    count += 1
            if count > 1 and union.bit_count() + spare < count:
                return True
        return False

    def without_kings(self, pm: int, path: list) -> tuple[int, ShapeFacts]:
        """The shape ``pm`` once its open layout kings went, again and again as each uncovers
        more (their moves appended to ``path``), and its facts: a king is never a partner and
        taking it away only uncovers cards, so in every search it goes at once."""
        info = self._expinfo(pm)
        while info.kings:
            pm |= info.kings
            path.extend(info.king_moves)
            info = self._expinfo(pm)
        return pm, info

    def _expinfo(self, pm: int) -> ShapeFacts:
        """The facts of the layout shape ``pm`` (``ShapeFacts``), cached."""
        info = self._exp_cache.get(pm)
        if info is not None:
            return info
        covers, vals = self.covers, self.vals
        exposed = [i for i in range(self.L) if not pm >> i & 1 and covers[i] & ~pm == 0]
        kings = [i for i in exposed if vals[i] == KING]
        if kings:
            info = ShapeFacts(sum(1 << i for i in kings), tuple((i,) for i in kings), {}, (), 0, [], [])
        else:
            need: dict[int, list[int]] = {}
            for i in exposed:
                need.setdefault(13 - vals[i], []).append(i)
            pairs = []
            for a in range(len(exposed)):
                i = exposed[a]
                for j in exposed[a + 1:]:
                    if vals[i] + vals[j] == 13:
                        pairs.append(((1 << i) | (1 << j), (i, j), min(vals[i], vals[j])))
            if self.problem.overlap:
                for i in range(self.L):
                    if pm >> i & 1 or not self.kids[i]:
                        continue
                    left = [j for j in self.kids[i] if not pm >> j & 1]
                    if len(left) == 1:
                        j = left[0]
                        if covers[j] & ~pm == 0 and vals[i] + vals[j] == 13:
                            pairs.append(((1 << i) | (1 << j), (i, j), min(vals[i], vals[j])))
            # Pairs that open more of the layout first (they tend to lead to wins sooner).
            pairs.sort(key=lambda t: -self._opens(pm | t[0]))
            values = 0
            count = [0] * 14
            alive = [i for i in range(self.L) if not pm >> i & 1]
            for i in alive:
                values |= 1 << vals[i]
                count[vals[i]] += 1
            # reach[v]: layout cards of value v that could pair with some layout card left.
            part, reach = self.part, [0] * 14
            alive_mask = ~pm
            for j in alive:
                if part[j] & alive_mask & ((1 << self.L) - 1):
                    reach[vals[j]] += 1
            info = ShapeFacts(0, (), need, tuple(pairs), values, count, reach)
        self._exp_cache[pm] = info
        return info

    def _exposed(self, pm: int) -> tuple[tuple[int, ...], int]:
        """Layout cards left with nothing covering them in shape ``pm``, and their mask."""
        got = self._open_cache.get(pm)
        if got is None:
            covers = self.covers
            ex = tuple(i for i in range(self.L) if not pm >> i & 1 and covers[i] & ~pm == 0)
            got = (ex, sum(1 << i for i in ex))
            self._open_cache[pm] = got
        return got

    def _opens(self, pm: int) -> int:
        return len(self._exposed(pm)[0])

    def _clears(self, pm: int, can: int) -> tuple[bool, int]:
        """Layout cards that could go if every value in ``can`` (bit ``v``: a partner for
        a card of value ``v``) had a partner at hand whenever needed, a layout partner
        counting once it is open: whether that is every card left, and the partner values
        the cards opened on the way offer (bit ``13 - v`` for a card of value ``v``).
        Cached per (shape, ``can``)."""
        key = pm | (can << self.L)
        got = self._clear_cache.get(key)
        if got is None:
            vals, ppart, exposed = self.vals, self.layout_part, self._exposed
            removable = 0
            while True:
                ex, exmask = exposed(pm | removable)
                openmask = exmask | removable
                grown = 0
                for x in ex:
                    if can >> vals[x] & 1 or ppart[x] & openmask:
                        grown |= 1 << x
                if not grown:
                    break
                removable |= grown
            offered = 0
            for x in ex:
                offered |= 1 << (13 - vals[x])
            x = removable
            while x:
                low = x & -x
                offered |= 1 << (13 - vals[low.bit_length() - 1])
                x ^= low
            got = (not (~pm & ((1 << self.L) - 1)) & ~removable, offered)
            self._clear_cache[key] = got
        return got

    def _count_node(self) -> None:
        self.nodes += 1
        if self.budget is not None and self.nodes % Budget.CHECK_EVERY == 0:
            self.budget.check(self.nodes)

    # --- entry point ----------------------------------------------------------------
    def run(self) -> tuple[bool, list[tuple]]:
        """``(True, moves)`` or ``(False, [])``; raises ``BudgetExceeded``."""
        pr = self.problem
        if pr.reserves:
            return self._run_giza()
        if pr.passes is None:
            return self._run_cycle() if pr.goal == "all" else self._run_free()
        if pr.pass_number >= pr.passes:
            return run_last_pass(self)
        if self.free_precheck and pr.goal != "all" and not self._run_free()[0]:
            # Lost even with unlimited passes (a quick search): lost with fewer too.
            return False, []
        if self.stock_first_nodes:
            # The plain search first, for a few positions: its own pruning (no
            # relaxations to solve) finds most quick wins and losses faster. Its answer
            # is exact when it finishes; when it would go on, start over.
            got = self._run_capped(self.stock_first_nodes)
            if got is not None:
                return got
        return run_multi_pass(self)

    def _run_capped(self, cap: int) -> tuple[bool, list[tuple]] | None:
        """The plain search (``pyramid_stock``) stopped after ``cap`` more positions (``None``
        then)."""
        limit = self.nodes + cap
        plain = self._tick

        def tick() -> None:
            if self.nodes >= limit:
                raise _Capped
            plain()

        self._tick = tick
        try:
            return StockSearch(self).run()
        except _Capped:
            return None
        finally:
            self._tick = plain

    # --- unlimited passes: the pointer is free ----------------------------------------
    def _run_free(self) -> tuple[bool, list[tuple]]:
        """Unlimited passes, goal ``pyramid``: every stock card can be brought up at any
        time, and taking stock cards away never opens anything, so pairs of two stock
        cards are never needed and which copy of a value pairs with a layout card does
        not matter: the stock is just how many cards of each value it still holds."""
        pr, L = self.problem, self.L
        full_p = (1 << L) - 1
        without_kings, tick = self.without_kings, self._tick
        dead = self._dead_counts
        cnt0 = 0
        for v in pr.sequence:
            if v != KING:
                cnt0 += 1 << (4 * v)
        visited: set[int] = set()
        path: list[tuple] = []

        def ordered(pm: int, cnt: int) -> bool:
            """Whether every layout card could go if partners could serve many times."""
            can = 1 << KING
            for v in range(1, 13):
                if (cnt >> (4 * v)) & 15:
                    can |= 1 << (13 - v)
            return self._clears(pm, can)[0]

        def expand(position: tuple[int, int, int]):
            pm, cnt, touched = position
            pm, info = without_kings(pm, path)
            if pm == full_p:
                return WON
            key = pm | (cnt << L)
            if key in visited:
                return DEAD_END
            visited.add(key)
            if touched and (any(dead(pm, cnt, v) for v in range(1, 7)) if touched < 0
                            else dead(pm, cnt, touched)):
                return DEAD_END
            if not pr.overlap and not ordered(pm, cnt):
                return DEAD_END
            return moves(pm, cnt, info)

        def moves(pm: int, cnt: int, info: ShapeFacts):
            need, pairs = info.need, info.pairs
            for bits, move, v in pairs:
                yield move, (pm | bits, cnt, v)
            for y, xs in need.items():
                if (cnt >> (4 * y)) & 15:
                    for x in xs:
                        yield ("v", x, y), (pm | (1 << x), cnt - (1 << (4 * y)), min(y, 13 - y))

        if not depth_first((pr.removed, cnt0, -1), expand, path, tick):
            return False, []
        return True, self._write_cycle(path)

    def _run_cycle(self) -> tuple[bool, list[tuple]]:
        pr, L = self.problem, self.L
        n = len(pr.sequence)
        sval = pr.sequence
        full_p = (1 << L) - 1
        full_s = (1 << n) - 1
        goal_all = pr.goal == "all"
        without_kings, dead_after, tick = self.without_kings, self._dead_after, self._tick
        by_value: list[tuple[int, ...]] = [tuple(k for k in range(n) if sval[k] == v)
                                           for v in range(14)]
        visited: set[int] = set()
        path: list[tuple] = []  # abstract moves: ("k", loc) kings; pairs of slots

        def expand(position: tuple[int, int, int]):
            pm, sm, touched = position
            pm, info = without_kings(pm, path)
            if pm == full_p and (not goal_all or sm == full_s):
                return WON
            if touched and dead_after(~(pm | (sm << L)), touched):
                return DEAD_END
            key = pm | (sm << L)
            if key in visited:
                return DEAD_END
            visited.add(key)
            return moves(pm, sm, info)

        def moves(pm: int, sm: int, info: ShapeFacts):
            need, pairs = info.need, info.pairs
            for bits, move, v in pairs:
                yield move, (pm | bits, sm, v)
            for vs, positions in need.items():
                for k in by_value[vs]:
                    if sm >> k & 1:
                        continue
                    for i in positions:
                        yield ("s", i, k), (pm | (1 << i), sm | (1 << k), min(vs, 13 - vs))
            prev = -1
            for k in range(n):
                if sm >> k & 1:
                    continue
                if prev >= 0 and sval[prev] + sval[k] == 13:
                    yield ("w", prev, k), (pm, sm | (1 << prev) | (1 << k), min(sval[k], 13 - sval[k]))
                prev = k

        # Every king of the stock can be brought up and removed: do it first.
        kings = [k for k in range(n) if sval[k] == KING]
        sm0 = 0
        for k in kings:
            path.append(("s", None, k))
            sm0 |= 1 << k
        if not depth_first((pr.removed, sm0, -1), expand, path, tick):
            return False, []
        return True, self._write_cycle(path)

    def _write_cycle(self, abstract: list[tuple]) -> list[tuple]:
        """Turn the pointer-free line into real moves, adding the draws and recycles."""
        n = len(self.problem.sequence)
        sm = 0
        out: list[tuple] = []

        def nxt(q: int) -> int:
            while q < n and sm >> q & 1:
                q += 1
            return q

        p = nxt(self.problem.pointer)

        def route(target: int) -> list[tuple]:
            """Draws (and a recycle) that move the pointer from ``p`` to ``target``."""
            if target >= p:
                return [DRAW] * sum(1 for q in range(p, target) if not sm >> q & 1)
            before = [DRAW] * sum(1 for q in range(p, n) if not sm >> q & 1)
            after = [DRAW] * sum(1 for q in range(target) if not sm >> q & 1)
            return [*before, RECYCLE, *after]

        sval = self.problem.sequence
        for move in abstract:
            if move[0] == "v":  # a layout card with any stock card of that value
                _, i, y = move
                best = None
                for k in range(n):
                    if sval[k] == y and not sm >> k & 1:
                        cost = min(len(route(k)), len(route(nxt(k + 1))))
                        if best is None or cost < best[0]:
                            best = (cost, k)
                assert best is not None  # the abstract line's value is in the stock
                move = ("s", i, best[1])
            if move[0] == "s" or move[0] == "w":
                kind, i, k = move
                if kind == "w":  # two neighbours of the sequence: waste top + stock top
                    out.extend(route(k))
                    out.append((STOCK, WASTE))
                    sm |= (1 << i) | (1 << k)
                    p = nxt(k + 1)
                    continue
                as_stock = route(k)
                as_waste = route(nxt(k + 1))
                if len(as_waste) < len(as_stock):
                    out.extend(as_waste)
                    p = nxt(k + 1)
                    out.append((WASTE,) if i is None else (i, WASTE))
                    sm |= 1 << k
                else:
                    out.extend(as_stock)
                    out.append((STOCK,) if i is None else (i, STOCK))
                    sm |= 1 << k
                    p = nxt(k + 1)
            else:
                out.append(move)
        return out

    # --- Giza: reserves, no stock -----------------------------------------------------
    def _run_giza(self) -> tuple[bool, list[tuple]]:
        pr, L = self.problem, self.L
        vals = self.vals
        full_p = (1 << L) - 1
        full_g = (1 << 24) - 1
        goal_all = pr.goal == "all"
        without_kings, dead_after, tick = self.without_kings, self._dead_after, self._tick
        top_of = _RESERVE_TOP
        visited: set[int] = set()
        path: list[tuple] = []
        relax = giza_relaxations(self, goal_all, pr.overlap)

        def expand(position: tuple[int, int, int]):
            pm, gm, touched = position
            while True:
                pm, info = without_kings(pm, path)
                if pm == full_p and (not goal_all or gm == full_g):
                    return WON
                tops = []
                king = False
                for k in range(8):
                    d = top_of[(gm >> (3 * k)) & 7]
                    if d >= 0:
                        s = 3 * k + d
                        v = vals[L + s]
                        if v == KING:
                            gm |= 1 << s
                            path.append((RESERVE + k,))
                            king = True
                        else:
                            tops.append((k, s, v))
                if not king:
                    break
            if pm == full_p and (not goal_all or gm == full_g):
                return WON
            if touched and dead_after(~(pm | (gm << L)), touched):
                return DEAD_END
            key = pm | (gm << L)
            if key in visited:
                return DEAD_END
            visited.add(key)
            # Value-group relaxations (pyramid_last): lost there, lost here. Only those
            # with the group of the last move can have changed their verdict.
            if self.nodes >= self.giza_relax_after and refuted(
                    relax[0] if touched < 0 else relax[1][touched], pm, gm):
                return DEAD_END
            return moves(pm, gm, info, tops)

        def moves(pm: int, gm: int, info: ShapeFacts, tops: list):
            need, pairs = info.need, info.pairs
            for bits, move, v in pairs:
                yield move, (pm | bits, gm, v)
            for k, s, v in tops:
                for i in need.get(v, ()):
                    yield (i, RESERVE + k), (pm | (1 << i), gm | (1 << s), min(v, 13 - v))
            for a in range(len(tops)):
                ka, sa, va = tops[a]
                for kb, sb, vb in tops[a + 1:]:
                    if va + vb == 13:
                        yield (RESERVE + ka, RESERVE + kb), (pm, gm | (1 << sa) | (1 << sb), min(va, vb))

        won = depth_first((pr.removed, self.extra_removed, -1), expand, path, tick)
        return won, (path if won else [])


def solve_problem(problem: PyramidProblem, budget: Budget | None = None):
    """``(winnable, moves as notation strings, nodes)``; ``winnable`` is ``None`` when the
    budget ran out."""
    search = PyramidSearch(problem, budget)
    try:
        won, moves = search.run()
    except BudgetExceeded:
        return None, (), search.nodes
    return won, tuple(problem.move_text(m) for m in moves), search.nodes
