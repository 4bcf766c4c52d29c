"""The result to share from a finished game's end screen: a few lines of plain text.

    Tretten · Pyramid · Seed 123
    Won in 35 moves, 2:41 · 2 undos, no hints
    (the pyramid's rows as squares: 🟩 a card cleared, ⬜ a card left)
    https://…/deal/pyramid/123?from=GAMEID

Short enough for a chat message, in the player's language. The result is the one the
statistics count (app.services.play.lifecycle): a game left unfinished (replaced by another, or
idle for a day) is lost even if it was finished later. The picture is the final position: a
Pyramid-family game draws its pyramid(s) row by row from the apex, Gaps its four rows as the
cards in their row's run.

Also the words of a shared link's preview (``og:title``, ``og:description``): ``link_title``
and ``link_description``; the image is app.web.views.previews'.
"""

from __future__ import annotations

from datetime import date
from functools import singledispatch

from babel.dates import format_date

from app.db.models import Game
from app.engine import PRESETS, GapsPosition, Position, PyramidPosition
from app.engine.gaps import COLUMNS as GAPS_COLUMNS
from app.engine.pyramid import PYRAMID_SIZE, ROWS, row_indices
from app.i18n import LANGUAGES, translations_for
from app.services.assist.par import Par
from app.services.errors import InputError, NotFoundError
from app.services.play.lifecycle import Phase, phase_of
from app.web.views.formatting import duration
from app.web.views.par_words import over_par, par_name
from app.web.views.preset_words import preset_name, preset_summary

CLEARED = "\U0001F7E9"  # 🟩 large green square
LEFT = "\u2B1C"         # ⬜ white large square
HALF = "\u2002"         # en space: about half an emoji wide, and kept where plain spaces may not be
LOCALES = {"da": "da_DK", "sv": "sv_SE", "en": "en_GB"}


def share_text(game: Game, position: Position, language: str, url: str, *, par: Par | None = None,
               rank: tuple[int, int] | None = None) -> str:
    """The text to share for a finished ``game`` whose final position is ``position``.

    ``url`` is the absolute link to the deal with the game as its origin (the caller knows the
    public base URL). With the deal's ``par`` (app.services.assist.par) a line "Par 41: +3" ("par" at
    par; "Par 41" alone for a game not won; "Best known 41 moves" without a proof); with ``rank`` (place,
    places) the game's place on its day's table. ``InputError`` for a game still in play.
    """
    _check_language(language)
    if not phase_of(game).finished:
        raise InputError("only a finished game has a result to share", "not_finished")
    translations = translations_for(language)
    scored = _scored(game, translations, par, rank)
    return "\n".join((
        _title(game, language),
        _result(game, translations),
        *([scored] if scored else []),
        picture(position),
        url,
    ))


def _scored(game: Game, translations, par: Par | None, rank: tuple[int, int] | None) -> str:
    _ = translations.gettext
    parts = []
    if par is not None:
        name = par_name(par.moves, par.proven, par.bound, translations)
        won = phase_of(game) is Phase.WON
        # a game not won has no result against par: the deal's par alone ("Par 34: −" said nothing)
        parts.append(f"{name}: {over_par(par.over(game.cursor), par.proven, translations)}" if won else name)
    if rank is not None:
        parts.append(_("No. %(rank)d of %(count)d on the day's table") % {"rank": rank[0], "count": rank[1]})
    return " · ".join(parts)


def _title(game: Game, language: str) -> str:
    deal = deal_name(game.seed, game.daily_on, language)
    return " · ".join(["Tretten", preset_name(game.preset, language)] + ([deal] if deal else []))


def deal_name(seed: int | None, daily_on: date | None, language: str) -> str | None:
    """"Seed 123", or for a daily deal "Daily deal 1 December 2026" (its seed is 20 digits
    long); None for a deal without a seed."""
    _ = translations_for(language).gettext
    if daily_on is not None:
        return _("Daily deal %(day)s") % {"day": day_text(daily_on, language)}
    if seed is not None:
        return _("Seed %(seed)s") % {"seed": seed}
    return None


def _result(game: Game, translations) -> str:
    _, ngettext = translations.gettext, translations.ngettext
    moves = game.cursor
    phase = phase_of(game)
    if phase is Phase.ABANDONED:
        outcome = ngettext("Lost after %(num)d move (left unfinished)",
                           "Lost after %(num)d moves (left unfinished)", moves)
    elif phase is Phase.LOST:  # not lost yet: an undo may still lead on, until it is given up
        outcome = ngettext("No moves left after %(num)d move", "No moves left after %(num)d moves", moves)
    elif phase is Phase.WON:
        outcome = ngettext("Won in %(num)d move", "Won in %(num)d moves", moves)
    else:
        outcome = ngettext("Lost after %(num)d move", "Lost after %(num)d moves", moves)
    outcome %= {"num": moves}
    if game.seconds is not None:
        outcome += ", " + duration(game.seconds)
    elif game.played_offline:
        outcome += ", " + _("played offline (time not counted)")
    undos = (ngettext("%(num)d undo", "%(num)d undos", game.undo_count) % {"num": game.undo_count}
             if game.undo_count else _("no undos"))
    hints = (ngettext("%(num)d hint", "%(num)d hints", game.hint_count) % {"num": game.hint_count}
             if game.hint_count else _("no hints"))
    assists = [undos, hints] + ([_("auto-finished")] if game.auto_finished else [])
    return outcome + " · " + ", ".join(assists)


def day_text(day: date, language: str) -> str:
    """1 December 2026, 1. december 2026, 1 december 2026."""
    return format_date(day, format="long", locale=LOCALES[language])


# ---------------------------------------------------------------- link previews

def link_title(preset_slug: str, language: str, *, seed: int | None = None,
               daily_on: date | None = None) -> str:
    """``og:title`` of a deal, game, replay or daily deal page: "Pyramid · Seed 123 · Tretten"."""
    _check_language(language)
    _check_preset(preset_slug)
    deal = deal_name(seed, daily_on, language)
    return " · ".join([preset_name(preset_slug, language)] + ([deal] if deal else []) + ["Tretten"])


def link_description(preset_slug: str, language: str, *, players: int, winners: int) -> str:
    """``og:description``: the rules in words and how many players won the deal."""
    _check_language(language)
    _check_preset(preset_slug)
    translations = translations_for(language)
    if players:
        count = translations.ngettext("Played by %(num)d player, won by %(won)d.",
                                      "Played by %(num)d players, won by %(won)d.", players)
        count %= {"num": players, "won": winners}
    else:
        count = translations.gettext("Nobody has played this deal yet. Be the first.")
    return f"{preset_summary(preset_slug, language)} {count}"


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise InputError(f"unknown language {language!r}", "unknown_language", language=language)


def _check_preset(slug: str) -> None:
    if slug not in PRESETS:
        raise NotFoundError(f"unknown preset {slug!r}", "unknown_preset", preset=slug)


# ---------------------------------------------------------------- the picture

@singledispatch
def picture(position: Position) -> str:
    """The final position in squares, one line per row: each kind of position registers its own."""
    raise TypeError(f"no picture for {type(position).__name__}")


@picture.register
def pyramid_picture(position: PyramidPosition) -> str:
    """One line per row, apex first, each row centred under the one above by half-square
    spaces; Double Pyramid's two pyramids side by side."""
    pyramids = position.table.pyramids
    lines = []
    for r in range(ROWS):
        rows = []
        for k in range(pyramids):
            rows.append("".join(CLEARED if position.is_removed(k * PYRAMID_SIZE + i) else LEFT
                                for i in row_indices(r)))
        indent = HALF * (ROWS - 1 - r)
        lines.append(indent + (indent * 2 + HALF * 2).join(rows))
    return "\n".join(lines)


@picture.register
def gaps_picture(position: GapsPosition) -> str:
    """Four lines of twelve: a square per column, green while the row's run 2, 3, 4… in its
    suit reaches it."""
    return "\n".join(CLEARED * n + LEFT * (GAPS_COLUMNS - 1 - n) for n in position.correct_prefix_lengths())
