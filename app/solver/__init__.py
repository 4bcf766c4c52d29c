"""Tretten's solver: exact for the Pyramid family, budgeted for Gaps.

Pure Python, standard library only, no I/O; the shortest-win search hands Double Pyramid's A* and
beams to a compiled core (``_core.c``, optional: ``shortest.ShortestSearch.compiled``).
``solve(position)`` takes an engine position (``app.engine``) and answers a ``SolveResult`` whose
winning moves are canonical notation and cleaned (``lines``); ``shortest_win`` searches a
position's shortest win (``par``); ``line_from`` keeps a hint on one line; ``best_score_move`` is
the fallback when no win is known.
"""

from .best_score import best_score_move
from .lines import LineError, clean_line, line_from
from .par import hint_shortest, proves_shortest, quick_shortest, shortest_win
from .result import SolveResult
from .shortest import PAR_POSITIONS, ShortestWin
from .solve import solve

__all__ = [
    "PAR_POSITIONS", "LineError", "ShortestWin", "SolveResult", "best_score_move", "clean_line", "hint_shortest",
    "line_from", "proves_shortest", "quick_shortest", "shortest_win", "solve",
]
