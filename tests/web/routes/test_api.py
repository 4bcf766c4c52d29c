"""The JSON API: tokens, game creation, moves with ply checks (409), undo/redo, errors as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.engine import PRESETS, deal_for_seed, format_deal, get_game

VECTORS = Path(__file__).resolve().parents[2] / "vectors" / "replay.jsonl"


def new_token(client) -> dict:
    response = client.post("/api/players")
    assert response.status_code == 201
    return {"Authorization": f"Bearer {response.json()['token']}"}


def test_api_flow_with_stale_ply(client):
    auth = new_token(client)
    created = client.post("/api/games", json={"preset": "pyramid", "seed": 99}, headers=auth)
    assert created.status_code == 201
    game = created.json()
    assert game["deal"] == format_deal(deal_for_seed("pyramid", 99))
    assert game["seed"] == 99 and game["cursor"] == 0 and game["status"] == "playing"
    assert "D" in game["legal"] and game["position"]["pass"] == 1
    moved = client.post(f"/api/games/{game['id']}/moves", json={"move": "D", "ply": 0}, headers=auth)
    assert moved.status_code == 200 and moved.json()["cursor"] == 1 and moved.json()["moves"] == "D"
    stale = client.post(f"/api/games/{game['id']}/moves", json={"move": "D", "ply": 0}, headers=auth)
    assert stale.status_code == 409 and "another tab" in stale.json()["error"]
    assert stale.json()["game"] == moved.json()  # the game as it is now, to go on from
    for action in ("undo", "redo"):
        refused = client.post(f"/api/games/{game['id']}/{action}", json={"ply": 5}, headers=auth)
        assert refused.status_code == 409 and refused.json()["game"] == moved.json()
    undone = client.post(f"/api/games/{game['id']}/undo", headers=auth)
    assert undone.json()["cursor"] == 0 and undone.json()["moves"] == "D"  # the redo tail stays
    redone = client.post(f"/api/games/{game['id']}/redo", json={"ply": 0}, headers=auth)
    assert redone.json()["cursor"] == 1
    fetched = client.get(f"/api/games/{game['id']}", headers=auth).json()
    assert fetched == redone.json()


def test_api_needs_a_bearer_token_and_the_owner(client):
    assert client.post("/api/games", json={"preset": "pyramid"}).status_code == 401
    assert client.post("/api/games", json={"preset": "pyramid"}, headers={"Authorization": "Bearer nope"}).status_code == 401
    owner, stranger = new_token(client), new_token(client)
    game = client.post("/api/games", json={"preset": "gaps", "seed": 1}, headers=owner).json()
    watched = client.get(f"/api/games/{game['id']}", headers=stranger)  # another player's game in play: theirs
    assert watched.status_code == 403 and "finished" in watched.json()["error"]
    refused = client.post(f"/api/games/{game['id']}/moves", json={"move": "N", "ply": 0}, headers=stranger)
    assert refused.status_code == 403 and "error" in refused.json()


@pytest.mark.parametrize(
    "body, status, needle",
    [
        ({"preset": "chess"}, 404, "preset"),
        ({"preset": "pyramid", "deal": "AS KS"}, 422, ""),
        ({"preset": "pyramid", "seed": -1}, 422, "seed"),
        ({"preset": "pyramid", "seed": 1, "deal": "AS"}, 422, "not both"),
        ({}, 422, "preset"),
    ],
)
def test_bad_new_game_requests_are_json_4xx(client, body, status, needle):
    response = client.post("/api/games", json=body, headers=new_token(client))
    assert response.status_code == status
    assert needle in response.json()["error"]


def test_bad_moves_are_422_and_leave_the_game_alone(client):
    auth = new_token(client)
    game = client.post("/api/games", json={"preset": "pyramid", "seed": 5}, headers=auth).json()
    for move in ("P99+P1", "hello", "R", "P0"):
        response = client.post(f"/api/games/{game['id']}/moves", json={"move": move, "ply": 0}, headers=auth)
        assert response.status_code == 422, move
        assert response.json()["error"]
    assert client.get(f"/api/games/{game['id']}", headers=auth).json()["cursor"] == 0
    assert client.post(f"/api/games/{game['id']}/undo", headers=auth).status_code == 422
    assert client.get("/api/games/nope", headers=auth).status_code == 404


def test_openapi_documents_the_api(client):
    spec = client.get("/api/openapi.json").json()
    assert {"/api/players", "/api/games", "/api/games/{game_id}", "/api/games/{game_id}/moves"} <= set(spec["paths"])


def _vector_cases():
    cases = []
    for line in VECTORS.read_text().splitlines():
        vector = json.loads(line)
        rules = get_game(vector["game"]).parse_rules(vector.get("options", {})).to_options()
        preset = next((p.slug for p in PRESETS.values() if p.game == vector["game"] and p.rules.to_options() == rules), None)
        if preset:
            cases.append(pytest.param(preset, vector, id=f"{preset}-{len(cases)}"))
    return cases[::3]  # a sample: the engine's own tests replay them all


@pytest.mark.parametrize("preset, vector", _vector_cases())
def test_api_replays_shared_vectors_like_tretten_replay(client, preset, vector):
    auth = new_token(client)
    game = client.post("/api/games", json={"preset": preset, "deal": vector["deal"]}, headers=auth).json()
    trace = vector["trace"]
    for ply, move in enumerate(vector["moves"].split()):
        expected = trace[ply]
        assert {k: game[k] for k in ("status", "legal", "score", "position")} == expected
        game = client.post(f"/api/games/{game['id']}/moves", json={"move": move, "ply": ply}, headers=auth).json()
    assert {k: game[k] for k in ("status", "legal", "score", "position")} == trace[-1]


def test_a_game_counted_as_lost_reads_lost_with_its_phase_and_takes_no_move(client, app):
    from ..play import api_player, move, new_game, set_columns

    auth = api_player(client)
    game = move(client, auth, new_game(client, auth, "pyramid", 4242), "D")
    assert (game["status"], game["phase"]) == ("playing", "playing") and game["legal"]
    set_columns(app, game["id"], abandoned=True)  # replaced by another game of the preset
    shown = client.get(f"/api/games/{game['id']}", headers=auth).json()
    assert (shown["status"], shown["phase"], shown["legal"]) == ("lost", "abandoned", [])
    fresh = new_game(client, auth, "pyramid", 4243)
    assert (fresh["status"], fresh["phase"]) == ("playing", "new")


def test_a_game_says_where_its_moves_came_from(client, app):
    """The labels the daily table ranks by, in the API too: a game played through it is "api";
    one whose moves were made offline says so."""
    from ..play import api_player, move, new_game, set_columns

    auth = api_player(client)
    game = move(client, auth, new_game(client, auth, "pyramid", 4244), "D")
    assert (game["played_via"], game["played_offline"]) == ("api", False)
    set_columns(app, game["id"], played_via="page", played_offline=True)
    shown = client.get(f"/api/games/{game['id']}", headers=auth).json()
    assert (shown["played_via"], shown["played_offline"]) == ("page", True)
