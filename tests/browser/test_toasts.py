"""A refusal's words never cover the control the player wanted (issue 39): the toast beside a
tapped card keeps clear of the board's buttons, the stock's Draw strip under its card first."""

from __future__ import annotations

import pytest

from app.engine import GameRecord, deal_for_seed, get_preset

from .conftest import shot
from .test_table import RECTS, SIZES, settled


def stock_card_refused_seed() -> int:
    """A Pyramid deal whose stock card makes no pair at the start: a tap on it is turned down."""
    preset = get_preset("pyramid")
    for seed in range(200):
        position = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed)).position
        if not any("S" in str(move).split("+") for move in position.legal_moves()):
            return seed
    raise AssertionError("no deal whose stock card is refused")


def meets(a: dict, b: dict) -> bool:
    return a["x"] < b["right"] and b["x"] < a["right"] and a["y"] < b["bottom"] and b["y"] < a["bottom"]


@pytest.mark.parametrize("size", SIZES)
def test_the_words_for_a_refused_stock_card_leave_the_draw_strip_in_view(server, new_page, size):
    page = new_page(*size)
    page.goto(f"{server}/play/pyramid/{stock_card_refused_seed()}")
    settled(page)
    assert page.get_attribute('#board [data-loc="S"]', "data-refusal")  # the server wrote: turned down
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
