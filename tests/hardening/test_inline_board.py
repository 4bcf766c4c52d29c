"""Board actions on SQLite run on the event loop (app/web/threads.py), but never wait there for
another thread's write: they go to a worker thread, and the loop keeps serving meanwhile."""

from __future__ import annotations

import threading
import time

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Game
from app.db.session import get_engine
from app.settings import Settings

from app.web.main import create_app

from ..web.helpers import act, board_state, start_seeded
from .servers import migrated


def test_board_actions_run_inline_on_sqlite_only(tmp_path):
    sqlite = Settings(data_dir=tmp_path, secret_key="k" * 32)
    postgres = Settings(data_dir=tmp_path, secret_key="k" * 32, database_url="postgresql+psycopg://postgres@127.0.0.1/test")
    assert sqlite.board_inline is True and postgres.board_inline is False
    assert Settings(data_dir=tmp_path, secret_key="k" * 32, board_inline=False).board_inline is False


def test_a_move_while_another_thread_writes_waits_in_a_thread_not_on_the_loop(tmp_path):
    settings = migrated(f"sqlite:///{tmp_path / 'inline.sqlite3'}", tmp_path)
    app = create_app(settings)
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as client:
        game_id, page = start_seeded(client, "relaxed", 7)
        with get_engine(settings).connect() as connection:
            write_lock = connection.connection.dbapi_connection._write_lock
        answers: dict[str, object] = {}

        def move() -> None:
            answers["move"] = act(client, game_id, page, action="draw")
            answers["move_done"] = time.monotonic()

        assert write_lock.acquire(timeout=5)  # another thread of the process, mid-write
        released = None
        try:
            mover = threading.Thread(target=move)
            mover.start()
            time.sleep(0.3)
            asked = time.monotonic()
            health = client.get("/healthz")  # served although the move is waiting for the lock
            answers["health_done"] = time.monotonic()
            assert answers["health_done"] - asked < 2, "the event loop was held up"
            assert mover.is_alive(), "the move did not wait for the write lock"
        finally:
            released = time.monotonic()
            write_lock.release()
        mover.join(10)
        assert health.status_code == 200 and answers["health_done"] < released
        response = answers["move"]
        assert response.status_code == 200 and board_state(response.text)["ply"] == 1
        assert answers["move_done"] >= released  # it went ahead only once the lock was free
        with app.state.sessionmaker() as session:
            assert session.scalar(select(Game.moves).where(Game.id == game_id)) == "D"
