"""A tap's words never cover the control the player wanted (issue 39): the toast beside a tapped
card keeps clear of the board's buttons, the stock's Draw strip under its card first. And the
line that says moves wait for the network is the board's status, clear of the header and the
buttons."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from app.engine import GameRecord, deal_for_seed, get_preset
from app.engine.taps import places

from .conftest import shot
from .test_answers import ISSUE_DEAL, taps
from .test_network import OFFLINE_MOVES, network, uncaught
from .test_table import RECTS, SIZES, settled


def stock_card_no_pair_seed() -> tuple[int, str]:
    """A Pyramid deal whose stock card pairs at the start, and a free card of the pyramid it does
    not pair with: tapped after that card, the stock's card is selected with the words why the
    two make no pair, beside it. (A stock card with no pair at all draws: no words.)"""
    preset = get_preset("pyramid")
    for seed in range(200):
        position = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed)).position
        pairs = [set(places(m)) for m in position.legal_moves() if len(places(m)) == 2]
        with_stock = {loc for pair in pairs if "S" in pair for loc in pair}
        others = sorted({loc for pair in pairs for loc in pair} - with_stock - {"W"})
        if with_stock and others:
            return seed, others[0]
    raise AssertionError("no deal whose stock card pairs, but not with every free card")


def meets(a: dict, b: dict) -> bool:
    return a["x"] < b["right"] and b["x"] < a["right"] and a["y"] < b["bottom"] and b["y"] < a["bottom"]


@pytest.mark.parametrize("size", SIZES)
def test_the_words_beside_the_stock_card_leave_the_draw_strip_in_view(server, new_page, size):
    seed, other = stock_card_no_pair_seed()
    page = new_page(*size)
    page.goto(f"{server}/play/pyramid/{seed}")
    settled(page)
    page.click(f'#board [data-loc="{other}"]')
    assert page.get_attribute('#board [data-loc="S"]', "data-nopair")  # the server wrote why, for the page
    page.click('#board [data-loc="S"]')
    page.wait_for_selector("#board .toast[data-near]", state="visible")
    toast = page.evaluate(RECTS, "#board .toast[data-near]")[0]
    card = page.evaluate(RECTS, '#board [data-loc="S"]')[0]
    for control in page.evaluate(RECTS, "#board [data-action]:not([disabled])"):
        assert not meets(toast, control), (control, toast)
    gap_x = max(0, card["x"] - toast["right"], toast["x"] - card["right"])
    gap_y = max(0, card["y"] - toast["bottom"], toast["y"] - card["bottom"])
    assert gap_x <= 20 and gap_y <= 20, (card, toast)  # still beside the card
    shot(page, f"toast-stock-{size[0]}")
    assert not page.js_errors


# the stock and the waste, and the Draw strip under the stock: what the player wants next
PILES = '#board [data-pile], #board [data-action="draw"], #board [data-action="recycle"]'
@pytest.mark.parametrize("size", SIZES)
def test_the_words_of_a_card_with_no_partner_leave_the_stock_and_waste_in_view(server, new_page, size):
    page = new_page(*size)
    page.goto(f"{server}/play/pyramid/5")
    settled(page)
    alone = page.eval_on_selector_all('#board [data-refusal="no_partner"]', "els => els.map(el => el.dataset.loc)")
    assert alone  # free cards with no partner, in the pyramid's bottom row: right above the stock
    for loc in alone:
        page.click(f'#board [data-loc="{loc}"]')
        toast = page.wait_for_selector(f'#board .toast[data-near="{loc}"]', state="visible")
        assert "13" in toast.inner_text()
        box = page.evaluate(RECTS, f'#board .toast[data-near="{loc}"]')[0]
        covered = [pile for pile in page.evaluate(RECTS, PILES) if pile["w"] and meets(box, pile)]
        assert not covered, (loc, box, covered)
    shot(page, f"toast-no-partner-{size[0]}")
    assert not page.js_errors


@pytest.mark.parametrize("width,height,locale", [(390, 844, "da-DK"), (390, 844, "sv-SE"), (1280, 800, "da-DK")])
def test_the_waiting_line_is_the_boards_status_clear_of_the_header_title_and_buttons(server, new_page, width, height,
                                                                                      locale):
    """Moves waiting for the network are said in the row of the board's figures and buttons (it
    lay over the site's header at the window's top: on a phone, over its links)."""
    page = new_page(width, height, locale=locale)
    errors = uncaught(page)
    page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
    settled(page)
    network(page, offline=True)
    for selector in taps(OFFLINE_MOVES[0]):  # the king: shown at once, and it waits
        page.click(selector)
    page.wait_for_selector("#board [data-sync]:not([hidden])")
    line = page.evaluate(RECTS, "#board [data-sync]")[0]
    around = page.evaluate(RECTS, "header.site, .game-head h1, .game-head .share > *, "
                                  "#board .button, #board [data-action], #board [data-loc]")
    covered = [box for box in around if box["w"] and meets(line, box)]
    assert not covered, (line, covered)
    # under the game's head, above the table, inside the window
    head, table = page.evaluate(RECTS, ".game-head")[0], page.evaluate(RECTS, "#board .table")[0]
    assert head["bottom"] <= line["y"] and line["bottom"] <= table["y"], (head, line, table)
    assert line["x"] >= 0 and line["right"] <= width
    shot(page, f"waiting-line-{width}-{locale}")
    network(page, offline=False)
    page.wait_for_selector("#board [data-sync]", state="hidden")
    assert not errors
