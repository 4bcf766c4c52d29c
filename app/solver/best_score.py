"""The move to play when no win is known: the one whose continuations reach the best score."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.engine import REDEAL, GapsPosition, PyramidPosition

from .gaps import GapsSearch, card_code

SCORE_NODES = 20_000  # positions searched by default


def best_score_move(position, max_nodes: int = SCORE_NODES, avoid: frozenset = frozenset()) -> str | None:
    """The legal move whose continuations reach the highest simple score (cards removed from
    the pyramid(s); Gaps: cards in the rows' correct runs), searched depth-first within
    ``max_nodes`` positions shared fairly among the moves; a won position scores above any
    other. Ties go to the earlier move in the engine's order. A move to a position in ``avoid``
    (where the game has been) is not chosen while another is legal: with no move that scores
    better, the first in order would otherwise move a card one way and, from there, back."""
    moves = position.legal_moves()
    if not moves:
        return None
    onward = [m for m in moves if position.apply(m) not in avoid] if avoid else moves
    moves = onward or moves
    share = max(1, max_nodes // len(moves))
    reach = REACH[type(position)](position)
    best_score, best_move = -1, moves[0]
    for first in moves:
        reached = reach(first, share)
        if reached > best_score:
            best_score, best_move = reached, first
    return str(best_move)


WON = 1000  # added to the score of a won position
# reach(first move, positions to share) -> the best score found
Reach = Callable[[Any, int], int]


def _pyramid_reach(position: PyramidPosition) -> Reach:
    """``reach(first, share)``: the best score depth-first from the position after ``first``
    within ``share`` positions, each position scored once over all the calls. Positions are
    told apart by a key cheaper than their hash (which hashes every card field by field):
    cards are shared objects, so their identities tell them apart, and a card that is not
    shared is only ever a card of its own, which keeps the keys exact."""
    seen: set = set()

    def reach(first, share: int) -> int:
        return _pyramid_search(position.play_unchecked(first), share, seen)

    return reach


def _pyramid_search(start: PyramidPosition, share: int, seen: set) -> int:
    stack = [start]
    nodes, reached = 0, -1
    while stack and nodes < share:
        here = stack.pop()
        key = (here.removed, here.pass_number, tuple(map(id, here.stock)),
               tuple(map(id, here.waste)), tuple(map(len, here.reserves)))
        if key in seen:
            continue
        seen.add(key)
        nodes += 1
        reached = max(reached, here.simple_score + (WON if here.is_won() else 0))
        stack.extend(here.play_unchecked(m) for m in here.legal_moves())
    return reached


def _gaps_reach(position: GapsPosition) -> Reach:
    """As ``_pyramid_reach``, on the Gaps search's packed grids (``gaps.GapsCore``): its fills
    are the legal fills, its run lengths the correct runs; a redeal is the engine's."""
    search = GapsSearch(position)
    seen: set = set()

    def reach(first, share: int) -> int:
        if first == REDEAL:
            after = position.apply(first)
            start = ([card_code(c) for c in after.grid], after.round)
        else:
            grid = [card_code(c) for c in position.grid]
            frm = grid.index(card_code(first.card))
            grid[frm], grid[first.row * search.core.cols + first.col] = 0, grid[frm]
            start = (grid, position.round)
        return _gaps_search(search, start, share, seen)

    return reach


def _gaps_search(search, start: tuple, share: int, seen: set) -> int:
    core = search.core
    rows = core.rows
    stack = [start]
    nodes, reached = 0, -1
    while stack and nodes < share:
        grid, round_number = stack.pop()
        key = (bytes(grid), round_number)
        if key in seen:
            continue
        seen.add(key)
        nodes += 1
        if core.is_won(grid):
            reached = max(reached, rows * (core.cols - 1) + WON)
            continue
        reached = max(reached, sum(core.run_length(grid, r) for r in range(rows)))
        where = [0] * 64
        for i, x in enumerate(grid):
            if x:
                where[x] = i
        gaps = [i for i, x in enumerate(grid) if not x]
        for card, frm, to in core.fills(grid, where, gaps):
            child = list(grid)
            child[frm], child[to] = 0, card
            stack.append((child, round_number))
        if search.can_redeal(round_number):
            stack.append((search.redeal(grid, round_number), round_number + 1))
    return reached


REACH: dict[type, Callable[[Any], Reach]] = {GapsPosition: _gaps_reach, PyramidPosition: _pyramid_reach}
