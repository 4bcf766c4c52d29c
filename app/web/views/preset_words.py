"""The words of the games and presets: their names, their rules in one line, and what a player may
expect to win of them, as gettext messages.

The engine knows a game or a preset by its slug and rules only. Its words are here, each with a
context naming the slug (``preset name: pyramid-3``), so a translator reads them in the .po files
with the rest of the site, and the game Giza and the preset Giza, or Gaps the game and Gaps the
preset, stay two entries. A sentence that several presets' expectations share has one context that
names them all.

Pages ask in the language being drawn (``preset_name(slug)``); the share texts and link previews,
which are made for a reader's language, pass it (``preset_name(slug, "sv")``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from gettext import NullTranslations

from app import i18n
from app.engine import PRESETS


@dataclass(frozen=True)
class Words:
    """One language's words of every game and preset, by slug."""

    game_names: dict[str, str]
    invitations: dict[str, str]
    names: dict[str, str]
    summaries: dict[str, str]
    expectations: dict[str, str]
    how_to: dict[str, str]


@lru_cache(maxsize=8)
def _words(translations: NullTranslations) -> Words:
    # keyed by the catalog itself: a catalog compiled anew (i18n.ensure_compiled) is a new key
    t = translations
    stock_unknown = t.pgettext(
        "preset expectation: pyramid, pyramid-classic, pyramid-3, relaxed, double-pyramid",
        "Fewer than the solver's figure: a player does not know the order of the stock.")
    one_pass = t.pgettext("preset expectation: pyramid, pyramid-classic",
                          "With one pass, fewer than 1 deal in 10.")
    more_passes = t.pgettext("preset expectation: pyramid-3, relaxed", "Clearly more than one-pass Pyramid.")
    no_estimate = t.pgettext("preset expectation: double-pyramid, gaps, gaps-danish",
                             "No reliable common estimate is known.")
    invitations = {
        "pyramid": t.pgettext("game invitation: pyramid",
                              "Remove two cards that add up to 13, kings alone, until the pyramid is gone."),
        "giza": t.pgettext("game invitation: giza",
                           "Remove two cards that add up to 13, kings alone, until every card is gone."),
        "double-pyramid": t.pgettext("game invitation: double-pyramid",
                                     "Remove two cards that add up to 13, kings alone, until both pyramids "
                                     "are gone."),
        "gaps": t.pgettext("game invitation: gaps",
                           "Put each row in order from 2 to king, one suit to a row, by moving cards into "
                           "the gaps."),
    }
    # a preset whose goal is not its game's: Classic Pyramid is won only when the stock is gone too
    own_goal = {"pyramid-classic": t.pgettext("deal's first line: pyramid-classic",
                                              "Remove two cards that add up to 13, kings alone, until every "
                                              "card is gone, the stock too.")}
    return Words(
        game_names={
            "pyramid": t.pgettext("game name: pyramid", "Pyramid"),
            "giza": t.pgettext("game name: giza", "Giza"),
            "double-pyramid": t.pgettext("game name: double-pyramid", "Double Pyramid"),
            "gaps": t.pgettext("game name: gaps", "Gaps"),
        },
        invitations=invitations,
        names={
            "pyramid": t.pgettext("preset name: pyramid", "Pyramid"),
            "pyramid-classic": t.pgettext("preset name: pyramid-classic", "Classic Pyramid"),
            "pyramid-3": t.pgettext("preset name: pyramid-3", "Pyramid, 3 passes"),
            "relaxed": t.pgettext("preset name: relaxed", "Relaxed Pyramid"),
            "giza": t.pgettext("preset name: giza", "Giza"),
            "double-pyramid": t.pgettext("preset name: double-pyramid", "Double Pyramid"),
            "gaps": t.pgettext("preset name: gaps", "Gaps (Montana)"),
            "gaps-danish": t.pgettext("preset name: gaps-danish", "Gaps, Danish house rule"),
        },
        summaries={
            "pyramid": t.pgettext("preset summary: pyramid",
                                  "One pass through the stock. Won when the pyramid is cleared. "
                                  "Also known as Tut's Tomb."),
            "pyramid-classic": t.pgettext("preset summary: pyramid-classic",
                                          "One pass. All 52 cards must go, the stock too."),
            "pyramid-3": t.pgettext("preset summary: pyramid-3",
                                    "Three passes through the stock. Won when the pyramid is cleared."),
            "relaxed": t.pgettext("preset summary: relaxed",
                                  "Unlimited passes, and a card may pair with the card that covers it."),
            "giza": t.pgettext("preset summary: giza",
                               "No stock: 24 cards lie face up in eight reserves. All 52 cards must go."),
            "double-pyramid": t.pgettext("preset summary: double-pyramid",
                                         "Two decks, two pyramids, three passes. Clear both pyramids."),
            "gaps": t.pgettext("preset summary: gaps",
                               "International rules: the aces leave, any 2 may open a row. Three rounds."),
            "gaps-danish": t.pgettext("preset summary: gaps-danish",
                                      "The aces become row starters and fix each row's suit. Three rounds."),
        },
        expectations={
            "pyramid": f"{stock_unknown} {one_pass}",
            "pyramid-classic": f"{stock_unknown} {one_pass}",
            "pyramid-3": f"{stock_unknown} {more_passes}",
            "relaxed": f"{stock_unknown} {more_passes}",
            "giza": t.pgettext("preset expectation: giza",
                               "At most about one deal in three: Giza hides no card, so careful planning can "
                               "come close to the solver's figure."),
            "double-pyramid": f"{stock_unknown} {no_estimate}",
            "gaps": no_estimate,
            "gaps-danish": no_estimate,
        },
        how_to={slug: own_goal.get(slug, invitations[preset.game]) for slug, preset in PRESETS.items()},
    )


def words(language: str | None = None) -> Words:
    """Every game's and preset's words in ``language`` (the page's language if None)."""
    return _words(i18n.translations_for(language or i18n.current_language()))


def game_name(game: str, language: str | None = None) -> str:
    """The game's name: "Dobbeltpyramide", "13-kabalen (Gaps)"."""
    return words(language).game_names[game]


def game_invitation(game: str, language: str | None = None) -> str:
    """What a game asks, in one sentence: the lobby's invitation to the games it leads with."""
    return words(language).invitations[game]


def preset_how_to(slug: str, language: str | None = None) -> str:
    """What a deal of the preset asks, in one sentence: the line over its board before the first
    move. Its game's invitation, unless the preset's goal differs (Classic Pyramid)."""
    return words(language).how_to[slug]


def preset_name(slug: str, language: str | None = None) -> str:
    """The preset's name, which says its rule options too: "Pyramid, 3 varv"."""
    return words(language).names[slug]


def preset_summary(slug: str, language: str | None = None) -> str:
    """The preset's rules in a line or two (the lobby, the rules and deal pages, link previews)."""
    return words(language).summaries[slug]


def preset_expectation(slug: str, language: str | None = None) -> str:
    """What a player may expect to win of the preset where no player's figure was measured (the
    odds page)."""
    return words(language).expectations[slug]
