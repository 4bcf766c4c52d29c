"""Moves in a list (templates/_moves.html, ``short``): card symbols, and in Double Pyramid, where
each card of two decks came from, in each language."""

from __future__ import annotations

import pytest

from app.engine.announcements import Announcement
from app.engine.cards import parse_card
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
