"""The Jinja environment the board's templates (templates/boards/, templates/_cards.html) are
drawn in, set up once for both of the app's places that draw a board: the server's one
environment (app/web/views/templating.py, which adds what only its pages use) and the page's
offline engine (app/web/views/offline_engine.py, run by Pyodide, with the words and figures the
bundle carries). A global a board's template needs is added here, so it is in both.

It needs only the standard library, the engine, Jinja2 and the board's words: the offline
bundle (app/web/views/offline_bundle.py) ships it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader

from app import i18n
from app.engine.pyramid import PAIR_TOTAL, pair_total, value

from .card_words import card_name, card_symbol, rank_label, suit_name, suit_symbol


def environment(templates: Path, *, figures: dict[str, str], sheet: dict[str, str],
                message: Callable[..., Any]) -> Environment:
    """A new environment over the ``templates`` folder, set up for the board (``configure``)."""
    env = Environment(
        loader=FileSystemLoader(str(templates)),
        extensions=["jinja2.ext.i18n"],
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # templates change with a deploy, never under a running server
    )
    configure(env, figures=figures, sheet=sheet, message=message)
    return env


def configure(env: Environment, *, figures: dict[str, str], sheet: dict[str, str],
              message: Callable[..., Any]) -> None:
    """Translations at render time (the app's gettext, in the language set for the drawing) and
    every global the board's templates use: the court figures' addresses (``figures``, one file
    each; ``sheet``, all twelve in one), the words a page says by key (``message``), the cards'
    words, and a pair's arithmetic as the engine counts it (templates/_toast.html)."""
    env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext, npgettext=i18n.npgettext)
    env.globals.update(
        COURT_FIGURES=figures,
        COURT_SHEET=sheet,
        message=message,
        card_name=card_name,
        card_symbol=card_symbol,
        suit_name=suit_name,
        suit_symbol=suit_symbol,
        rank_label=rank_label,
        card_value=value,
        pair_total=pair_total,
        PAIR_TOTAL=PAIR_TOTAL,
    )
