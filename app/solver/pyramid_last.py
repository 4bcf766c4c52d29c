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

The relaxed games are ``relaxations.LastPassGame``; Giza uses the same kind of relaxations
(``relaxations.GizaGame``) from ``PyramidSearch._run_giza``, once that search has expanded
``giza_relax_after`` positions (quick wins pay nothing for them).
"""

from __future__ import annotations

from .depth_first import DEAD_END, WON, depth_first
from .pyramid_problem import DRAW, KING, STOCK, WASTE
from .relaxations import (
    GROUP_OF,
    GizaGame,
    LastPassGame,
    RelaxedTable,
    by_group,
    group_masks,
    refuted,
    relaxation_family,
)

SUBSET_SIZES = (1, 2, 3, 4)  # relaxations used: every single group, pair, triple, quadruple
DOUBLE_SUBSET_SIZES = (1, 2, 3)  # two decks: a group has 16 cards


def run_last_pass(search) -> tuple[bool, list[tuple]]:
    """Search the last pass from ``search.problem`` (a ``PyramidSearch``)."""
    pr = search.problem
    L = search.L
    vals = search.vals
    seq = pr.sequence
    n = len(seq)
    full_p = (1 << L) - 1
    goal_all = pr.goal == "all"
    without_kings, tick = search.without_kings, search._tick
    group_of = GROUP_OF
    lmasks, smasks, present = group_masks(~pr.removed, vals[:L], seq)
    table = RelaxedTable(vals, search.under, goal_all, pr.overlap, search, [0])
    rels = relaxation_family(lambda gs: LastPassGame(gs, lmasks, smasks, table, seq), present,
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
            pm, info = without_kings(pm, path)
            if pm == full_p and (not goal_all or (p == n and not wm)):
                return WON
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

    def moves(pm: int, p: int, wm: int, info):
        need, pairs = info.need, info.pairs
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




def giza_relaxations(search, goal_all: bool, overlap: bool):
    """The Giza relaxations of ``search`` (a ``PyramidSearch`` with reserves): the list of
    all, and per value group the ones containing it."""
    L, vals = search.L, search.vals
    slots = [0 if search.extra_removed >> s & 1 else vals[L + s] for s in range(24)]
    lmasks, smasks, present = group_masks(~search.problem.removed, vals[:L], slots)
    table = RelaxedTable(vals, search.under, goal_all, overlap, search, [0])
    rels = relaxation_family(lambda gs: GizaGame(gs, lmasks, smasks, table), present, SUBSET_SIZES)
    return list(rels), by_group(rels)
