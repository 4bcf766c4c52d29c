"""The solver serves players first (issue 40): a page view never takes a search slot a player's
hint needs (it serves what is kept and leaves the search to the solver's spare time), and a hint
asked again on the same position is answered from what was found."""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest

from app.services.assist import par, searches

from ..helpers import HX, csrf_of


@pytest.fixture
def admissions(monkeypatch) -> list:
    """Every search let into a slot, by whom it was asked (None: the app's own, uncapped)."""
    asked: list = []
    real = searches.admitted

    @contextmanager
    def recording(player_id):
        asked.append(player_id)
        with real(player_id):
            yield

    monkeypatch.setattr(searches, "admitted", recording)
    return asked


@pytest.mark.parametrize("path, seed", [("/deal/relaxed/{seed}", 700_020), ("/api/deals/relaxed/{seed}", 700_021),
                                        ("/deal/gaps/{seed}", 700_022)])
def test_a_page_view_takes_no_players_slot_and_its_answer_comes_with_the_next_look(client, admissions, path, seed):
    """Each a winnable deal nobody has asked about."""
    first = client.get(path.format(seed=seed))
    assert first.status_code == 200
    searches.wait_for_spare_time()
    assert all(who is None for who in admissions), admissions  # the spare time's, never a player's slot
    if path.startswith("/deal/relaxed"):
        assert 'data-stat="par"' not in first.text  # not searched while the page waited
        # proven, or the best line known if the lowest CPU priority ran out of its seconds on a busy machine
        assert re.search(r'data-stat="par" data-par-proven="\w+">\d+ moves<', client.get(path.format(seed=seed)).text)
    elif path.startswith("/api"):
        assert first.json()["par"] is None
        with client.app.state.sessionmaker() as session:  # kept for the next look (proven, or the best known)
            assert par.known(session, par.start_of_deal("relaxed", seed)) is not None


def test_with_every_slot_taken_by_players_a_deal_page_still_answers_at_once(client):
    with searches.admitted("someone"), searches.admitted("someone else"), searches.admitted("a third"):
        page = client.get("/deal/pyramid/700100")
        assert page.status_code == 200  # and no search of its own waits while the players search


def test_a_hint_asked_again_on_the_same_position_is_not_searched_again(client, other_client, monkeypatch):
    calls = []
    real = searches.best_score_move

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(searches, "best_score_move", counted)
    hints = []
    for browser in (client, other_client):  # two players at the start of a deal no one can win
        url = "/play/pyramid/1"
        page = browser.get(url).text
        answer = browser.post(f"{url}/hint", data={"csrf_token": csrf_of(page)}, headers=HX)
        assert answer.status_code == 200, answer.text
        hints.append(re.search(r'data-hint="([^"]+)"', answer.text).group(1))
    assert hints[0] == hints[1] and len(calls) == 1
