"""Optimistic concurrency and limits: simultaneous moves never both land; floods get 429."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from app.db.models import Player
from app.engine import GameRecord, get_game
from app.services import games
from app.services.errors import RateLimitError


def test_simultaneous_moves_on_one_ply_land_once(app):
    with TestClient(app) as setup:
        auth = {"Authorization": "Bearer " + setup.post("/api/players").json()["token"]}
        game = setup.post("/api/games", json={"preset": "pyramid", "seed": 8}, headers=auth).json()

    def post_draw(_):
        with TestClient(app) as client:
            return client.post(f"/api/games/{game['id']}/moves", json={"move": "D", "ply": 0}, headers=auth).status_code

    with ThreadPoolExecutor(max_workers=6) as pool:
        codes = sorted(pool.map(post_draw, range(6)))
    assert codes.count(200) == 1 and set(codes) <= {200, 409}, codes
    with TestClient(app) as client:
        stored = client.get(f"/api/games/{game['id']}", headers=auth).json()
    assert stored["moves"] == "D" and stored["cursor"] == 1
    replayed = GameRecord.from_text("pyramid", get_game("pyramid").parse_rules(stored["rules"]), stored["deal"], stored["moves"])
    assert replayed.position.to_json() == stored["position"]


def test_too_many_new_games_in_a_minute_is_refused(app):
    with app.state.sessionmaker() as session:
        player = Player()
        session.add(player)
        session.commit()
        limits = games.Limits(games_per_minute=3)
        for seed in range(3):
            games.start_game(session, player, "gaps", seed=seed, limits=limits)
        with pytest.raises(RateLimitError):
            games.start_game(session, player, "gaps", seed=9, limits=limits)
