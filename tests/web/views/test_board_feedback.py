"""What the board says when a tap does nothing: the two cards that don't pair and why, in words
and card symbols; a tap on a card that can't be played keeps the selection; and the messages sit
in the toast, outside the board's flow."""

from __future__ import annotations

import html as html_module
import re

import pytest

from app.engine import GameRecord, deal_for_seed, get_preset
from app.engine.taps import places
from app.web.views.templating import card_symbol

from ..helpers import act, board_state, start_seeded

pytestmark = pytest.mark.sqlite_only  # what is drawn, not how it is stored


def no_pair_deal(preset: str = "pyramid"):
    """A seed whose start has two playable cards (each with a partner elsewhere) that don't pair:
    (seed, first place, second place, first card, second card)."""
    p = get_preset(preset)
    for seed in range(300):
        position = GameRecord.new(p.game, p.rules, deal_for_seed(p.game, seed)).position
        pairs = [set(places(m)) for m in position.legal_moves() if len(places(m)) == 2]
        playable = sorted({loc for pair in pairs for loc in pair})
        for a in playable:
            for b in playable:
                if a != b and {a, b} not in pairs:
                    return seed, a, b, position.card_at(a), position.card_at(b)
    raise AssertionError("no deal with two playable cards that don't pair")


def reason(x, y) -> str:
    if 1 < x.rank <= 10 and 1 < y.rank <= 10:
        return f"{card_symbol(x)} + {card_symbol(y)} = {x.rank + y.rank}, not 13."
    return f"{card_symbol(x)} + {card_symbol(y)}: {x.rank} + {y.rank} = {x.rank + y.rank}, not 13."


def toast_text(text: str) -> str:
    match = re.search(r'<p class="toast message[^"]*"[^>]*>(.*?)</p>', text, re.S)
    assert match, "no toast on the board"
    return html_module.unescape(match.group(1)).strip()


def test_a_tap_that_does_not_pair_says_why_and_selects_the_new_card(client):
    seed, a, b, x, y = no_pair_deal()
    game_id, page = start_seeded(client, "pyramid", seed)
    selected = act(client, game_id, page, target=a)
    assert f'data-selected="{a}"' in selected.text
    answered = act(client, game_id, selected.text, target=b, sel=a)
    assert answered.status_code == 200 and board_state(answered.text)["ply"] == 0
    assert f'data-selected="{b}"' in answered.text and 'data-note="no_pair"' in answered.text
    assert toast_text(answered.text) == reason(x, y)
    assert x.rank + y.rank != 13 and "13" in toast_text(answered.text)
    # the live region says it too
    live = re.search(r'<div id="announce" hx-swap-oob="innerHTML">(.*?)</div>', answered.text, re.S)
    assert live and reason(x, y) in html_module.unescape(live.group(1))


def test_without_javascript_the_reason_survives_the_redirect(client):
    seed, a, b, x, y = no_pair_deal()
    game_id, page = start_seeded(client, "pyramid", seed)
    selected = client.get(act(client, game_id, page, htmx=False, target=a).headers["location"]).text
    answered = act(client, game_id, selected, htmx=False, target=b, sel=a)
    # post/redirect/get: the address is the game's own, what the answer showed is in the flash
    assert answered.status_code == 303 and answered.headers["location"] == f"/games/{game_id}"
    shown = client.get(answered.headers["location"])
    assert shown.status_code == 200 and toast_text(shown.text) == reason(x, y)
    assert board_state(shown.text)["selected"] == b
    again = client.get(f"/games/{game_id}")  # a flash is shown once: a reload shows the board alone
    assert 'data-note="no_pair"' not in again.text and board_state(again.text)["selected"] == ""


def test_the_address_carries_no_board_state(client):
    # the page's state after a plain post comes only from the signed flash: an address's
    # sel/note/pair (an old bookmark, a made-up link) shows the board as it is
    game_id, _ = start_seeded(client, "pyramid", 5)
    for bad in ("XX.YY", "7H", "", "7H.5S.9C"):
        shown = client.get(f"/games/{game_id}?note=no_pair&sel=P21&pair={bad}")
        assert shown.status_code == 200
        assert 'data-note="no_pair"' not in shown.text and board_state(shown.text)["selected"] == ""


def test_a_forged_flash_is_ignored(client):
    game_id, _ = start_seeded(client, "pyramid", 5)
    for forged in ("eyJmbGFzaCI6IHsic2VsIjogIlAyMSJ9fQ==", "not-a-cookie", "x" * 300, "null"):
        client.cookies.set("tretten_flash", forged)
        shown = client.get(f"/games/{game_id}")
        assert shown.status_code == 200 and board_state(shown.text)["selected"] == ""
    client.cookies.delete("tretten_flash")


def test_the_reason_in_danish_and_swedish(client):
    seed, a, b, x, y = no_pair_deal()
    game_id, page = start_seeded(client, "pyramid", seed)
    for language, words in {"da": "ikke 13", "sv": "inte 13"}.items():
        page = client.get(f"/games/{game_id}").text
        selected = client.get(act(client, game_id, page, htmx=False, target=a).headers["location"]).text
        answered = act(client, game_id, selected, htmx=False, target=b, sel=a)
        text = client.get(answered.headers["location"], headers={"Accept-Language": language}).text
        assert words in toast_text(text) and card_symbol(x) in toast_text(text), (language, toast_text(text))


def test_a_card_that_cannot_be_played_keeps_the_selection(client):
    seed, a, b, x, y = no_pair_deal()
    game_id, page = start_seeded(client, "pyramid", seed)
    selected = act(client, game_id, page, target=a)
    covered = act(client, game_id, selected.text, target="P0", sel=a)  # the apex, covered at the start
    assert 'data-note="covered"' in covered.text and f'data-selected="{a}"' in covered.text
    assert toast_text(covered.text) == "That card is covered: it can be played once the cards lying on it are gone."


def stock_without_pair(preset: str = "pyramid"):
    """A seed whose stock card at the start can't be played: (seed, that card)."""
    p = get_preset(preset)
    for seed in range(300):
        position = GameRecord.new(p.game, p.rules, deal_for_seed(p.game, seed)).position
        if not any("S" in places(m) for m in position.legal_moves()):
            return seed, position.card_at("S")
    raise AssertionError("no deal whose stock card has no pair")


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_tap_on_the_stock_card_with_no_pair_draws_it(client, htmx):
    seed, card = stock_without_pair()
    game_id, page = start_seeded(client, "pyramid", seed)
    assert re.search(rf'data-loc="S" data-card="{card.code}"[^>]*data-move="S&gt;W"', page)  # the page's answer
    answered = act(client, game_id, page, htmx=htmx, target="S")
    text = answered.text if htmx else client.get(answered.headers["location"]).text
    assert board_state(text)["ply"] == 1 and '<p class="toast' not in text
    waste = re.search(r'data-pile="W">\s*<button[^>]*data-card="(\w+)"', text)
    assert waste and waste.group(1) == card.code  # the stock's card went onto the waste


def test_the_solver_busy_refusal_shows_in_the_toast_and_leaves_the_board(client, monkeypatch):
    from app.services.assist import searches

    from ..helpers import HX, csrf_of

    monkeypatch.setattr(searches, "_max_admitted", 0)  # every search slot taken
    game_id, page = start_seeded(client, "pyramid", 4242)
    state = board_state(page)
    response = client.post(f"/games/{game_id}/hint", headers=HX,
                           data={"csrf_token": csrf_of(page), "ply": state["ply"], "version": state["version"]})
    assert response.status_code == 429 and response.headers["hx-reswap"] == "none"
    assert 'id="board"' not in response.text  # the board stays; only the out-of-band parts come
    toast = re.search(r'<div id="toast" hx-swap-oob="innerHTML">(.*?)</div>', response.text, re.S)
    assert toast and toast_text(toast.group(1)) == "The solver is busy. Please try again in a moment."
