"""The one Jinja environment (gettext, block rendering through jinja2-fragments), ``render``,
and what pages say by key.

Templates translate with ``_()``/``gettext``/``ngettext`` at render time, in the language
``render`` sets for the request; nothing is translated before that. Services raise errors and
return notes by key (they stay free of gettext); pages word them with ``message`` (``TEXTS``).
The engine's own reason for a refused move is English notation ("'P99': a pyramid has positions
0–27"), for the API and the command line: a page says only the refusal, in its language. An
imported deal's fault comes as ``reason``, a key and its parts (``REASONS``), and is worded in
the page's language.
Absolute URLs, for what leaves the site (link-preview tags, shared results), start from the
configured PUBLIC_URL when there is one: behind a proxy the request's own host may be an
internal name that a chat app's preview bot cannot reach.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from jinja2 import Environment
from jinja2_fragments import render_blocks
from markupsafe import Markup
from starlette.responses import HTMLResponse, Response

from app import i18n
from app.engine import PRESETS, Scoring, Status, Termination
from app.i18n import N_, gettext
from app.services.play.lifecycle import Abandonment, Phase
from app.settings import PROJECT_ROOT
from app.web.views import board_templates, formatting, par_words, preset_words
from app.web.views.assets import asset_url

# the card words live beside the offline engine's board (app/web/views/card_words.py); RANK_LABELS and
# the cards' words are named here still for the tests and previews that read them
from .card_words import RANK_LABELS as RANK_LABELS
from .card_words import card_name as card_name
from .card_words import card_symbol as card_symbol

# ---------------------------------------------------------------- what pages say by key

# English msgids by key; translated one at a time, when a page shows it
TEXTS = {
    # Gaps: the rule the card does not meet, said where a newcomer meets it
    "not_playable": N_("That card cannot move now: a card goes only into a gap right after the card one lower "
                       "in its suit, and a 2 only into a gap at the start of a row."),
    "covered": N_("That card is covered: it can be played once the cards lying on it are gone."),
    "no_partner": N_("No free card makes 13 with this one right now."),
    "stuck": N_("No card can move: redeal to go on."),
    "dead_gap": N_("Nothing can go into that gap: it comes after a king or another gap."),
    "in_place": N_("That card is in place in its row. Tap a gap to move it anyway."),
    "confirm_redeal": N_("Cards can still be moved. Redeal anyway?"),
    "confirm_new": N_("Start a new deal? This game is not finished: it counts as lost."),
    "confirm_restart": N_("Start this deal again from the beginning? This game is not finished: it counts as lost."),
    "won_final": N_("This game is won, and a win is final: it cannot be undone."),
    "counted_lost": N_("This game was counted as lost and cannot be played on."),
    # why a daily win has no place on the day's table (app.services.stats.clean.Unranked): its
    # badge there ("unranked_badge.…"), and the sentence that says why
    "unranked_badge.assisted": N_("not clean"),
    "unranked.assisted": N_("With undo, hint, auto-finish or “still winnable?”: not ranked"),
    # …and to its player, which help it was (app.services.stats.clean.help_used)
    "unranked.assisted.hint": N_("Played with hints: not ranked"),
    "unranked.assisted.undo": N_("You undid moves: not ranked"),
    "unranked.assisted.auto_finish": N_("Auto-finish played the end: not ranked"),
    "unranked.assisted.winnable_shown": N_("“Still winnable?” was shown during the game: not ranked"),
    "unranked_badge.again": N_("another try"),
    "unranked.again": N_("Not the player's first game of this deal: not ranked"),
    "unranked_badge.alongside": N_("two at once"),
    "unranked.alongside": N_("The same cards were opened in another game while this one was played: not ranked"),
    "unranked_badge.api": N_("through the API"),
    "unranked.api": N_("Played by a program through the API: not ranked"),
    "unranked_badge.too_fast": N_("too fast"),
    "unranked.too_fast": N_("Faster than a person can play: not ranked"),
    "unranked_badge.offline": N_("played offline"),
    "unranked.offline": N_("Played offline: the server did not see it played, so it is not ranked"),
    "give_up_not_stuck": N_("Only a game with no moves left can be given up; “New deal” leaves a game in play."),
    Abandonment.REPLACED: N_("It counts as lost: a new deal of this variant was started while it was unfinished."),
    Abandonment.IDLE: N_("It counts as lost: it was left unfinished for a day."),
    "solver_busy": N_("The solver is busy. Please try again in a moment."),
    "stale": N_("This game moved on in another tab. Here is the current position."),
    "raced": N_("A game of this variant was started in another tab just now. Here it is."),
    "illegal_move": N_("That move is not allowed here."),
    "bad_move": N_("That move could not be read."),
    "not_owner": N_("You are watching this game. Only the player who started it can make moves."),
    "nothing_to_undo": N_("There is nothing to undo."),
    "nothing_to_redo": N_("There is nothing to redo."),
    "rate_limited": N_("Too many new games in one minute. Please wait a moment."),
    "too_many_players": N_("Too many new players are arriving right now. Please wait a moment and reload the page."),
    "bad_seed": N_("A seed is a whole number, such as 12345."),
    "bad_deal": N_("That deal could not be read."),
    "unknown_preset": N_("There is no such game variant."),
    "no_such_game": N_("There is no such game. The link may be wrong."),
    "too_many_moves": N_("This game has reached the longest move list allowed."),
    "csrf": N_("The page was out of date. Please reload it and try again."),
    "unknown_action": N_("That action is unknown."),
    "not_found": N_("This page does not exist."),
    "bad_request": N_("The request could not be understood."),
    "too_large": N_("The request was too large."),
    "server_error": N_("Something went wrong on our side. Please try again."),
    "device_link_gone": N_("This device link is unknown or has been revoked."),
    Termination.WON_PYRAMID: N_("The pyramid is cleared."),
    Termination.WON_PYRAMIDS: N_("Both pyramids are cleared."),
    Termination.WON_ALL: N_("Every card is gone."),
    Termination.WON_GAPS: N_("Every row runs from 2 to king in one suit."),
    Termination.LOST_STOCK: N_("No more moves: the stock is empty and no passes are left."),
    Termination.LOST_PYRAMID: N_("No more moves: no pair or king can be removed."),
    Termination.LOST_GIZA: N_("No more moves: no pair or king is uncovered."),
    Termination.LOST_GAPS: N_("No more moves: every gap is dead and no redeals are left."),
    "game_over": N_("The game is over."),
    "no_hint": N_("There is no move to hint at."),
    "no_auto_finish": N_("Auto-finish is only possible when the solver has proven that the rest wins."),
    "no_retry": N_("There is no earlier point to try again from."),
    "retry_in_play": N_("This game is still being played: you can try again from a point in it once it is over."),
    "daily_spoiler": N_("This is a game of today's daily deal: you can watch it once you have finished the deal "
                        "yourself, or after midnight UTC."),
    "in_play_elsewhere": N_("This game is still being played. You can watch it once it is finished."),
    "db_unavailable": N_("The game's storage is not answering right now. Please try again in a moment."),
    "bad_day": N_("That is not a day (year-month-day)."),
    "future_day": N_("That day's table is not open yet."),
}


# The engine's faults of an imported deal (``InvalidDealError.reason``), worded with its parts
REASONS = {
    "not_a_card": N_("card {number}, {token}, is not a card code"),
    "too_many_copies": N_("card {number}, {token}, is there more than {copies} times"),
    "too_many_cards": N_("card {number}, {token}, is one too many: a deal has {expected} cards"),
    "too_few_cards": N_("the deal has {count} cards, not {expected}; missing: {missing}"),
}
TWICE = N_("card {number}, {token}, is there twice")


def _reason(key: str, params: dict) -> Markup:
    """An imported deal's fault in the page's language; card codes stay notation (<code>)."""
    parts = {name: Markup("<code>{}</code>").format(value) if name in ("token", "missing") else value
             for name, value in params.items()}
    text = TWICE if key == "too_many_copies" and params.get("copies") == 1 else REASONS[key]
    # our own catalog's text, trusted as Jinja's gettext trusts it; the parts are escaped into it
    return Markup(gettext(text)).format(**parts)  # nosec B704


def message(key: str | None, reason: tuple[str, dict] | None = None) -> str:
    if key is None:
        return ""
    text = gettext(TEXTS[key]) if key in TEXTS else key
    if reason is not None and reason[0] in REASONS:
        return Markup('{} <span class="detail">({})</span>').format(text, _reason(*reason))
    return text


# ---------------------------------------------------------------- absolute URLs

def public_base(request: Request) -> str:
    """``https://tretten.example``: PUBLIC_URL; without it, the Host a trusted proxy passed on
    (TRUSTED_PROXIES), else the address the server was reached at (the socket's, never the
    client's Host header: a link in a preview or a shared result would follow any host a
    client named, and a cache in front would keep it for others)."""
    public = request.app.state.settings.public_url
    if public:
        return public
    if getattr(request.state, "through_proxy", False):
        return str(request.base_url).rstrip("/")
    host, port = request.scope.get("server") or ("127.0.0.1", None)
    host = f"[{host}]" if ":" in host else host
    scheme = request.url.scheme
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


def absolute(request: Request, path: str) -> str:
    """The public URL of a root-relative ``path`` ("/deal/pyramid/123")."""
    return public_base(request) + path


# the court figures' image URLs (static/cards/, templates/_cards.html), made once: a URL names
# its file's content, which changes only with a deploy
COURT_FIGURES = {name: asset_url(f"cards/{name}.svg") for name in
                 [rank + suit for rank in "JQK" for suit in "CDHS"]
                 + [rank + suit + "-4" for rank in "JQK" for suit in "CD"]}
# the sheets of all twelve figures, of the deck and of the four-colour deck: a figure is a view of
# one (courts.svg#KH), for a board that shows every court card (Gaps): one request, 8 KB less
COURT_SHEET = {"": asset_url("cards/courts.svg"), "-4": asset_url("cards/courts-4.svg")}


# the board's templates' own globals and translations are set up where the offline engine's
# environment is set up too (app/web/views/board_templates.py); the pages' own are added here
environment: Environment = board_templates.environment(
    PROJECT_ROOT / "templates", figures=COURT_FIGURES, sheet=COURT_SHEET, message=message)
environment.globals.update(
    asset_url=asset_url,
    PRESETS=PRESETS,
    # a game's and a preset's words, in the page's language
    game_name=preset_words.game_name,
    game_invitation=preset_words.game_invitation,
    preset_how_to=preset_words.preset_how_to,
    preset_name=preset_words.preset_name,
    preset_summary=preset_words.preset_summary,
    preset_expectation=preset_words.preset_expectation,
    # par and a win against it (templates/_par.html), worded as the shared result words them
    par_name=par_words.par_name,
    over_par=par_words.over_par,
    # results, phases and scorings are compared as members (``status == Status.WON``), never as words
    Status=Status,
    Phase=Phase,
    Scoring=Scoring,
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
