"""What the web layer asks the solver: is this position still winnable, and what to play.

Pure functions of an engine position; no I/O, no caching here (the server caches per
position if it wants to).
"""

from __future__ import annotations

from .solve import solve

HINT_NODES = 200_000       # search budget for the winning line behind a hint
HINT_SECONDS = 2.0
SCORE_NODES = 20_000       # budget for the best-score fallback when no win is known


def is_winnable(position, *, budget_nodes: int | None = None,
                budget_seconds: float | None = None) -> bool | None:
    """``True``/``False`` when proven, ``None`` when the budget ran out first."""
    return solve(position, budget_nodes=budget_nodes, budget_seconds=budget_seconds).winnable


def hint(position, *, budget_nodes: int | None = HINT_NODES,
         budget_seconds: float | None = HINT_SECONDS) -> str | None:
    """The next move of a winning line from ``position`` (canonical notation); when no win
    is known, the first move of the line reaching the best simple score found; ``None``
    when the game is over or no move is legal."""
    if position.status != "playing":
        return None
    result = solve(position, budget_nodes=budget_nodes, budget_seconds=budget_seconds)
    if result.winnable and result.moves:
        return result.moves[0]
    return best_score_move(position)


def best_score_move(position, max_nodes: int = SCORE_NODES) -> str | None:
    """The legal move whose continuations reach the highest simple score (cards removed from
    the pyramid(s); Gaps: cards in the rows' correct runs), searched depth-first within
    ``max_nodes`` positions shared fairly among the moves. Ties go to the earlier move in
    the engine's order."""
    moves = position.legal_moves()
    if not moves:
        return None
    share = max(1, max_nodes // len(moves))
    seen: set = set()
    best_score, best_move = -1, moves[0]
    for first in moves:
        after = position.play_unchecked(first)
        stack = [after]
        nodes = 0
        reached = -1
        while stack and nodes < share:
            here = stack.pop()
            if here in seen:
                continue
            seen.add(here)
            nodes += 1
            score = here.simple_score + (1000 if here.is_won() else 0)
            reached = max(reached, score)
            stack.extend(here.play_unchecked(m) for m in here.legal_moves())
        if reached > best_score:
            best_score, best_move = reached, first
    return str(best_move)
