"""The games' and presets' words come from the catalogs, each with a context naming its slug, in
every language; the engine knows them by slug only."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_python
from babel.messages.pofile import read_po

from app.engine import GAMES, PRESETS
from app.web.views import preset_words
from app.web.views.preset_words import game_name, preset_expectation, preset_name, preset_summary

ROOT = Path(__file__).resolve().parents[3]


def _messages() -> list[tuple[str, str]]:
    """(context, msgid) of every word the module asks the catalogs for, as Babel extracts them."""
    with open(preset_words.__file__, "rb") as source:
        found = list(extract_python(source, {"pgettext": ((1, "c"), 2)}, [], {}))
    return [(context, msgid) for _line, _function, (context, msgid), _comments in found]


def _catalog(language: str) -> dict[tuple[str | None, str], str]:
    with (ROOT / "app" / "locale" / language / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return {(m.context, m.id): m.string for m in read_po(f, locale=language) if m.id}


def test_every_game_and_preset_has_a_name_and_every_preset_a_summary_and_an_expectation():
    for language in ("da", "sv", "en"):
        words = preset_words.words(language)
        assert set(words.game_names) == set(GAMES)
        assert set(words.names) == set(words.summaries) == set(words.expectations) == set(PRESETS)
        assert all(words.game_names.values()) and all(words.names.values())


def test_each_word_has_a_context_naming_its_slugs():
    messages = _messages()
    # the expectations: four shared, Giza's own; each game's invitation (the lobby's, and a deal's
    # line before its first move), and a deal's own line where its preset's goal is not its game's
    assert len(messages) == 2 * len(GAMES) + 2 * len(PRESETS) + 5 + 1
    slugs = set(GAMES) | set(PRESETS)
    for context, _msgid in messages:
        kind, _, named = context.partition(": ")
        assert kind in ("game name", "game invitation", "preset name", "preset summary", "preset expectation",
                        "deal's first line"), context
        assert set(named.split(", ")) <= slugs, context


@pytest.mark.parametrize("language", ["da", "sv"])
def test_the_catalogs_translate_every_word(language):
    catalog = _catalog(language)
    untranslated = [message for message in _messages() if not catalog.get(message)]
    assert not untranslated


@pytest.mark.parametrize(("language", "pyramid_3", "gaps_game", "gaps", "double"), [
    ("da", "Pyramide, 3 gennemgange", "13-kabalen (Gaps)", "13-kabalen (Gaps)", "Dobbeltpyramide"),
    ("sv", "Pyramid, 3 varv", "Gaps (Montana)", "Gaps (Montana)", "Dubbelpyramid"),
    ("en", "Pyramid, 3 passes", "Gaps", "Gaps (Montana)", "Double Pyramid"),
])
def test_the_names_are_the_glossarys(language, pyramid_3, gaps_game, gaps, double):
    assert preset_name("pyramid-3", language) == pyramid_3
    assert (game_name("gaps", language), preset_name("gaps", language)) == (gaps_game, gaps)
    assert game_name("double-pyramid", language) == preset_name("double-pyramid", language) == double


def test_a_page_gets_the_words_of_its_own_language():
    from app import i18n

    i18n.set_language("sv")
    try:
        assert preset_summary("pyramid-classic") == "Ett varv. Alla 52 kort ska bort, även talongen."
        assert preset_name("gaps-danish") == "Gaps, dansk husregel"
        assert preset_expectation("giza").startswith("Högst ungefär en giv av tre")
    finally:
        i18n.set_language("en")
    assert preset_name("gaps-danish") == "Gaps, Danish house rule"
    assert preset_expectation("pyramid") == ("Fewer than the solver's figure: a player does not know the order "
                                             "of the stock. With one pass, fewer than 1 deal in 10.")
