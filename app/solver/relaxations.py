"""Value-group relaxations: the loss proofs of the exact Pyramid-family searches (``pyramid_last``,
``pyramid_multi``, Giza's in ``pyramid``).

Cards pair only with cards of the complementary value, so the cards fall into six groups
{1, 12}, {2, 11}, … {6, 7} and the kings. For a set ``G`` of groups, the *relaxed game on G* is
the game in which every card outside ``G`` (kings included) may be taken away at any time, alone:
it keeps only the cards of ``G``, a layout card of ``G`` is open once the cards of ``G`` covering
it are gone, the stock and the waste keep the cards of ``G`` in their order (Giza: the reserve
piles keep theirs), and the same pairs, draws, recycles and goal apply to them. A real line maps
to a relaxed line (every move on the cards of ``G`` is a relaxed move, every other move is
nothing), so a relaxed position from which nothing wins proves the real position lost. With
``overlap`` the relaxed game also lets a card pair with the one card of ``G`` still over it (a
superset of the real overlap pairs, which keeps the argument). The argument for each kind of
position is in the docstring of the search that uses it.

A relaxed game on a subset ``G'`` of ``G`` is in the same way a relaxation of the one on ``G``
(project again), so a relaxed position whose projection on a subset is lost is lost without
being searched: that keeps the larger relaxations cheap.

``RelaxedGame`` owns what every relaxed game shares: its groups, the masks of their cards, the
memo of solved positions (the positions are acyclic, so a stored verdict is final), the games on
one group fewer (``subs``), and the memoised search itself (``win``). A kind of game says only
how a position is projected onto it (``project``), packed (``key``), won (``won``) and which
positions its moves lead to (``children``): ``LastPassGame``, ``PassGame`` and ``GizaGame``.

Budgets: the relaxed searches call ``Budget.check`` every 1,024 relaxed positions, so a time
budget holds even while a large relaxation is solved; the node count stays the count of real
positions expanded.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import NamedTuple

from .pyramid_problem import KING


def _group(v: int) -> int:
    return 0 if v == KING or v == 0 else min(v, 13 - v)


GROUP_OF = tuple(_group(v) for v in range(14))


class RelaxedTable(NamedTuple):
    """What every relaxed game of one search reads: the card values (layout, then the stock
    sequence or the reserve slots), the layout's ``under`` masks (``geometry``), the rules, and
    the search whose budget they share (``counter``: relaxed positions explored by all)."""

    values: list[int]
    under: list[int]
    goal_all: bool
    overlap: bool
    search: object
    counter: list[int]


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


class RelaxedGame:
    """The relaxed game on a set of value groups (module docstring), solved on demand with a memo.
    ``lost(*position)`` projects a real position onto this game and answers whether it is lost
    there; a kind of game defines ``project``, ``key``, ``won`` and ``children``."""

    __slots__ = ("_shapes", "_win", "cov", "groups", "lay", "lm", "memo", "sm", "subs", "table")

    def __init__(self, groups, lmasks: list[int], smasks: list[int], table: RelaxedTable) -> None:
        self.groups = frozenset(groups)
        self.table = table
        self.memo: dict[int, bool] = {}
        lm = sm = 0
        for g in groups:
            lm |= lmasks[g]
            sm |= smasks[g]
        self.lm, self.sm = lm, sm
        self.lay = [i for i in range(lm.bit_length()) if lm >> i & 1]
        self.cov = {x: table.under[x] & lm for x in self.lay}
        self.subs: list[RelaxedGame] = []
        self._shapes: dict[int, tuple] = {}
        self._win: Callable[..., bool] | None = None

    # --- what a kind of game says (its methods) ----------------------------------------------
    # project(*position): a real position, or one of a game on more groups, as this game's;
    # key(*position): the packed position; won(*position): whether it is won;
    # children(*position): the positions its moves lead to, in the order they are tried.
    project: Callable[..., tuple]
    key: Callable[..., int]
    won: Callable[..., bool]
    children: Callable[..., Iterator[tuple]]

    # --- the search ------------------------------------------------------------------------------
    def shape(self, rm: int) -> tuple:
        """``shape_facts`` of the relaxed layout ``rm``, cached."""
        got = self._shapes.get(rm)
        if got is None:
            table = self.table
            got = self._shapes[rm] = shape_facts(rm, self.lay, self.cov, table.values, table.overlap)
        return got

    def lost(self, *position: int) -> bool:
        relaxed = self.project(*position)
        ok = self.memo.get(self.key(*relaxed))
        if ok is None:
            ok = self.win(*relaxed)
        return not ok

    def win(self, *position: int) -> bool:
        search = self._win
        if search is None:
            search = self._win = self._build()
        return search(*position)

    def _build(self):
        """The memoised search, built on first use (its closure keeps the lookups local: it runs
        at every relaxed position)."""
        memo, key_of, won, children = self.memo, self.key, self.won, self.children
        counter, search = self.table.counter, self.table.search
        budget = search.budget  # type: ignore[attr-defined]
        subs = [(sub.memo, sub.key, sub.project, sub) for sub in self.subs]

        def win(*position: int) -> bool:
            key = key_of(*position)
            got = memo.get(key)
            if got is not None:
                return got
            counter[0] += 1
            if budget is not None and not counter[0] & 1023:
                budget.check(search.nodes)  # type: ignore[attr-defined]
            if won(*position):
                memo[key] = True
                return True
            for sub_memo, sub_key, sub_project, sub in subs:  # lost on a subset, lost here
                relaxed = sub_project(*position)
                ok = sub_memo.get(sub_key(*relaxed))
                if ok is None:
                    ok = sub.win(*relaxed)
                if not ok:
                    memo[key] = False
                    return False
            result = False
            for child in children(*position):
                if win(*child):
                    result = True
                    break
            memo[key] = result
            return result

        return win


class LastPassGame(RelaxedGame):
    """The last pass with a stock (``pyramid_last``): a position is ``(rm, p, wm)``, the layout
    cards gone, the stock pointer (at a card of the game, or ``n``) and the waste's cards."""

    __slots__ = ("n", "nxt", "pshift", "seq", "wshift")

    def __init__(self, groups, lmasks, smasks, table: RelaxedTable, sequence: tuple[int, ...]) -> None:
        super().__init__(groups, lmasks, smasks, table)
        n = len(sequence)
        self.seq, self.n = sequence, n
        sm = self.sm
        nxt = [n] * (n + 1)  # the first card of the game at or after each place
        for k in range(n - 1, -1, -1):
            nxt[k] = k if sm >> k & 1 else nxt[k + 1]
        self.nxt = nxt
        L = len(table.under)
        self.pshift, self.wshift = L, L + 7

    def project(self, pm: int, p: int, wm: int) -> tuple:
        return pm & self.lm, self.nxt[p], wm & self.sm

    def key(self, rm: int, p: int, wm: int) -> int:
        return rm | (p << self.pshift) | (wm << self.wshift)

    def won(self, rm: int, p: int, wm: int) -> bool:
        return rm == self.lm and (not self.table.goal_all or (p == self.n and not wm))

    def children(self, rm: int, p: int, wm: int) -> Iterator[tuple]:
        seq, n, nxt = self.seq, self.n, self.nxt
        pairs, need = self.shape(rm)
        for bits in pairs:
            yield rm | bits, p, wm
        if wm:
            top = wm.bit_length() - 1
            rest = wm ^ (1 << top)
            for b in need.get(seq[top], ()):
                yield rm | b, p, rest
            if p < n and seq[p] + seq[top] == 13:
                yield rm, nxt[p + 1], rest
        if p < n:
            after = nxt[p + 1]
            for b in need.get(seq[p], ()):
                yield rm | b, after, wm
            yield rm, after, wm | (1 << p)


class PassGame(RelaxedGame):
    """A stock with passes left (``pyramid_multi``): a position is ``(rm, p, am, pas)``, the
    layout cards gone, the stock pointer, the stock and waste cards left, and the pass. A recycle
    is allowed whenever the relaxed stock is empty and a pass remains."""

    __slots__ = ("ashift", "n", "passes", "pshift", "seq", "sshift")

    def __init__(self, groups, lmasks, smasks, table: RelaxedTable, sequence: tuple[int, ...],
                 passes: int) -> None:
        super().__init__(groups, lmasks, smasks, table)
        self.seq, self.n, self.passes = sequence, len(sequence), passes
        L = len(table.under)
        self.pshift, self.ashift, self.sshift = L, L + 7, L + 7 + self.n

    def _first(self, am: int, q: int) -> int:
        x = am >> q
        return q + (x & -x).bit_length() - 1 if x else self.n

    def project(self, pm: int, p: int, am: int, pas: int) -> tuple:
        am &= self.sm
        return pm & self.lm, self._first(am, p), am, pas

    def key(self, rm: int, p: int, am: int, pas: int) -> int:
        return rm | (p << self.pshift) | (am << self.ashift) | (pas << self.sshift)

    def won(self, rm: int, p: int, am: int, pas: int) -> bool:
        return rm == self.lm and (not self.table.goal_all or not am)

    def children(self, rm: int, p: int, am: int, pas: int) -> Iterator[tuple]:
        seq, n, first = self.seq, self.n, self._first
        pairs, need = self.shape(rm)
        for bits in pairs:
            yield rm | bits, p, am, pas
        below = am & ((1 << p) - 1)
        if below:
            top = below.bit_length() - 1
            rest = am ^ (1 << top)
            for b in need.get(seq[top], ()):
                yield rm | b, p, rest, pas
            if p < n and seq[p] + seq[top] == 13:
                both = rest ^ (1 << p)
                yield rm, first(both, p + 1), both, pas
        if p < n:
            rest = am ^ (1 << p)
            after = first(rest, p + 1)
            for b in need.get(seq[p], ()):
                yield rm | b, after, rest, pas
            yield rm, first(am, p + 1), am, pas
        elif pas < self.passes:
            yield rm, first(am, 0), am, pas + 1


class GizaGame(RelaxedGame):
    """Giza's reserves: a position is ``(rm, gm)``, the layout cards and the reserve slots gone; a
    reserve card of the game is available once the cards of the game above it in its pile are
    gone (a real reserve top in the game has every card above it gone, so it is a relaxed top)."""

    __slots__ = ("L", "_tops", "piles")

    def __init__(self, groups, lmasks, smasks, table: RelaxedTable) -> None:
        super().__init__(groups, lmasks, smasks, table)
        self.L = L = len(table.under)
        sm, vals = self.sm, table.values
        # per pile, its slots of the game from the top down, with their values
        self.piles = [slots for slots in ([(1 << (3 * k + d), vals[L + 3 * k + d]) for d in (2, 1, 0)
                                           if sm >> (3 * k + d) & 1] for k in range(8)) if slots]
        self._tops: dict[int, tuple] = {}

    def project(self, pm: int, gm: int) -> tuple:
        return pm & self.lm, gm & self.sm

    def key(self, rm: int, gm: int) -> int:
        return rm | (gm << self.L)

    def won(self, rm: int, gm: int) -> bool:
        return rm == self.lm and (not self.table.goal_all or gm == self.sm)

    def tops(self, gm: int) -> tuple:
        """The available reserve cards ``(bit, value)`` and the pairs among them, cached."""
        got = self._tops.get(gm)
        if got is None:
            tops = []
            for slots in self.piles:
                for bit, v in slots:
                    if not gm & bit:
                        tops.append((bit, v))
                        break
            both = [ba | bb for a, (ba, va) in enumerate(tops) for bb, vb in tops[a + 1:] if va + vb == 13]
            got = self._tops[gm] = (tuple(tops), tuple(both))
        return got

    def children(self, rm: int, gm: int) -> Iterator[tuple]:
        pairs, need = self.shape(rm)
        tops, both = self.tops(gm)
        for bits in pairs:
            yield rm | bits, gm
        for bit, v in tops:
            for b in need.get(v, ()):
                yield rm | b, gm | bit
        for bits in both:
            yield rm, gm | bits


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
