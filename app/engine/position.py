"""What every game's position answers, whichever game it is (python-chess's ``Board``, for a
solitaire): the one interface the web, the services and the solver's users hold a position by.

A position is an immutable value. ``legal_moves()`` lists what may be played, ``apply(move)``
returns the position after it (``IllegalMoveError`` if it may not be played), and ``status``
with ``end_reason`` says whether the game is on, won or lost, and why. Moves print as the
notation (docs/notation.md) and ``parse_move`` reads it back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, Self

from .outcome import Status, Termination


class Position(Protocol):
    @property
    def rules(self) -> Any:
        """The rule options the game is played with."""
        ...

    @property
    def game(self) -> str:
        """The game's name in the notation."""
        ...

    def legal_moves(self) -> tuple[Any, ...]:
        """Every move that may be played here, in canonical order; none once the game is over."""
        ...

    def is_legal(self, move: object) -> bool:
        """Whether ``move`` is one of ``legal_moves()``, decided for that move alone."""
        ...

    def gives_up_moves(self, move: object) -> bool:
        """Whether playing ``move`` gives up moves still possible here, so that a player is asked
        first (a redeal while cards can still be moved)."""
        ...

    def apply(self, move: object) -> Self:
        """The position after ``move`` (``IllegalMoveError`` if it is not legal here)."""
        ...

    def parse_move(self, text: str) -> Any:
        """A move of this game from its notation (``InvalidMoveError`` if it is not one)."""
        ...

    @property
    def status(self) -> Status:
        """``PLAYING``, ``WON`` or ``LOST`` (no legal move left)."""
        ...

    @property
    def end_reason(self) -> Termination | None:
        """How the game ended, or None while it is on."""
        ...

    @property
    def simple_score(self) -> int:
        """The ``simple`` scoring system: the cards the game has put away so far."""
        ...

    @property
    def cards_left(self) -> int:
        """Cards still to go before the game is won."""
        ...

    def pair_points(self, played: Sequence[object]) -> int:
        """The ``pairs`` scoring system, given the moves that led here."""
        ...

    def to_json(self) -> dict:
        """The ``position`` object of ``tretten replay``."""
        ...
