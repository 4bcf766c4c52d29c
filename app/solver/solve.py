"""``solve(position)``: the one entry point the CLI, the server and the API share."""

from __future__ import annotations

from .pyramid import PyramidProblem, solve_problem
from .result import Budget, SolveResult


def pyramid_problem(position) -> PyramidProblem:
    """The solver's view of an engine Pyramid-family position."""
    layout = position.layout
    removed = 0
    for i in range(len(layout)):
        if position.is_removed(i):
            removed |= 1 << i
    waste = tuple(c.rank for c in position.waste)
    stock = tuple(c.rank for c in position.stock)
    rules = position.rules
    reserves = tuple(tuple(c.rank for c in pile) for pile in (position.reserves or ()))
    return PyramidProblem(
        values=tuple(c.rank for c in layout),
        removed=removed,
        sequence=waste[::-1] + stock,
        pointer=len(waste),
        pass_number=position.pass_number,
        passes=rules.passes,
        goal=rules.goal,
        overlap=bool(rules.overlap),
        reserves=reserves if any(reserves) or position.game == "giza" else (),
        pyramids=len(layout) // 28,
    )


# Searches that can run for very long get this many seconds when the caller sets no
# budget at all; Pyramid and Giza are exact and unbudgeted by default.
DEFAULT_SECONDS = {"gaps": 60.0, "double-pyramid": 60.0}


def solve(position, *, budget_nodes: int | None = None,
          budget_seconds: float | None = None) -> SolveResult:
    """Solve an engine position: a complete winning continuation, a proof that there is
    none, or ``winnable=None, reason="budget"`` when the node or time budget runs out
    (Gaps and Double Pyramid get ``DEFAULT_SECONDS`` when no budget is given)."""
    if position.status == "won":
        return SolveResult(True, (), None, 0)
    if budget_nodes is None and budget_seconds is None:
        budget_seconds = DEFAULT_SECONDS.get(position.game)
    budget = None
    if budget_nodes is not None or budget_seconds is not None:
        budget = Budget(budget_nodes, budget_seconds)
    if getattr(position, "grid", None) is not None:
        from .gaps import solve_gaps

        return solve_gaps(position, budget)
    won, moves, nodes = solve_problem(pyramid_problem(position), budget)
    if won is None:
        return SolveResult(None, (), "budget", nodes)
    return SolveResult(won, moves if won else (), None, nodes)
