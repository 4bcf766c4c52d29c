"""Every page kind in Danish and Swedish: no visible text left as the English page has it, and a
language switch on every page.

One player per language plays the same deals (a win, a loss, a game of every preset, the daily
deal, a hint, a refused tap…) and every page kind is fetched in that language. A text of the
Danish or Swedish page (an element's own text, or an aria-label, title, placeholder or alt) that
the English page shows too is a text nobody translated, or one translated before the page knew
its language. The failure names the page, the element and the text.

Exempt, because they are the same in every language by nature (ALLOWED and `_exempt`):
- text without letters: numbers, seeds, card symbols, times, "3/48";
- text in an element marked as another language (`lang="en"`): the language switch's "English",
  the English titles of the sources the Odds page quotes;
- computer text: <code>, <kbd>, <pre>, <samp>, and move notation (the replay's move list);
- the names in ALLOWED.

The pages do not depend on the database, so this runs on SQLite only.
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from app.db.migrate import upgrade_to_head
from app.engine import PRESETS
from app.settings import Settings
from app.web.main import create_app

from .helpers import HX, act, csrf_of, start_seeded
from .play import WIN_SEED, api_player, browse_as, lose, win

LANGUAGES = ("da", "sv")

# Names that a Danish or Swedish page writes exactly as the English page does:
ALLOWED = {
    "Tretten",         # the app's name
    "Giza",            # a place name, the game's name in every language
    "Gaps (Montana)",  # the Swedish name of the game is the international one (Danish: 13-kabalen)
    "Pyramid",         # the Swedish word (and game name) is spelt as the English one
    "K",               # the king's index: K in the Danish, Swedish and English decks (docs/glossary.md)
    "Par", "par",      # golf's word for a deal's shortest win, the same in Danish and Swedish (issue 28)
}
_ALLOWED_PATTERN = re.compile("|".join(sorted((re.escape(name) for name in ALLOWED), key=len, reverse=True)))
# a move or card in the notation (docs/spec/notation.md): P22+P27, S+W, D, QS>0.9, 9D
_NOTATION = re.compile(r"(?:[PQG]\d{1,2}|[SWDRN]|[AKQJT2-9][CDHS](?:>\d\.\d{1,2})?)(?:\+(?:[PQG]\d{1,2}|[SW]))?")
_COMPUTER_TEXT = {"code", "kbd", "pre", "samp"}
_SPOKEN_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Texts(HTMLParser):
    """(where, text) for every visible text and spoken attribute of a page or fragment."""

    def __init__(self, page_language: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_language = page_language
        self.stack: list[tuple[str, str, bool]] = []  # (tag, label, exempt)
        self.found: list[tuple[str, str]] = []

    def _label(self, tag: str, attrs: dict) -> str:
        label = tag
        if attrs.get("id"):
            label += "#" + attrs["id"]
        if attrs.get("class"):
            label += "." + ".".join(attrs["class"].split()[:2])
        data = next((f"[{k}={v}]" for k, v in attrs.items() if k.startswith("data-") and v and len(v) < 30), "")
        return label + data

    def handle_starttag(self, tag, attrs_list):
        attrs = {k: (v or "") for k, v in attrs_list}
        hidden = "hidden" in attrs or tag in ("script", "style", "template")
        other_language = bool(attrs.get("lang")) and attrs["lang"] != self.page_language
        inherited = bool(self.stack) and self.stack[-1][2]
        exempt = inherited or hidden or other_language or tag in _COMPUTER_TEXT
        label = self._label(tag, attrs)
        if not exempt:
            for name in _SPOKEN_ATTRIBUTES:
                if attrs.get(name):
                    self._add(f"{self._where(label)} @{name}", attrs[name])
        if tag not in _VOID:
            self.stack.append((tag, label, exempt))

    def handle_startendtag(self, tag, attrs_list):
        self.handle_starttag(tag, attrs_list)
        if tag not in _VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if self.stack and self.stack[-1][2]:
            return
        self._add(self._where(), data)

    def _where(self, own: str | None = None) -> str:
        labels = [label for _, label, _ in self.stack[-3:]]
        return " > ".join([*labels, own] if own else labels)

    def _add(self, where: str, text: str) -> None:
        text = " ".join(text.split())
        if text and not _exempt(text):
            self.found.append((where, text))


def _exempt(text: str) -> bool:
    rest = _ALLOWED_PATTERN.sub(" ", text)
    if all(_NOTATION.fullmatch(token) for token in rest.split()) and rest.split():
        return True
    return not any(ch.isalpha() for ch in rest)


def visible_texts(html: str, language: str) -> list[tuple[str, str]]:
    parser = _Texts(language)
    parser.feed(html)
    parser.close()
    return parser.found


def _language_of(html: str) -> str | None:
    match = re.search(r'<html lang="(\w+)"', html)
    return match.group(1) if match else None


# ---------------------------------------------------------------- the pages

PAGE_KINDS = [
    "lobby", *(f"game-{slug}" for slug in PRESETS), "game-won", "game-lost", "analysis-won", "analysis-lost",
    "refused-tap", "refused-unknown-place", "refused-illegal", "hint", "confirm-redeal", "stats", "odds", "profile", "device-link",
    *(f"rules-{game}" for game in ("pyramid", "giza", "double-pyramid", "gaps")),
    "daily", "deal", "deal-challenge", "replay-start", "replay-move", "replay-won", "replay-lost",
    "error-404", "error-bad-seed", "error-no-game", "error-unknown-preset", "error-bad-deal", "error-csrf",
    "error-deal-twice", "error-deal-short", "error-deal-long",
]
FRAGMENTS = {"analysis-won", "analysis-lost", "refused-tap", "refused-unknown-place", "refused-illegal", "hint",
             "confirm-redeal"}


@pytest.fixture(scope="module")
def language_app(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("languages")
    settings = Settings(data_dir=data_dir, database_url=f"sqlite:///{data_dir / 'test.sqlite3'}",
                        secret_key="test-secret-of-at-least-32-characters", games_per_minute=1000,
                        new_players_per_address=0, new_players_total=0, new_games_per_address=0, new_games_total=0)
    upgrade_to_head(settings)
    return create_app(settings)


def _pages_in(app, language: str) -> dict[str, tuple[int, str]]:
    """Every page kind as a player whose browser asks for `language` sees it: (status, html)."""
    pages: dict[str, tuple[int, str]] = {}
    headers = {"Accept-Language": language}
    with TestClient(app, base_url="http://testserver", follow_redirects=False, headers=headers) as client, \
            TestClient(app, base_url="http://testserver", follow_redirects=False, headers=headers) as other:
        auth = api_player(client)
        browse_as(client, client, auth)  # the browser plays as the API player
        won, lost = win(client, auth), lose(client, auth)

        def get(kind: str, url: str, *, on=client, **kwargs) -> str:
            response = on.get(url, follow_redirects=True, **kwargs)
            pages[kind] = (response.status_code, response.text)
            return response.text

        for slug in PRESETS:
            get(f"game-{slug}", f"/play/{slug}/11")
        get("game-won", f"/games/{won['id']}")
        get("game-lost", f"/games/{lost['id']}")
        get("analysis-won", f"/games/{won['id']}/analysis", headers=HX)
        get("analysis-lost", f"/games/{lost['id']}/analysis", headers=HX)

        game_id, html = start_seeded(client, "pyramid", 11)
        refused = act(client, game_id, html, target="P0")  # covered: cannot be played
        pages["refused-tap"] = (refused.status_code, refused.text)
        unknown = act(client, game_id, html, target="P99")  # a place the board does not have (a forged form)
        pages["refused-unknown-place"] = (unknown.status_code, unknown.text)
        illegal = act(client, game_id, html, action="redeal")  # Pyramid has no redeal
        pages["refused-illegal"] = (illegal.status_code, illegal.text)
        hint = client.post(f"/games/{game_id}/hint", data={"csrf_token": csrf_of(html)}, headers=HX)
        pages["hint"] = (hint.status_code, hint.text)
        gaps_id, gaps_html = start_seeded(client, "gaps", 11)
        redeal = act(client, gaps_id, gaps_html, action="redeal")  # moves remain: asks first
        pages["confirm-redeal"] = (redeal.status_code, redeal.text)

        get("lobby", "/")
        get("stats", "/stats")
        get("odds", "/odds")
        profile = get("profile", "/profile")
        client.post("/profile/device-link", data={"csrf_token": csrf_of(profile)})
        link = re.search(r'value="http://testserver(/link/[^"]+)"', get("profile", "/profile")).group(1)
        get("device-link", link, on=other)
        for game in ("pyramid", "giza", "double-pyramid", "gaps"):
            get(f"rules-{game}", f"/rules/{game}")
        get("daily", "/daily/pyramid")
        get("deal", f"/deal/pyramid/{WIN_SEED}")
        challenge = get("deal-challenge", f"/deal/pyramid/{WIN_SEED}?from={won['id']}", on=other)
        assert 'data-challenge="won"' in challenge  # another player's win leads the page
        get("replay-start", f"/g/{won['id']}/replay?ply=0")
        get("replay-move", f"/g/{won['id']}/replay?ply=3")
        get("replay-won", f"/g/{won['id']}/replay?ply=1000")  # clamped to the last move: the end
        get("replay-lost", f"/g/{lost['id']}/replay?ply=1000")

        get("error-404", "/no-such-page")
        get("error-bad-seed", "/play/pyramid/abc")
        get("error-no-game", "/games/does-not-exist")
        get("error-unknown-preset", "/play/nope/1")
        get("error-bad-deal", "/play/pyramid?deal=ZZ+4D")
        deck = [f"{rank}{suit}" for suit in "CDHS" for rank in "A23456789TJQK"]
        get("error-deal-twice", "/play/pyramid?deal=" + "+".join(["4D", *deck]))
        get("error-deal-short", "/play/pyramid?deal=" + "+".join(deck[:-3]))
        get("error-deal-long", "/play/pyramid?deal=" + "+".join([*deck, "4D"]))
        csrf = client.post("/prefs", data={"zen": "true"})
        pages["error-csrf"] = (csrf.status_code, csrf.text)
    return pages


@pytest.fixture(scope="module")
def pages(language_app) -> dict[str, dict[str, tuple[int, str]]]:
    return {language: _pages_in(language_app, language) for language in ("en", *LANGUAGES)}


@pytest.mark.parametrize("kind", PAGE_KINDS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_is_left_as_the_english_page_has_it(pages, language, kind):
    status, html = pages[language][kind]
    english_status, english = pages["en"][kind]
    assert status == english_status and status < 500, (status, english_status)
    if kind not in FRAGMENTS:
        assert _language_of(html) == language, f"{kind}: <html lang> is {_language_of(html)!r}"
    english_texts = {text for _, text in visible_texts(english, "en")}
    left = [f"  {where}: {text!r}" for where, text in visible_texts(html, language) if text in english_texts]
    assert not left, f"{kind} ({language}) shows the English page's text:\n" + "\n".join(dict.fromkeys(left))


@pytest.mark.parametrize("kind", [k for k in PAGE_KINDS if k not in FRAGMENTS])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_has_a_language_switch(pages, language, kind):
    _, html = pages[language][kind]
    switch = re.search(r'<form class="languages" method="post" action="/prefs/language">(.*?)</form>', html, re.S)
    assert switch, f"{kind} ({language}) has no language switch (templates/base.html shows it only with a CSRF token)"
    for code in ("da", "sv", "en"):
        assert f'name="language" value="{code}"' in switch.group(1), f"{kind}: the switch lacks {code}"


def test_the_text_finder_sees_what_a_player_sees():
    html = ('<html lang="da"><head><title>Regler · Tretten</title><script>var a = "Won";</script></head>'
            '<body><p class="x">Vundet <strong>Won</strong><span hidden>Hidden</span></p>'
            '<button aria-label="Undo">↶</button><kbd>u</kbd><code>P22+P27</code>'
            '<button lang="en">English</button><ol><li><a>P3+S</a></li></ol><span>Pyramid · 12</span>'
            '<br>Efter br<input placeholder="Seed"></body></html>')
    texts = [text for _, text in visible_texts(html, "da")]
    assert texts == ["Regler · Tretten", "Vundet", "Won", "Undo", "Efter br", "Seed"]


def test_a_text_used_in_two_senses_is_worded_for_each(pages):
    """pgettext: the replay's end banner is not the statistic, a link is not a page title."""
    sv = {kind: html for kind, (_, html) in pages["sv"].items()}
    assert '<p><strong>Vunnet.</strong>' in sv["replay-won"]                 # the game is won
    assert '<dt>Vunna</dt>' in sv["stats"]                                   # games won
    assert '<h1>Repris · Pyramid</h1>' in sv["replay-won"]                   # the page: a replay
    assert re.search(r'<a href="/g/[\w-]+/replay">Spela upp</a>', sv["stats"])  # the link: watch it
    assert '<legend>Poängräkning</legend>' in sv["lobby"] and '<dt>Poäng</dt>' in sv["game-pyramid"]
    assert '<option value="">Alla patienser</option>' in sv["stats"] and 'aria-label="Alla spel"' in sv["stats"]


@pytest.mark.parametrize(("kind", "words"), [
    ("error-bad-deal", {"en": "card 1, ZZ, is not a card code", "da": "kort nr. 1, ZZ, er ikke en kortkode",
                        "sv": "kort nr 1, ZZ, är ingen kortkod"}),
    ("error-deal-twice", {"en": "card 18, 4D, is there twice", "da": "kort nr. 18, 4D, er med to gange",
                          "sv": "kort nr 18, 4D, finns med två gånger"}),
    ("error-deal-short", {"en": "the deal has 49 cards, not 52; missing: JS QS KS",
                          "da": "kabalen har 49 kort, ikke 52; der mangler: JS QS KS",
                          "sv": "given har 49 kort, inte 52; det saknas: JS QS KS"}),
    ("error-deal-long", {"en": "card 53, 4D, is there twice", "da": "kort nr. 53, 4D, er med to gange",
                         "sv": "kort nr 53, 4D, finns med två gånger"}),
])
def test_an_imported_deal_s_fault_is_said_in_the_page_s_language(pages, kind, words):
    """The engine names the fault by a key and its parts; the page words it (no English reason)."""
    for language, expected in words.items():
        status, html = pages[language][kind]
        assert status == 422  # InputError (app/web/http/errors.py)
        reason = re.search(r'<span class="detail">\((.*?)\)</span>', html)
        assert reason, f"{kind} ({language}) gives no reason"
        assert re.sub(r"</?code>", "", reason.group(1)) == expected
        assert '<span class="detail" lang="en">' not in html


@pytest.mark.parametrize(("kind", "key", "words"), [
    ("refused-unknown-place", "bad_move", {"en": "That move could not be read.", "da": "Trækket kunne ikke læses.",
                                           "sv": "Draget kunde inte läsas."}),
    ("refused-illegal", "illegal_move", {"en": "That move is not allowed here.", "da": "Det træk er ikke tilladt her.",
                                         "sv": "Det draget är inte tillåtet här."}),
])
def test_a_refused_move_is_said_in_the_page_s_language_without_the_engine_s_english(pages, kind, key, words):
    """The engine's reason is English notation ("P99"), for the API and the command line; a page
    says the refusal in its own words and nothing after them."""
    for language, expected in words.items():
        status, html = pages[language][kind]
        assert status == 422
        toast = re.search(rf'<p class="toast message error" role="alert" data-error="{key}">(.*?)</p>', html, re.S)
        assert toast and toast.group(1) == expected, (language, toast and toast.group(1))
        assert 'lang="en"' not in html and "P99" not in html


def test_the_odds_page_gives_the_gaps_player_s_figure_in_every_language(pages):
    """Beside the solver's, the figure of a player who does not know the redeals, in words."""
    words = {"en": "for a strong player who does not know how the redeals fall",
             "da": "for en stærk spiller, der ikke ved, hvordan omlægningerne falder",
             "sv": "för en stark spelare som inte vet hur omläggningarna faller ut"}
    for language, text in words.items():
        html = pages[language]["odds"][1]
        for preset in ("gaps", "gaps-danish"):
            row = html.split(f'data-preset="{preset}"', 1)[1].split("</tr>", 1)[0]
            assert "data-player-rate" in row and text in row, (language, preset)
            assert re.search(r"<strong>\d+[.,]\d(\u00a0|&nbsp;)%</strong>", row), (language, preset)


def test_the_odds_page_says_what_a_player_may_expect_of_a_preset_in_its_language(pages):
    """Where no player's figure was measured, the preset's own words say what a player may expect."""
    expected = {"en": ("Fewer than the solver's figure", "At most about one deal in three"),
                "da": ("Færre end løserens tal", "Højst omkring én kabale ud af tre"),
                "sv": ("Färre än lösarens siffra", "Högst ungefär en giv av tre")}
    for language, (pyramid, giza) in expected.items():
        html = unescape(pages[language]["odds"][1])
        rows = {preset: html.split(f'data-preset="{preset}"', 1)[1].split("</tr>", 1)[0] for preset in ("pyramid", "giza")}
        estimate = {preset: row.split("data-estimate", 1)[1] for preset, row in rows.items()}
        assert pyramid in estimate["pyramid"] and giza in estimate["giza"], language
        assert pyramid not in estimate["giza"]
