"""``solve(position)``: the one entry point the CLI, the server and the API share.

The search is chosen by the engine position's class (``SEARCHES``); nothing here asks a
position which game it is. Every winning line is cleaned (``lines.clean_line``) before it is
returned, so every consumer gets a line without loops or pointless moves.
"""

from __future__ import annotations

from collections.abc import Callable

from app.engine import GapsPosition, PyramidPosition, Status

from .gaps import solve_gaps
from .lines import clean_line
from .pyramid import solve_problem
from .pyramid_problem import problem_of
from .result import Budget, SolveResult

# Searches that can run for very long get this many seconds when the caller sets no budget
# at all (Gaps, and Pyramid with two pyramids); Pyramid and Giza are exact and unbudgeted.
LONG_SEARCH_SECONDS = 60.0


def _search_pyramid(position: PyramidPosition, budget: Budget | None) -> SolveResult:
    won, moves, nodes = solve_problem(problem_of(position), budget)
    if won is None:
        return SolveResult(None, (), "budget", nodes)
    return SolveResult(won, moves if won else (), None, nodes)


def _pyramid_default_seconds(position: PyramidPosition) -> float | None:
    return LONG_SEARCH_SECONDS if position.table.pyramids > 1 else None


SEARCHES: dict[type, tuple[Callable, Callable]] = {
    # position class: (search(position, budget) -> SolveResult, default seconds(position))
    GapsPosition: (solve_gaps, lambda position: LONG_SEARCH_SECONDS),
    PyramidPosition: (_search_pyramid, _pyramid_default_seconds),
}


def wants_budget(position) -> bool:
    """Whether ``position``'s search may run for very long (Gaps, two pyramids), so that a caller
    with no budget of its own should set one; the others are decided exactly."""
    try:
        _, default_seconds = SEARCHES[type(position)]
    except KeyError:
        raise TypeError(f"no solver for {type(position).__name__}") from None
    return default_seconds(position) is not None


def search(position, *, budget_nodes: int | None = None,
           budget_seconds: float | None = None) -> SolveResult:
    """``solve`` without the cleaning: the search's own line, as it found it."""
    if position.status is Status.WON:
        return SolveResult(True, (), None, 0)
    try:
        run, default_seconds = SEARCHES[type(position)]
    except KeyError:
        raise TypeError(f"no solver for {type(position).__name__}") from None
    if budget_nodes is None and budget_seconds is None:
        budget_seconds = default_seconds(position)
    budget = None
    if budget_nodes is not None or budget_seconds is not None:
        budget = Budget(budget_nodes, budget_seconds)
    return run(position, budget)


def solve(position, *, budget_nodes: int | None = None,
          budget_seconds: float | None = None) -> SolveResult:
    """Solve an engine position: a complete winning continuation (cleaned: no repeated
    position, no move a later move makes pointless), a proof that there is none, or
    ``winnable=None, reason="budget"`` when the node or time budget runs out (Gaps and
    Double Pyramid get ``LONG_SEARCH_SECONDS`` when no budget is given)."""
    result = search(position, budget_nodes=budget_nodes, budget_seconds=budget_seconds)
    if result.winnable and result.moves:
        return SolveResult(True, clean_line(position, result.moves), None, result.nodes)
    return result
