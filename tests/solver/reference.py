"""A plain, obviously-correct Pyramid-family search for small layouts, written straight from
``docs/spec/notation.md`` and sharing no code with ``app/solver``: explicit positions
(tuples), every legal move, breadth-first over every reachable position. Only for reduced
deals (a few rows, a short stock), where that is cheap.

Values stand for cards (suits never matter in the Pyramid family).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Small:
    rows: int
    pyramids: int
    layout: tuple[int, ...]          # values, pyramid after pyramid, row by row
    stock: tuple[int, ...] = ()      # top first
    reserves: tuple[tuple[int, ...], ...] = ()  # bottom .. top
    passes: int | None = 1
    goal: str = "pyramid"
    overlap: bool = False

    @property
    def size(self) -> int:
        return self.rows * (self.rows + 1) // 2


def _children(small: Small, i: int) -> tuple[int, ...]:
    size = small.size
    base, k = divmod(i, size)
    base *= size
    r = 0
    while (r + 1) * (r + 2) // 2 <= k:
        r += 1
    c = k - r * (r + 1) // 2
    if r + 1 >= small.rows:
        return ()
    j = base + (r + 1) * (r + 2) // 2 + c
    return (j, j + 1)


def _name(small: Small, loc) -> str:
    if isinstance(loc, int):
        return f"P{loc}" if loc < small.size else f"Q{loc - small.size}"
    return loc


def _order(small: Small, loc) -> tuple:
    if isinstance(loc, int):
        return (0, loc)
    if loc == "S":
        return (1, 0)
    if loc == "W":
        return (2, 0)
    return (3, int(loc[1:]))


# A position: (removed frozenset, stock tuple top first, waste tuple top first, pass, reserves)
def start(small: Small):
    return (frozenset(), small.stock, (), 1, small.reserves)


def available(small: Small, pos) -> list[tuple[object, int]]:
    removed, stock, waste, _, reserves = pos
    out: list[tuple[object, int]] = []
    for i, v in enumerate(small.layout):
        if i not in removed and all(j in removed for j in _children(small, i)):
            out.append((i, v))
    if stock:
        out.append(("S", stock[0]))
    if waste:
        out.append(("W", waste[0]))
    for k, pile in enumerate(reserves):
        if pile:
            out.append((f"G{k}", pile[-1]))
    return out


def moves(small: Small, pos) -> list[str]:
    removed, stock, waste, pas, _ = pos
    if won(small, pos):
        return []
    avail = available(small, pos)
    out = []
    for a, (la, va) in enumerate(avail):
        if va == 13:
            out.append(_name(small, la))
        for lb, vb in avail[a + 1:]:
            if va + vb == 13:
                pair = sorted((la, lb), key=lambda loc: _order(small, loc))
                out.append("+".join(_name(small, loc) for loc in pair))
    if small.overlap:
        for i, v in enumerate(small.layout):
            kids = _children(small, i)
            if i in removed or not kids:
                continue
            left = [j for j in kids if j not in removed]
            if len(left) == 1:
                j = left[0]
                if all(k in removed for k in _children(small, j)) and v + small.layout[j] == 13:
                    out.append(f"{_name(small, i)}+{_name(small, j)}")
    if stock:
        out.append("D")
    elif waste and (small.passes is None or pas < small.passes):
        out.append("R")
    return out


def _location(small: Small, text: str):
    if text[0] == "P":
        return int(text[1:])
    if text[0] == "Q":
        return small.size + int(text[1:])
    return text


def play(small: Small, pos, move: str):
    """The position after ``move``; ``ValueError`` if it is not legal."""
    if move not in moves(small, pos):
        raise ValueError(f"{move} is not legal")
    removed, stock, waste, pas, reserves = pos
    if move == "D":
        return (removed, stock[1:], (stock[0],) + waste, pas, reserves)
    if move == "R":
        return (removed, waste[::-1], (), pas + 1, reserves)
    removed = set(removed)
    reserves = list(reserves)
    for part in move.split("+"):
        loc = _location(small, part)
        if isinstance(loc, int):
            removed.add(loc)
        elif loc == "S":
            stock = stock[1:]
        elif loc == "W":
            waste = waste[1:]
        else:
            k = int(loc[1:])
            reserves[k] = reserves[k][:-1]
    return (frozenset(removed), stock, waste, pas, tuple(reserves))


def won(small: Small, pos) -> bool:
    removed, stock, waste, _, reserves = pos
    if len(removed) != len(small.layout):
        return False
    return small.goal != "all" or not (stock or waste or any(reserves))


def winnable(small: Small) -> bool:
    """Breadth-first over every reachable position (with unlimited passes the pass number is
    left out of the position, so the search still ends)."""
    def key(pos):
        return pos[:3] + pos[4:] if small.passes is None else pos

    first = start(small)
    seen = {key(first)}
    queue = deque([first])
    while queue:
        pos = queue.popleft()
        if won(small, pos):
            return True
        for move in moves(small, pos):
            nxt = play(small, pos, move)
            k = key(nxt)
            if k not in seen:
                seen.add(k)
                queue.append(nxt)
    return False


def replay_wins(small: Small, line: list[str] | tuple[str, ...]) -> bool:
    pos = start(small)
    for move in line:
        pos = play(small, pos, move)
    return won(small, pos)


def verdict_counts(cases, solve_problem) -> dict[bool, int]:
    """Solve each ``(small, problem)`` case, assert the verdict equals the exhaustive one
    and that each claimed win replays to a win here, and count wins and losses."""
    counts = {True: 0, False: 0}
    for small, problem in cases:
        won, moves, _ = solve_problem(problem)
        assert won is winnable(small), small
        counts[won] += 1
        if won:
            assert replay_wins(small, moves), (small, moves)
    return counts


def shortest(small: Small, first=None) -> int | None:
    """The fewest moves of any win from the start (or from position ``first``), breadth-first
    so that the first won position found is the nearest; ``None`` when nothing wins."""
    def key(pos):
        return pos[:3] + pos[4:] if small.passes is None else pos

    first = start(small) if first is None else first
    seen = {key(first)}
    level = [first]
    depth = 0
    while level:
        following = []
        for pos in level:
            if won(small, pos):
                return depth
            for move in moves(small, pos):
                nxt = play(small, pos, move)
                k = key(nxt)
                if k not in seen:
                    seen.add(k)
                    following.append(nxt)
        level = following
        depth += 1
    return None
