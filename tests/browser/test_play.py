"""Playing in a real browser by the public hooks (data-loc, data-pos, data-action) alone."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest

from app.engine import GameRecord, deal_for_seed, get_preset

from tests.web.helpers import csrf_of

from .conftest import shot

SOLVE_VECTORS = Path(__file__).resolve().parents[1] / "vectors" / "solve.jsonl"


def ply(page) -> int:
    return int(page.get_attribute("#board", "data-ply"))


def wait_ply(page, expected: int) -> None:
    page.wait_for_selector(f'#board[data-ply="{expected}"]')


def click_move(page, move: str) -> None:
    """Play one move in notation by clicking, as an outside script would."""
    before = ply(page)
    if move == "D":
        page.click('[data-action="draw"]')
    elif move == "R":
        page.click('[data-action="recycle"]')
    else:
        first, *rest = move.split("+")
        page.click(f'#board [data-loc="{first}"][data-card]')
        if rest:  # waits for each answer (for quick taps see the slow-connection tests below)
            page.wait_for_selector(f'#board[data-selected="{first}"]')
            page.click(f'#board [data-loc="{rest[0]}"][data-card]')
    wait_ply(page, before + 1)


def winnable_pyramid_deal() -> tuple[str, str]:
    if not SOLVE_VECTORS.exists():
        pytest.fail(f"test vectors missing: {SOLVE_VECTORS}")
    for line in SOLVE_VECTORS.read_text().splitlines():
        vector = json.loads(line)
        if vector["game"] == "pyramid" and not vector.get("options") and vector["winnable"]:
            return vector["deal"], vector["example_win"]
    pytest.fail("no winnable one-pass Pyramid deal among the vectors")


def test_a_winnable_pyramid_deal_is_won_by_clicks_alone(server, new_page):
    deal, winning_line = winnable_pyramid_deal()
    page = new_page()
    page.goto(f"{server}/play/pyramid?deal={quote(deal)}")
    assert page.get_attribute("#board", "data-status") == "playing"
    for move in winning_line.split():
        click_move(page, move)
    page.wait_for_selector('#board[data-status="won"]')
    assert page.locator('[data-banner="won"]').is_visible()
    assert "won" in page.inner_text("#announce").lower()
    shot(page, "pyramid-won-1280")
    assert not page.js_errors


def test_gaps_game_through_a_redeal(server, new_page):
    seed = 21
    preset = get_preset("gaps")
    position = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed)).position
    fill = next(m for m in position.legal_moves() if str(m) != "N" and len(position.moves_of_card(m.card)) == 1)
    page = new_page()
    page.goto(f"{server}/play/gaps/{seed}")
    page.click(f'#board [data-card="{fill.card.code}"]')
    wait_ply(page, 1)
    assert page.get_attribute(f'[data-pos="{fill.row}.{fill.col}"]', "data-card") == fill.card.code
    page.click('[data-action="redeal"]')
    page.click('[data-action="confirm-redeal"]')  # cards could still move: it asks first
    wait_ply(page, 2)
    assert page.inner_text('[data-stat="round"]') == "2"
    shot(page, "gaps-after-redeal-1280")
    assert not page.js_errors


def test_undo_and_redo_by_keyboard(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/pyramid/31")
    page.keyboard.press("d")
    wait_ply(page, 1)
    page.keyboard.press("u")
    wait_ply(page, 0)
    page.keyboard.press("r")
    wait_ply(page, 1)
    page.keyboard.press("ArrowUp")  # arrows put focus on the board's cards
    focused = page.evaluate("document.activeElement.getAttribute('data-loc')")
    assert focused is not None
    assert not page.js_errors


def test_a_button_pressed_by_keyboard_keeps_the_focus_while_the_new_board_asks_the_solver(server, new_page):
    """Enter on Undo with "still winnable?" on: the new board's own request for its verdict
    (sent as the board is laid) is not the keyboard's; focus stays on Undo, so the next Enter
    undoes again instead of playing a card it jumped to."""
    page = new_page()
    page.goto(f"{server}/play/pyramid/250")
    page.context.request.post(f"{server}/prefs", form={"csrf_token": csrf_of(page.content()),
                                                      "winnable_indicator": "true"})
    page.reload()
    for n in (1, 2, 3):
        page.keyboard.press("d")
        wait_ply(page, n)
    page.wait_for_selector('#board #solver-status:not([data-solver-status="pending"])')
    page.focus('#board [data-action="undo"]')
    for n in (2, 1):
        page.keyboard.press("Enter")
        wait_ply(page, n)
        page.wait_for_selector('#board #solver-status:not([data-solver-status="pending"])')
        page.wait_for_load_state("networkidle")
        assert page.evaluate("() => document.activeElement.dataset.action") == "undo", n
    assert not page.js_errors


@pytest.mark.parametrize("width", [1280, 390])
def test_arrow_keys_step_row_by_row_through_a_pyramid(server, new_page, width):
    """Up from a card goes to one of the two it covers (half a card up), not to the card two rows
    up straight above it; right stays in the row; up from a phone's stock goes to the pyramid's
    bottom row, not its top."""
    page = new_page(width=width, height=844)
    page.goto(f"{server}/play/pyramid/250")
    row = lambda: page.evaluate("""() => { const i = +document.activeElement.dataset.loc.slice(1);
        let r = 0; while ((r + 1) * (r + 2) / 2 <= i) r++; return r; }""")
    page.focus('#board [data-loc="P24"]')  # the bottom row's fourth card
    for expected in (5, 4, 3, 2, 1, 0):
        page.keyboard.press("ArrowUp")
        assert row() == expected, page.evaluate("document.activeElement.dataset.loc")
    for expected in (1, 2, 3, 4, 5, 6):
        page.keyboard.press("ArrowDown")
        assert row() == expected
    page.keyboard.press("ArrowRight")
    assert row() == 6  # along the same row
    if width < 760:  # a phone's stock lies under the pyramid (a desktop's beside its top)
        page.focus('#board [data-loc="S"]')
        page.keyboard.press("ArrowUp")
        assert row() == 6
    assert not page.js_errors


def test_share_link_in_a_second_browser_deals_the_same_cards(server, new_page):
    first = new_page()
    first.goto(f"{server}/play/double-pyramid")
    share = first.get_attribute("[data-share-url]", "href")
    cards = lambda page: page.eval_on_selector_all("#board [data-card]", "els => els.map(e => e.dataset.loc + e.dataset.card)")
    second = new_page()
    second.goto(share)
    assert second.url == first.url == share  # the deal ready to play: nothing stored yet …
    assert cards(second) == cards(first)  # … the same cards
    second.click('[data-action="draw"]')
    wait_ply(second, 1)
    assert "/games/" in second.url  # the first move stored a game of its own; the address follows
    first.reload()
    assert ply(first) == 0 and first.url == share


def test_switching_language(server, new_page):
    page = new_page(locale="en-GB")
    page.goto(f"{server}/")
    assert page.get_attribute("html", "lang") == "en"
    page.click('[data-lang="da"]')
    page.wait_for_selector('html[lang="da"]')
    assert "Flere måder at spille" in page.inner_text("main")
    page.goto(f"{server}/play/gaps-danish/4")
    assert page.get_attribute("html", "lang") == "da"
    shot(page, "gaps-danish-da-1280")
    page.click('[data-lang="sv"]')
    page.wait_for_selector('html[lang="sv"]')
    assert "Ångra" in page.inner_text("#board")


@pytest.mark.parametrize("path", ["/", "/play/pyramid/5", "/play/double-pyramid/5", "/play/giza/5", "/play/gaps-danish/5", "/rules/gaps"])
def test_no_horizontal_scroll_on_a_phone(server, new_page, path):
    page = new_page(width=390, height=844)
    page.goto(server + path)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "phone-" + (path.strip("/").replace("/", "-") or "lobby"))
    if "/play/" in path:
        big = new_page(width=1280, height=900)
        big.goto(server + path)
        shot(big, "desktop-" + path.strip("/").replace("/", "-"))


def slow_connection(page, latency_ms: int = 400) -> None:
    """Every request of the page takes `latency_ms` longer (Chromium's network emulation)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions",
             {"offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1})


def first_pair(seed: int) -> tuple[str, str]:
    preset = get_preset("pyramid")
    position = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed)).position
    pair = next(str(m) for m in position.legal_moves() if str(m).count("P") == 2)
    first, second = pair.split("+")
    return first, second


def test_a_quick_second_tap_on_a_slow_connection_is_not_lost(server, new_page):
    first, second = first_pair(0)
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/pyramid/0")
    slow_connection(page)
    page.click(f'#board [data-loc="{first}"][data-card]')
    page.click(f'#board [data-loc="{second}"][data-card]')  # the first tap is still on its way
    wait_ply(page, 1)
    for loc in (first, second):
        assert page.locator(f'#board [data-loc="{loc}"][data-removed]').count() == 1
    assert page.get_attribute("#board", "data-selected") == ""
    assert not page.js_errors


def test_a_quick_tap_is_made_on_the_card_the_page_showed(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/pyramid/2")  # the second card drawn pairs with one on the board
    page.click('[data-action="draw"]')
    wait_ply(page, 1)
    slow_connection(page)
    coming = page.get_attribute('#board [data-loc="S"]', "data-card")
    # the draw shows at once: the stock's card lies on the waste while the server is asked
    shown = page.evaluate("""() => { document.querySelector('[data-action="draw"]').click();
      return [document.querySelector('#board [data-loc="W"]').dataset.card, document.getElementById('board').dataset.ply]; }""")
    assert shown == [coming, "1"]
    page.click('#board [data-loc="W"][data-card]')  # kept, and made on the board that comes
    wait_ply(page, 2)
    page.wait_for_selector('#board[data-selected="W"]')
    assert page.get_attribute('#board [data-loc="W"]', "data-card") == coming
    assert page.get_attribute('#board [data-loc="W"]', "aria-pressed") == "true"
    assert not page.js_errors


def test_a_scrolled_table_stays_under_the_thumb_when_the_first_moves_board_comes(server, new_page):
    """The note under a deal not yet played (a newcomer's: whether the solver proved it) goes with
    its first move, and the page grew shorter than where it was scrolled to: the table dropped a
    hundred pixels under the player's thumb, and the next quick taps hit the felt."""
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/double-pyramid/3")
    page.wait_for_selector("#board .winnable-note")
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    draw = '#board [data-action="draw"]'
    before = page.locator(draw).bounding_box()
    assert page.evaluate("() => window.scrollY") > 40
    page.click(draw)
    wait_ply(page, 1)
    page.wait_for_function("() => window.TrettenBoard && !window.TrettenBoard.waiting()")
    page.wait_for_load_state("networkidle")
    assert page.locator("#board .winnable-note").count() == 0
    after = page.locator(draw).bounding_box()
    assert abs(after["y"] - before["y"]) < 1, (before, after)
    # the room kept under the table is what the scroll needs, and goes once it needs none
    page.evaluate("() => window.scrollTo(0, 0)")
    page.click(draw)
    wait_ply(page, 2)
    page.wait_for_function("() => window.TrettenBoard && !window.TrettenBoard.waiting()")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("() => document.body.style.minHeight") == ""
