"""Players read moves in words and card symbols, never the notation the server stores them in:
the visible text (``inner_text`` of the body, as a reader sees it) of end screens, replays and
analyses of a Pyramid and a Gaps game, and of the lobby and the Odds page (no command-line
options there)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import httpx
import pytest

from tests.web.play import LOSE_SEED, WIN_LINE, WIN_SEED

from .conftest import shot

# what notation looks like: Pyramid places (P22+P27), stock and waste (S+W), a bare draw (D)
# or redeal (N), card codes (QS, 2C), Gaps targets (QS>0.9, 0.12), command-line options
NOTATION = re.compile(
    r"\bP\d+\b"
    r"|\b[A2-9TJQK][CDHS]\b"
    r"|[>→]?\s?\b\d+\.\d+\b"
    r"|\b[SW]\+[SWP]|\+[SW]\b"
    r"|(?<![\w'’])[DNR](?![\w'’.♠♥♦♣])"
    r"|(?<![\w-])--[a-z]"
)
GAPS_SEED = 4


def _api_game(base: str, preset: str, seed: int, line, *, give_up: bool = False) -> tuple[dict, dict]:
    """A game played through the API along ``line``; ``give_up``: then given up (no moves left:
    its analysis is shown once it is over)."""
    with httpx.Client(base_url=base, timeout=30) as api:
        auth = {"Authorization": f"Bearer {api.post('/api/players').json()['token']}"}
        game = api.post("/api/games", json={"preset": preset, "seed": seed}, headers=auth).json()
        for text in line:
            response = api.post(f"/api/games/{game['id']}/moves", json={"move": text, "ply": game["cursor"]}, headers=auth)
            assert response.status_code == 200, response.text
            game = response.json()
        if give_up:
            response = api.post(f"/api/games/{game['id']}/give-up", json={"ply": game["cursor"]}, headers=auth)
            assert response.status_code == 200, response.text
            game = response.json()
        link = api.post("/api/players/me/device-link", headers=auth).json()["url"]
    return game, {"link": urlsplit(link).path}


def _gaps_loss(seed: int) -> list[str]:
    """A Gaps game played to its end: redeals first, then the first move that reaches a new
    position (a loss, as nobody plays so)."""
    from app.engine import PRESETS, GameRecord, deal_for_seed

    record = GameRecord.new("gaps", PRESETS["gaps"].rules, deal_for_seed("gaps", seed))
    seen, played = set(), []
    while record.position.status == "playing":
        legal = sorted(str(m) for m in record.position.legal_moves())
        for text in [m for m in legal if ">" not in m] + legal:
            after = record.play(text)
            if hash(after.position) not in seen:
                break
        else:
            pytest.fail("the test's Gaps line ran into a loop")
        seen.add(hash(after.position))
        played.append(text)
        record = after
    assert record.position.status == "lost"
    return played


def _pyramid_lost_at() -> list[str]:
    from .test_solver_features import _lose_by

    return _lose_by(list(WIN_LINE[:3]), WIN_SEED)


def _visible(page) -> str:
    # the cards' faces (their corner ranks: a Danish queen is a D) are cards, not moves; links
    # shown for sharing are addresses
    text = page.evaluate("""() => {
        const faces = [...document.querySelectorAll('.face')];
        faces.forEach(f => f.style.display = 'none');
        const text = document.body.innerText;
        faces.forEach(f => f.style.display = '');
        return text;
    }""")
    return re.sub(r"https?://\S+", "", text)


def _assert_words(page, where: str) -> None:
    found = NOTATION.findall(_visible(page))
    assert not found, f"notation on {where}: {found[:10]}"


def _browse_as(page, server, link: str) -> None:
    page.goto(server + link)
    with page.expect_navigation():
        page.click('[data-action="use-profile"]')


@pytest.mark.parametrize("case", ["pyramid-won", "pyramid-lost-at", "gaps-lost"])
def test_end_screens_replays_and_analyses_show_words(server, new_page, case):
    if case == "pyramid-won":
        game, info = _api_game(server, "pyramid", WIN_SEED, WIN_LINE)
        symbols = "+"
    elif case == "pyramid-lost-at":
        game, info = _api_game(server, "pyramid", WIN_SEED, _pyramid_lost_at(), give_up=True)
        symbols = "+"
    else:
        game, info = _api_game(server, "gaps", GAPS_SEED, _gaps_loss(GAPS_SEED), give_up=True)
        symbols = "→"
    assert game["status"] in ("won", "lost")
    for language in ("en", "da"):
        page = new_page(width=390, height=844, locale={"en": "en-GB", "da": "da-DK"}[language])
        _browse_as(page, server, info["link"])
        # the end screen, its analysis loaded (the solver's probes may take a moment)
        page.goto(f"{server}/games/{game['id']}")
        page.wait_for_selector('#analysis:not([data-analysis-kind="pending"])', timeout=60_000)
        _assert_words(page, f"{case} end screen ({language})")
        moves = page.locator("#analysis .analysis-moves li")
        if moves.count():
            if not page.locator("#analysis .analysis-moves[open]").count():
                page.click("#analysis .analysis-moves summary")
            first = moves.first.inner_text()
            assert re.search("[♠♥♦♣]|" + {"en": "Draw|Redeal", "da": "Vend|Læg om|Bland om"}[language], first), first
        shot(page, f"words-{case}-end-{language}")
        # the replay: at the end (a ply beyond it is the last), a few moves in, and its whole move list opened
        for ply in ("?ply=1000", "?ply=1", "?ply=5"):
            page.goto(f"{server}/g/{game['id']}/replay{ply}")
            if not page.locator("details.move-list[open]").count():
                page.click("details.move-list summary")
            _assert_words(page, f"{case} replay{ply} ({language})")
            assert symbols in page.inner_text("details.move-list")
        shot(page, f"words-{case}-replay-{language}")
        # the analysis on its own (the no-JavaScript address)
        page.goto(f"{server}/games/{game['id']}/analysis")
        _assert_words(page, f"{case} analysis ({language})")


def test_lobby_and_odds_show_no_command_line_options(server, new_page):
    page = new_page()
    for path in ("/", "/odds"):
        page.goto(server + path)
        text = _visible(page)
        assert not re.search(r"(?<![\w-])--[a-z]", text), (path, re.findall(r"--[a-z-]+", text))
        assert not re.search(r"\btretten (survey|solve|serve)\b", text), path


def test_the_notation_pattern_catches_notation():
    """The pattern above is the test: it must find what the pages used to show."""
    for shown in ("P22+P27", "S+W", "Move 5 was P22+S.", "QS>0.9", "2C>1.12", "D", "pyramid --passes 1"):
        assert NOTATION.search(shown), shown
    for words in ("7♥ + 6♠", "K♣", "Draw", "5♦ → row 2, column 4", "Won in 28 moves.", "52 cards", "Dansk"):
        assert not NOTATION.search(words), words
