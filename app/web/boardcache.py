"""Drawn cards and board rows, kept: a board's markup is mostly the same from move to move.

A board draws up to 56 places, and drawing each through its macro (escaping, a spoken name in
the player's language) was the largest part of a move's server time. A place's markup depends
only on its hashable view model (app.services.boards ``Slot``/``Cell``), on whether it is
played or only shown (a replay), and on the language, so it is drawn once and kept; a row is
its places one after another, so a move redraws the one or two rows it touched. The macros
live in templates/_cards.html; ``tests/web/test_boardcache.py`` checks that kept markup equals
a fresh rendering.
"""

from __future__ import annotations

from functools import lru_cache

from jinja2 import Environment
from markupsafe import Markup

from app import i18n
from app.services.boards import Cell, Slot

_environment: list[Environment] = []  # set once by install()


def install(environment: Environment) -> None:
    """Make ``place`` and ``row`` template globals drawing with this environment's macros."""
    _environment[:] = [environment]
    environment.globals.update(place=place, row=row)


def _macro(name: str):
    return getattr(_environment[0].get_template("_cards.html").module, name)


@lru_cache(maxsize=8192)
def _place(language: str, place: Slot | Cell, play: bool) -> Markup:
    if isinstance(place, Cell):
        return _macro("gaps_cell")(place, play)
    if place.card is None:
        return _macro("removed_slot")(place.loc)
    return _macro("card")(place, play)


@lru_cache(maxsize=8192)
def _row(language: str, row: tuple[Slot | Cell, ...], play: bool) -> Markup:
    return Markup("").join(_place(language, place, play) for place in row)


def place(slot: Slot | Cell, play: bool = True) -> Markup:
    """One card, removed place or Gaps cell; ``play``: a button that posts the tap."""
    return _place(i18n.current_language(), slot, play)


def row(places: tuple[Slot | Cell, ...], play: bool = True) -> Markup:
    """A pyramid row or a Gaps row."""
    return _row(i18n.current_language(), places, play)

