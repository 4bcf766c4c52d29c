"""Sharing a deal: link-preview tags on every page kind that names a deal, a preview bot's visit
that stores nothing, the end screen's result to share, and the deal page as a challenge."""

from __future__ import annotations

import html
import io
import re
from datetime import date
from urllib.parse import quote, urlsplit

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy import func, select

from app.db.models import DailyDeal, Game, Player
from app.engine import PRESETS, deal_for_seed, format_deal
from app.services.assist import searches
from app.services.play import daily
from app.web.main import create_app
from app.web.views.preset_words import preset_summary

from ..helpers import csrf_of, first_move
from ..play import WIN_LINE, WIN_SEED, api_player, browse_as, lose, new_game, play_line, set_columns, win

pytestmark = pytest.mark.sqlite_only  # what is drawn, not how it is stored

PUBLIC = "https://tretten.example"
BOT = {"User-Agent": "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"}


@pytest.fixture(scope="module")
def public_app(settings):
    """The app behind a proxy: PUBLIC_URL names the public address, not the request's host."""
    return create_app(settings.model_copy(update={"public_url": PUBLIC}))


@pytest.fixture
def public_client(public_app):
    with TestClient(public_app, base_url="http://testserver", follow_redirects=False) as c:
        yield c


def tags(page: str) -> dict[str, str]:
    """{property or name: content} of the page's meta tags."""
    found = {}
    for attrs in re.findall(r"<meta ([^>]*)>", page):
        key = re.search(r'(?:property|name)="([^"]+)"', attrs)
        content = re.search(r'content="([^"]*)"', attrs)
        if key and content:
            found[key.group(1)] = html.unescape(content.group(1))
    return found


def _daily_seed(app, preset: str) -> int:
    """Today's daily deal of the preset, stored here if nobody asked for it yet (no solver run)."""
    with app.state.sessionmaker() as session:
        row = daily.cached_daily(session, preset)
        if row is None:
            row = DailyDeal(day=daily.utc_today(), preset=preset, seed=424242, candidate=0, proven=False)
            session.add(row)
            session.commit()
        return row.seed


def _counts(app) -> tuple[int, int]:
    with app.state.sessionmaker() as session:
        return session.scalar(select(func.count()).select_from(Player)), session.scalar(select(func.count()).select_from(Game))


# ---------------------------------------------------------------- link previews

def _page_kinds(client, app) -> dict[str, tuple[str, str]]:
    """{kind: (url, expected og:title)}: a game of the client's own, played by the API."""
    auth = api_player(client)
    won = win(client, auth, preset="pyramid-3")
    daily_seed = _daily_seed(app, "giza")
    deal = format_deal(deal_for_seed(PRESETS["giza"].game, 9))
    return {
        "share link": (f"/play/pyramid/123", "Pyramid · Seed 123 · Tretten"),
        "imported deal": (f"/play/giza?deal={quote(deal)}", "Giza · Tretten"),
        "game page": (f"/games/{won['id']}", f"Pyramid, 3 passes · Seed {WIN_SEED} · Tretten"),
        "deal page": ("/deal/gaps/5", "Gaps (Montana) · Seed 5 · Tretten"),
        "daily deal": ("/daily/giza", f"Giza · Daily deal {daily.utc_today().day} "),
        "replay": (f"/g/{won['id']}/replay", f"Pyramid, 3 passes · Seed {WIN_SEED} · Tretten"),
        "daily seed": (f"/play/giza/{daily_seed}", "Giza · Daily deal "),
    }


def test_every_page_kind_carries_the_tags_with_absolute_public_urls(public_client, public_app):
    for kind, (url, title) in _page_kinds(public_client, public_app).items():
        response = public_client.get(url, follow_redirects=True)
        assert response.status_code == 200, (kind, response.text[:300])
        found = tags(response.text)
        assert found["og:title"].startswith(title), (kind, found["og:title"])
        assert found["og:type"] == "website" and found["og:site_name"] == "Tretten"
        assert found["twitter:card"] == "summary_large_image"
        assert found["og:image:width"] == "1200" and found["og:image:height"] == "630"
        assert found["og:image:type"] == "image/png" and found["og:image:alt"]
        assert found["og:url"].startswith(PUBLIC + "/"), (kind, found["og:url"])
        assert found["og:image"].startswith(PUBLIC + "/preview/en/"), (kind, found["og:image"])
        assert found["og:description"] == found["description"]
        assert "Tretten" not in found["og:description"] or kind == "imported deal"
        image = public_client.get(urlsplit(found["og:image"]).path + "?" + urlsplit(found["og:image"]).query)
        assert Image.open(io.BytesIO(image.content)).size == (1200, 630), kind
        assert image.headers["cache-control"].endswith("immutable")


def test_the_description_says_the_rules_and_how_many_won_the_deal(client, other_client):
    seed = 9_100_250  # only this test plays it
    rules = preset_summary("pyramid", "en")
    assert tags(client.get(f"/play/pyramid/{seed}").text)["og:description"] == \
        f"{rules} Nobody has played this deal yet. Be the first."
    winner, loser = api_player(client), api_player(other_client)
    play_line(client, winner, new_game(client, winner, "pyramid", seed), ["D"])
    play_line(other_client, loser, new_game(other_client, loser, "pyramid", seed), ["D", "D"])
    assert tags(client.get(f"/deal/pyramid/{seed}").text)["og:description"] == \
        f"{rules} Played by 2 players, won by 0."
    win(client, api_player(client))
    shared = tags(client.get(f"/deal/pyramid/{WIN_SEED}").text)["og:description"]
    assert re.fullmatch(re.escape(rules) + r" Played by \d+ players?, won by [1-9]\d*\.", shared)


def test_the_tags_speak_the_pages_language(client):
    found = tags(client.get("/deal/gaps-danish/7", headers={"Accept-Language": "da"}).text)
    assert found["og:title"] == "13-kabalen, dansk husregel · Spilnummer 7 · Tretten"
    assert found["og:locale"] == "da_DK"
    assert found["og:image"].startswith("http://testserver/preview/da/gaps-danish/7.png?v=")
    assert found["og:image:alt"] == "13-kabalen, dansk husregel: kortene, som de lægges ud"
    assert "Ingen har spillet denne kabale endnu" in found["og:description"]
    sv = tags(client.get("/play/double-pyramid/7", headers={"Accept-Language": "sv"}).text)
    assert sv["og:title"] == "Dubbelpyramid · Spelnummer 7 · Tretten"


def test_without_a_public_url_the_requests_own_address_is_used(client):
    found = tags(client.get("/play/pyramid/5").text)
    assert found["og:url"] == "http://testserver/play/pyramid/5"
    assert found["og:image"].startswith("http://testserver/preview/en/pyramid/5.png?v=")


def test_the_image_changes_with_the_deal(client):
    first = tags(client.get("/play/pyramid/1").text)["og:image"]
    second = tags(client.get("/play/pyramid/2").text)["og:image"]
    assert first != second
    a, b = (client.get(url.removeprefix("http://testserver")).content for url in (first, second))
    assert a[:8] == b"\x89PNG\r\n\x1a\n" and a != b


def test_pages_without_a_deal_have_no_tags(client):
    for url in ("/", "/stats", "/rules/pyramid", "/odds", "/profile"):
        assert "og:image" not in tags(client.get(url).text), url


def test_a_preview_bots_visit_stores_no_player_and_no_game(app, client):
    auth = api_player(client)
    won = win(client, auth, preset="relaxed")
    _daily_seed(app, "giza")
    with TestClient(app, base_url="http://testserver", follow_redirects=False, headers=BOT) as bot:
        before = _counts(app)
        pages = [f"/play/pyramid/{WIN_SEED}", f"/play/gaps/77", f"/deal/relaxed/{WIN_SEED}?from={won['id']}",
                 "/daily/giza", f"/games/{won['id']}", f"/g/{won['id']}/replay"]
        for url in pages:
            bot.cookies.clear()  # a bot keeps no cookie: each visit is a first visit
            response = bot.get(url, follow_redirects=True)
            assert response.status_code == 200, url
            image = bot.get(tags(response.text)["og:image"].removeprefix("http://testserver"))
            assert image.status_code == 200 and "set-cookie" not in image.headers
        assert _counts(app) == before


# ---------------------------------------------------------------- the result to share

def _played_page(client, app, result: str, language: str):
    """A finished game's page as its player sees it: (game id, moves, html)."""
    auth = api_player(client)
    game = win(client, auth) if result == "won" else lose(client, auth)
    if result == "won":
        set_columns(app, game["id"], seconds=161, undo_count=2, hint_count=0)
    else:
        set_columns(app, game["id"], seconds=725, undo_count=0, hint_count=3)
    browse_as(client, client, auth)
    page = client.get(f"/games/{game['id']}", headers={"Accept-Language": language})
    assert page.status_code == 200
    return game["id"], game["cursor"], page.text


def _share_text(page: str) -> str:
    match = re.search(r"<pre class=\"share-text\"[^>]*>(.*?)</pre>", page, re.S)
    assert match, "no share text on the page"
    return html.unescape(match.group(1))


@pytest.mark.parametrize(("language", "title", "result"), [
    ("en", "Tretten · Pyramid · Seed 250", "Won in {n} moves, 2:41 · 2 undos, no hints"),
    ("da", "Tretten · Pyramide · Spilnummer 250", "Vundet på {n} træk, 2:41 · fortrudt 2 gange, uden tip"),
    ("sv", "Tretten · Pyramid · Spelnummer 250", "Vunnet på {n} drag, 2:41 · 2 ångringar, utan ledtrådar"),
])
def test_a_won_games_end_screen_has_its_result_to_share(client, app, language, title, result):
    game_id, moves, page = _played_page(client, app, "won", language)
    lines = _share_text(page).split("\n")
    assert lines[0] == title
    assert lines[1] == result.format(n=moves) and moves == len(WIN_LINE)
    assert lines[2:-1] == ["\u2002" * (6 - r) + "🟩" * (r + 1) for r in range(7)]  # every card cleared
    assert lines[-1] == f"http://testserver/deal/pyramid/{WIN_SEED}?from={game_id}"
    assert page.index('data-banner="won"') < page.index("data-share-box") < page.index('class="controls"')
    assert re.search(r'<a class="button" href="http://testserver/deal/pyramid/250\?from=[\w-]+" role="button" '
                     r'data-share-result [^>]*hidden>', page)


@pytest.mark.parametrize(("language", "result"), [
    ("en", "No moves left after {n} moves, 12:05 · no undos, 3 hints"),
    ("da", "Gået i stå efter {n} træk, 12:05 · uden at fortryde, 3 tip"),
    ("sv", "Fastnade efter {n} drag, 12:05 · utan att ångra, 3 ledtrådar"),
])
def test_a_lost_games_end_screen_has_its_result_to_share(client, app, language, result):
    game_id, moves, page = _played_page(client, app, "lost", language)
    text = _share_text(page)
    lines = text.split("\n")
    assert lines[1] == result.format(n=moves)
    assert "⬜" in text and len(lines) == 10
    assert lines[-1] == f"http://testserver/deal/pyramid/1?from={game_id}"


@pytest.mark.parametrize(("language", "title"), [
    ("en", "Tretten · Pyramid · Daily deal 3 March 2031"),
    ("da", "Tretten · Pyramide · Dagens kabale 3. marts 2031"),
    ("sv", "Tretten · Pyramid · Dagens giv 3 mars 2031"),
])
def test_a_daily_deals_result_says_which_day_it_was(client, app, language, title):
    auth = api_player(client)
    game = win(client, auth)
    set_columns(app, game["id"], daily_on=date(2031, 3, 3))
    browse_as(client, client, auth)
    text = _share_text(client.get(f"/games/{game['id']}", headers={"Accept-Language": language}).text)
    assert text.split("\n")[0] == title


def test_the_share_uses_the_public_url(public_client, public_app):
    game_id, _, page = _played_page(public_client, public_app, "won", "en")
    assert _share_text(page).split("\n")[-1] == f"{PUBLIC}/deal/pyramid/{WIN_SEED}?from={game_id}"
    assert f'data-share="{PUBLIC}/deal/pyramid/{WIN_SEED}"' in page  # the share link after the game too


def test_only_a_finished_game_of_ones_own_has_a_result_to_share(client, other_client, app):
    game_id, _, page = _played_page(client, app, "won", "en")
    assert "data-share-box" in page
    watched = other_client.get(f"/games/{game_id}").text
    assert "data-share-box" not in watched and "You are watching this game." in watched
    auth = api_player(client)
    playing = play_line(client, auth, new_game(client, auth, "gaps", 4), ["N"])
    browse_as(client, client, auth)
    assert "data-share-box" not in client.get(f"/games/{playing['id']}").text


def test_a_game_counted_as_lost_shares_its_loss(client, app):
    auth = api_player(client)
    game = play_line(client, auth, new_game(client, auth, "pyramid", 5), ["D", "D"])
    set_columns(app, game["id"], abandoned=True)
    browse_as(client, client, auth)
    page = client.get(f"/games/{game['id']}").text
    assert "Lost after 2 moves (left unfinished)" in _share_text(page)
    # the share control is a link, not a button of the board's form
    assert re.search(r'<a [^>]*data-share-result', page) and 'data-action="undo" disabled' in page


def test_an_imported_deal_shares_its_own_link(client, app):
    deal = format_deal(deal_for_seed(PRESETS["pyramid"].game, WIN_SEED))
    auth = api_player(client)
    response = client.post("/api/games", json={"preset": "pyramid", "deal": deal}, headers=auth)
    game = play_line(client, auth, response.json(), WIN_LINE)
    assert game["status"] == "won"
    browse_as(client, client, auth)
    text = _share_text(client.get(f"/games/{game['id']}").text)
    assert text.split("\n")[0] == "Tretten · Pyramid"
    assert text.split("\n")[-1] == f"http://testserver/play/pyramid?deal={quote(deal)}"


# ---------------------------------------------------------------- the deal page as a challenge

def _named_win(client, app, name: str | None) -> str:
    """A win of WIN_SEED by a new player (named, or anonymous): its game id."""
    auth = api_player(client)
    game = win(client, auth)
    set_columns(app, game["id"], seconds=161, undo_count=2, hint_count=0)
    if name is not None:
        browse_as(client, client, auth)
        profile = client.get("/profile")
        client.post("/profile/name", data={"csrf_token": csrf_of(profile.text), "display_name": name})
    return game["id"]


def test_a_shared_result_leads_the_deal_page(client, other_client, app):
    game_id = _named_win(client, app, "Kim <3")
    page = other_client.get(f"/deal/pyramid/{WIN_SEED}?from={game_id}").text
    challenge = re.search(r'<section class="panel challenge"[^>]*data-challenge="won" data-from="([\w-]+)">(.*?)</section>',
                          page, re.S)
    assert challenge and challenge.group(1) == game_id
    words = re.sub(r"<[^>]+>", " ", challenge.group(2))
    assert "Kim &lt;3 played this deal" in words
    assert f"Won in {len(WIN_LINE)} moves, 2:41 · 2 undos, no hints" in words
    assert "Can you do better?" in words
    assert page.index("data-challenge=") < page.index('data-action="play-deal"') < page.index("results-title")
    assert 'data-verdict="hidden"' in page and "data-your-result" not in page  # nothing played yet
    assert tags(page)["og:url"] == f"http://testserver/deal/pyramid/{WIN_SEED}?from={game_id}"


def test_an_anonymous_loss_asks_whether_you_can_win_it(client, other_client, app):
    auth = api_player(client)
    game = lose(client, auth)
    page = other_client.get(f"/deal/pyramid/1?from={game['id']}", headers={"Accept-Language": "da"}).text
    assert 'data-challenge="lost"' in page
    assert "Nogen har spillet denne kabale" in page and "Kan du få den til at gå op?" in page
    assert f"Tabt efter {game['cursor']} træk" in page


def test_once_you_have_played_your_result_stands_beside_play_this_deal(client, other_client, app):
    game_id = _named_win(client, app, None)
    auth = api_player(other_client)
    mine = win(other_client, auth)
    set_columns(app, mine["id"], seconds=95, undo_count=0, hint_count=1)
    browse_as(other_client, other_client, auth)
    # the first look of a finished player leaves the verdict to the solver's spare time; it is
    # there for the next (else this test passed only after another had searched the deal)
    other_client.get(f"/deal/pyramid/{WIN_SEED}")
    searches.wait_for_spare_time()
    page = other_client.get(f"/deal/pyramid/{WIN_SEED}?from={game_id}").text
    assert "Someone played this deal" in page
    actions = re.search(r'<p class="deal-actions">(.*?)</p>', page, re.S).group(1)
    assert 'data-your-result="won"' in actions
    assert f"Won in {len(WIN_LINE)} moves, 1:35 · no undos, 1 hint" in re.sub(r"<[^>]+>", "", actions)
    assert 'data-verdict="winnable"' in page  # finished: the verdict is no spoiler any more
    # the page opened from one's own result is the plain page, with the result beside the button
    own = other_client.get(f"/deal/pyramid/{WIN_SEED}?from={mine['id']}").text
    assert "data-challenge" not in own and 'data-your-result="won"' in own


@pytest.mark.parametrize("origin", ["", "nope", "../../etc", "a" * 30, "%3Cscript%3E", "x%00y", "unfinished",
                                    "other-deal"])
def test_a_bad_or_foreign_origin_shows_the_plain_page(client, other_client, app, origin):
    auth = api_player(client)
    if origin == "unfinished":
        origin = play_line(client, auth, new_game(client, auth, "pyramid", WIN_SEED), ["D"])["id"]
    elif origin == "other-deal":
        origin = lose(client, auth)["id"]  # a game of seed 1
    response = other_client.get(f"/deal/pyramid/{WIN_SEED}?from={origin}")
    assert response.status_code == 200
    assert "data-challenge" not in response.text and 'data-action="play-deal"' in response.text
    assert tags(response.text)["og:url"] == f"http://testserver/deal/pyramid/{WIN_SEED}"


def test_a_stored_game_of_the_preset_by_its_other_name(client, other_client, app):
    game_id = _named_win(client, app, "Tut")
    page = other_client.get(f"/deal/tuts-tomb/{WIN_SEED}?from={game_id}").text
    assert "Tut played this deal" in page


def test_the_first_move_from_the_challenge_page_stores_the_game(client, other_client, app):
    game_id = _named_win(client, app, None)
    page = other_client.get(f"/deal/pyramid/{WIN_SEED}?from={game_id}").text
    play = re.search(r'href="(/play/pyramid/250)" data-action="play-deal"', page).group(1)
    before = _counts(app)
    played, _ = first_move(other_client, play, action="draw")
    assert _counts(app)[1] == before[1] + 1 and played != game_id
