"""Tretten's solver: exact for the Pyramid family, budgeted for Gaps.

Pure Python, standard library only, no I/O. ``solve(position)`` takes an engine position
(``app.engine``) and answers a ``SolveResult`` whose winning moves are canonical notation;
``best_score_move`` is the fallback when no win is known.
"""

from .best_score import best_score_move
from .result import SolveResult
from .solve import solve

__all__ = ["SolveResult", "best_score_move", "solve"]
