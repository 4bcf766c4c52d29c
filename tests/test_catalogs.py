"""The Danish and Swedish catalogs and rules pages hold the natives' words (docs/glossary.md,
the second language review): the points a text search can pin."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "templates" / "rules"
NBSP = "\u00a0"


def _catalog(language: str) -> dict[tuple[str | None, str], str | tuple[str, ...]]:
    with (ROOT / "app" / "locale" / language / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=language)
    return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id): m.string for m in catalog if m.id}


CATALOGS = {language: _catalog(language) for language in ("da", "sv", "en")}


def _texts(language: str) -> list[str]:
    """Every translated text of a catalog, plural forms apart, and its rules pages."""
    texts: list[str] = []
    for string in CATALOGS[language].values():
        texts.extend(string if isinstance(string, tuple) else (string,))
    texts.extend(path.read_text() for path in sorted(RULES.glob(f"*.{language}.html")))
    return [t for t in texts if t]


def text(language: str, msgid: str, context: str | None = None) -> str:
    found = CATALOGS[language][(context, msgid)]
    return found[-1] if isinstance(found, tuple) else found


@pytest.mark.parametrize("language", ["da", "sv"])
def test_every_text_is_translated(language):
    empty = [key for key, string in CATALOGS[language].items()
             if not (all(string) if isinstance(string, tuple) else string)]
    assert not empty


def test_the_replacing_notice_speaks_of_the_same_kind_of_game_not_the_same_deal():
    msgid = "Your unfinished game of this variant counts as lost once you make your first move here."
    assert "af samme slags" in text("da", msgid) and "kabale" not in text("da", msgid)
    assert "av samma slag" in text("sv", msgid) and "patiens" not in text("sv", msgid)


def test_the_colour_theme_is_a_theme_not_the_suits():
    assert (text("da", "Theme"), text("da", "Light"), text("da", "Dark")) == ("Tema", "Lyst", "Mørkt")
    assert (text("sv", "Theme"), text("sv", "Light"), text("sv", "Dark")) == ("Tema", "Ljust", "Mörkt")
    assert (None, "Colours") not in CATALOGS["sv"]


@pytest.mark.parametrize(("language", "hard", "one_in_twenty"), [
    ("en", "calls the game hard", "about one win in twenty"),
    ("da", "kalder kabalen svær", "omkring én sejr ud af tyve"),
    ("sv", "kallar patiensen svår", "ungefär en vinst av tjugo"),
])
def test_the_gaps_rules_say_what_a_player_can_expect_apart_from_the_solver(language, hard, one_in_twenty):
    page = (RULES / f"gaps.{language}.html").read_text()
    odds = page.split("<h2>")[-1]
    assert hard in odds and one_in_twenty in odds
    assert not re.search(r"<p>(Often|Tit|Ofta)\.", odds)  # the old "it comes out often"
    assert re.search(r"\d\u00a0%; 95\u00a0%", odds)  # the measured player's figure and its interval


def test_the_odds_page_quotes_the_natives_estimate_for_gaps():
    msgid = ("The solver, which knows every redeal in advance, wins more. Practised players win far fewer: "
             "a Danish rules text says about one deal in twenty.")
    assert "ud af tyve" in text("da", msgid) and "av tjugo" in text("sv", msgid)


@pytest.mark.parametrize(("language", "without", "and_"), [("da", "uden", "og"), ("sv", "utan", "och")])
def test_a_list_after_without_ends_with_or(language, without, and_):
    # "uden fortryd, tip eller »Spil færdig«", not "… tip og »Spil færdig«"
    wrong = re.compile(rf"\b{without} [^.;:()]*?, [^.;:()]*? {and_} ")
    assert not [t for t in _texts(language) if wrong.search(t)]
    clean = "uden fortryd, tip, »Spil færdig« eller »Kan den stadig gå op?«" if language == "da" else \
        "utan ångringar, ledtrådar, ”Spela klart” eller ”Går den fortfarande att vinna?”"
    assert sum(clean in t for t in _texts(language)) >= 3  # the statistics, the Pyramid and Gaps rules



def test_every_swedish_list_of_a_clean_win_s_help_names_it_by_the_glossary_s_nouns():
    # the daily table said "utan ångra, ledtråd eller ”Spela klart”" (a verb, a singular)
    said = [m.group(0) for t in _texts("sv") for m in re.finditer(r"\butan [^.]*?”Spela klart”", t)]
    assert len(said) >= 4 and all("ledtrådar" in t and not re.search(r"\b(ångra|ledtråd)\b", t) for t in said), said

@pytest.mark.parametrize(("language", "words"), [
    ("da", ("makker", "frie kort", "ligger frit", "fra dets første træk", "de flest point", "Kabale nr.",
            "regelmotor", "hul forrest", "venstre kant", "bliver givet", "regnes af")),
    ("sv", ("genomgång", "Vändningar kvar", "Giv nr", "regelmotor", "därefter gick den inte",
            "Minst antal drag", "Försök med samma giv igen", "givsidorna", "brukar läggas i Danmark")),
])
def test_words_the_natives_do_not_use_are_gone(language, words):
    for word in words:
        assert not [t[:80] for t in _texts(language) if word in t], word


def test_the_natives_game_words_are_used():
    assert text("da", "No more moves: no pair or king is uncovered.") == \
        "Ikke flere træk: Der er intet afdækket par og ingen afdækket konge."
    assert text("da", "gap at the start of row {row}") == "hul yderst til venstre i række {row}"
    assert (text("sv", "Pass"), text("sv", "Turnovers left")) == ("Varv", "Omgivar kvar")
    assert text("da", "Seed %(seed)s") == "Spilnummer %(seed)s" and text("sv", "Seed %(seed)s") == "Spelnummer %(seed)s"
    assert (text("da", "Game"), text("sv", "Game")) == ("Kabale", "Patiens")


def test_swedish_won_agrees_with_what_was_won():
    # a deal (en giv) is vunnen, a game (ett spel) vunnet: the same English word, two contexts
    assert text("sv", "won", "a deal") == "vunnen" and text("sv", "lost", "a deal") == "förlorad"
    assert text("sv", "Won", "replay end banner") == "Vunnet"
    assert "vunnen av" in text("sv", "Played by %(num)d player, won by %(won)d.")
    assert text("sv", "Won by") == "Vunnen av"


@pytest.mark.parametrize("language", ["da", "sv", "en"])
def test_a_space_before_a_percent_sign_or_in_a_thousand_does_not_break(language):
    texts = _texts(language)
    assert not [t[:80] for t in texts if re.search(r"\d %", t) or " %%" in t]
    if language == "sv":
        assert not [t[:80] for t in texts if re.search(r"\b\d{1,3} \d{3}\b", t)]


@pytest.mark.parametrize(("language", "own_rule"), [
    ("en", "This is Tretten's own rule"), ("da", "Det er Trettens egen regel"), ("sv", "Det är Trettens egen regel"),
])
def test_the_rules_pages_say_the_face_up_stock_card_is_tretten_s_own_rule(language, own_rule):
    for game in ("pyramid", "double-pyramid"):
        assert own_rule in (RULES / f"{game}.{language}.html").read_text()


def test_the_swedish_pages_say_what_gaps_is():
    assert "Gaps (”luckor”) eller Montana" in (RULES / "gaps.sv.html").read_text()


# ---------------------------------------------------------------- the third review (language-3.md)

@pytest.mark.parametrize(("language", "words"), [
    ("da", ("tavle", "Tavle", "ikke ren", "Mindst 86", "Spillet færdigt:", "rækkefølge af træk",
            "kendte rækkefølge", "korteste rækkefølge", "vindende rækkefølge", "lige nu. Her", "Dage i træk tæller",
            "flest point af det", "ingen afsløringer før", "ingen tip", "og konger alene", "Par (golf)",
            "ikke længere efter det", "laver dit første træk", "laver det første træk", "Prøv samme kabale igen",
            "almindeligt skøn", "fortryde dig til", "hul dér", "antal sekunder", "er frit", "Det er en stærk spiller",
            "dækket, plus", "alle tabt til alle vundet", "Dette spil er af dagens kabale", "siger omkring én kabale")),
    ("sv", ("tavla", "Tavla", "inte ren", "Tog bort", "Vände ", "Klart:", "är vänd och är",
            "tidigare punkt", "följd av drag", "på varandra följande", "räknar de dagar", "från början?",
            "stegar", "Stega", "Pågår", "inga avslöjanden innan", "Med ångra, ledtråd", "mätta mot", "den här patiensen.",
            "i det här spelet", "inte en räkning", "siffra hittad.", "högsta poängen", "och kungar ensamma",
            "den här profilen här", "givar vunna", "Försök igen med samma giv", "Fortsätt med den här given",
            "Par (golf)", "allmän uppskattning", "Genom&shy;gångar", "som i Pyramid,", "än i Pyramid,",
            "spelare, som", "första kolumnen", "vänsterkanten", "ångra dig till", "fast den danska",
            "det är en stark spelare")),
])
def test_words_the_third_review_found_are_gone(language, words):
    for word in words:
        assert not [t[:80] for t in _texts(language) if word in t], word


@pytest.mark.parametrize(("language", "table", "tables", "alone"), [
    ("da", "Dagens rangliste", "Gårsdagens ranglister", "Rangliste"),
    ("sv", "Dagens topplista", "Gårdagens topplistor", "Topplista"),
])
def test_the_daily_table_is_the_natives_leaderboard(language, table, tables, alone):
    assert (text(language, "Daily table"), text(language, "Yesterday's tables"), text(language, "Table")) == \
        (table, tables, alone)
    assert table.lower() in text(language, "No. %(rank)d of %(count)d on the day's table")


@pytest.mark.parametrize(("language", "system", "item"), [
    ("da", "rækkebonus", "<li>Rækkebonus: 5 point"), ("sv", "radbonus", "<li>Radbonus: 5 poäng"),
    ("en", "row bonus", "<li>Row bonus: 5 points"),
])
def test_par_is_only_golf_s_par_and_the_scoring_system_is_the_row_bonus(language, system, item):
    assert (text(language, "row bonus") or "row bonus") == system
    assert (text(language, "Par") or "Par") == "Par"
    for game in ("pyramid", "gaps"):
        page = (RULES / f"{game}.{language}.html").read_text()
        assert item in page and "<li>Par:" not in page and "<li>Pairs:" not in page


def test_the_danish_odds_page_says_about_86_percent_as_the_english_does():
    msgid = next(m for (_, m) in CATALOGS["da"] if m.startswith("The Gaps player's figure"))
    assert "about 86\u00a0%%" in msgid and "Omkring 86\u00a0%%" in text("da", msgid)


def test_a_win_with_help_is_said_so_on_the_table_and_an_open_question_is_not_known():
    assert (text("da", "not clean"), text("sv", "not clean")) == ("med hjælp", "med hjälp")
    assert (text("da", "Unknown"), text("sv", "Unknown")) == ("Ved ikke", "Vet ej")  # beside Ja and Nej
    assert (text("sv", "Back"), text("sv", "Forward")) == ("Bakåt", "Framåt")  # the replay's steps


def test_the_swedish_move_list_says_what_happened_to_which_card():
    # the template begins the sentence with a capital: "Ruter kung togs bort.", "Spader 7 lades på
    # kasthögen; hjärter 8 vändes upp." (the stock's top card lies face up: a draw puts it onto the
    # waste and turns up the one under it)
    assert text("sv", "{cards} removed.") == "{cards} togs bort."
    assert text("sv", "{card} onto the waste; {next} turned up.") == "{card} lades på kasthögen; {next} vändes upp."


@pytest.mark.parametrize(("language", "msgid"), [
    ("da", "Try this deal again"), ("da", "Make a new link"),
    *(("sv", msgid) for msgid in ("Try this deal again", "Continue this deal", "Back", "Forward", "Make a new link")),
])
def test_the_buttons_too_long_for_a_phone_are_short(language, msgid):
    assert len(text(language, msgid)) <= 16, text(language, msgid)


def test_the_danish_gaps_page_says_what_its_13_is():
    page = (RULES / "gaps.da.html").read_text()
    assert "13-kabalen deler den med Pyramide" in page and "13 pladser" in page
    assert text("da", "Pyramid and Gaps") == "Pyramide og 13-kabalen (Gaps)"


@pytest.mark.parametrize("language", ["da", "sv", "en"])
def test_no_obsolete_entries_are_left(language):
    po = (ROOT / "app" / "locale" / language / "LC_MESSAGES" / "messages.po").read_text()
    assert "\n#~ " not in po
