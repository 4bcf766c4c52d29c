"""The depth-first skeleton (``app/solver/depth_first.py``) on a small game of its own: from
a number, add 2 or 3 (or double it for free while it is odd), until the target."""

from __future__ import annotations

from app.solver.depth_first import DEAD_END, WON, depth_first


def _search(start: int, target: int):
    path: list = []
    expanded: list[int] = []
    seen: set[int] = set()

    def expand(n: int):
        while n % 2 and n < target:  # a forced move, written to the line
            n *= 2
            path.append("x2")
        if n == target:
            return WON
        if n > target or n in seen:
            return DEAD_END
        seen.add(n)
        expanded.append(n)
        return ((f"+{k}", n + k) for k in (2, 3))

    return depth_first(start, expand, path), path, expanded


def test_a_win_leaves_its_line_in_the_path():
    won, path, _ = _search(1, 11)
    assert won
    n = 1
    for move in path:
        n = n * 2 if move == "x2" else n + int(move)
    assert n == 11


def test_a_loss_leaves_the_path_as_it_was_and_expands_each_position_once():
    won, path, expanded = _search(4, 5)  # 4 -> 6 or 7 -> 14: nothing reaches 5
    assert not won
    assert path == []
    assert len(expanded) == len(set(expanded))
    assert expanded == [4]
