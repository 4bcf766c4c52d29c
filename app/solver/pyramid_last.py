"""The last (or only) pass of a Pyramid-family game with a stock, searched with value-group
relaxations as loss proofs.

Position: ``pm`` (removed layout cards), ``p`` (index of the stock top in the fixed
sequence waste bottom … waste top, stock top … stock bottom) and ``wm`` (bit mask of the
sequence cards before ``p`` still in the waste; the waste top is the highest bit). In the
last pass every card from ``p`` on is still in the stock, so these three integers are the
whole position. The search is depth-first with a set of the positions already expanded;
the game is acyclic (every move removes a card or moves ``p`` on), so a ``False`` is a
proof.

Value-group relaxations (the loss proofs). Cards pair only with cards of the
complementary value, so the 52 cards fall into six groups {1, 12}, {2, 11}, … {6, 7}
and the kings. For a set ``G`` of groups, the *relaxed game on G* is the game in which
every card outside ``G`` (kings included) may be taken away at any time, alone: it
keeps only the cards of ``G``, a layout card of ``G`` is open once the cards of ``G``
covering it (directly or not) are gone, the stock and the waste keep the cards of ``G``
in their order, and the same pairs, draws and goal apply to them.

Why a loss of the relaxed game proves a loss of the real one: map a real position to its
relaxed position (the cards of ``G`` left, the waste cards of ``G`` in order, the stock
pointer moved to the next card of ``G``). Every real move maps to a relaxed move or to
nothing: a pair of cards of ``G`` is a pair of cards of the same ``G`` (partners share a
group); a real open layout card has every card covering it gone, those of ``G`` too; the
real stock top and waste top, when in ``G``, are the relaxed ones (the relaxed stock
starts at the next card of ``G`` and the relaxed waste top is the highest card of ``G``
left under the real top); a draw of a card of ``G`` is a relaxed draw; every other move
changes nothing in the relaxed position. A real won position maps to a relaxed won one
(every card of ``G`` in the layout, and with goal ``all`` in the stock and waste too, is
gone). So a real winning line maps to a relaxed winning line, and a relaxed position
from which no line wins proves the real position lost. With ``overlap`` the relaxed game
also lets a card pair with a card of ``G`` under it when that is the only card of ``G``
left under it (a superset of the real overlap pairs, which keeps the argument).

The relaxed games are small (a group has 8 cards, four groups 32; with two decks twice
that, so Double Pyramid uses one to three groups), and each is solved exactly, on demand,
with its own memo shared by every node of the real search: its positions are acyclic too,
so a memoised verdict is final (a position is stored only once every move from it has
been answered). The relaxed game on a subset ``G'`` of ``G`` is in the same way a
relaxation of the relaxed game on ``G`` (project again: the kept cards of ``G'``), so a
relaxed position whose projection on a subset is lost is lost without being searched;
that is what keeps the larger relaxations cheap.

Which checks run where, all of them only ever skipping positions proven lost:

- at the first position every relaxation is checked (most lost one-pass deals end here);
- a child position differs from its parent only in the cards of one group ``g`` (a pair
  of complementary cards, or a draw of a card of ``g``; kings belong to no group), so its
  projection on a set without ``g`` is the parent's, already found winnable: only the
  relaxations containing ``g`` are checked;
- an available king goes at once: the position without it has every move of the position
  with it (a king is never a partner, and taking it away only uncovers cards), so it is
  at least as good; this holds for the layout, the stock top and the waste top;
- a position already expanded is not expanded again (``visited``), which is exact in an
  acyclic game.

Giza uses the same relaxations (``GizaRelaxation``, below) from ``PyramidSearch._run_giza``,
once that search has expanded ``giza_relax_after`` positions (quick wins pay nothing for
them).

Budgets: the relaxed searches call ``Budget.check`` every 1,024 relaxed positions, so a
time budget holds even while a large relaxation is solved; the node count stays the count
of real positions expanded.
"""

from __future__ import annotations

import itertools

from .depth_first import DEAD_END, WON, depth_first
from .pyramid_problem import DRAW, KING, STOCK, WASTE

SUBSET_SIZES = (1, 2, 3, 4)  # relaxations used: every single group, pair, triple, quadruple
DOUBLE_SUBSET_SIZES = (1, 2, 3)  # two decks: a group has 16 cards


def _group(v: int) -> int:
    return 0 if v == KING or v == 0 else min(v, 13 - v)


GROUP_OF = tuple(_group(v) for v in range(14))


def shape_facts(rm: int, lay: list[int], cov: dict[int, int], vals, overlap: bool) -> tuple:
    """The relaxed layout's facts for one shape ``rm`` (removed layout cards): the pairs of
    its cards that can go together (both open, or with overlap a card and the one card
    still covering it), and for each value the open cards that need it as a partner."""
    ex = [x for x in lay if not rm >> x & 1 and not cov[x] & ~rm]
    pairs = []
    for a in range(len(ex)):
        x = ex[a]
        for y in ex[a + 1:]:
            if vals[x] + vals[y] == 13:
                pairs.append((1 << x) | (1 << y))
    if overlap:
        for x in lay:
            if rm >> x & 1:
                continue
            left = cov[x] & ~rm
            if left and not left & (left - 1):
                y = left.bit_length() - 1
                if vals[x] + vals[y] == 13:
                    pairs.append((1 << x) | left)
    need: dict[int, list[int]] = {}
    for x in ex:
        need.setdefault(13 - vals[x], []).append(1 << x)
    return tuple(pairs), need


class LazyRelaxation:
    """What every relaxed game shares: its groups, the layout and stock/reserve masks of
    their cards, the memo of solved positions, the relaxations on one group fewer
    (``subs``), and a search built on first use (``_build``, per subclass) behind ``win``.
    ``lost(*position)`` (per subclass) projects a real position, or a relaxed one on more
    groups, onto this game and answers whether it is lost there."""

    __slots__ = ("_args", "_win", "groups", "lm", "memo", "sm", "subs")

    def __init__(self, groups, lmasks, smasks, args):
        self.groups = frozenset(groups)
        self.memo: dict[int, bool] = {}
        lm = sm = 0
        for g in groups:
            lm |= lmasks[g]
            sm |= smasks[g]
        self.lm, self.sm = lm, sm
        self.subs: list = []
        self._args = args
        self._win = None

    def win(self, *position: int) -> bool:
        if self._win is None:
            self._win = self._build()
        return self._win(*position)

    def _build(self):
        raise NotImplementedError


def refuted(checks: list, *position: int) -> bool:
    """Whether one of the relaxations ``checks`` proves ``position`` lost; the one that
    did goes first next time (a position's neighbours tend to fail the same one)."""
    for i in range(len(checks)):
        if checks[i].lost(*position):
            if i:
                checks.insert(0, checks.pop(i))
            return True
    return False


def group_masks(layout_left: int, layout_values, slot_values) -> tuple[list[int], list[int], list[int]]:
    """Per value group, the mask of its layout cards left and of its stock, waste or reserve
    slots (``slot_values``: a value per slot, 0 for a slot empty from the start), and the
    groups that have cards."""
    lmasks = [0] * 7
    smasks = [0] * 7
    for i, v in enumerate(layout_values):
        if layout_left >> i & 1:
            lmasks[GROUP_OF[v]] |= 1 << i
    for k, v in enumerate(slot_values):
        if v:
            smasks[GROUP_OF[v]] |= 1 << k
    present = [g for g in range(1, 7) if lmasks[g] or smasks[g]]
    return lmasks, smasks, present


def relaxation_family(make, present: list[int], sizes: tuple[int, ...]) -> list:
    """``make(groups)`` for every set of ``sizes`` groups among ``present``, each knowing
    its relaxations on one group fewer (``subs``)."""
    rels = [make(gs) for size in sizes for gs in itertools.combinations(present, size)]
    by_groups = {r.groups: r for r in rels}
    for r in rels:
        if len(r.groups) > 1:
            r.subs = [by_groups[r.groups - {g}] for g in sorted(r.groups)
                      if r.groups - {g} in by_groups]
    return rels


def by_group(rels: list) -> list[list]:
    """Per value group, the relaxations containing it."""
    lists: list[list] = [[] for _ in range(7)]
    for r in rels:
        for g in r.groups:
            lists[g].append(r)
    return lists


class Relaxation(LazyRelaxation):
    """The relaxed game on a set of value groups, solved on demand with a memo.

    A real position ``(pm, p, wm)`` projects to ``(pm & lm, nxt[p], wm & sm)``; ``memo``
    maps a projected position (packed by ``key``) to whether the relaxed game wins from it,
    and ``win`` (built on first use) fills it in."""

    __slots__ = ("nxt", "pshift", "wshift")

    def __init__(self, groups, lmasks, smasks, L, n, args):
        super().__init__(groups, lmasks, smasks, args)
        sm = self.sm
        nxt = [n] * (n + 1)
        for k in range(n - 1, -1, -1):
            nxt[k] = k if sm >> k & 1 else nxt[k + 1]
        self.nxt = nxt
        self.pshift, self.wshift = L, L + 7

    def lost(self, pm: int, p: int, wm: int) -> bool:
        rm, rp, rw = pm & self.lm, self.nxt[p], wm & self.sm
        ok = self.memo.get(rm | (rp << self.pshift) | (rw << self.wshift))
        if ok is None:
            ok = self.win(rm, rp, rw)
        return not ok

    def _build(self):
        vals, seq, under, goal_all, overlap, counter, search = self._args
        budget = search.budget
        lm, nxt, memo = self.lm, self.nxt, self.memo
        n = len(seq)
        lay = [i for i in range(lm.bit_length()) if lm >> i & 1]
        cov = {x: under[x] & lm for x in lay}
        shape_cache: dict[int, tuple] = {}
        pshift, wshift = self.pshift, self.wshift
        # ``lost`` inlined: this loop runs at every relaxed position
        subs = [(r.memo, r.lm, r.nxt, r.sm, r) for r in self.subs]

        def shape(rm: int) -> tuple:
            got = shape_cache[rm] = shape_facts(rm, lay, cov, vals, overlap)
            return got

        def win(rm: int, p: int, wm: int) -> bool:
            key = rm | (p << pshift) | (wm << wshift)
            got = memo.get(key)
            if got is not None:
                return got
            counter[0] += 1
            if budget is not None and not counter[0] & 1023:
                budget.check(search.nodes)
            if rm == lm and (not goal_all or (p == n and not wm)):
                memo[key] = True
                return True
            # The relaxed game on a subset of G relaxes this one too: lost there, lost here.
            for smemo, slm, snxt, ssm, sub in subs:
                a, b, c = rm & slm, snxt[p], wm & ssm
                ok = smemo.get(a | (b << pshift) | (c << wshift))
                if ok is None:
                    ok = sub.win(a, b, c)
                if not ok:
                    memo[key] = False
                    return False
            sh = shape_cache.get(rm)
            if sh is None:
                sh = shape(rm)
            pairs, need = sh
            res = False
            for bits in pairs:
                if win(rm | bits, p, wm):
                    res = True
                    break
            if not res and wm:
                t = wm.bit_length() - 1
                wv = seq[t]
                w2 = wm ^ (1 << t)
                for b in need.get(wv, ()):
                    if win(rm | b, p, w2):
                        res = True
                        break
                if not res and p < n and seq[p] + wv == 13 and win(rm, nxt[p + 1], w2):
                    res = True
            if not res and p < n:
                sv = seq[p]
                np_ = nxt[p + 1]
                for b in need.get(sv, ()):
                    if win(rm | b, np_, wm):
                        res = True
                        break
                if not res and win(rm, np_, wm | (1 << p)):
                    res = True
            memo[key] = res
            return res

        return win


def run_last_pass(search) -> tuple[bool, list[tuple]]:
    """Search the last pass from ``search.problem`` (a ``PyramidSearch``)."""
    pr = search.problem
    L = search.L
    vals = search.vals
    seq = pr.sequence
    n = len(seq)
    full_p = (1 << L) - 1
    goal_all = pr.goal == "all"
    expinfo, tick = search._expinfo, search._tick
    group_of = GROUP_OF
    lmasks, smasks, present = group_masks(~pr.removed, vals[:L], seq)
    args = (vals, seq, search.under, goal_all, pr.overlap, [0], search)
    rels = relaxation_family(lambda gs: Relaxation(gs, lmasks, smasks, L, n, args), present,
                             SUBSET_SIZES if pr.pyramids == 1 else DOUBLE_SUBSET_SIZES)
    containing = by_group(rels)
    all_checks = list(rels)
    pshift = L
    wshift = L + 7
    visited: set[int] = set()
    path: list[tuple] = []

    def expand(position: tuple[int, int, int, int]):
        pm, p, wm, g = position
        while True:  # kings go at once (removing one never takes a move away)
            if pm == full_p and (not goal_all or (p == n and not wm)):
                return WON
            info = expinfo(pm)
            if info[0]:
                pm |= info[0]
                path.extend(info[1])
                continue
            if p < n and seq[p] == KING:
                p += 1
                path.append((STOCK,))
                continue
            if wm:
                t = wm.bit_length() - 1
                if seq[t] == KING:
                    wm ^= 1 << t
                    path.append((WASTE,))
                    continue
            break
        key = pm | (p << pshift) | (wm << wshift)
        if key in visited:
            return DEAD_END
        visited.add(key)
        if refuted(all_checks if g < 0 else containing[g], pm, p, wm):
            return DEAD_END
        return moves(pm, p, wm, info)

    def moves(pm: int, p: int, wm: int, info: tuple):
        need, pairs = info[2], info[3]
        for bits, move, v in pairs:
            yield move, (pm | bits, p, wm, v)
        if p < n:
            sv = seq[p]
            gv = group_of[sv]
            for i in need.get(sv, ()):
                yield (i, STOCK), (pm | (1 << i), p + 1, wm, gv)
        if wm:
            t = wm.bit_length() - 1
            wv = seq[t]
            gw = group_of[wv]
            for i in need.get(wv, ()):
                yield (i, WASTE), (pm | (1 << i), p, wm ^ (1 << t), gw)
            if p < n and seq[p] + wv == 13:
                yield (STOCK, WASTE), (pm, p + 1, wm ^ (1 << t), gw)
        if p < n:
            yield DRAW, (pm, p + 1, wm | (1 << p), group_of[seq[p]])

    won = depth_first((pr.removed, pr.pointer, (1 << pr.pointer) - 1, -1), expand, path, tick)
    return won, (path if won else [])


# --- Giza: the same relaxations over the reserve piles -------------------------------------
class GizaRelaxation(LazyRelaxation):
    """The relaxed game on a set of value groups for Giza: the layout cards and the reserve
    cards of ``G``, a reserve card of ``G`` available once the cards of ``G`` above it in
    its pile are gone (the others may be taken away at any time). A real reserve top in
    ``G`` has every card above it gone, so it is a relaxed top too, and the argument above
    holds unchanged. A real position ``(pm, gm)`` (``gm``: removed reserve slots) projects
    to ``(pm & lm, gm & sm)``."""

    __slots__ = ("shift",)

    def __init__(self, groups, lmasks, smasks, args):
        super().__init__(groups, lmasks, smasks, args)
        self.shift = args[1]  # L: the reserve mask's place in a memo key

    def lost(self, pm: int, gm: int) -> bool:
        a, b = pm & self.lm, gm & self.sm
        ok = self.memo.get(a | (b << self.shift))
        if ok is None:
            ok = self.win(a, b)
        return not ok

    def _build(self):
        vals, L, under, goal_all, overlap, counter, search = self._args
        budget = search.budget
        lm, sm, memo = self.lm, self.sm, self.memo
        lay = [i for i in range(L) if lm >> i & 1]
        cov = {x: under[x] & lm for x in lay}
        # Per pile, its slots of G from the top down, with their values.
        piles = []
        for k in range(8):
            slots = [(1 << (3 * k + d), vals[L + 3 * k + d]) for d in (2, 1, 0)
                     if sm >> (3 * k + d) & 1]
            if slots:
                piles.append(slots)
        shape_cache: dict[int, tuple] = {}
        tops_cache: dict[int, tuple] = {}
        subs = [(r.memo, r.lm, r.sm, r) for r in self.subs]  # ``lost`` inlined, as above

        def shape(rm: int) -> tuple:
            got = shape_cache[rm] = shape_facts(rm, lay, cov, vals, overlap)
            return got

        def tops_of(gm: int) -> tuple:
            tops = []
            for slots in piles:
                for bit, v in slots:
                    if not gm & bit:
                        tops.append((bit, v))
                        break
            both = []
            for a in range(len(tops)):
                ba, va = tops[a]
                for bb, vb in tops[a + 1:]:
                    if va + vb == 13:
                        both.append(ba | bb)
            got = (tuple(tops), tuple(both))
            tops_cache[gm] = got
            return got

        def win(rm: int, gm: int) -> bool:
            key = rm | (gm << L)
            got = memo.get(key)
            if got is not None:
                return got
            counter[0] += 1
            if budget is not None and not counter[0] & 1023:
                budget.check(search.nodes)
            if rm == lm and (not goal_all or gm == sm):
                memo[key] = True
                return True
            for smemo, slm, ssm, sub in subs:
                a, b = rm & slm, gm & ssm
                ok = smemo.get(a | (b << L))
                if ok is None:
                    ok = sub.win(a, b)
                if not ok:
                    memo[key] = False
                    return False
            sh = shape_cache.get(rm)
            if sh is None:
                sh = shape(rm)
            pairs, need = sh
            tp = tops_cache.get(gm)
            if tp is None:
                tp = tops_of(gm)
            tops, both = tp
            res = False
            for bits in pairs:
                if win(rm | bits, gm):
                    res = True
                    break
            if not res:
                for bit, v in tops:
                    for b in need.get(v, ()):
                        if win(rm | b, gm | bit):
                            res = True
                            break
                    if res:
                        break
            if not res:
                for bits in both:
                    if win(rm, gm | bits):
                        res = True
                        break
            memo[key] = res
            return res

        return win


def giza_relaxations(search, goal_all: bool, overlap: bool):
    """The Giza relaxations of ``search`` (a ``PyramidSearch`` with reserves): the list of
    all, and per value group the ones containing it."""
    L, vals = search.L, search.vals
    slots = [0 if search.extra_removed >> s & 1 else vals[L + s] for s in range(24)]
    lmasks, smasks, present = group_masks(~search.problem.removed, vals[:L], slots)
    args = (vals, L, search.under, goal_all, overlap, [0], search)
    rels = relaxation_family(lambda gs: GizaRelaxation(gs, lmasks, smasks, args), present, SUBSET_SIZES)
    return list(rels), by_group(rels)
