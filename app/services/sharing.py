"""The result to share from a finished game's end screen: a few lines of plain text.

    Tretten · Pyramid · Deal 123
    Won in 35 moves, 2:41 · 2 undos, no hints
    (the pyramid's rows as squares: 🟩 a card cleared, ⬜ a card left)
    https://…/deal/pyramid/123?from=GAMEID

Short enough for a chat message, in the player's language. The result is the one the
statistics count (app.services.results): a game left unfinished is lost even if it was
finished later. The picture is the final position: a Pyramid-family game draws its
pyramid(s) row by row from the apex, Gaps its four rows as the cards in their row's run.
"""

from __future__ import annotations

from datetime import date

from babel.dates import format_date

from app.db.models import Game
from app.engine import PRESETS, GapsPosition, Position, PyramidPosition
from app.engine.gaps import COLUMNS as GAPS_COLUMNS
from app.engine.pyramid import PYRAMID_SIZE, ROWS
from app.i18n import LANGUAGES, translations_for

from .errors import InputError

CLEARED = "\U0001F7E9"  # 🟩 large green square
LEFT = "\u2B1C"         # ⬜ white large square
HALF = "\u2002"         # en space: about half an emoji wide, and kept where plain spaces may not be
LOCALES = {"da": "da_DK", "sv": "sv_SE", "en": "en_GB"}


def share_text(game: Game, position: Position, language: str, url: str) -> str:
    """The text to share for a finished ``game`` whose final position is ``position``.

    ``url`` is the absolute link to the deal with the game as its origin (the caller knows the
    public base URL). ``InputError`` for a game still in play.
    """
    if language not in LANGUAGES:
        raise InputError(f"unknown language {language!r}", "unknown_language", language=language)
    if game.status == "playing" and not game.abandoned:
        raise InputError("only a finished game has a result to share", "not_finished")
    translations = translations_for(language)
    return "\n".join((
        _title(game, language, translations),
        _result(game, translations),
        picture(position),
        url,
    ))


def _title(game: Game, language: str, translations) -> str:
    _ = translations.gettext
    parts = ["Tretten", PRESETS[game.preset].name(language)]
    if game.daily_on is not None:
        parts.append(_("Daily deal %(day)s") % {"day": day_text(game.daily_on, language)})
    elif game.seed is not None:
        parts.append(_("Deal %(seed)s") % {"seed": game.seed})
    return " · ".join(parts)


def _result(game: Game, translations) -> str:
    _, ngettext = translations.gettext, translations.ngettext
    moves = game.cursor
    if game.abandoned:
        outcome = ngettext("Lost after %(num)d move (left unfinished)",
                           "Lost after %(num)d moves (left unfinished)", moves)
    elif game.status == "won":
        outcome = ngettext("Won in %(num)d move", "Won in %(num)d moves", moves)
    else:
        outcome = ngettext("Lost after %(num)d move", "Lost after %(num)d moves", moves)
    outcome %= {"num": moves}
    if game.seconds is not None:
        outcome += ", " + clock(game.seconds)
    undos = (ngettext("%(num)d undo", "%(num)d undos", game.undo_count) % {"num": game.undo_count}
             if game.undo_count else _("no undos"))
    hints = (ngettext("%(num)d hint", "%(num)d hints", game.hint_count) % {"num": game.hint_count}
             if game.hint_count else _("no hints"))
    assists = [undos, hints] + ([_("auto-finished")] if game.auto_finished else [])
    return outcome + " · " + ", ".join(assists)


def clock(seconds: int) -> str:
    """2:41, or 1:02:41 from an hour."""
    hours, rest = divmod(max(0, int(seconds)), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def day_text(day: date, language: str) -> str:
    """1 December 2026, 1. december 2026, 1 december 2026."""
    return format_date(day, format="long", locale=LOCALES[language])


# ---------------------------------------------------------------- the picture

def picture(position: Position) -> str:
    """The final position in squares, one line per row."""
    if isinstance(position, GapsPosition):
        return gaps_picture(position)
    if isinstance(position, PyramidPosition):
        return pyramid_picture(position)
    raise TypeError(f"no picture for {type(position).__name__}")


def pyramid_picture(position: PyramidPosition) -> str:
    """One line per row, apex first, each row centred under the one above by half-square
    spaces; Double Pyramid's two pyramids side by side."""
    pyramids = len(position.layout) // PYRAMID_SIZE
    lines = []
    for r in range(ROWS):
        rows = []
        for k in range(pyramids):
            first = k * PYRAMID_SIZE + r * (r + 1) // 2
            rows.append("".join(LEFT if not position.is_removed(i) else CLEARED
                                for i in range(first, first + r + 1)))
        indent = HALF * (ROWS - 1 - r)
        lines.append(indent + (indent * 2 + HALF * 2).join(rows))
    return "\n".join(lines)


def gaps_picture(position: GapsPosition) -> str:
    """Four lines of twelve: a square per column, green while the row's run 2, 3, 4… in its
    suit reaches it."""
    return "\n".join(CLEARED * n + LEFT * (GAPS_COLUMNS - 1 - n) for n in position.correct_prefix_lengths())
