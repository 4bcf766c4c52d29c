"""A deal's par and a win against it are worded once (app/web/views/par_words.py): the pages'
templates and the shared result say the same words, in each language."""

from __future__ import annotations

import pytest

from app.i18n import LANGUAGE, translations_for
from app.web.views.par_words import MINUS, over_par, par_name
from app.web.views.templating import environment


@pytest.mark.parametrize(("language", "par", "as_short", "best"), [
    ("en", "par", "as short", "Best known 41 moves (at least 38)"),
    ("da", "par", "lige så kort", "Bedste kendte 41 træk (mindst 38)"),
    ("sv", "par", "lika kort", "Bästa kända 41 drag (minst 38)"),
])
def test_par_and_a_win_against_it_in_each_language(language, par, as_short, best):
    words = translations_for(language)
    assert over_par(0, True, words) == par and over_par(0, False, words) == as_short
    assert over_par(3, True, words) == "+3" and over_par(-2, False, words) == f"{MINUS}2"
    assert par_name(41, False, 38, words) == best
    assert par_name(41, False, None, words) == best.split(" (")[0]
    assert par_name(41, True, 38, words).endswith("41") and "41" in par_name(41, True, 0, words)


@pytest.mark.parametrize("language", ["en", "da", "sv"])
def test_the_pages_par_line_says_what_the_shared_result_says(language):
    words = translations_for(language)
    token = LANGUAGE.set(language)  # as the language middleware sets it for a request
    try:
        template = environment.from_string('{% from "_par.html" import par_line %}{{ par_line(41, false, 44, 38) }}')
        line = template.render()
    finally:
        LANGUAGE.reset(token)
    assert f"<strong>{par_name(41, False, 38, words)}</strong>" in line
    assert f"<strong>{over_par(3, False, words)}</strong>" in line and 'data-over="3"' in line
