"""Where a game stands and, once it is over, why: the one vocabulary of results.

Like python-chess's ``Outcome`` and ``Termination``: the positions of every variant answer
``status`` (a ``Status``) and ``end_reason`` (a ``Termination``, ``None`` while playing), and
the rest of the app compares these members rather than words. Both are ``StrEnum``: a member
is its own text, so the notation's JSON (``tretten replay``), the stored games' column, the
API and the pages show the same words as the strings they replace.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """A position's result."""

    PLAYING = "playing"   # a legal move is left
    WON = "won"
    LOST = "lost"         # no move is left (a stored game may still undo it)


class Termination(StrEnum):
    """Why a game is over, one key per way a variant ends (pages word each by its key)."""

    WON_PYRAMID = "won_pyramid"     # the pyramid is cleared
    WON_PYRAMIDS = "won_pyramids"   # both pyramids are cleared (double pyramid)
    WON_ALL = "won_all"             # every card is gone (goal all)
    WON_GAPS = "won_gaps"           # every row runs from 2 to king in one suit
    LOST_STOCK = "lost_stock"       # nothing pairs, and the stock and passes are used up
    LOST_PYRAMID = "lost_pyramid"   # unlimited passes: no cycle of the stock brings a pair or a king
    LOST_GIZA = "lost_giza"         # no open pair or king (Giza's reserves are all open)
    LOST_GAPS = "lost_gaps"         # every gap is dead and no redeal is left

    @property
    def status(self) -> Status:
        """The result this ending gives."""
        return Status.WON if self in _WINS else Status.LOST


_WINS = frozenset({Termination.WON_PYRAMID, Termination.WON_PYRAMIDS, Termination.WON_ALL, Termination.WON_GAPS})
