"""The depth-first search every exact Pyramid-family search runs (``pyramid``,
``pyramid_last``, ``pyramid_multi``); what differs between them is how a position is
packed, which moves are forced, what proves it lost and which moves it has.

A search gives ``depth_first`` its start and one function, ``expand(position)``, which
plays the moves that cannot hurt (appending them to ``path``), and then answers ``WON``,
``DEAD_END`` (the position was expanded before, or it is proven lost), or the moves to try
in order as ``(move, next position)`` pairs (a generator is fine: a win found early leaves
the rest unmade). Positions are whatever ``expand`` takes, usually a tuple of integers.
``tick()`` is called once for every position whose moves are tried (it counts them and
checks the budget). When the search answers ``True``, ``path`` holds the winning line;
otherwise it is as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

WON = True
DEAD_END = None


def depth_first(start, expand: Callable[..., Iterable | bool | None], path: list,
                tick: Callable[[], None]) -> bool:
    """Whether a won position can be reached from ``start`` (see the module docstring)."""

    def rec(position) -> bool:
        mark = len(path)
        moves = expand(position)
        if moves is WON:
            return True
        if moves is not DEAD_END:
            tick()
            for move, after in moves:  # type: ignore[union-attr]
                path.append(move)
                if rec(after):
                    return True
                path.pop()
        del path[mark:]
        return False

    return rec(start)
