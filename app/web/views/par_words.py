"""A deal's par and a win against it, in words: the one wording of the end screen, the daily
table, the history and the shared result ("Par 41", "Best known 41 moves (at least 38)", "+3", "par").

"par" is said only of a proven par (docs/glossary.md): a win as short as a best known line is
"as short", and a best known line names the bound every win needs, so that a win shorter than it
reads as what it is."""

from __future__ import annotations

from gettext import NullTranslations

from app.i18n import current_language, translations_for

MINUS = "\u2212"   # − : under par (a typographic minus, not a hyphen)


def par_name(moves: int, proven: bool, bound: int | None = 0, translations: NullTranslations | None = None) -> str:
    """"Par 41" (proven: golf's word needs no unit), else "Best known 41 moves (at least 38)", or
    "Best known 41 moves" with no bound."""
    words = translations or translations_for(current_language())
    if proven:
        return words.gettext("Par %(moves)d") % {"moves": moves}
    if bound:
        return words.ngettext("Best known %(num)d move (at least %(bound)d)",
                              "Best known %(num)d moves (at least %(bound)d)", moves) % {"num": moves, "bound": bound}
    return words.ngettext("Best known %(num)d move", "Best known %(num)d moves", moves) % {"num": moves}


def over_par(over: int, proven: bool = True, translations: NullTranslations | None = None) -> str:
    """+3, par (at a proven par), as short (as a best known line), −2 (under a best known line)."""
    if over == 0:
        words = translations or translations_for(current_language())
        if proven:
            return words.pgettext("golf: a result equal to par", "par")
        return words.pgettext("a win as short as the best known line", "as short")
    return f"+{over}" if over > 0 else f"{MINUS}{-over}"
