"""Two clients race 200 moves each on one game, through real uvicorn processes.

Every round both clients read the game, meet at a barrier, and post a move for the same ply:
exactly one may land, the other must get 409. Afterwards the stored history is exactly the
acknowledged moves, in order, and replays to the stored position. On SQLite one server takes
both clients; on PostgreSQL two servers (two ports, one database) take one client each.
"""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from app.engine import GameRecord, get_game

from ..web.helpers import board_state, csrf_of
from .servers import first_move, Server, api_player, fresh_postgres, migrated, worker

ROUNDS = 200
MAX_REMOVALS = 8  # pairs/kings are allowed only this often, so the pyramid is never cleared


def choose(rng: random.Random, game: dict) -> str:
    legal = game["legal"]
    cycle = [m for m in legal if m in ("D", "R")]
    removals = sum(1 for token in game["moves"].split()[: game["cursor"]] if token not in ("D", "R"))
    others = [m for m in legal if m not in ("D", "R")]
    if others and removals < MAX_REMOVALS and rng.random() < 0.3:
        return rng.choice(others)
    return rng.choice(cycle or legal)


def race(urls: list[str], rounds: int = ROUNDS) -> None:
    auth = api_player(urls[0])
    created = httpx.post(urls[0] + "/api/games", json={"preset": "relaxed", "seed": 2024}, headers=auth, timeout=10)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    barrier = threading.Barrier(2, timeout=30)
    results: list[list[tuple[int, str, int, dict]]] = [[], []]

    def client(index: int) -> None:
        rng = random.Random(index)
        with httpx.Client(base_url=urls[index % len(urls)], headers=auth, timeout=30) as http:
            for _ in range(rounds):
                barrier.wait()
                game = http.get(f"/api/games/{game_id}").json()
                move = choose(rng, game)
                barrier.wait()
                response = http.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": game["cursor"]})
                results[index].append((game["cursor"], move, response.status_code, response.json()))

    with ThreadPoolExecutor(2) as pool:
        for future in [pool.submit(client, i) for i in (0, 1)]:
            future.result()

    posted = results[0] + results[1]
    assert len(posted) == 2 * rounds
    statuses = sorted(status for _, _, status, _ in posted)
    assert statuses.count(200) == rounds and statuses.count(409) == rounds, statuses
    for ply, _, status, body in posted:
        if status == 409:
            assert body["error"] == "this game moved on in another tab"
            assert body["game"]["cursor"] == ply + 1 and body["game"]["id"] == game_id  # the winner's move
        else:
            assert body["cursor"] == ply + 1
    acknowledged = sorted((ply, move) for ply, move, status, _ in posted if status == 200)
    assert [ply for ply, _ in acknowledged] == list(range(rounds)), "two moves landed on one ply"

    stored = httpx.get(f"{urls[-1]}/api/games/{game_id}", headers=auth, timeout=10).json()
    assert stored["moves"].split() == [move for _, move in acknowledged]
    assert stored["cursor"] == rounds
    variant = get_game(stored["game"])
    replayed = GameRecord.from_text(stored["game"], variant.parse_rules(stored["rules"]), stored["deal"],
                                    stored["moves"], stored["cursor"])
    assert replayed.position.to_json() == stored["position"]
    assert replayed.position.status == stored["status"] == "playing"


def stale_tab_gets_the_current_board(first: str, second: str) -> None:
    """A browser's two tabs, served by different instances: the stale one gets 409 and the board."""
    with httpx.Client(base_url=first, timeout=10) as tab1:
        game_id, board = first_move(tab1, "/play/relaxed/77", action="draw")
        with httpx.Client(base_url=second, cookies=tab1.cookies, timeout=10) as tab2:
            page2 = tab2.get(f"/games/{game_id}")
            fields = {"csrf_token": csrf_of(board), "action": "draw", "ply": 1,
                      "version": board_state(board)["version"]}
            assert tab1.post(f"/games/{game_id}/act", data=fields, headers={"HX-Request": "true"}).status_code == 200
            stale = tab2.post(f"/games/{game_id}/act", data={**fields, "csrf_token": csrf_of(page2.text)},
                              headers={"HX-Request": "true"})
            assert stale.status_code == 409
            assert "moved on in another tab" in stale.text and 'role="alert"' in stale.text
            assert board_state(stale.text)["ply"] == 2  # the current board, ready to play on
            assert "<html" not in stale.text  # a fragment for htmx to swap
            plain = tab2.post(f"/games/{game_id}/act", data={**fields, "csrf_token": csrf_of(page2.text)})
            assert plain.status_code == 409 and "<html" in plain.text and "moved on in another tab" in plain.text


def test_two_clients_race_on_sqlite_through_one_server(tmp_path):
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    migrated(url, tmp_path)
    with Server(url, tmp_path) as server:
        race([server.url])
        stale_tab_gets_the_current_board(server.url, server.url)


def test_two_clients_race_on_postgresql_through_two_servers(tmp_path):
    url = fresh_postgres(f"tretten_race_{worker()}")
    migrated(url, tmp_path)
    with Server(url, tmp_path, log_name="a") as a, Server(url, tmp_path, log_name="b") as b:
        race([a.url, b.url])
        stale_tab_gets_the_current_board(a.url, b.url)
