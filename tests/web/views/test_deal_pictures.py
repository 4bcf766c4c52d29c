"""The lobby's small pictures of a deal: cards as they lie, in words and symbols, each card once."""

from __future__ import annotations

import re

import pytest

from app.engine import PRESETS
from app.web.routes.lobby import FEATURED
from app.web.views.deal_pictures import PICTURES, picture

pytestmark = pytest.mark.sqlite_only  # what is drawn, not how it is stored


def test_each_featured_game_has_a_picture_whose_cards_are_each_once():
    for slug in FEATURED:
        drawn = picture(PRESETS[slug].game)
        assert drawn is not None and drawn.shape in ("grid", "pyramid")
        cards = [place.card for row in drawn.rows for place in row if place.card is not None]
        assert len(cards) == len(set(cards)) and any(place.lit for row in drawn.rows for place in row)
    assert set(PICTURES) == {PRESETS[slug].game for slug in FEATURED}


def test_the_lobby_draws_them_with_the_players_words_for_the_ranks(client):
    page = client.get("/", headers={"Accept-Language": "da"}).text
    pyramid = re.search(r'<div class="deal-picture pyramid-picture".*?</div>\s*</div>', page, re.S).group(0)
    faces = re.findall(r'<span class="mini suit-\w( lit)?">([^<]+)</span>', pyramid)
    assert [face for _, face in faces][:3] == ["K♠", "9♥", "4♣"] and "D♦" in [face for _, face in faces]
    assert page.count('class="mini gap') == 3  # the Gaps picture's gaps, one of them lit
