"""Tretten's solver: exact for the Pyramid family, budgeted for Gaps.

Pure Python, standard library only, no I/O. ``solve(position)`` takes an engine position
(``app.engine``) and answers a ``SolveResult`` whose winning moves are canonical notation;
``api`` has what the web layer asks (``hint``, ``is_winnable``).
"""

from .api import best_score_move, hint, is_winnable
from .result import SolveResult
from .solve import solve

__all__ = ["SolveResult", "best_score_move", "hint", "is_winnable", "solve"]
