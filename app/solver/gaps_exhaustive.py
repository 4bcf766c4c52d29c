"""The exhaustive search of one Gaps round, compiled (``app.solver._gaps_core``, one C file).

It decides the last round of a deal (no redeal left): depth-first over every grid reachable
by fills, each grid expanded at most once (an exact set of the grids met, 6 bits a cell:
no hashing that could merge two grids), the fills in ``GapsCore.fills``'s order (those that
extend a row's correct run first). A grid that the reach relaxation (``GapsCore.analyse``,
``app/solver/gaps.py``, "Reach") condemns is not expanded: no continuation from it wins
within the round. Hence a search that ends without meeting a won grid has met every grid
from which a win was reachable, and a win reachable from the start would have been met: the
round is lost. A win is the line of fills on the search's stack, which the caller replays
with the engine before anyone sees it.

Restarts. A depth-first search that goes wrong early spends its time under its first fills,
so the search is run again and again from the root, sharing the set of grids met: first in
the fixed order for ``FIRST_RUN_GRIDS`` new grids, then with the fills of each group shuffled
(a seed a run) for ``RESTART_GRIDS`` times the Luby sequence 1, 1, 2, 1, 1, 2, 4, … A run cut
by its allowance takes the grids on its stack out of the set (not all their fills were tried)
and keeps the rest, each of which had all its fills tried: so every successor of a grid in
the set is in the set or reachable from the root through grids outside it, the next run
searches those, and a run that ends without a cut has met every grid reachable through grids
that may still win. A loss is still a proof; a win is still the line on the stack.
Measured (``bench/gaps.py --seeds 1-100 --seconds 5``): 82 decided instead of 67 (15 more
wins); a first run of 5,000 grids and a unit of 50 decided 85 as the 100,000 and 1,000 here
do (two other wins, two fewer); the deals the fixed order won (seeds 9, 10, 13, 24, 26, 36,
48, 57, 58, 90) are won with restarts too.

Where the relaxation runs: at the root of every run and at every ``PRUNE_EVERY``-th depth.
It is about 45 % of a grid's cost, and a grid it would condemn that goes unchecked is only
expanded (its successors are condemned too: their reach lies within its own); skipping it
never removes a grid, so a loss stays a proof. Measured on seeds 4 and 14 (2 million grids):
1.8 s at every depth, 1.4 s at every 2nd; seed 63 (lost) is proven after 195,000 grids
(0.15 s) at every depth, 254,000 (0.12 s) at every 4th, 555,000 (0.21 s) with none.

Measured: about 750,000 grids a second of CPU here (the relaxation at every grid; about
1.4 million at every 4th depth) against about 100,000 for the Python search. It proves the
lost rounds the Python search cannot (its restarts and beam are built to find wins fast) and
finds wins they miss; they find many wins sooner. So ``solve_gaps`` runs the Python search
first, for ``PYTHON_SHARE`` of a time budget (and all of a node budget: the app's node budgets
are sized for the Python search, and the wins it finds within them stay the same), and this
one on what is left.

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
# The share of a last-round budget the Python search (restarts and beam) gets first (0.3 before
# this search restarted: 82 decided of seeds 1-100 at 5 s with 0.3, 83 with 0.1).
PYTHON_SHARE = 0.1
# A node of a budget (the Python search's unit) is worth this many grids of this search: about
# the same CPU (measured: 750,000 grids against 100,000 nodes a second).
GRIDS_PER_NODE = 7
# Grids the exhaustive search may hold (40 bytes each in a table at most 3/4 full): a run
# that needs more is undecided, never wrong.
MAX_GRIDS = 6_000_000
# Restarts (``exhaustive``): the first run's grids in the fixed order, then the unit of the Luby
# schedule of the runs with shuffled orders.
FIRST_RUN_GRIDS = 100_000
RESTART_GRIDS = 1_000
# The relaxation runs at the root and at every PRUNE_EVERY-th depth (module docstring).
PRUNE_EVERY = 4


def available() -> bool:
    """Whether the compiled core was built."""
    return _gaps_core is not None


def exhaustive(grid: Sequence[int], rows: int, cols: int, starters: Sequence[int] = (),
               budget: Budget | None = None, spent: int = 0, prune: bool = True,
               max_grids: int = MAX_GRIDS, first_run: int = FIRST_RUN_GRIDS,
               unit: int = RESTART_GRIDS, prune_every: int = PRUNE_EVERY,
               ) -> tuple[bool | None, list[tuple[int, int]], int]:
    """Search the round from ``grid`` (``GapsCore``'s codes): ``(True, fills, nodes)`` with
    the winning fills as (card, cell), ``(False, [], nodes)`` when the round is lost,
    ``(None, [], nodes)`` when ``budget`` (of which ``spent`` nodes are used) runs out or the
    grids met would exceed ``max_grids``. ``nodes`` is in the budget's unit: grids searched
    over ``GRIDS_PER_NODE``, rounded up."""
    if _gaps_core is None:
        raise RuntimeError("the compiled Gaps core is not built (setup.py)")
    max_nodes, seconds, cpu = -1, -1.0, True
    if budget is not None:
        if budget.max_nodes is not None:
            max_nodes = max(0, budget.max_nodes - spent) * GRIDS_PER_NODE
        if budget.deadline is not None:
            seconds = max(0.0, budget.deadline - budget.clock())
            cpu = budget.clock is time.process_time
    verdict, nodes, line = _gaps_core.search(bytes(grid), rows, cols, bytes(starters), max_nodes,
                                             seconds, cpu, prune, max_grids, first_run, unit,
                                             prune_every)
    return (None if verdict not in (LOST, WON) else verdict == WON), line, -(-nodes // GRIDS_PER_NODE)
