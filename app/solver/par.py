"""``shortest_win(position)``: a deal's par for every game, the one entry point the pages, the
API and the CLI share. The search is chosen by the engine position's class (``SEARCHES``), as
``solve`` chooses its own: the Pyramid family's A* (``shortest``) or Gaps' (``gaps_shortest``).
Both answer a ``ShortestWin`` whose lines the engine has replayed."""

from __future__ import annotations

import functools
from collections.abc import Callable

from app.engine import GapsPosition, PyramidPosition, Status, get_game

from . import shortest
from .gaps_shortest import shortest_gaps
from .result import Budget
from .shortest import PAR_POSITIONS, ShortestWin


@functools.lru_cache(maxsize=256)
def _gaps(position: GapsPosition, budget_nodes: int | None, budget_seconds: float | None) -> ShortestWin:
    return shortest_gaps(position, Budget(budget_nodes, budget_seconds))


def _gaps_search(position: GapsPosition, *, budget_nodes: int | None,
                 budget_seconds: float | None) -> ShortestWin:
    if position.status is Status.WON:
        return ShortestWin(True, (), True, 0, 0)
    return _gaps(position, budget_nodes, budget_seconds)


SEARCHES: dict[type, Callable[..., ShortestWin]] = {
    PyramidPosition: shortest.shortest_win,
    GapsPosition: _gaps_search,
}


def proves_shortest(position) -> bool:
    """Whether ``shortest_win`` searches this position (every game the solver plays)."""
    return type(position) in SEARCHES


def hint_shortest(position) -> bool:
    """Whether a shortest-win search of the position, cut at a hint's wait (a second or two),
    gives a hint a line worth waiting for (its variant says: ``Variant.hint_shortest``)."""
    return get_game(position.game).hint_shortest


def quick_shortest(position) -> bool:
    """Whether the shortest-win search in full ends within seconds (``Variant.quick_shortest``)."""
    return get_game(position.game).quick_shortest


def shortest_win(position, *, budget_nodes: int | None = PAR_POSITIONS,
                 budget_seconds: float | None = None) -> ShortestWin:
    """The shortest win from an engine position: proven when the budget allows, else the
    shortest line known with the bound every win reaches (``lower_bound``; 0 when none is
    known). The budget is in positions, so that the answer is the same on any machine;
    ``budget_seconds`` only caps the time on top. Answers are cached per position and budget."""
    try:
        search = SEARCHES[type(position)]
    except KeyError:
        raise TypeError(f"no shortest-win search for {type(position).__name__}") from None
    return search(position, budget_nodes=budget_nodes, budget_seconds=budget_seconds)
