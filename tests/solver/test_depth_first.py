"""The depth-first skeleton (``app/solver/depth_first.py``) on a small game of its own: from
a number, add 2 or 3 up to a limit, until the target; a 3 turns into a 6 at once (a forced
move, written to the line)."""

from __future__ import annotations

from app.solver.depth_first import DEAD_END, WON, depth_first


def _search(start: int, target: int, limit: int):
    path: list = []
    expanded: list[int] = []
    ticks: list[int] = []

    def expand(n: int):
        if n == 3:
            n = 6
            path.append("x2")
        if n == target:
            return WON
        if n > limit or n in expanded:
            return DEAD_END
        expanded.append(n)
        return ((f"+{k}", n + k) for k in (2, 3))

    won = depth_first(start, expand, path, lambda: ticks.append(1))
    return won, path, expanded, len(ticks)


def test_a_win_leaves_its_line_in_the_path():
    won, path, expanded, ticks = _search(0, 11, 20)
    assert won
    n = 0
    for move in path:
        n = 6 if move == "x2" else n + int(move)
    assert n == 11
    assert ticks == len(expanded)


def test_a_loss_leaves_the_path_as_it_was_and_expands_each_position_once():
    won, path, expanded, ticks = _search(0, 100, 12)
    assert not won
    assert path == []
    # every number up to 12 reachable with 2s and 3s, but 3 (it turns into 6), once each
    assert sorted(expanded) == [0, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    assert ticks == len(expanded)
