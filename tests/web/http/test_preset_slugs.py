"""A preset's former name (app.engine.presets.ALIASES) is the preset itself on every route that
takes one: the same games, the same deal, the same preview; an unknown name is a 404 everywhere."""

from __future__ import annotations

import pytest

from app.db.models import Game
from app.engine.presets import ALIASES
from app.services.assist import searches

from ..helpers import HX, csrf_of
from ..helpers import first_move as played_first
from .test_refusals import snapshot

ALIAS = "tuts-tomb"
assert ALIASES[ALIAS] == "pyramid"


@pytest.mark.parametrize("moved_on, opened", [("pyramid", ALIAS), (ALIAS, "pyramid"), (ALIAS, ALIAS)])
def test_a_deal_in_play_is_found_under_either_name(client, moved_on, opened):
    """The player's game of a deal in play is the answer to its link whichever name it uses:
    the former name's link once showed a fresh deal, and its first move was refused as "raced"."""
    seed = 7_310_000 + ["pyramid", ALIAS].index(moved_on) * 10 + ["pyramid", ALIAS].index(opened)
    game_id, _ = played_first(client, f"/play/{moved_on}/{seed}", htmx=False, action="draw")
    for url in (f"/play/{opened}/{seed}", f"/play/pyramid/{seed}"):
        answer = client.get(url)
        assert (answer.status_code, answer.headers.get("location")) == (303, f"/games/{game_id}"), url
    again = client.get(f"/play/{opened}/{seed}", headers=HX)  # htmx: to the game's page, not the deal's board
    assert again.headers.get("hx-redirect") == f"/games/{game_id}", again.status_code


def test_a_first_move_under_the_former_name_stores_a_game_of_the_preset(client, app):
    game_id, _ = played_first(client, f"/play/{ALIAS}/7310100", action="draw")
    with app.state.sessionmaker() as session:
        assert session.get(Game, game_id).preset == "pyramid"
    assert f"/play/{ALIAS}" not in client.get(f"/games/{game_id}").text  # its links are the preset's


def test_a_first_hint_under_the_former_name_stores_a_game_of_the_preset(client):
    page = client.get(f"/play/{ALIAS}/7310200")
    hinted = client.post(f"/play/{ALIAS}/7310200/hint", data={"csrf_token": csrf_of(page.text)}, headers=HX)
    assert hinted.status_code == 200, hinted.text[:300]
    game_id = hinted.headers["HX-Push-Url"].rsplit("/", 1)[1]
    # the game the hint stored is the one both names now find (its first move is still to come)
    moved = client.post("/play/pyramid/7310200", data={"csrf_token": csrf_of(page.text), "action": "draw"})
    assert moved.headers["location"] == f"/games/{game_id}"
    assert client.get(f"/play/{ALIAS}/7310200").headers["location"] == f"/games/{game_id}"


def test_a_new_deal_and_the_daily_deal_under_the_former_name_are_the_presets(client):
    fresh = client.get(f"/play/{ALIAS}")
    assert fresh.status_code == 303 and fresh.headers["location"].startswith("/play/pyramid/")
    lobby = client.get(f"/play?preset={ALIAS}&seed=12")
    assert lobby.headers["location"] == "/play/pyramid/12"
    assert client.get(f"/daily/{ALIAS}").headers["location"] == client.get("/daily/pyramid").headers["location"]
    deal = client.get(f"/deal/{ALIAS}/12")
    assert deal.status_code == 200 and 'href="/play/pyramid/12"' in deal.text


def test_a_preview_under_the_former_name_is_the_presets(client):
    alias, own = client.get(f"/preview/en/{ALIAS}/31.png"), client.get("/preview/en/pyramid/31.png")
    assert alias.status_code == own.status_code == 200, alias.text[:200]
    assert alias.content == own.content and alias.headers["etag"] == own.headers["etag"]


@pytest.mark.parametrize("method, url", [
    ("get", "/play/nope"), ("get", "/play/nope/5"), ("get", "/play?preset=nope&seed=5"),
    ("get", "/deal/nope/5"), ("get", "/daily/nope"), ("get", "/preview/en/nope/5.png"),
    ("post", "/play/nope/5"), ("post", "/play/nope/5/hint"), ("post", "/play/nope/hint"),
])
def test_an_unknown_preset_is_a_404_that_changes_nothing(client, app, method, url):
    page = client.get("/play/pyramid/5")
    searches.wait_for_spare_time()  # an earlier test's deal page or hint left the solver a job that writes
    before = snapshot(app)
    data = {"csrf_token": csrf_of(page.text), "action": "draw"} if method == "post" else None
    answer = client.post(url, data=data) if method == "post" else client.get(url)
    assert answer.status_code == 404, (answer.status_code, answer.text[:300])
    assert snapshot(app) == before
