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
loss a fifth more time than one run for 3 % more grids (seed 19: 4.3 s against 3.7 s; with the
last cut at 3 million grids 4.1 s), and decided no more deals (89-91 of 100 without the last cut,
90 with it at 3 or 6 million: other wins at the edge of 5 s, seeds 49 and 98).

Column 0 as one arrangement (``classes``; the international rule, as ``GapsCore.column0_moves``
in ``app/solver/gaps.py``, "Column 0"): the grids that differ only in how the 2s of column 0
sit over its cells that hold a 2 or a gap, when one of those is a gap, reach one another by
moving 2s within column 0 and win or lose together; the set holds one key for all of them and
a grid's moves are those of every arrangement (a move may play a few 2s within column 0 before
its own fill; the line holds them all, and the engine replays it). Seed 19 is lost: one run in
the fixed order proves it after 10.6 million grids instead of 13.9 million; seed 63 after
182,000 instead of 254,000.

Where the relaxation runs: at the root of every run and at every ``PRUNE_EVERY``-th depth. A
grid it would condemn that goes unchecked is only expanded (its successors are condemned too:
their reach lies within its own); skipping it never removes a grid, so a loss stays a proof.
Seed 19, one run: 6.4 million grids at every depth, 7.8 at every 2nd, 9.1 at every 3rd, 10.6
at every 4th, 15.9 at every 8th; the 2nd and 3rd took the least time (4.5-4.7 s against 5.0
at every 4th and 5.3 at every depth). The relaxation advances the four suits rank by rank
together, four independent chains of operations that the processor overlaps (seed 73's loss in
3.4 s instead of 3.9-4.2, the same grids); a pass after the first starts at the lowest rank
that the last pass's new gaps can reach (the ranks below it would compute what they hold), the
same least solution (seed 19's loss: the same grids, 3-5 % less time).

Transpositions. A fill that commutes with the fill that made a grid (four different cells,
neither taking the card left of the other's gap) and that the parent made before it is not
looked up: the parent's earlier child tried this grid's fill (or was condemned by the
relaxation, and then so is the grid both make). One level of sleep sets; without the relaxation
and restarts the grids met are the same, with them fewer (seed 19: 7.5 million instead of 7.8),
2-4 % less time.

Greedy (``greedy``; ``decide`` runs it after the beams on up to ``GREEDY_SHARE`` of the time
left). The same depth-first search (one run in the fixed order, its own set of grids met) where
a grid with fills that extend a row's correct run has only those. It drops fills, so it proves
nothing: only its wins count, and the exhaustive search runs on the rest of the time. Its space
is far smaller than the round's: at 1.5 s it won 75 of seeds 1-100 (4, 45 and 92 among them,
which the exhaustive search left undecided in 5 s: won in 0.9-1.5 s) and ended without a win
in under 1 s on the lost deals (seeds 19 and 73: 0.6-0.7 s), which is what it costs a loss.
With the restarts it won 82 but not 45; keeping only the first such fill, or dropping the fills
that leave a dead gap, won neither 4 nor 92.

The beams (``beam``, ``GapsCore.beam``'s, level by level the best grids by cards in correct
runs, neighbours in sequence and dead gaps) drop grids, so they prove nothing: only their wins
count, a line of legal fills like any other. They find in hundredths of a second wins that the
depth-first search's order misses for seconds (seeds 18 and 65: the 1,000-wide beam within
0.05 s, no win from the exhaustive search in 4.9 s); wider ones than ``MAX_BEAM_WIDTH`` won no
deal the exhaustive search left undecided (seeds 4, 14, 33, 34, 45, 67, 74, 88 and 98 at
widths 4,000, 16,000 and 64,000; seed 92 at 64,000 in 3 s).

Measured: about 2 million grids a second of CPU here against about 100,000 positions for the
Python search (``GapsCore.solve``), whose quick wins the beams find too; so in the last round
``solve_gaps`` runs these instead of it, on the whole budget (a node of a budget is
``GRIDS_PER_NODE`` grids). ``bench/gaps.py --seeds 1-100 --seconds 5``: 93 decided (88 won,
5 lost; 90 without the greedy search, the sleep sets and the relaxation's shorter passes).

Ranking the fills within the order above by the beam's evaluation (``GapsCore.beam``) was
tried: at 3.5 s it won 2 of 20 deals the plain order left undecided but missed others it had
won (seeds 13 and 20 within 5 s): a depth-first search's time to a win depends on its first
choices more than on the evaluation. A stubborn-set reduction of the
interleavings, with the relaxation's reach deciding which fills can ever conflict, needed
13-32 % fewer grids for the same verdict (seeds 9, 10, 63) at about 2.5 times the cost a
grid: dropped.

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
    """The compiled beam (``GapsCore.beam``'s, 20 times as fast): ``(True, fills, nodes)`` with
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
