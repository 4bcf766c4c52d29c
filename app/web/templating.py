"""The one Jinja environment (gettext, block rendering through jinja2-fragments) and ``render``.

Templates translate with ``_()``/``gettext``/``ngettext`` at render time, in the language
``render`` sets for the request; nothing is translated before that (services and handlers pass
message keys and values, templates word them).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fastapi import Request
from jinja2 import Environment, FileSystemLoader
from jinja2_fragments import render_blocks
from starlette.responses import HTMLResponse, Response

from app import i18n
from app.engine import PRESETS, Card
from app.engine.pyramid import PAIR_TOTAL, pair_total, value
from app.settings import PROJECT_ROOT

from . import formatting
from .assets import asset_url
from .messages import PLAYER_ESTIMATES, message

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
# the indices each language's own decks print (docs/glossary.md): es/ess, knægt/knekt, dame/dam, konge/kung
RANK_LABELS = {
    "en": {1: "A", 11: "J", 12: "Q", 13: "K"},
    "da": {1: "E", 11: "Kn", 12: "D", 13: "K"},
    "sv": {1: "E", 11: "Kn", 12: "D", 13: "K"},
}


def rank_label(card_or_rank: Card | int) -> str:
    """The corner index in the player's language: "D" for a Danish or Swedish queen."""
    rank = card_or_rank if isinstance(card_or_rank, int) else card_or_rank.rank
    return RANK_LABELS[i18n.LANGUAGE.get()].get(rank, str(rank))


def suit_symbol(card_or_suit: Card | str) -> str:
    suit = card_or_suit if isinstance(card_or_suit, str) else card_or_suit.suit
    return SUIT_SYMBOLS[suit]


def suit_name(suit: str) -> str:
    return _suit_name(i18n.LANGUAGE.get(), suit)


def card_name(card: Card) -> str:
    """The spoken name: "spar 7", "hjärter dam", "7 of spades"."""
    return _card_name(i18n.LANGUAGE.get(), card)


# a board names its cards in its words (labels, announcements): 52 names a language, kept
@lru_cache(maxsize=256)
def _suit_name(language: str, suit: str) -> str:
    _ = i18n.gettext
    return {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}[suit]


@lru_cache(maxsize=256)
def _card_name(language: str, card: Card) -> str:
    _ = i18n.gettext
    rank = {1: _("ace"), 11: _("jack"), 12: _("queen"), 13: _("king")}.get(card.rank, str(card.rank))
    return _("{rank} of {suit}").format(rank=rank, suit=_suit_name(language, card.suit))


def card_symbol(card: Card) -> str:
    """The short written form: "7♥", "K♣"."""
    return rank_label(card) + SUIT_SYMBOLS[card.suit]


environment = Environment(
    loader=FileSystemLoader(str(PROJECT_ROOT / "templates")),
    extensions=["jinja2.ext.i18n"],
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    auto_reload=False,  # templates change with a deploy, never under a running server
)


environment.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
    i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext, npgettext=i18n.npgettext)
environment.globals.update(
    asset_url=asset_url,
    message=message,
    PLAYER_ESTIMATES=PLAYER_ESTIMATES,
    card_name=card_name,
    card_symbol=card_symbol,
    suit_name=suit_name,
    rank_label=rank_label,
    # a pair's arithmetic as the engine counts it, said in words (templates/_toast.html)
    card_value=value,
    pair_total=pair_total,
    PAIR_TOTAL=PAIR_TOTAL,
    suit_symbol=suit_symbol,
    PRESETS=PRESETS,
    LANGUAGES=i18n.LANGUAGES,
    LANGUAGE_NAMES=i18n.LANGUAGE_NAMES,
)
formatting.install(environment)


def is_htmx(request: Request) -> bool:
    """An htmx request that swaps a part of the page (a boosted link or a history restore, the
    back button after a pushed address, wants the whole page)."""
    return (request.headers.get("hx-request") == "true" and request.headers.get("hx-boosted") != "true"
            and request.headers.get("hx-history-restore-request") != "true")


# pages and fragments differ by these request headers, and are never cached
PAGE_HEADERS = {"vary": "HX-Request, Accept-Language, Cookie", "cache-control": "no-store"}


def render(
    request: Request,
    name: str,
    context: dict[str, Any] | None = None,
    *,
    blocks: list[str] | None = None,
    status_code: int = 200,
) -> Response:
    """The whole page, or only ``blocks`` of it (an htmx request asks for a fragment), in the
    request's language (``request.state.language``)."""
    i18n.set_language(getattr(request.state, "language", i18n.DEFAULT_LANGUAGE))
    full = {"request": request, "language": i18n.current_language(), **getattr(request.state, "page", {}),
            **(context or {})}
    if blocks is None:
        content = environment.get_template(name).render(full)
    else:
        content = render_blocks(environment, name, blocks, full)
    return HTMLResponse(content, status_code=status_code, headers=PAGE_HEADERS)
