"""Player-facing messages by key, translated at render time.

Services raise errors and return notes by key (they stay free of gettext); the web
layer words them here. `detail` carries the engine's exact reason (in English, in
notation terms) where it helps, e.g. which token of an imported deal is wrong.
"""

from __future__ import annotations

from app.i18n import gettext as _


def message(key: str | None, **params: object) -> str:
    if key is None:
        return ""
    texts = {
        "not_playable": _("That card cannot be played right now."),
        "dead_gap": _("Nothing can go into that gap."),
        "confirm_redeal": _("Cards can still be moved. Redeal anyway?"),
        "stale": _("This game moved on in another tab. Here is the current position."),
        "illegal_move": _("That move is not allowed here."),
        "bad_move": _("That move could not be read."),
        "not_owner": _("You are watching this game. Only the player who started it can make moves."),
        "nothing_to_undo": _("There is nothing to undo."),
        "nothing_to_redo": _("There is nothing to redo."),
        "rate_limited": _("Too many new games in one minute. Please wait a moment."),
        "bad_seed": _("A seed is a whole number, such as 12345."),
        "bad_deal": _("That deal could not be read."),
        "unknown_preset": _("There is no such game variant."),
        "no_such_game": _("There is no such game. The link may be wrong."),
        "too_many_moves": _("This game has reached the longest move list allowed."),
        "csrf": _("The page was out of date. Please reload it and try again."),
        "unknown_action": _("That action is unknown."),
        "not_found": _("This page does not exist."),
        "bad_request": _("The request could not be understood."),
        "too_large": _("The request was too large."),
        "device_link_gone": _("This device link is unknown or has been revoked."),
        "won_pyramid": _("The pyramid is cleared."),
        "won_all": _("Every card is gone."),
        "won_gaps": _("Every row runs from 2 to king in one suit."),
        "lost_stock": _("No more moves: the stock is empty and no passes are left."),
        "lost_pyramid": _("No more moves: no pair or king can be removed."),
        "lost_giza": _("No more moves: no pair or king is uncovered."),
        "lost_gaps": _("No more moves: every gap is dead and no redeals are left."),
        "game_over": _("The game is over."),
        "no_hint": _("There is no move to hint at."),
        "no_auto_finish": _("Auto-finish is only possible when the solver has proven that the rest wins."),
        "no_retry": _("There is no earlier point to try again from."),
    }
    text = texts.get(key, key)
    detail = params.get("detail")
    return f"{text} ({detail})" if detail else text
