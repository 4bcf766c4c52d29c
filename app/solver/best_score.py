"""The move to play when no win is known: the one whose continuations reach the best score."""

from __future__ import annotations

SCORE_NODES = 20_000  # positions searched by default


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
