"""Every seed the engine deals (0 ≤ seed < 2**64) works through the server, on both databases."""

from __future__ import annotations

import re

from app.engine import deal_for_seed, format_deal

from .helpers import first_move, start_seeded
from .play import api_player

TOP = 2**64 - 1


def test_the_largest_seed_plays_through_the_share_link(client):
    game_id, html = start_seeded(client, "pyramid", TOP)
    assert f'data-seed="{TOP}"' in html
    expected = format_deal(deal_for_seed("pyramid", TOP)).split()[:28]
    assert re.findall(r'data-loc="P\d+" data-card="(\w\w)"', html) == expected
    played, _ = first_move(client, f"/play/pyramid/{TOP}", action="draw")
    assert client.get(f"/play/pyramid/{TOP}").headers["location"] == f"/games/{played}"  # found by its seed
    assert client.get(f"/play/pyramid/{TOP + 1}").status_code == 422
    assert client.get(f"/play?preset=gaps&seed={TOP}").headers["location"] == f"/play/gaps/{TOP}"


def test_seeds_above_the_signed_range_in_the_api_and_on_deal_pages(client):
    auth = api_player(client)
    for seed in (2**63 - 1, 2**63, TOP):
        game = client.post("/api/games", json={"preset": "gaps", "seed": seed}, headers=auth)
        assert game.status_code == 201 and game.json()["seed"] == seed
        assert client.get(f"/api/games/{game.json()['id']}", headers=auth).json()["seed"] == seed
    assert client.post("/api/games", json={"preset": "gaps", "seed": 2**64}, headers=auth).status_code == 422
    assert client.get(f"/api/deals/gaps/{TOP}").json()["seed"] == TOP
    assert f'data-seed="{TOP}"' in client.get(f"/deal/gaps/{TOP}").text
