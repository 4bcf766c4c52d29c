"""A tap's words never cover the control the player wanted (issue 39): the toast beside a tapped
card keeps clear of the board's buttons, the stock's Draw strip under its card first."""

from __future__ import annotations

import pytest

from app.engine import GameRecord, deal_for_seed, get_preset
from app.engine.taps import places

from .conftest import shot
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
