"""A Pyramid-family game with a stock and a limited number of passes, searched from an
earlier pass than the last one, with value-group relaxations (``pyramid_last``) as loss
proofs in every pass.

Position: ``pm`` (removed layout cards), ``am`` (bit mask of the cards of the fixed
sequence still in the stock or the waste; the sequence is waste bottom … waste top,
stock top … stock bottom, and a recycle turns the waste over into the same order again),
``p`` (index of the stock top: the first card of ``am`` at or after the pointer, or ``n``
when the stock is empty; the waste is the cards of ``am`` before ``p``, its top the
highest) and ``pas`` (the pass being played). The search is depth-first; positions
already expanded are kept (``pm``, ``p``, ``am``) with the lowest pass they were expanded
at, and a position seen before at the same or an earlier pass is not expanded again: with
more passes left every line of the later one is still playable. The game is acyclic once
the pass is part of the position (every move removes a card, moves ``p`` on, or starts a
new pass), so a ``False`` is a proof.

Value-group relaxations with passes. For a set ``G`` of value groups (``pyramid_last``),
the relaxed game keeps the cards of ``G`` in the layout and in the sequence (in their
order), every other card may be taken away at any time, alone; the same pairs, draws and
goal apply, and a recycle is allowed whenever the relaxed stock is empty and a pass
remains (with an empty waste too). A real position maps to ``(pm & lm, p', am & sm,
pas)``, ``p'`` the first card of ``G`` in ``am`` at or after ``p`` (``n`` if none). Every
real move maps to a relaxed move or to nothing:

- a pair of two cards of ``G`` (partners share a group), with a layout card open in the
  real game (so open in the relaxed one), the real stock top (the relaxed stock top when
  it is in ``G``: no card of ``G`` is left between ``p`` and it) or the real waste top
  (the highest card left under ``p``; when in ``G`` it is the highest card of ``G`` left
  under ``p'``, as no card of ``G`` is left in ``[p, p')``): the same relaxed pair;
- a draw of a card of ``G``: the relaxed draw; of another card: nothing (``p'`` and the
  relaxed waste are unchanged);
- a recycle: the real stock is empty, so the relaxed one is too, and the same pass
  remains: the relaxed recycle (both pointers go to the first card left, of ``G`` for
  the relaxed one, and the pass number grows by one in both);
- anything involving only cards outside ``G`` (kings included): nothing.

A real won position maps to a relaxed won one (every layout card of ``G`` gone; with goal
``all`` every sequence card of ``G`` too). So a real winning line maps to a relaxed one,
and a relaxed position from which nothing wins proves the real position lost. With
``overlap`` the relaxed game allows the same superset of overlap pairs as in
``pyramid_last``. A relaxed game on a subset of ``G`` relaxes the one on ``G`` in the same
way, so a relaxed position whose projection on a subset is lost is lost. Each relaxed game
is solved exactly on demand with a memo shared by the whole deal (every pass, every
branch): its positions carry the pass number, so they are acyclic and a stored verdict is
final.

Relaxations on one to five groups are built (one to three with two decks); only those on
the most groups are checked at real positions, since each of them looks at its subsets
first (lost there, lost here), so checking the smaller ones too would prove nothing more.
Which checks run where (each only ever skips positions proven lost, so leaving a check out
is always sound): none for the first ``multi_relax_after`` positions (quick wins pay
nothing for them) and none at a position reached by a draw (a draw moves one card; its
children check for it); elsewhere the relaxations containing a group whose cards moved
since the last checked ancestor (the other projections are that ancestor's, already found
winnable), every one after a recycle (it changes every projection). An available king
goes at once (the position without it has every move of the one with it, in every pass:
a king is never a partner, and taking it away only uncovers cards or shortens the stock
or waste).
"""

from __future__ import annotations

from .depth_first import DEAD_END, WON, depth_first
from .pyramid_last import DOUBLE_SUBSET_SIZES
from .pyramid_problem import DRAW, KING, RECYCLE, STOCK, WASTE
from .relaxations import GROUP_OF, PassGame, RelaxedTable, group_masks, refuted, relaxation_family

ALL_GROUPS = 0b1111110  # bits 1-6: the value groups
MULTI_SUBSET_SIZES = (1, 2, 3, 4, 5)
MULTI_DOUBLE_SUBSET_SIZES = DOUBLE_SUBSET_SIZES


def _checks(search):
    """The relaxations a position checks, by the value groups whose cards moved since its last
    checked ancestor (a bit mask): those on the most groups that contain one of them. Only the
    largest are checked: a lost relaxation on a subset makes the larger one lost too (``win``
    looks at its subsets first)."""
    pr = search.problem
    lmasks, smasks, present = group_masks(~pr.removed, search.vals[:search.L], pr.sequence)
    table = RelaxedTable(search.vals, search.under, pr.goal == "all", pr.overlap, search, [0])
    rels = relaxation_family(lambda gs: PassGame(gs, lmasks, smasks, table, pr.sequence, pr.passes), present,
                             MULTI_SUBSET_SIZES if pr.pyramids == 1 else MULTI_DOUBLE_SUBSET_SIZES)
    top = max(len(r.groups) for r in rels) if rels else 0
    checked = [(sum(1 << g for g in r.groups), r) for r in rels if len(r.groups) == top]
    lists: dict[int, list[PassGame]] = {}

    def checks_for(changed: int) -> list[PassGame]:
        got = lists.get(changed)
        if got is None:
            got = lists[changed] = [r for groups, r in checked if groups & changed]
        return got

    return checks_for


def run_multi_pass(search) -> tuple[bool, list[tuple]]:
    """Search ``search.problem`` (a ``PyramidSearch`` with a stock, ``pass_number <
    passes``) with value-group relaxations in every pass."""
    pr = search.problem
    L = search.L
    seq = pr.sequence
    n = len(seq)
    passes = pr.passes
    full_p = (1 << L) - 1
    goal_all = pr.goal == "all"
    without_kings, tick = search.without_kings, search._tick
    group_of = GROUP_OF
    checks_for = _checks(search)
    pshift, ashift = L, L + 7
    visited: dict[int, int] = {}
    path: list[tuple] = []
    relax_after = search.nodes + search.multi_relax_after  # (the free precheck counts too)

    def first(am: int, q: int) -> int:
        x = am >> q
        return q + (x & -x).bit_length() - 1 if x else n

    def expand(position: tuple[int, int, int, int, int, bool]):
        pm, p, am, pas, gm, drawn = position
        while True:  # kings go at once (removing one never takes a move away)
            pm, info = without_kings(pm, path)
            if pm == full_p and (not goal_all or not am):
                return WON
            if p < n and seq[p] == KING:
                am ^= 1 << p
                p = first(am, p + 1)
                path.append((STOCK,))
                continue
            below = am & ((1 << p) - 1)
            if below:
                t = below.bit_length() - 1
                if seq[t] == KING:
                    am ^= 1 << t
                    path.append((WASTE,))
                    continue
            break
        key = pm | (p << pshift) | (am << ashift)
        seen = visited.get(key)
        if seen is not None and seen <= pas:
            return DEAD_END
        visited[key] = pas
        if search.nodes < relax_after or drawn:
            base = gm  # not checked: the children check these groups too
        else:
            if refuted(checks_for(gm), pm, p, am, pas):
                return DEAD_END
            base = 0
        return moves(pm, p, am, pas, base, below, info)

    def moves(pm: int, p: int, am: int, pas: int, base: int, below: int, info):
        need, pairs = info.need, info.pairs
        for bits, move, v in pairs:
            yield move, (pm | bits, p, am, pas, base | 1 << v, False)
        if p < n:
            sv = seq[p]
            gv = group_of[sv]
            a2 = am ^ (1 << p)
            np_ = first(a2, p + 1)
            for i in need.get(sv, ()):
                yield (i, STOCK), (pm | (1 << i), np_, a2, pas, base | 1 << gv, False)
        if below:
            t = below.bit_length() - 1
            wv = seq[t]
            gw = group_of[wv]
            a2 = am ^ (1 << t)
            for i in need.get(wv, ()):
                yield (i, WASTE), (pm | (1 << i), p, a2, pas, base | 1 << gw, False)
            if p < n and seq[p] + wv == 13:
                a3 = a2 ^ (1 << p)
                yield (STOCK, WASTE), (pm, first(a3, p + 1), a3, pas, base | 1 << gw, False)
        if p < n:
            yield DRAW, (pm, first(am, p + 1), am, pas, base | 1 << group_of[seq[p]], True)
        elif below and pas < passes:
            yield RECYCLE, (pm, first(am, 0), am, pas + 1, ALL_GROUPS, False)

    am0 = (1 << n) - 1
    start = (pr.removed, first(am0, pr.pointer), am0, pr.pass_number, ALL_GROUPS, False)
    won = depth_first(start, expand, path, tick)
    return won, (path if won else [])
