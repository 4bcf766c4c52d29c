"""The share text against par (app/web/views/sharing.py with app.services.assist.par): "+4", "par" or
"−" after the par, "best known" without a proof, and the place on the day's table, in da, sv, en."""

from __future__ import annotations

import pytest

from app.services.assist.par import Par
from app.web.views import sharing

from .test_sharing import CLEARED, LOSS, URL, WIN, _game, _played

PAR = Par(34, True, ("D",) * 34)


def _share(record, language, *, par=PAR, rank=None, **fields) -> str:
    return sharing.share_text(_game(record, **fields), record.position, language, URL, par=par, rank=rank)


@pytest.mark.parametrize(("language", "result", "scored"), [
    ("en", "Won in 38 moves, 2:41 · no undos, no hints", "Par 34: +4 · No. 3 of 12 on the day's table"),
    ("da", "Vundet på 38 træk, 2:41 · uden at fortryde, uden tip", "Par 34: +4 · Nr. 3 af 12 på dagens rangliste"),
    ("sv", "Vunnet på 38 drag, 2:41 · utan att ångra, utan ledtrådar", "Par 34: +4 · Nr 3 av 12 på dagens topplista"),
])
def test_a_win_over_par_with_its_place(language, result, scored):
    text = _share(_played(WIN), language, rank=(3, 12))
    assert text.split("\n")[:3] == [text.split("\n")[0], result, scored]
    assert text.split("\n")[3:] == CLEARED.split("\n") + [URL]


@pytest.mark.parametrize(("language", "scored"), [("en", "Par 38: par"), ("da", "Par 38: par"), ("sv", "Par 38: par")])
def test_a_win_at_par(language, scored):
    assert _share(_played(WIN), language, par=Par(38, True, ())).split("\n")[2] == scored


@pytest.mark.parametrize(("language", "scored"), [
    ("en", "Best known 40 moves: \u22122"), ("da", "Bedste kendte 40 træk: \u22122"), ("sv", "Bästa kända 40 drag: \u22122"),
])
def test_a_best_known_line_is_never_called_par(language, scored):
    assert _share(_played(WIN), language, par=Par(40, False, ())).split("\n")[2] == scored


@pytest.mark.parametrize(("language", "scored"), [
    ("en", "Best known 38 moves: as short"), ("da", "Bedste kendte 38 træk: lige så kort"), ("sv", "Bästa kända 38 drag: lika kort"),
])
def test_a_win_as_short_as_a_best_known_line_is_not_at_par(language, scored):
    assert _share(_played(WIN), language, par=Par(38, False, ())).split("\n")[2] == scored


def test_the_end_screen_calls_a_win_as_short_as_a_best_known_line_what_it_is():
    from app import i18n
    from app.web.views.templating import environment

    macros = environment.get_template("_par.html").module
    i18n.set_language("en")
    assert macros.par_line(38, True, 38).count(">par<") == 1
    unproven = str(macros.par_line(38, False, 38))
    assert "Best known 38 moves" in unproven and ">as short<" in unproven and ">par<" not in unproven


def test_a_lost_game_says_the_deals_par_alone_and_no_par_no_line():
    assert _share(_played(LOSS), "en").split("\n")[2] == "Par 34"  # it was "Par 34: −"
    plain = _share(_played(WIN), "en", par=None)
    assert plain == sharing.share_text(_game(_played(WIN)), _played(WIN).position, "en", URL)
    assert "Par" not in plain
