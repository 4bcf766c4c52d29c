"""Pages, fragments, cookies, headers and languages."""

from __future__ import annotations

import re

import pytest

from app.engine import PRESETS, deal_for_seed, format_deal

from ..helpers import first_move, HX, act, board_state, start_seeded

pytestmark = pytest.mark.sqlite_only  # what is drawn, not how it is stored


def test_lobby_lists_every_preset_and_sets_a_safe_player_cookie(client):
    response = client.get("/")
    assert response.status_code == 200
    for slug in PRESETS:
        assert f'data-preset="{slug}"' in response.text
    cookie = response.headers["set-cookie"]
    assert "tretten_player=" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_security_headers_forbid_inline_script_and_framing(client):
    headers = client.get("/").headers
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"


def test_every_preset_has_a_playable_page(client):
    for slug in PRESETS:
        game_id, html = start_seeded(client, slug, 11)
        state = board_state(html)
        assert state == {"status": "playing", "ply": 0, "version": state["version"], "id": game_id, "selected": ""}
        assert ("data-loc=" in html) or ("data-pos=" in html)


def test_the_keyboard_help_offers_a_draw_only_where_there_is_a_stock_and_a_redeal_in_gaps(client):
    for preset, d_key in (("pyramid", "draw"), ("double-pyramid", "draw"), ("giza", None), ("gaps", "redeal"),
                          ("gaps-danish", "redeal")):
        page = client.get(f"/play/{preset}/3").text
        assert "Keys: " in page and ("d draw" in page) is (d_key == "draw") and ("d redeal" in page) is (d_key == "redeal")
        # the button the key presses says so to a screen reader
        assert (f'data-action="{d_key}"' in page and 'aria-keyshortcuts="d"' in page) if d_key else \
            'aria-keyshortcuts="d"' not in page, preset


def test_cards_others_lie_on_are_no_tab_stops(client):
    """A keyboard's Tab goes from free card to free card, then to the stock; the arrow keys still
    reach a card others lie on (static/js/app.js). Half covered, by one card below, it is still
    no Tab stop."""
    game_id, page = start_seeded(client, "pyramid", 1)
    cards = re.findall(r'<button type="submit" name="target" value="(\w+)" class="card[^"]*"[^>]*>', page)
    skipped = sorted(re.findall(r'<button type="submit" name="target" value="(\w+)" class="card[^"]*"[^>]*tabindex="-1"', page))
    assert len(skipped) == 21  # all but the bottom row of a full pyramid
    assert skipped == sorted(f"P{k}" for k in range(21)) and "S" in cards
    # the king at P21 goes: the card above it, P15, lies under P22 alone, and is still skipped
    after = act(client, game_id, page, target="P21").text
    assert board_state(after)["ply"] == 1
    assert re.search(r'value="P15" class="card[^"]*"[^>]*tabindex="-1"', after)
    assert not re.search(r'value="P15" class="card[^"]* covered', after)  # drawn whole


def test_same_url_gives_page_or_board_fragment(client):
    game_id, _ = start_seeded(client, "pyramid", 5)
    page = client.get(f"/games/{game_id}")
    fragment = client.get(f"/games/{game_id}", headers=HX)
    assert page.text.lstrip().startswith("<!doctype html>")
    assert "<html" not in fragment.text and 'id="board"' in fragment.text
    assert board_state(page.text) == board_state(fragment.text)


def test_share_link_deals_the_seed_and_resumes_the_game_in_play(client, other_client):
    html = client.get("/play/pyramid/424242").text  # ready to play: the deal, nothing stored
    cards = lambda page: re.findall(r'data-loc="(P\d+)" data-card="(\w\w)"', page)  # noqa: E731
    expected = format_deal(deal_for_seed("pyramid", 424242)).split()[:28]
    assert cards(html) == [(f"P{i}", code) for i, code in enumerate(expected)]
    game_id, _ = first_move(client, "/play/pyramid/424242", action="draw")
    again = client.get("/play/pyramid/424242")
    assert again.status_code == 303 and again.headers["location"] == f"/games/{game_id}"  # resumed
    theirs = other_client.get("/play/pyramid/424242")
    assert theirs.status_code == 200 and cards(theirs.text) == cards(html)  # another player: the deal


def test_imported_deal_is_played_and_a_bad_one_is_refused_by_name(client):
    deal = format_deal(deal_for_seed("pyramid", 3))
    page = client.get("/play/pyramid", params={"deal": deal})
    assert page.status_code == 200 and "data-seed" not in page.text and 'data-card="' in page.text
    bad = deal.replace("9D", "ZZ", 1) if "9D" in deal else "ZZ " + deal[3:]
    refused = client.get("/play/pyramid", params={"deal": bad})
    assert refused.status_code == 422
    assert "ZZ" in refused.text


def test_lobby_forms_lead_to_share_links(client):
    response = client.get("/play", params={"preset": "gaps", "seed": "77"})
    assert response.status_code == 303 and response.headers["location"] == "/play/gaps/77"
    assert client.get("/play", params={"preset": "gaps", "seed": "seven"}).status_code == 422
    assert client.get("/play", params={"preset": "nope", "seed": "1"}).status_code == 404


def test_unknown_game_is_a_clear_404(client):
    response = client.get("/games/does-not-exist")
    assert response.status_code == 404
    assert "no such game" in response.text.lower()


def test_language_follows_accept_language_and_the_switch_is_remembered(client):
    danish = client.get("/", headers={"Accept-Language": "da-DK,da;q=0.9"})
    assert '<html lang="da" ' in danish.text and "Flere måder at spille" in danish.text
    token = re.search(r'name="csrf_token" value="(\w+)"', danish.text).group(1)
    switched = client.post("/prefs/language", data={"language": "sv", "next": "/", "csrf_token": token})
    assert switched.status_code == 303
    swedish = client.get("/", headers={"Accept-Language": "da"})
    assert '<html lang="sv" ' in swedish.text and "Fler sätt att spela" in swedish.text


def test_error_pages_are_worded_in_the_requests_language(client):
    for language, words in (("da", "Det spil findes ikke"), ("sv", "Det spelet finns inte"),
                            ("en", "There is no such game")):
        page = client.get("/games/nope", headers={"Accept-Language": language})
        assert page.status_code == 404
        assert re.search(r'role="alert">' + words, page.text), (language, page.text[-600:])


def test_card_buttons_have_spoken_names_in_the_players_language(client):
    html = client.get("/play/pyramid/8", follow_redirects=True, headers={"Accept-Language": "da"}).text
    labels = re.findall(r'aria-label="((?:spar|hjerter|ruder|klør) [^",]+)', html)
    assert labels, "cards should be named like 'spar 7'"


def test_a_card_shows_the_index_its_name_begins_with_in_each_language(client):
    """A Danish or Swedish deck prints E, Kn, D, K (es/ess, knægt/knekt, dame/dam, konge/kung)."""
    words = {"da": {"E": "es", "Kn": "knægt", "D": "dame", "K": "konge"},
             "sv": {"E": "ess", "Kn": "knekt", "D": "dam", "K": "kung"},
             "en": {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}}
    for language, names in words.items():
        html = client.get("/play/pyramid/8", follow_redirects=True, headers={"Accept-Language": language}).text
        seen = set()
        for label, index in re.findall(r'aria-label="([^"]+)"[^>]*><span class="face" aria-hidden="true">'
                                       r'<span class="idx"><span class="r" data-r="(\w+)"></span>', html):
            if index.isalpha():
                assert names[index] in label, (language, index, label)
                seen.add(index)
        assert seen == set(names), (language, seen)
        starters = client.get("/play/gaps-danish/8", follow_redirects=True, headers={"Accept-Language": language}).text
        aces = [index for index in names if names[index] in ("es", "ess", "ace")]
        assert starters.count(f'<span class="r" data-r="{aces[0]}"></span>') == 4  # the row starters are aces


def test_rules_pages_exist_in_three_languages(client):
    for game in ("pyramid", "giza", "double-pyramid", "gaps"):
        for language in ("da", "sv", "en"):
            response = client.get(f"/rules/{game}", headers={"Accept-Language": language})
            assert response.status_code == 200
            assert f'<html lang="{language}" ' in response.text
            # par is said on the end screen, the daily table and /stats of every game: explained here
            par = re.search(r'<h2 id="par">Par</h2>\s*<p>(.*?)</p>', response.text, re.S)
            assert par and {"da": "»bedste kendte«", "sv": "”bästa kända”", "en": "“best known”"}[language] in par.group(1)
    assert client.get("/rules/chess").status_code == 404
    guessed = client.get("/rules", follow_redirects=False)  # the address a player guesses
    assert guessed.status_code == 303 and guessed.headers["location"] == "/rules/pyramid"
    pyramid = client.get("/rules/pyramid").text
    listed = ['data-preset="pyramid"', 'data-preset="pyramid-classic"', 'data-preset="pyramid-3"',
              'data-preset="relaxed"']
    assert [pyramid.index(item) for item in listed] == sorted(pyramid.index(item) for item in listed)
    assert 'data-preset="giza"' not in pyramid and 'data-preset="gaps"' not in pyramid


@pytest.mark.parametrize("game", ["pyramid", "giza", "double-pyramid", "gaps"])
def test_a_rules_page_lists_the_keys_its_board_answers(client, game):
    """The rules' "Keys:" line and the board's aria-keyshortcuts say the same keys (Gaps' d redeals)."""
    board = client.get(f"/play/{'gaps-danish' if game == 'gaps' else game}/5", follow_redirects=True).text
    answered = set(re.findall(r'aria-keyshortcuts="(\w)"', board))
    for language in ("da", "sv", "en"):
        rules = client.get(f"/rules/{game}", headers={"Accept-Language": language}).text
        line = re.search(r'<li class="keys-help">(.*?)</li>', rules, re.S).group(1)
        assert set(re.findall(r"<kbd>(\w)</kbd>", line)) == answered, (game, language)


def test_healthz_checks_the_database(client):
    assert client.get("/healthz").json() == {"status": "ok", "database": "ok"}


def test_static_assets_are_hashed_cached_and_compressed(client):
    html = client.get("/").text
    css = re.search(r'href="(/static/css/app\.css\?v=\w+)"', html).group(1)
    htmx = re.search(r'src="(/static/vendor/htmx\.min\.js\?v=\w+)"', html).group(1)
    for url in (css, htmx):
        response = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200
        assert "immutable" in response.headers["cache-control"]
        assert response.headers.get("content-encoding") == "gzip"


@pytest.mark.parametrize(("preset", "language", "words"), [
    ("pyramid", "da", "Fjern to kort, der tilsammen giver 13, eller en konge alene, til pyramiden er væk."),
    ("gaps", "en", "Put each row in order from 2 to king, one suit to a row, by moving cards into the gaps."),
    # won only when the stock is gone too: not its game's "until the pyramid is gone"
    ("pyramid-classic", "sv", "Ta bort två kort som tillsammans blir 13, eller en kung ensam, tills alla kort är borta, "
                              "även talongen."),
])
def test_a_deal_ready_to_play_says_what_the_game_asks_until_the_first_move(client, preset, language, words):
    """The newcomer's first question, on a phone too (the header's summary of the preset's rules
    is left out there): one line over the board, gone once the game is under way."""
    page = client.get(f"/play/{preset}/12", headers={"Accept-Language": language}).text
    assert f"data-how-to>{words}</p>" in page
    game_id, response = first_move(client, f"/play/{preset}/12", action="draw" if preset.startswith("pyramid") else "confirm-redeal")
    assert "data-how-to" not in response.text and "data-how-to" not in client.get(f"/games/{game_id}").text


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_s_deal_says_what_its_game_asks(client, preset):
    page = client.get(f"/play/{preset}/12", headers={"Accept-Language": "sv"})
    assert page.status_code == 200 and re.search(r"data-how-to>[^<]{30,}</p>", page.text)


def test_the_page_for_pages_not_kept_offline_is_in_the_players_language(client):
    """Kept by the service worker when it installs (templates/sw.js), shown offline for a page it
    has not kept."""
    for language, words in (("da", "Ingen forbindelse"), ("sv", "Ingen anslutning"), ("en", "No connection")):
        page = client.get("/offline", headers={"Accept-Language": language})
        assert page.status_code == 200 and f"<h1>{words}</h1>" in page.text
    assert 'url: "/offline"' in client.get("/sw.js").text
