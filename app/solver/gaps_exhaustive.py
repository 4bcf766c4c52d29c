"""The last round of a Gaps deal, compiled (``app.solver._gaps_core``, one C file): beams that
find wins fast, then an exhaustive search that decides the round (``decide``).

The exhaustive search decides the last round of a deal (no redeal left): depth-first over every
grid reachable by fills, each grid expanded at most once (an exact set of the grids met, 6 bits
a cell: no hashing that could merge two grids), the fills in ``GapsCore.fills``'s order (those
that extend a row's correct run first). A grid that the reach relaxation (``GapsCore.analyse``,
``app/solver/gaps.py``, "Reach") condemns is not expanded: no continuation from it wins
within the round. Hence a search that ends without meeting a won grid has met every grid
from which a win was reachable, and a win reachable from the start would have been met: the
round is lost. A win is the line of fills on the search's stack, which the caller replays
with the engine before anyone sees it.

The set of grids met keeps the keys in one dense array and finds them through an index of
8-byte entries that hold a key's place and part of its hash, so a probe reads the index alone
unless the hash matches; the index's line for each move's grid is fetched from memory when the
grid's moves are made (the set is far larger than the caches, and its lookups are the
search's largest cost).

Restarts. A depth-first search that goes wrong early spends its time under its first fills,
so the search is run again and again from the root, sharing the set of grids met: first in
the fixed order for ``FIRST_RUN_GRIDS`` new grids, then with the fills of each group shuffled
(a seed a run) for ``RESTART_GRIDS`` times the Luby sequence 1, 1, 2, 1, 1, 2, 4, … A run cut
by its allowance takes the grids on its stack out of the set (not all their fills were tried)
and keeps the rest, each of which had all its fills tried: so every successor of a grid in
the set is in the set or reachable from the root through grids outside it, the next run
searches those, and a run that ends without a cut has met every grid reachable through grids
that may still win. A loss is still a proof; a win is still the line on the stack. Once
``LAST_CUT`` grids are searched, the run going on is never cut: restarts to the end cost a
lost round more time (and more grids) than one run, and decide no more deals
(docs/performance.md, "Gaps solver").

Column 0 as one arrangement (``classes``; the international rule, as ``GapsCore.column0_moves``
in ``app/solver/gaps.py``, "Column 0"): the grids that differ only in how the 2s of column 0
sit over its cells that hold a 2 or a gap, when one of those is a gap, reach one another by
moving 2s within column 0 and win or lose together; the set holds one key for all of them and
a grid's moves are those of every arrangement (a move may play a few 2s within column 0 before
its own fill; the line holds them all, and the engine replays it). A lost round is proven in
fewer grids, since each class is met once.

Where the relaxation runs: at the root of every run and at every ``PRUNE_EVERY``-th depth. A
grid it would condemn that goes unchecked is only expanded (its successors are condemned too:
their reach lies within its own); skipping it never removes a grid, so a loss stays a proof.
Checking more often meets fewer grids but pays for the relaxation at more of them; every 2nd
depth is where the two balance (docs/performance.md, "Gaps solver"). The relaxation advances
the four suits rank by rank together, four independent chains of operations that the
processor overlaps; a pass after the first starts at the lowest rank that the last pass's new
gaps can reach (the ranks below it would compute what they hold): the same least solution,
the same grids, less time.

Transpositions. A fill that commutes with the fill that made a grid (four different cells,
neither taking the card left of the other's gap) and that the parent made before it is not
looked up: the parent's earlier child tried this grid's fill (or was condemned by the
relaxation, and then so is the grid both make). One level of sleep sets; without the relaxation
and restarts the grids met are the same, with them fewer; either way a lookup is spared. Only a
child searched in the same run counts: one found in the set was searched in an earlier run, and a
cut since may have taken the grid it made by this fill out of the set, to be searched again (a
win was missed so).

Greedy (``greedy``; ``decide`` runs it after the beams on up to ``GREEDY_SHARE`` of the time
left). The same depth-first search (one run in the fixed order, its own set of grids met) where
a grid with fills that extend a row's correct run has only those. It drops fills, so it proves
nothing: only its wins count, and the exhaustive search runs on the rest of the time. Its space
is far smaller than the round's, so it reaches wins that lie too deep for the exhaustive
search within the time, and on a lost deal it ends without a win quickly, which is all it costs
a loss. ``GREEDY_SHARE`` leaves the deals it wins a margin on a slower machine
(docs/performance.md, "Gaps solver", with the variants that won fewer).

The beams (``beam``, ``GapsCore.beam``'s, level by level the best grids by cards in correct
runs, neighbours in sequence and dead gaps) drop grids, so they prove nothing: only their wins
count, a line of legal fills like any other. They find at once wins that the depth-first
search's order misses for seconds, and cost little when they find none; wider ones than
``MAX_BEAM_WIDTH`` win nothing more that the exhaustive search leaves undecided.

These searches go through grids far faster than the Python search (``GapsCore.solve``) goes
through positions, and the beams find its quick wins too; so in the last round ``solve_gaps``
runs these instead of it, on the whole budget (a node of a budget is ``GRIDS_PER_NODE`` grids).
The fills keep the order above, not the beam's evaluation: a depth-first search's time to a win
depends on its first choices more than on the evaluation. What each part decides, and what was
tried and dropped, is measured in docs/performance.md, "Gaps solver".

The compiled core is optional (setup.py builds it when a C compiler is there):
``available()`` says whether it is, and without it ``solve_gaps`` uses the Python search
alone. ``tests/solver/test_gaps_exhaustive.py`` holds its verdicts to the plain
breadth-first search (``tests/solver/gaps_reference.py``) on reduced boards.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from .result import Budget

try:
    from . import _gaps_core  # type: ignore[attr-defined]
except ImportError:  # built without a C compiler
    _gaps_core = None

LOST, WON = 0, 1
# A node of a budget (the Python search's unit) is worth this many grids of these searches: about
# the same CPU, so a budget means the same time in either.
GRIDS_PER_NODE = 20
# Grids the exhaustive search may hold (a 40-byte key each, and an 8-byte entry of an index at
# most 3/4 full: some 600 MB at the most, what one machine of ours spares): a run that needs
# more is undecided, never wrong.
MAX_GRIDS = 12_000_000
# Restarts (``exhaustive``): the first run's grids in the fixed order, then the unit of the Luby
# schedule of the runs with shuffled orders.
FIRST_RUN_GRIDS = 100_000
RESTART_GRIDS = 1_000
# ... until this many grids are searched: the run going on is then never cut (module docstring).
LAST_CUT = 3_000_000
# The relaxation runs at the root and at every PRUNE_EVERY-th depth (module docstring).
PRUNE_EVERY = 2
# The beams before the exhaustive search (``decide``): widths from BEAM_WIDTH to MAX_BEAM_WIDTH,
# each twice the last, on at most BEAM_SHARE of the time.
BEAM_WIDTH = 1_000
MAX_BEAM_WIDTH = 2_000
BEAM_SHARE = 0.05
# The greedy search after the beams (``decide``): at most this share of the time (or nodes) left.
GREEDY_SHARE = 0.45


def available() -> bool:
    """Whether the compiled core was built."""
    return _gaps_core is not None


def _limits(budget: Budget | None, spent: int) -> tuple[int, float, bool]:
    """The core's limits from a budget of which ``spent`` nodes are used: grids (-1: none),
    seconds (-1: none) and whether they are CPU seconds."""
    max_nodes, seconds, cpu = -1, -1.0, True
    if budget is not None:
        if budget.max_nodes is not None:
            max_nodes = max(0, budget.max_nodes - spent) * GRIDS_PER_NODE
        if budget.deadline is not None:
            seconds = max(0.0, budget.deadline - budget.clock())
            cpu = budget.clock is time.process_time
    return max_nodes, seconds, cpu


def _share(budget: Budget | None, spent: int, share: float) -> Budget | None:
    """A budget of ``share`` of what is left of ``budget`` (of which ``spent`` nodes are used),
    in the same nodes."""
    if budget is None:
        return None
    nodes = budget.max_nodes
    if nodes is not None:
        nodes = spent + int(max(0, nodes - spent) * share)
    if budget.deadline is None:
        return Budget(nodes, None, budget.clock)
    return Budget(nodes, max(0.0, budget.deadline - budget.clock()) * share, budget.clock)


def decide(grid: Sequence[int], rows: int, cols: int, starters: Sequence[int] = (),
           budget: Budget | None = None, spent: int = 0) -> tuple[bool | None, list[tuple[int, int]], int]:
    """The last round from ``grid``: the beams (``beam``), widths ``BEAM_WIDTH`` to
    ``MAX_BEAM_WIDTH`` each twice the last, on up to ``BEAM_SHARE`` of the time left, then
    ``greedy`` on up to ``GREEDY_SHARE`` of the time (and nodes) left, then ``exhaustive`` on
    the rest; answers as ``exhaustive``."""
    beams = budget
    if budget is not None and budget.deadline is not None:
        beams = Budget(budget.max_nodes, (budget.deadline - budget.clock()) * BEAM_SHARE, budget.clock)
    nodes, width = 0, BEAM_WIDTH
    while width <= MAX_BEAM_WIDTH:
        won, line, used = beam(grid, rows, cols, starters, width, beams, spent + nodes)
        nodes += used
        if won:
            return True, line, nodes
        if won is None:
            if budget is not None and budget.spent(spent + nodes):
                return None, [], nodes
            break  # the beams' share of the time is used
        width *= 2
    won, line, used = greedy(grid, rows, cols, starters, _share(budget, spent + nodes, GREEDY_SHARE),
                             spent + nodes)
    nodes += used
    if won:
        return True, line, nodes
    if budget is not None and budget.spent(spent + nodes):
        return None, [], nodes
    won, line, used = exhaustive(grid, rows, cols, starters, budget, spent + nodes)
    return won, line, nodes + used


def greedy(grid: Sequence[int], rows: int, cols: int, starters: Sequence[int] = (),
           budget: Budget | None = None, spent: int = 0, max_grids: int = MAX_GRIDS,
           ) -> tuple[bool | None, list[tuple[int, int]], int]:
    """The exhaustive search's depth-first search (one run in the fixed order) where a grid
    with fills that extend a row's correct run has only those (module docstring, "Greedy"):
    ``(True, fills, nodes)`` with a win, ``(False, [], nodes)`` when it found none (which
    proves nothing), ``(None, [], nodes)`` when ``budget`` or ``max_grids`` runs out; ``nodes``
    as ``exhaustive``'s."""
    if _gaps_core is None:
        raise RuntimeError("the compiled Gaps core is not built (setup.py)")
    max_nodes, seconds, cpu = _limits(budget, spent)
    verdict, nodes, line = _gaps_core.search(bytes(grid), rows, cols, bytes(starters), max_nodes,
                                             seconds, cpu, True, max_grids, 0, 1, PRUNE_EVERY, True,
                                             -1, True)
    return (None if verdict not in (LOST, WON) else verdict == WON), line, -(-nodes // GRIDS_PER_NODE)


def beam(grid: Sequence[int], rows: int, cols: int, starters: Sequence[int] = (),
         width: int = BEAM_WIDTH, budget: Budget | None = None, spent: int = 0,
         ) -> tuple[bool | None, list[tuple[int, int]], int]:
    """The compiled beam (``GapsCore.beam``'s, far faster): ``(True, fills, nodes)`` with
    a win, ``(False, [], nodes)`` when it found none (which proves nothing), ``(None, [],
    nodes)`` when ``budget`` runs out; ``nodes`` as ``exhaustive``'s."""
    if _gaps_core is None:
        raise RuntimeError("the compiled Gaps core is not built (setup.py)")
    max_nodes, seconds, cpu = _limits(budget, spent)
    verdict, made, line = _gaps_core.beam(bytes(grid), rows, cols, bytes(starters), width,
                                          max_nodes, seconds, cpu)
    return (None if verdict not in (LOST, WON) else verdict == WON), line, -(-made // GRIDS_PER_NODE)


def exhaustive(grid: Sequence[int], rows: int, cols: int, starters: Sequence[int] = (),
               budget: Budget | None = None, spent: int = 0, prune: bool = True,
               max_grids: int = MAX_GRIDS, first_run: int = FIRST_RUN_GRIDS,
               unit: int = RESTART_GRIDS, prune_every: int = PRUNE_EVERY, classes: bool = True,
               last_cut: int | None = LAST_CUT) -> tuple[bool | None, list[tuple[int, int]], int]:
    """Search the round from ``grid`` (``GapsCore``'s codes): ``(True, fills, nodes)`` with
    the winning fills as (card, cell), ``(False, [], nodes)`` when the round is lost,
    ``(None, [], nodes)`` when ``budget`` (of which ``spent`` nodes are used) runs out or the
    grids met would exceed ``max_grids``. ``nodes`` is in the budget's unit: grids searched
    over ``GRIDS_PER_NODE``, rounded up."""
    if _gaps_core is None:
        raise RuntimeError("the compiled Gaps core is not built (setup.py)")
    max_nodes, seconds, cpu = _limits(budget, spent)
    verdict, nodes, line = _gaps_core.search(bytes(grid), rows, cols, bytes(starters), max_nodes,
                                             seconds, cpu, prune, max_grids, first_run, unit,
                                             prune_every, classes, -1 if last_cut is None else last_cut)
    return (None if verdict not in (LOST, WON) else verdict == WON), line, -(-nodes // GRIDS_PER_NODE)
