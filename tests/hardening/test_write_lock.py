"""Another process holding SQLite's write lock (tretten prune, a migration, a backup, a second
instance) holds up only the requests that write: a move waits for the lock in its worker
thread, while /healthz and static files go on answering."""

from __future__ import annotations

import sqlite3
import threading
import time

import httpx

from ..web.helpers import csrf_of
from .servers import Server, first_move, migrated


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
