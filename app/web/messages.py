"""Player-facing messages by key, translated at render time.

Services raise errors and return notes by key (they stay free of gettext); the web
layer words them here, while a page renders (only then is the player's language set: see
`templating.render`). `detail` carries the engine's exact reason (in English, in notation
terms) where it helps, e.g. which move could not be read: it is marked as English. An imported
deal's fault comes as `reason`, a key and its parts (`REASONS`), and is worded in the page's
language.
"""

from __future__ import annotations

from markupsafe import Markup

from app.i18n import N_, gettext

# English msgids by key; translated one at a time, when a page shows it
TEXTS = {
    "not_playable": N_("That card cannot be played right now."),
    "dead_gap": N_("Nothing can go into that gap."),
    "in_place": N_("That card is in place in its row. Tap a gap to move it anyway."),
    "confirm_redeal": N_("Cards can still be moved. Redeal anyway?"),
    "confirm_new": N_("Start a new deal? This game is not finished: it counts as lost."),
    "confirm_restart": N_("Start this deal again from the beginning? This game is not finished: it counts as lost."),
    "won_final": N_("This game is won, and a win is final: it cannot be undone."),
    "counted_lost": N_("This game was counted as lost and cannot be played on."),
    "replaced": N_("It counts as lost: a new deal of this variant was started while it was unfinished."),
    "idle": N_("It counts as lost: it was left unfinished for a day."),
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
    "won_pyramid": N_("The pyramid is cleared."),
    "won_pyramids": N_("Both pyramids are cleared."),
    "won_all": N_("Every card is gone."),
    "won_gaps": N_("Every row runs from 2 to king in one suit."),
    "lost_stock": N_("No more moves: the stock is empty and no passes are left."),
    "lost_pyramid": N_("No more moves: no pair or king can be removed."),
    "lost_giza": N_("No more moves: no pair or king is uncovered."),
    "lost_gaps": N_("No more moves: every gap is dead and no redeals are left."),
    "game_over": N_("The game is over."),
    "no_hint": N_("There is no move to hint at."),
    "no_auto_finish": N_("Auto-finish is only possible when the solver has proven that the rest wins."),
    "no_retry": N_("There is no earlier point to try again from."),
    "daily_spoiler": N_("This is a game of today's daily deal: you can watch it once you have finished the deal "
                        "yourself, or after midnight UTC."),
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


_NOT_KNOWN_STOCK = N_("Fewer than the solver's figure: a player does not know the order of the stock.")
# what a player may expect of each preset where no player's figure was measured (the Odds page)
PLAYER_ESTIMATES = {
    "pyramid": (_NOT_KNOWN_STOCK, N_("With one pass, fewer than 1 deal in 10.")),
    "pyramid-classic": (_NOT_KNOWN_STOCK, N_("With one pass, fewer than 1 deal in 10.")),
    "pyramid-3": (_NOT_KNOWN_STOCK, N_("Clearly more than one-pass Pyramid.")),
    "relaxed": (_NOT_KNOWN_STOCK, N_("Clearly more than one-pass Pyramid.")),
    "giza": (N_("At most about one deal in three: Giza hides no card, so careful planning can come close to the solver's figure."),),  # noqa: E501
    "double-pyramid": (_NOT_KNOWN_STOCK, N_("No reliable common estimate is known.")),
    "gaps": (N_("No reliable common estimate is known."),),
    "gaps-danish": (N_("No reliable common estimate is known."),),
}


def message(key: str | None, **params: object) -> str:
    if key is None:
        return ""
    text = gettext(TEXTS[key]) if key in TEXTS else key
    reason = params.get("reason")
    if isinstance(reason, tuple) and reason[0] in REASONS:
        return Markup('{} <span class="detail">({})</span>').format(text, _reason(*reason))
    detail = params.get("detail")
    if not detail:
        return text
    return Markup('{} <span class="detail" lang="en">({})</span>').format(text, detail)
