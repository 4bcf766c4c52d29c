"""The board answers at once: the page shows what the server's board said a tap would do, posts
each move in order, and ends equal to the server's board (issue 26)."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from app.engine import GameRecord, deal_for_seed, get_preset
from app.engine.pyramid import DRAW
from app.engine.taps import places

from .conftest import shot
from .test_play import ply, slow_connection, wait_ply

pytestmark = pytest.mark.motion  # taps answered while the cards before them are still in flight

# issue 26's deal and its winning line: after P8+W, the pair P7+W tapped at once must be made
ISSUE_DEAL = ("KD TD KH 2C JD 5C QH QD 6S AD 8S 3S 9D 7D 3D 2H 4C AH 7H 4D 6H 8D TC KC 9S 3H 2S 4H 2D TH "
              "4S 3C 7C 9H 5H AS 7S AC 6D TS JS QS KS 6C JC 5S JH 9C 8H 5D QC 8C")
ISSUE_LINE = ("P23 P22+P25 P16+P24 D D D D D P27+S P21+S D D D P18+S D P15+S P17+S S P11+W D P26+S "
              "P12+P19 P10+S P13+W P6+W P8+W P7+W P3+P4 P20+W P1+P14 D D D S+W P9+S P5+S P2 P0").split()

# the page's cards, ply and status, for comparing with a fresh load of the game
SNAPSHOT = """() => { const b = document.getElementById('board');
  const cards = [...b.querySelectorAll('[data-card]')]
    .map(e => (e.dataset.loc || e.dataset.pos) + '=' + e.dataset.card).sort();
  return {ply: b.dataset.ply, status: b.dataset.status, cards: cards.join(' ')}; }"""


def settled(page) -> None:
    """Every tap made and answered: the page waits for nothing, and the network is idle."""
    page.wait_for_function("() => window.TrettenBoard && !window.TrettenBoard.waiting()")
    page.wait_for_load_state("networkidle")


def equals_a_fresh_load(page) -> None:
    mine = page.evaluate(SNAPSHOT)
    fresh = page.context.new_page()
    fresh.goto(page.url)
    assert fresh.evaluate(SNAPSHOT) == mine
    fresh.close()


def click_and_look(page, selector: str, look: str):
    """Click in the page and read ``look`` (a function's body) in the same task: what the page
    shows at once, before any answer could come."""
    return page.evaluate(f"() => {{ document.querySelector({selector!r}).click(); {look} }}")


def next_frame(page) -> None:
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def taps(move: str) -> list[str]:
    """The clicks (selectors) of one move in notation."""
    if move == "D":
        return ['#board [data-action="draw"], #board [data-action="recycle"]']
    return [f'#board [data-loc="{loc}"][data-card]' for loc in move.split("+")]


def play(page, moves: list[str]) -> None:
    """Moves made one after another, each waited for."""
    for move in moves:
        before = ply(page)
        for selector in taps(move):
            page.click(selector)
        wait_ply(page, before + 1)
        settled(page)


def test_a_selection_is_the_pages_own_and_makes_no_request(server, new_page):
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
    requests = []
    page.on("request", lambda request: requests.append(request.url)
            if request.resource_type in ("xhr", "fetch", "document") else None)
    page.click('#board [data-loc="P22"][data-card]')
    next_frame(page)
    chosen = page.locator('#board [data-loc="P22"]')
    assert "selected" in chosen.get_attribute("class") and chosen.get_attribute("aria-pressed") == "true"
    assert page.get_attribute("#board", "data-selected") == "P22"
    partners = page.eval_on_selector_all("#board .partner", "els => els.map(e => e.dataset.loc)")
    assert partners == ["P25"]  # the server wrote it on the card: 10 + 3
    # another free card that makes no pair: it is selected, and the server's words say why
    page.click('#board [data-loc="P24"][data-card]')
    next_frame(page)
    assert page.get_attribute("#board", "data-selected") == "P24"
    assert "not 13" in page.inner_text(".toast[data-near]")
    # a covered card: refused at once, with the server's words next to it
    shaken = click_and_look(page, '#board [data-loc="P0"][data-card]',
                            "return document.querySelector('#board [data-loc=P0]').classList.contains('refused')")
    assert shaken and "is covered" in page.inner_text(".toast[data-near]")
    page.click('#board [data-loc="P24"][data-card]')  # the selected card again: none selected
    next_frame(page)
    assert page.get_attribute("#board", "data-selected") == "" and page.locator("#board .selected").count() == 0
    assert requests == [] and ply(page) == 0
    shot(page, "answers-refused-390")
    assert not page.js_errors


def test_d_d_d_at_machine_speed_is_three_draws(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/pyramid/31")
    slow_connection(page, 150)
    stock = int(page.inner_text('[data-count="stock"]'))
    for _ in range(3):
        page.keyboard.press("d")
    wait_ply(page, 3)
    settled(page)
    assert ply(page) == 3 and int(page.inner_text('[data-count="stock"]')) == stock - 3
    equals_a_fresh_load(page)
    assert not page.js_errors


def _start(seed: int):
    return GameRecord.new("pyramid", get_preset("pyramid").rules, deal_for_seed("pyramid", seed)).position


def _pairs(position, place: str) -> bool:
    return any(place in places(m) for m in position.legal_moves())


def test_a_tap_on_the_stock_card_with_no_pair_draws_at_once(server, new_page):
    """The stock's card lies face up; a player taps a stock to turn a card, and when that card
    can't be played the tap draws, shown before the server answers."""
    seed = next(s for s in range(300) if not _pairs(_start(s), "S") and not _pairs(_start(s).apply(DRAW), "S"))
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/pyramid/{seed}")
    slow_connection(page, 150)
    card = page.get_attribute('#board [data-loc="S"][data-card]', "data-card")
    on_waste = click_and_look(page, '#board [data-loc="S"][data-card]',
                              "return document.querySelector('#board [data-pile=W] [data-card]')?.dataset.card")
    assert on_waste == card and page.locator("#board .toast[data-near]").count() == 0
    wait_ply(page, 1)
    settled(page)
    assert page.get_attribute('#board [data-pile="W"] [data-card]', "data-card") == card
    equals_a_fresh_load(page)
    shot(page, "answers-stock-tap-390")
    # two taps on the stock at once, as on a deck: the second lands where the next card is not
    # shown yet, and is the pile's Draw
    assert page.get_attribute('#board [data-loc="S"][data-card]', "data-move")  # no pair: it draws
    stock = page.locator('#board [data-pile="S"]')
    stock.click()
    stock.click()
    wait_ply(page, 3)
    settled(page)
    assert ply(page) == 3
    equals_a_fresh_load(page)
    assert not page.js_errors


def test_a_tap_on_the_empty_stock_turns_the_waste_over(server, new_page):
    """With the stock used up and a pass left (Relaxed), its empty place is the turnover's, as
    an emptied deck is."""
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/relaxed/3")
    stock = int(page.inner_text('[data-count="stock"]'))
    for _ in range(stock):
        page.keyboard.press("d")
    wait_ply(page, stock)
    settled(page)
    assert page.inner_text('[data-count="stock"]') == "0" and page.inner_text('[data-stat="pass"]') == "1"
    page.click('#board [data-pile="S"]')
    wait_ply(page, stock + 1)
    settled(page)
    assert page.inner_text('[data-count="stock"]') == str(stock) and page.inner_text('[data-stat="pass"]') == "2"
    assert not page.js_errors


def test_enter_on_the_stock_card_draws_and_the_keyboard_stays_on_the_stock(server, new_page):
    """The next Enter draws again, as on the Draw strip, and never plays the card the focus
    would otherwise fall to (a king of the pyramid, once)."""
    seed = next(s for s in range(300) if not _pairs(_start(s), "S") and not _pairs(_start(s).apply(DRAW), "S"))
    page = new_page()
    page.goto(f"{server}/play/pyramid/{seed}")
    page.focus('#board [data-loc="S"][data-card]')
    for ply in (1, 2):
        page.keyboard.press("Enter")
        wait_ply(page, ply)
        settled(page)
        assert page.evaluate("() => document.activeElement.dataset.loc") == "S", ply
    assert int(page.get_attribute("#board", "data-ply")) == 2
    page.keyboard.press("d")  # the Draw's key, the keyboard on the stock's card: it stays there too
    wait_ply(page, 3)
    settled(page)
    assert page.evaluate("() => document.activeElement.dataset.loc") == "S"
    assert not page.js_errors


def test_an_undo_does_not_carry_a_selection_onto_another_card_at_that_place(server, new_page):
    """The stock's card selected, then Undo: the card the undo puts back at the stock (one that
    pairs too: Double Pyramid seed 4's A♠, after the J♣ drawn onto it) is not selected in its
    place, nor are its partners marked."""
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/double-pyramid/4")
    slow_connection(page, 150)
    before = page.get_attribute('#board [data-loc="S"][data-card]', "data-card")
    page.click('#board [data-action="draw"]')
    wait_ply(page, 1)
    settled(page)
    assert page.get_attribute('#board [data-loc="S"][data-card]', "data-card") != before
    page.click('#board [data-loc="S"][data-card]')
    next_frame(page)
    assert page.get_attribute("#board", "data-selected") == "S"
    page.click('#board [data-action="undo"]')
    wait_ply(page, 0)
    settled(page)
    assert page.get_attribute('#board [data-loc="S"][data-card]', "data-card") == before
    assert _pairs(GameRecord.new("double-pyramid", get_preset("double-pyramid").rules,
                                 deal_for_seed("double-pyramid", 4)).position, "S")  # it could be selected
    assert page.get_attribute("#board", "data-selected") == ""
    # the board's places (the motion's flying copies are not places)
    assert page.locator('#board button[name="target"]:is(.selected, .partner)').count() == 0
    # a card of the pyramid selected, then Undo (its key): the board changed under it, it goes
    page.click('#board [data-action="draw"]')
    wait_ply(page, 1)
    settled(page)
    chosen = page.eval_on_selector('#board [data-loc^="P"][data-partners]:not([data-partners=""])', "el => el.dataset.loc")
    page.click(f'#board [data-loc="{chosen}"]')
    next_frame(page)
    assert page.get_attribute("#board", "data-selected") == chosen
    page.keyboard.press("u")
    wait_ply(page, 0)
    settled(page)
    assert page.get_attribute("#board", "data-selected") == ""
    assert page.locator('#board button[name="target"]:is(.selected, .partner)').count() == 0
    assert not page.js_errors


def test_the_issues_pair_tapped_without_a_pause_is_made(server, new_page):
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
    at = ISSUE_LINE.index("P8+W")
    play(page, ISSUE_LINE[:at])
    slow_connection(page, 150)
    for selector in taps("P8+W") + taps("P7+W"):  # no pause after the removal
        page.click(selector)
    wait_ply(page, at + 2)
    settled(page)
    assert ply(page) == at + 2 and page.get_attribute("#board", "data-selected") == ""
    assert page.locator('#board [data-loc="P7"][data-removed]').count() == 1
    equals_a_fresh_load(page)
    assert not page.js_errors


def test_a_move_refused_because_another_tab_moved_shows_the_servers_board(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
    play(page, ["P23"])
    other = page.context.new_page()  # the same player in a second tab
    other.goto(page.url)
    other.click('[data-action="draw"]')
    wait_ply(other, 2)
    slow_connection(page, 150)
    page.click('#board [data-loc="P22"][data-card]')
    # shown at once: the two cards gone
    assert click_and_look(page, '#board [data-loc="P25"][data-card]',
                          "return document.querySelectorAll('#board [data-loc=P22][data-card]').length") == 0
    wait_ply(page, 2)  # the server's board: the other tab's draw, and the pair not made
    settled(page)
    assert page.locator('#board [data-loc="P22"][data-card]').count() == 1
    assert page.get_attribute("[data-error]", "data-error") == "stale"
    assert "another tab" in page.inner_text("[data-error]")
    equals_a_fresh_load(page)
    assert all("409 (Conflict)" in error for error in page.js_errors)  # the refusal itself


def test_a_burst_of_ten_taps_on_a_slow_connection_ends_as_the_server_has_it(server, new_page):
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
    slow_connection(page, 300)
    burst = [selector for move in ISSUE_LINE[:8] for selector in taps(move)]
    assert len(burst) == 10
    for selector in burst:
        page.click(selector)
    settled(page)
    assert ply(page) == 8
    equals_a_fresh_load(page)
    shot(page, "answers-burst-390")
    assert not page.js_errors


def gaps_card_one_tap_moves(page, server: str) -> tuple[list[str], str]:
    """A Gaps deal on a phone's round trip, and a card that one tap moves: [card, its move] and
    the gap it goes to."""
    page.goto(f"{server}/play/gaps/21")
    slow_connection(page, 150)
    moved = page.eval_on_selector('#board [data-card][data-move]', "el => [el.dataset.card, el.dataset.move]")
    return moved, moved[1].split(">")[1]


def test_gaps_fills_show_at_once_and_end_as_the_server_has_them(server, new_page):
    page = new_page(width=390, height=844)
    moved, into = gaps_card_one_tap_moves(page, server)
    # the card is in its gap before the server answers
    shown = click_and_look(page, f'#board [data-card="{moved[0]}"]',
                           f"return [document.querySelector('#board [data-pos=\"{into}\"]').dataset.card, "
                           "document.getElementById('board').dataset.ply]")
    assert shown == [moved[0], "0"]
    wait_ply(page, 1)
    settled(page)
    assert page.get_attribute(f'#board [data-pos="{into}"]', "data-card") == moved[0]
    equals_a_fresh_load(page)
    assert not page.js_errors


def test_a_double_tap_on_a_gaps_card_that_one_tap_moves_is_that_move_and_no_refusal(server, new_page):
    page = new_page(width=390, height=844)
    moved, into = gaps_card_one_tap_moves(page, server)
    # every refusal shown (a shaken card, a note by it) is counted, however soon the board replaces it
    page.evaluate("""() => {
      window.refusals = 0;
      new MutationObserver(changes => changes.forEach(change => {
        if (change.type === "attributes" && change.target.classList.contains("refused")) window.refusals++;
        change.addedNodes.forEach(n => { if (n.classList && n.classList.contains("toast")) window.refusals++; });
      })).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
    }""")
    # both halves of the double tap at once (Playwright's own click would wait for the moved card
    # to stand still, longer than a double tap on a loaded machine); the second lands on the card
    page.evaluate("""([card, into]) => {
      document.querySelector(`#board [data-card="${card}"]`).click();
      document.querySelector(`#board [data-pos="${into}"]`).click();
    }""", [moved[0], into])
    wait_ply(page, 1)
    settled(page)
    assert page.get_attribute(f'#board [data-pos="{into}"]', "data-card") == moved[0]
    assert page.evaluate("window.refusals") == 0
    assert ply(page) == 1
    assert not page.js_errors


def test_a_double_tap_whose_second_half_lands_on_the_gap_the_card_left_fills_nothing(server, new_page):
    """Gaps seed 1: the 4♠ goes from 2.3 to 3.4 in one tap, and the gap it leaves at 2.3 then takes
    one card in one tap. The second half of a double tap lands there: it is no second move."""
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/gaps/1")
    slow_connection(page, 150)
    assert page.get_attribute('#board [data-pos="2.3"]', "data-move") == "2.3>3.4"
    ahead = json.loads(page.get_attribute("#board [data-ahead]", "data-ahead"))
    assert ahead["2.3>3.4"]["2.3"][1]  # the gap left there would be filled by a tap
    page.evaluate("""() => {
      document.querySelector('#board [data-pos="2.3"]').click();
      document.querySelector('#board [data-pos="2.3"]').click();
    }""")
    wait_ply(page, 1)
    settled(page)
    assert ply(page) == 1 and page.get_attribute('#board [data-pos="3.4"]', "data-card") == "4S"
    assert page.get_attribute('#board [data-pos="2.3"]', "data-gap") is not None
    assert not page.js_errors


def test_a_click_held_down_while_the_servers_board_is_laid_in_is_made(server, new_page):
    """A mouse press is a tenth of a second or more; the answer to the move before can be laid in
    meanwhile, and the card under the pointer is then the board's new copy of it. The browser
    fires no click for a press whose element went (Chromium), so the page makes the tap itself
    when the press ends on the same card. Without that the tap was lost, with nothing said."""
    page = new_page()
    page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
    held = []
    page.route("**/play/pyramid*", lambda route: held.append((route, route.fetch()))
               if route.request.method == "POST" else route.continue_())
    page.click('#board [data-loc="P23"][data-card]')  # a king: gone at once, its answer held
    page.wait_for_function("() => TrettenBoard.waiting()")
    for _ in range(500):  # the post reaches the route (its handler runs while Playwright waits)
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the king's post never came"
    card = page.locator('#board [data-loc="P22"][data-card]')
    box = card.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    pressed = card.element_handle()
    route, response = held.pop()
    route.fulfill(response=response)
    page.wait_for_function("el => !el.isConnected", arg=pressed)  # the server's board, laid in
    page.mouse.up()
    page.wait_for_selector('#board [data-loc="P22"][data-card].selected')
    page.unroute("**/play/pyramid*")
    page.click('#board [data-loc="P25"][data-card]')
    wait_ply(page, 2)
    settled(page)
    equals_a_fresh_load(page)
    assert page.locator('#board [data-loc="P22"][data-removed]').count() == 1
    assert not page.js_errors


def test_a_move_htmx_did_not_send_is_sent_again(server, new_page):
    """The board's form drops a request while it has one of its own on its way (hx-sync
    "this:drop"), and htmx says nothing of it. A move posted then is posted again, not left
    shown and waiting for ever."""
    page = new_page()
    page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
    held = []
    page.route("**/healthz*", lambda route: held.append(route))
    # a request of the form's own, on its way (not one for the board: the queue does not wait for it)
    page.evaluate("() => { htmx.ajax('GET', '/healthz', {source: document.querySelector('#board form'),"
                  " target: '#announce', swap: 'none'}).catch(() => {}); }")
    for _ in range(500):  # the request reaches the route (its handler runs while Playwright waits)
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the form's request never came"
    page.click('#board [data-loc="P23"][data-card]')  # a king: shown at once, its post dropped
    held.pop().fulfill(status=200, body="ok")
    page.unroute("**/healthz*")
    page.wait_for_function("() => !TrettenBoard.waiting()")
    wait_ply(page, 1)
    equals_a_fresh_load(page)  # the server holds it
    assert page.locator('#board [data-loc="P23"][data-removed]').count() == 1
    assert not page.js_errors


def test_a_2_selected_right_after_a_move_goes_into_the_gap_that_move_left(server, new_page):
    """Gaps seed 3: the 6♠ goes from 1.0 to 0.7 in one tap; the 2♣ (two gaps of column 0 to go
    to) is selected, and the gap at 1.0 tapped, all within a double tap's time. The last tap is
    not the second half of the 6♠'s double tap (a tap came between): the 2♣ goes there."""
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/gaps/3")
    assert page.get_attribute('#board [data-pos="1.0"]', "data-move") == "1.0>0.7"
    page.evaluate("""() => { const at = pos => document.querySelector(`#board [data-pos="${pos}"]`);
      at("1.0").click(); }""")
    page.wait_for_function("() => TrettenBoard.debug().known")  # the answers after the move, laid on
    page.evaluate("""() => { const at = pos => document.querySelector(`#board [data-pos="${pos}"]`);
      at("0.5").click(); at("1.0").click(); }""")
    wait_ply(page, 2)
    settled(page)
    assert page.get_attribute('#board [data-pos="1.0"]', "data-card") == "2C"
    assert page.get_attribute('#board [data-pos="0.7"]', "data-card") == "6S"
    assert not page.js_errors


def test_a_gaps_move_on_the_answers_one_move_ahead_puts_the_card_in_the_gap(server, new_page):
    """Gaps seed 1 with the network gone: the 4♠ goes from 2.3 to 3.4, and the one card that fits
    the gap it left is tapped on the answers the board wrote one move ahead. The page shows that
    card in the gap and a gap where it was (a card went nowhere and the gap went blank, when those
    answers named only the gap's place). Back online, both moves are stored as shown."""
    page = new_page(width=390, height=844)
    errors: list[str] = []  # uncaught (the console's lines about the requests that failed are expected)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/play/gaps/1")
    settled(page)
    page.context.set_offline(True)
    page.click('#board [data-pos="2.3"]')
    fits = page.locator('#board button[data-card][data-move$=">2.3"]')
    fits.wait_for()
    start = fits.get_attribute("data-pos")
    card = fits.get_attribute("data-card")
    assert fits.get_attribute("data-move") == f"{start}>2.3"
    fits.click()
    page.wait_for_function("""([card, start]) => {
      const into = document.querySelector('#board [data-pos="2.3"]');
      const left = document.querySelector(`#board [data-pos="${start}"]`);
      return into && into.dataset.card === card && left && left.hasAttribute('data-gap'); }""", arg=[card, start])
    shot(page, "gaps-two-moves-offline-390")
    page.context.set_offline(False)
    wait_ply(page, 2)
    settled(page)
    assert page.get_attribute('#board [data-pos="2.3"]', "data-card") == card
    equals_a_fresh_load(page)
    assert not errors


def test_a_gaps_move_shown_before_its_board_draws_the_gap_it_leaves_as_the_next_board_does(server, new_page):
    """Gaps seed 1 with the network gone: the card at 0.12 goes to 1.6 and leaves a gap after a
    king, which nothing can fill. The page draws it dead (×) at once, as the board after it will,
    not as an open gap a player would try to fill."""
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/gaps/1")
    settled(page)
    assert page.get_attribute('#board [data-pos="0.12"]', "data-move") == "0.12>1.6"
    page.context.set_offline(True)
    page.click('#board [data-pos="0.12"]')
    page.wait_for_selector('#board button.gap.dead[data-pos="0.12"][data-gap="dead"]')
    assert page.inner_text('#board [data-pos="0.12"]') == "×"
    page.context.set_offline(False)
    wait_ply(page, 1)
    settled(page)
    assert page.get_attribute('#board [data-pos="0.12"]', "data-gap") == "dead"


def test_the_last_draw_shown_before_its_board_makes_the_piles_button_turn_over(server, new_page):
    """Pyramid with three passes, seed 5, one card left in the stock, the network gone: Draw
    shows the last card drawn, and the pile's button is at once the next board's, Turn over,
    which shows the turnover too (it said Draw, with nothing to draw, and was turned down). Back
    online, both are stored as shown."""
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/pyramid-3/5")
    settled(page)
    for n in range(1, 24):
        page.click('#board [data-action="draw"]')
        wait_ply(page, n)
    settled(page)
    page.context.set_offline(True)
    page.click('#board [data-action="draw"]')
    turn = page.wait_for_selector('#board button.pile-action[data-action="recycle"][data-move="W"]:not([disabled])')
    assert turn.inner_text().split() == ["↺", "Turn", "over"] and turn.get_attribute("value") == "recycle"
    turn.click()
    page.wait_for_function("() => document.getElementById('board').dataset.pending === '2'")
    assert page.inner_text('#board [data-stat="ply"]') == "25"
    page.context.set_offline(False)
    wait_ply(page, 25)
    settled(page)
    assert page.get_attribute("#board", "data-pending") == "0" and page.inner_text('#board [data-stat="pass"]') == "2"
    equals_a_fresh_load(page)


# Giza deal 5 (its reserves: G3 is 4♣ on A♥ on 7♦): a line to where 9♦ pairs with the 4♣ and
# Q♠ with the A♥ under it
GIZA_LINE = "P22 P23+G0 P16+G0 P21+G2 P15+G5 P24+G5 P26+G5 P25+G7 P10+P18 P19+G3 P17+G3".split()


def test_a_giza_reserves_next_card_is_tapped_as_soon_as_it_shows(server, new_page):
    """Its cards lie face up: the one under a card that leaves is in sight at once, and a tap on
    it counts (it was a picture until the server's board came, and the pair tapped was lost)."""
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/giza/5")
    play(page, GIZA_LINE[:9])
    slow_connection(page, 150)

    def centre(selector: str) -> tuple[float, float]:
        box = page.locator(selector).bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    under = page.evaluate("() => { const r = [...document.querySelectorAll('#board .reserve')[3]"
                          ".querySelectorAll('.card.under')].pop().getBoundingClientRect();"
                          " return [r.x, r.y, r.width]; }")
    taps_at = [centre('#board [data-loc="P19"][data-card]'), centre('#board [data-loc="G3"][data-card]'),
               centre('#board [data-loc="P17"][data-card]'), (under[0] + under[2] / 2, under[1] + 6)]  # the A♥'s strip
    for x, y in taps_at:  # as fast as a thumb: no answer comes in between
        page.mouse.click(x, y)
    wait_ply(page, 11)
    settled(page)
    assert ply(page) == 11 and page.get_attribute("#board", "data-selected") == ""
    assert page.get_attribute('#board [data-loc="G3"][data-card]', "data-card") == "7D"
    equals_a_fresh_load(page)
    assert not page.js_errors
