"""A hint on a deal ready to play stores its game, so it is a new game under the limit on new
games per minute: beyond it, the hint is refused before the solver is asked, and nothing is
written, not even the solver's facts (kept in their own unit of work, app.db.session)."""

from __future__ import annotations

import pytest

from app.services.assist import searches

from ..helpers import HX, csrf_of
from ..helpers import first_move as played_first
from ..http.test_refusals import refused, snapshot

LIMIT = 2


@pytest.fixture
def limited(app):
    """The app allowing LIMIT new games a minute per player (the tests' own settings allow 1000).
    Not monkeypatch.setattr: its undo looks for the old value in the instance's ``__dict__``,
    and Starlette's State keeps it elsewhere, so the settings were deleted afterwards."""
    settings = app.state.settings
    app.state.settings = settings.model_copy(update={"games_per_minute": LIMIT})
    yield app
    app.state.settings = settings


def _at_the_limit(client, first_seed: int) -> None:
    for seed in range(first_seed, first_seed + LIMIT):
        played_first(client, f"/play/pyramid/{seed}", action="draw")
    page = client.get(f"/play/pyramid/{first_seed + LIMIT}")
    over = client.post(f"/play/pyramid/{first_seed + LIMIT}", data={"csrf_token": csrf_of(page.text), "action": "draw"},
                       headers=HX)
    assert over.status_code == 429, over.text[:300]  # a first move is refused now: so is a new game


@pytest.mark.parametrize("htmx", [True, False])
def test_a_first_hint_beyond_the_limit_is_refused_and_writes_nothing(client, limited, htmx):
    _at_the_limit(client, 7_320_000 + 10 * htmx)
    seed = 7_320_777 + htmx  # a deal never searched in this database: its hint would search and keep facts
    page = client.get(f"/play/pyramid/{seed}")
    searches.wait_for_spare_time()  # an earlier test's hint or deal page left the solver a job that writes
    answer = refused(limited, lambda: client.post(f"/play/pyramid/{seed}/hint", data={"csrf_token": csrf_of(page.text)},
                                                  headers=HX if htmx else {}), 429)
    assert int(answer.headers["retry-after"]) >= 1


def test_a_first_hint_within_the_limit_stores_its_game_and_the_solvers_facts(client, limited):
    """The other side of the test above: the same hint, one game fewer, writes (rows the
    comparison above would have seen)."""
    played_first(client, "/play/pyramid/7320900", action="draw")
    page = client.get("/play/pyramid/7320901")
    before = snapshot(limited)
    answer = client.post("/play/pyramid/7320901/hint", data={"csrf_token": csrf_of(page.text)}, headers=HX)
    assert answer.status_code == 200, answer.text[:300]
    after = snapshot(limited)
    grown = {name for name in after if len(after[name]) > len(before[name])}
    assert {"games", "position_verdicts"} <= grown, grown


def test_a_first_hint_beyond_the_addresss_limit_is_refused_before_its_search(client, app):
    """The same with the limit on new games from one address (many players behind it): the
    hint asks it before the search, and counts nothing until its game is stored."""
    from app.services.ratelimit import Arrivals

    kept = app.state.new_games
    app.state.new_games = Arrivals(LIMIT, 0, message="too many new games from this address", key="rate_limited")
    try:
        for seed in range(7_321_000, 7_321_000 + LIMIT):
            played_first(client, f"/play/pyramid/{seed}", action="draw")
        seed = 7_321_777  # a deal never searched in this database
        page = client.get(f"/play/pyramid/{seed}")
        searches.wait_for_spare_time()
        refused(app, lambda: client.post(f"/play/pyramid/{seed}/hint", data={"csrf_token": csrf_of(page.text)},
                                         headers=HX), 429)
    finally:
        app.state.new_games = kept
