"""Jinja2 with block rendering (jinja2-fragments), gettext and the helpers templates use."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fastapi import Request
from jinja2 import Environment, FileSystemLoader, pass_context
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from jinja2.runtime import Context
from jinja2_fragments import render_blocks
from jinja2_fragments.fastapi import Jinja2Blocks
from markupsafe import Markup
from starlette.responses import HTMLResponse, Response

from app import i18n
from app.engine import PRESETS, Card
from app.settings import PROJECT_ROOT

from . import formatting
from .assets import asset_url
from .messages import message

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
# the indices each language's own decks print (docs/glossary.md): es/ess, knægt/knekt, dame/dam, konge/kung
RANK_LABELS = {
    "en": {1: "A", 11: "J", 12: "Q", 13: "K"},
    "da": {1: "E", 11: "Kn", 12: "D", 13: "K"},
    "sv": {1: "E", 11: "Kn", 12: "D", 13: "K"},
}


class _FlatGlobalsEnvironment(Environment):
    """Templates see the globals as one plain dict instead of Jinja's ChainMap.

    Every render copies a template's globals into a new context, and copying a ChainMap goes
    key by key through Python (with a KeyError per key from the empty template layer): about
    40 µs a block, and a board fragment has two or three. The price is Jinja's own advice
    made a rule: the globals are complete before the first template loads (all of them are
    set below, at import)."""

    def make_globals(self, d):
        return {**self.globals, **(d or {})}


class _CompiledTranslations(Extension):
    """``_("text")`` and ``gettext("text")`` with a literal text become the translation while the
    template compiles, in the environment of one language (``translation_language``).

    A board asks for about twenty fixed texts, and each was a call at every render (context,
    catalog, escape) while its answer never changes: as a constant, it joins the markup around
    it. Calls with variables, or with a text that is not a literal, stay calls (gettext below)."""

    _NAMES = frozenset({"_", "gettext"})

    def filter_stream(self, stream: TokenStream) -> list[Token]:
        tokens = list(stream)
        catalog = i18n.translations_for(self.environment.translation_language)
        folded: list[Token] = []
        i = 0
        while i < len(tokens):
            window = tokens[i:i + 4]
            if (len(window) == 4 and window[0].type == "name" and window[0].value in self._NAMES
                    and [t.type for t in window[1:]] == ["lparen", "string", "rparen"]
                    and not (folded and folded[-1].type == "dot")):
                try:
                    text = catalog.gettext(window[2].value) % {}  # newstyle gettext always %-formats
                except (KeyError, TypeError, ValueError):
                    text = None
                if text is not None:
                    folded.append(Token(window[0].lineno, "string", text))
                    i += 4
                    continue
            folded.append(tokens[i])
            i += 1
        return folded


def _make_environment(language: str) -> Environment:
    environment = _FlatGlobalsEnvironment(
        loader=FileSystemLoader(str(PROJECT_ROOT / "templates")),
        extensions=["jinja2.ext.i18n", _CompiledTranslations],
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
        # a plain dict of compiled templates: the set is fixed and small, and Jinja's LRU cache
        # took a lock and searched its queue on each get_template (three or four per board)
        cache_size=-1,
    )
    environment.extend(translation_language=language)
    environment.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True,
                                          pgettext=i18n.pgettext, npgettext=i18n.npgettext)
    return environment


# One environment per language: each compiles the templates with its own fixed texts. The
# globals and filters are the same in all (set below, before any template loads).
environments = {language: _make_environment(language) for language in i18n.LANGUAGES}
_blocks = {language: Jinja2Blocks(env=environment) for language, environment in environments.items()}


@lru_cache(maxsize=2048)  # keyed by the catalog itself: one rebuilt by ensure_compiled() is a new key
def _translation(catalog: Any, message: str, autoescape: bool) -> str:
    text = catalog.gettext(message)
    # our own catalogs, trusted as markup exactly as Jinja's i18n extension trusts them
    return Markup(text) if autoescape else text  # nosec B704


@lru_cache(maxsize=2048)
def _formatted(catalog: Any, message: str, autoescape: bool) -> str:
    # newstyle gettext %-formats even without variables ("100%%" → "100%"): done once per text
    return _translation(catalog, message, autoescape) % {}


@pass_context
def _gettext(context: Context, message: str, /, **variables: Any) -> str:
    """Jinja's newstyle gettext (the translation as Markup when autoescaping, always
    %-formatted), with each translation kept per language: a board asks for about twenty
    texts, and Jinja's own wrapper went through three calls and a new Markup for each."""
    catalog = i18n.translations_for(i18n.current_language())
    if not variables:  # nearly every call: the formatted text is kept too (Markup's % is not cheap)
        return _formatted(catalog, message, context.eval_ctx.autoescape)
    return _translation(catalog, message, context.eval_ctx.autoescape) % variables


for _environment in environments.values():
    _environment.globals.update(gettext=_gettext, _=_gettext)


def rank_label(card_or_rank: Card | int) -> str:
    """The corner index in the player's language: "D" for a Danish or Swedish queen."""
    rank = card_or_rank if isinstance(card_or_rank, int) else card_or_rank.rank
    return RANK_LABELS[i18n.current_language()].get(rank, str(rank))


def suit_symbol(card_or_suit: Card | str) -> str:
    suit = card_or_suit if isinstance(card_or_suit, str) else card_or_suit.suit
    return SUIT_SYMBOLS[suit]


def suit_name(suit: str) -> str:
    _ = i18n.gettext
    return {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}[suit]


def card_name(card: Card) -> str:
    """The spoken name: "spar 7", "hjärter dam", "7 of spades"."""
    return _card_name(i18n.current_language(), card.rank, card.suit)


@lru_cache(maxsize=512)  # 52 cards x 3 languages: rendered on every board, worked out once
def _card_name(_language: str, rank_number: int, suit: str) -> str:
    _ = i18n.gettext
    ranks = {1: _("ace"), 11: _("jack"), 12: _("queen"), 13: _("king")}
    rank = ranks.get(rank_number, str(rank_number))
    return _("{rank} of {suit}").format(rank=rank, suit=suit_name(suit))


def _memoized_macro(name: str, maxsize: int = 8192, template: str = "_cards.html"):
    """The macro `name` of `template`, rendered once per distinct argument and language.

    A board draws up to 56 cards and redrawing each through its macro (escaping, gettext for
    its spoken state) was about half of a move's server CPU. The markup depends only on the
    frozen, hashable Slot/Cell (or card, or reserve pile) and the language, so the rendered
    string is kept and reused (rows of them: _memoized_row).
    """

    @lru_cache(maxsize=maxsize)
    def rendered(language: str, *args: Any) -> Markup:
        return getattr(environments[language].get_template(template).module, name)(*args)

    def memoized(*args: Any) -> Markup:
        return rendered(i18n.current_language(), *args)

    return memoized


_card_button = _memoized_macro("card_button")
_removed_slot = _memoized_macro("removed_slot", maxsize=512)
_gaps_cell = _memoized_macro("gaps_cell")


def _memoized_row(draw: Any):
    """A row of places, each drawn by `draw` (memoized macros), kept per row and language.

    Between two moves most rows of a board stay as they were: a move redraws the one or two
    rows it touched, and in those only the places that changed. A row is its places one
    after another, so it is joined here rather than in a macro of its own: on a new row that
    saved a macro call and its escaping per place."""

    @lru_cache(maxsize=8192)
    def rendered(_language: str, row: tuple) -> Markup:
        return Markup("".join(draw(place) for place in row))  # nosec B704: each place is a macro's Markup

    def memoized(row: tuple) -> Markup:
        return rendered(i18n.current_language(), row)

    return memoized


_GLOBALS = dict(
    card_face=_memoized_macro("face", maxsize=512),  # 52 cards x 3 languages
    card_button=_card_button,
    pyramid_row=_memoized_row(lambda slot: _card_button(slot) if slot.card else _removed_slot(slot.loc)),
    gaps_row=_memoized_row(_gaps_cell),
    reserve=_memoized_macro("reserve"),
    solver_links=_memoized_macro("solver_links", maxsize=4096, template="_solver_controls.html"),
    asset_url=asset_url,
    message=message,
    card_name=card_name,
    suit_name=suit_name,
    rank_label=rank_label,
    suit_symbol=suit_symbol,
    PRESETS=PRESETS,
    LANGUAGES=i18n.LANGUAGES,
    LANGUAGE_NAMES=i18n.LANGUAGE_NAMES,
)

for _environment in environments.values():
    _environment.globals.update(_GLOBALS)
    formatting.install(_environment)  # here, with the other globals: templates copy them when they load


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true" and request.headers.get("hx-boosted") != "true"


def render(
    request: Request,
    name: str,
    context: dict[str, Any] | None = None,
    *,
    blocks: list[str] | None = None,
    status_code: int = 200,
) -> Response:
    """The whole page, or only `blocks` of it (an htmx request asks for a fragment)."""
    i18n.set_language(getattr(request.state, "language", i18n.DEFAULT_LANGUAGE))
    language = i18n.current_language()
    full = {"request": request, "language": language, **getattr(request.state, "page", {}), **(context or {})}
    if blocks:  # the blocks straight into a response: no template-response bookkeeping per fragment
        content = render_blocks(environments[language], name, blocks, full)
        return HTMLResponse(content, status_code=status_code, headers=_PAGE_HEADERS)
    return _blocks[language].TemplateResponse(request, name, full, status_code=status_code, headers=_PAGE_HEADERS)


# pages and fragments differ by these request headers, and are never cached
_PAGE_HEADERS = {"vary": "HX-Request, Accept-Language, Cookie", "cache-control": "no-store"}
