"""Another process holding SQLite's write lock (tretten prune, a migration, a backup, a second
instance) holds up only the requests that write: a move waits for the lock in its worker
thread, while /healthz and static files go on answering."""

from __future__ import annotations

import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from app.engine import GameRecord, deal_for_seed, get_preset

from ..web.helpers import csrf_of
from .servers import Server, api_player, first_move, migrated


def test_pages_answer_while_another_process_holds_the_write_lock(tmp_path):
    url = f"sqlite:///{tmp_path / 'locked.sqlite3'}"
    migrated(url, tmp_path)
    with Server(url, tmp_path) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        game_id, board = first_move(client, "/play/pyramid/7", action="draw")
        form = {"csrf_token": csrf_of(board), "action": "draw"}

        other = sqlite3.connect(tmp_path / "locked.sqlite3", timeout=1)  # another process's view
        other.execute("BEGIN IMMEDIATE")  # SQLite's write lock, held
        answered: dict[str, float] = {}

        def move() -> None:
            started = time.perf_counter()
            response = client.post(f"/games/{game_id}/act", data=form, headers={"HX-Request": "true"})
            answered["move"] = time.perf_counter() - started
            answered["move_status"] = response.status_code

        try:
            mover = threading.Thread(target=move)
            mover.start()
            time.sleep(0.3)  # the move is now waiting for the lock
            with httpx.Client(base_url=server.url, timeout=5) as second:
                for path in ("/healthz", "/static/css/app.css"):
                    started = time.perf_counter()
                    assert second.get(path).status_code == 200, path
                    assert time.perf_counter() - started < 0.5, f"{path} waited for the lock"
            assert "move" not in answered, "the move did not wait for the lock"
        finally:
            time.sleep(0.5)
            other.rollback()
            other.close()
        mover.join(30)
        assert answered["move_status"] == 200  # it went through once the lock was free


def test_a_write_is_committed_before_its_answer_waits_for_a_thread(tmp_path):
    """FastAPI validates an API answer (its response model) in a worker thread after the route
    returns. A write still uncommitted then would hold SQLite's lock while it waits for a thread,
    and the threads may all be moves waiting for that lock: each would fail after the busy
    timeout (500). With two threads and eight players moving at once, every move is stored."""
    url = f"sqlite:///{tmp_path / 'threads.sqlite3'}"
    migrated(url, tmp_path)
    with Server(url, tmp_path, THREADS="2", SOLVER_SEARCHES="1") as server:
        def play(seed: int) -> list[int]:
            auth = api_player(server.url)
            with httpx.Client(base_url=server.url, headers=auth, timeout=60) as api:
                game = api.post("/api/games", json={"preset": "relaxed", "seed": seed}).json()
                record = GameRecord.new("pyramid", get_preset("relaxed").rules, deal_for_seed("pyramid", seed))
                statuses = []
                for _ in range(6):
                    move = record.position.legal_moves()[0]
                    moved = api.post(f"/api/games/{game['id']}/moves", json={"move": str(move), "ply": record.cursor})
                    statuses.append(moved.status_code)
                    record = record.play(move)
                statuses.append(api.post(f"/api/games/{game['id']}/undo").status_code)
                return statuses

        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(play, range(1, 9)))
        assert all(status == 200 for statuses in answers for status in statuses), answers
