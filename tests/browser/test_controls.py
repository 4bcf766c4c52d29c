"""The board's controls and feedback in Chromium: an illegal tap moves nothing and says why in a
toast; the board and its main buttons fit the window for every preset on a desktop and a phone;
New deal asks first, then deals in place; a card dragged onto its partner is played; the buttons
stay put when a hint's words come in."""

from __future__ import annotations

import pytest

from app.engine import PRESETS, GameRecord, deal_for_seed, get_preset
from app.engine.taps import places

from .conftest import shot

SIZES = [(1280, 800), (390, 844)]
MAIN = ['#board [data-action="undo"]', '#board [data-action="redo"]', '#board [data-action="hint"]',
        '#board [data-action="new"]']
PLAY = '#board [data-action="draw"], #board [data-action="recycle"], #board [data-action="redeal"]'


BOXED = "#board .tableau, #board .gaps-grid, #board .piles, #board .reserves, #board .controls, #board [data-loc], #board [data-pos]"


def boxes(page, skip=()) -> list:
    """Where the board's parts and cards are (a lifted selected card left out: ``skip``), once
    the cards have stopped moving (a new deal deals in)."""
    page.wait_for_function("""(sel) => !document.getAnimations().some(a => a.effect &&
        a.effect.target && a.effect.target.matches && a.effect.target.matches(sel))""", arg=BOXED)
    return page.evaluate("""([sel, skip]) => [...document.querySelectorAll(sel)]
        .filter(el => !skip.includes(el.getAttribute('data-loc')))
        .map(el => { const r = el.getBoundingClientRect(); return [el.getAttribute('data-loc'), Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; })""",
                         [BOXED, list(skip)])


def opening_pair(preset="pyramid"):
    p = get_preset(preset)
    for seed in range(200):
        position = GameRecord.new(p.game, p.rules, deal_for_seed(p.game, seed)).position
        for move in position.legal_moves():
            if len(places(move)) == 2:
                return seed, places(move)
    raise AssertionError("no opening pair")


@pytest.mark.parametrize("size", SIZES)
def test_an_illegal_tap_moves_nothing_and_says_why_in_a_toast(server, new_page, size):
    page = new_page(*size)
    page.goto(f"{server}/play/pyramid/4242")
    before = boxes(page)
    # the shake's class lasts as long as the shake (0.3-0.4 s): kept by an observer, not looked
    # for after the toast, which a busy machine may read after the shake
    page.evaluate("""() => { window.shaken = [];
      new MutationObserver(records => records.forEach(r => { if (r.target.classList.contains('refused'))
        shaken.push(r.target.dataset.loc); })).observe(document.getElementById('board'),
        {subtree: true, attributes: true, attributeFilter: ['class']}); }""")
    page.click('#board [data-loc="P0"]')  # the apex: covered at the start
    toast = page.wait_for_selector("#board .toast", state="visible")
    assert "is covered" in toast.inner_text()
    assert set(page.evaluate("() => shaken")) == {"P0"}  # that card, and no other
    page.wait_for_timeout(450)  # the tapped card's shake is over
    assert boxes(page) == before
    shot(page, f"controls-illegal-{size[0]}")
    assert not page.js_errors


def test_a_card_that_does_not_pair_says_why(server, new_page):
    from tests.web.views.test_board_feedback import no_pair_deal, reason

    seed, a, b, x, y = no_pair_deal()
    page = new_page(390, 844)
    page.goto(f"{server}/play/pyramid/{seed}")
    page.click(f'#board [data-loc="{a}"]')
    page.wait_for_selector(f'#board[data-selected="{a}"]')
    before = boxes(page, skip=(a, b))
    page.click(f'#board [data-loc="{b}"]')
    page.wait_for_selector(f'#board[data-selected="{b}"]')
    assert page.inner_text("#board .toast") == reason(x, y)
    assert boxes(page, skip=(a, b)) == before


def inside(page, selector) -> bool:
    return page.evaluate("""(s) => { const el = document.querySelector(s); if (!el) return null;
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.width > 0; }""", selector)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_board_and_its_main_controls_fit_the_window(server, new_page, preset, size):
    page = new_page(*size)
    page.goto(f"{server}/play/{preset}/4242")
    # a stored game in play (its buttons: Restart too) after one move
    page.click(PLAY if page.query_selector(PLAY + ":not([disabled])") else "#board button[name=target].playable")
    page.wait_for_timeout(300)
    page.goto(f"{server}/play/{preset}/4242")  # the player's game of this deal
    page.wait_for_selector("#board")
    for selector in ["#board .tableau, #board .gaps-grid", *MAIN, *(["#board .piles, #board .reserves"] if "gaps" not in preset else [])]:
        assert inside(page, selector), (preset, size, selector)
    if page.query_selector(PLAY):
        assert inside(page, PLAY), (preset, size, "draw/redeal")
    for selector in MAIN[:3]:
        height = page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().height", selector)
        assert height >= 44, (selector, height)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
    shot(page, f"controls-fit-{preset}-{size[0]}")


def test_new_deal_asks_first_then_deals_in_place(server, new_page):
    page = new_page(1280, 800)
    page.goto(f"{server}/play/pyramid/777")
    page.click('#board [data-action="draw"]')
    page.wait_for_selector('#board[data-ply="1"]')
    game_id = page.get_attribute("#board", "data-game-id")
    board_top = page.evaluate("() => document.querySelector('#board .tableau').getBoundingClientRect().y")
    page.click('#board [data-action="new"]')
    dialog = page.wait_for_selector('#board [data-confirm="new"]', state="visible")
    assert "lost" in dialog.inner_text()
    assert page.get_attribute("#board", "data-game-id") == game_id  # asking changes nothing
    assert page.evaluate("() => document.querySelector('#board .tableau').getBoundingClientRect().y") == board_top
    page.evaluate("() => { window.sameDocument = true; }")
    page.click('#board [data-action="confirm-new"]')
    page.wait_for_selector('#board[data-ply="0"][data-game-id=""]')
    assert "/play/pyramid/" in page.url and not page.url.endswith("/777")
    assert page.inner_text("[data-seed]") == page.url.rsplit("/", 1)[1]
    assert page.evaluate("() => window.sameDocument === true")  # the board came in place, no page load
    page.go_back()  # htmx asks for the whole page again (no history cache): the page it was
    page.wait_for_selector(f'#board[data-game-id="{game_id}"]')
    assert page.url.endswith(f"/games/{game_id}") and page.query_selector("header.site") and page.query_selector("h1")
    assert not page.js_errors


def test_the_d_key_asks_for_a_gaps_redeal(server, new_page):
    """Gaps' Redeal had no key: a keyboard reached it by 9 to 17 Tabs."""
    page = new_page(1280, 800)
    page.goto(f"{server}/play/gaps/3")
    page.focus('#board [data-pos]')
    page.keyboard.press("d")
    page.wait_for_selector('#board [data-confirm="redeal"]', state="visible")  # moves are left: asked first
    assert not page.js_errors


def test_a_pair_played_by_keyboard_leaves_the_focus_on_the_move_left(server, new_page):
    """Seed 7's pair P23 + P27 leaves only a draw: the focus went to the first card ("cannot be
    played now"), far from play; it goes to the stock's card, which draws."""
    page = new_page(1280, 800)
    page.goto(f"{server}/play/pyramid/7")
    page.focus('#board [data-loc="P23"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('#board [data-loc="P23"].selected')
    page.focus('#board [data-loc="P27"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('#board[data-ply="1"][data-game-id]:not([data-game-id=""])')
    page.wait_for_function("() => document.activeElement && document.activeElement.getAttribute('data-loc') === 'S'")
    assert not page.js_errors


def test_dragging_a_card_onto_its_partner_plays_the_pair(server, new_page):
    seed, (a, b) = opening_pair()
    page = new_page(1280, 800)
    page.goto(f"{server}/play/pyramid/{seed}")
    page.wait_for_selector(f'#board [data-loc="{a}"][draggable="true"]')
    cards = [page.get_attribute(f'#board [data-loc="{loc}"]', "data-card") for loc in (a, b)]
    page.locator(f'#board [data-loc="{a}"]').drag_to(page.locator(f'#board [data-loc="{b}"]'))
    page.wait_for_selector('#board[data-ply="1"]')
    assert not any(page.query_selector(f'#board [data-card="{card}"]') for card in cards)  # both removed
    assert not page.js_errors


def test_keyboard_help_only_where_there_is_a_keyboard(server, browser):
    for touch, shown in ((False, True), (True, False)):
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=touch, is_mobile=touch)
        page = context.new_page()
        page.goto(f"{server}/play/pyramid/5")
        assert page.is_visible(".keys-help") is shown
        page.goto(f"{server}/rules/gaps")  # the rules' line of keys, and a replay's
        assert page.is_visible(".keys-help") is shown
        page.goto(f"{server}/rules/giza")  # what is not about keys stays on a phone
        assert page.is_visible(".keys-help") is shown and page.get_by_text("Undo and redo as much as you like.").is_visible()
        page.goto(f"{server}/play/pyramid/5")
        page.click('[data-action="draw"]')
        page.wait_for_selector('#board[data-ply="1"]')
        page.goto(f"{server}/g/{page.get_attribute('#board', 'data-game-id')}/replay")
        assert page.is_visible(".keys-help") is shown
        context.close()


BUTTONS = "#board .controls .button, #board .game-menu .button, #board [data-action]"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("preset", ["gaps", "pyramid"])
def test_the_buttons_stay_put_when_a_hints_words_come_in(server, new_page, preset, size):
    """A second tap where Hint was lands on Hint again, not on the button moved there (on a
    phone's Gaps the hint's words came in under the buttons and pushed Redeal to Hint's place)."""
    def buttons():
        return page.evaluate("""(sel) => Object.fromEntries([...document.querySelectorAll(sel)].map(el => {
            const r = el.getBoundingClientRect();
            return [(el.getAttribute('data-action') || el.textContent.trim()), [r.x + scrollX, r.y + scrollY]]; }))""",
                             BUTTONS)

    page = new_page(*size)
    page.goto(f"{server}/play/{preset}/7")
    page.click('#board [data-action="draw"]' if preset == "pyramid" else "#board button[name=target].playable")
    page.wait_for_selector('#board[data-ply="1"]')  # a game in play: its buttons (Restart too) drawn
    before = buttons()
    page.click('#board [data-action="hint"]')
    page.wait_for_selector("#board .hint-note")
    after = buttons()
    # on the page (it may scroll the words into view); a few pixels sideways as the count's words
    # take their place in a centred row are no other button
    moved = {name: (round(after[name][0] - x), round(after[name][1] - y)) for name, (x, y) in before.items()}
    assert all(abs(dx) <= 6 and abs(dy) <= 6 for dx, dy in moved.values()), (preset, size, moved)
    shot(page, f"hint-{preset}-{size[0]}")


@pytest.mark.parametrize("locale, words", [("sv-SE", "radens första plats är överst"), ("da-DK", "Rækkens første plads er øverst")])
def test_a_phones_turned_gaps_board_says_a_rows_left_is_its_top(server, new_page, locale, words):
    """On a phone each row stands upright while the rules, the labels and the hints say rows and
    left: the board says so, beside itself; a wide window, whose rows lie as the words say, not."""
    page = new_page(390, 844, locale=locale)
    page.goto(f"{server}/play/gaps/4")
    note = page.locator("#board [data-turned-note]")
    assert note.is_visible() and words in note.inner_text()
    grid, box = page.locator("#board .gaps-grid").bounding_box(), note.bounding_box()
    assert box["x"] >= grid["x"] + grid["width"] and box["y"] + box["height"] <= grid["y"] + grid["height"]  # in the side column
    page = new_page(1280, 900, locale=locale)
    page.goto(f"{server}/play/gaps/4")
    assert page.locator("#board [data-turned-note]").is_hidden()
    page.goto(f"{server}/rules/gaps")
    assert page.locator("[data-turned-note]").is_visible()  # the rules say it to every reader
