"""Moves in a list (templates/_moves.html, ``short``): card symbols, and in Double Pyramid, where
each card of two decks came from, in each language."""

from __future__ import annotations

import pytest

from app.engine import PRESETS
from app.engine.announcements import Announcement, describe
from app.engine.cards import parse_card
from app.engine.pyramid import DRAW
from app.engine.variants import get_game
from app.i18n import LANGUAGE
from app.web.views.templating import environment

REMOVAL = Announcement("remove", cards=(parse_card("7S"), parse_card("6H")), places=("pyramid-2", "waste"))


def short(announcement: Announcement, language: str) -> str:
    token = LANGUAGE.set(language)  # as the language middleware sets it for a request
    try:
        return environment.from_string('{% from "_moves.html" import short %}{{ short(a) }}').render(a=announcement)
    finally:
        LANGUAGE.reset(token)


@pytest.mark.parametrize(("language", "words"), [
    ("en", '<span class="suit-S">7♠</span> <span class="from">(pyramid 2)</span> + <span class="suit-H">6♥</span> <span class="from">(waste)</span>'),
    ("da", '<span class="suit-S">7♠</span> <span class="from">(pyramide 2)</span> + <span class="suit-H">6♥</span> <span class="from">(affaldsbunke)</span>'),
    ("sv", '<span class="suit-S">7♠</span> <span class="from">(pyramid 2)</span> + <span class="suit-H">6♥</span> <span class="from">(kasthög)</span>'),
])
def test_a_double_pyramid_removal_in_a_list_says_where_each_card_lay(language, words):
    assert short(REMOVAL, language) == words


def test_a_removal_with_no_places_is_its_cards_alone():
    # each card in a span of its suit, as the cards are coloured
    assert short(Announcement("remove", cards=REMOVAL.cards), "da") == '<span class="suit-S">7♠</span> + <span class="suit-H">6♥</span>'


def spoken(announcement: Announcement, language: str) -> str:
    token = LANGUAGE.set(language)
    try:
        return environment.from_string('{% from "_moves.html" import spoken %}{{ spoken(a) }}').render(a=announcement)
    finally:
        LANGUAGE.reset(token)


def test_a_draw_says_which_card_went_onto_the_waste_and_which_turned_up():
    """The stock's top card lies face up: a draw's news is the card under it. A reader heard
    "Ruder dame vendt op." of the card that went to the waste, not of the one that turned up."""
    variant = get_game("pyramid")
    before = variant.new_position(variant.deal(1), PRESETS["pyramid"].rules)  # stock: Q♣, 4♠, …
    drawn = describe(DRAW, before, before.apply(DRAW))
    assert (drawn.cards, drawn.turned) == ((parse_card("QC"),), parse_card("4S"))
    assert spoken(drawn, "da") == "Klør dame lagt på affaldsbunken; spar 4 vendt op."
    assert spoken(drawn, "sv") == "Klöver dam lades på kasthögen; spader 4 vändes upp."
    last = Announcement("draw", cards=drawn.cards)  # the stock's last card
    assert spoken(last, "en") == "Queen of clubs onto the waste; the stock is empty."
