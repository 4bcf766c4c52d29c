"""A plain, obviously-correct Gaps search for reduced boards, written from the rules in
``docs/spec/notation.md`` and sharing no code with ``app/solver``: explicit grids (tuples),
every legal fill, breadth-first over every reachable grid of one round (no redeal).

A board has ``rows`` rows of ``cols`` cells and ``rows`` suits of ranks 2..cols (rank
``cols`` plays the king); a card is ``(suit, rank)``, a gap is ``None``.
"""

from __future__ import annotations

import random
from collections import deque


def random_grid(rows: int, cols: int, rng: random.Random) -> tuple:
    cards = [(s, r) for s in range(rows) for r in range(1, cols + 1)]
    rng.shuffle(cards)
    return tuple(None if r == 1 else (s, r) for s, r in cards)


def fills(rows: int, cols: int, grid: tuple, starters: tuple = ()) -> list[tuple]:
    """Every legal fill as (card, target cell)."""
    out = []
    for cell, here in enumerate(grid):
        if here is not None:
            continue
        row, c = divmod(cell, cols)
        if c == 0:
            for s in range(rows):
                if starters and starters[row] != s:
                    continue
                out.append(((s, 2), cell))
        else:
            left = grid[cell - 1]
            if left is not None and left[1] < cols:
                out.append(((left[0], left[1] + 1), cell))
    return out


def play(grid: tuple, card, cell: int) -> tuple:
    out = list(grid)
    out[out.index(card)] = None
    out[cell] = card
    return tuple(out)


def won(rows: int, cols: int, grid: tuple, starters: tuple = ()) -> bool:
    for row in range(rows):
        cells = grid[row * cols:(row + 1) * cols]
        if cells[-1] is not None or cells[0] is None:
            return False
        suit = cells[0][0]
        if starters and suit != starters[row]:
            return False
        if any(cells[c] != (suit, c + 2) for c in range(cols - 1)):
            return False
    return True


def winnable(rows: int, cols: int, grid: tuple, starters: tuple = ()) -> bool:
    seen = {grid}
    queue = deque([grid])
    while queue:
        here = queue.popleft()
        if won(rows, cols, here, starters):
            return True
        for card, cell in fills(rows, cols, here, starters):
            nxt = play(here, card, cell)
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return False


def replays_to_won(rows: int, cols: int, grid: tuple, line, starters: tuple = ()) -> bool:
    for card, cell in line:
        if (card, cell) not in fills(rows, cols, grid, starters):
            return False
        grid = play(grid, card, cell)
    return won(rows, cols, grid, starters)
