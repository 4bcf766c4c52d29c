"""Operations: JSON log lines per request and per move, /healthz, graceful shutdown, prune."""

from __future__ import annotations

import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
import uuid
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from app.cli import main as cli_main
from app.db.models import Game, Player, utcnow
from app.engine import GameRecord, deal_for_seed, get_preset
from app.services.accounts.prune import prune
from app.settings import Settings, get_settings
from app.web.main import create_app

from ..processes import alive
from ..web.helpers import HX, act, csrf_of, start_seeded
from .servers import Server, api_player, first_move, migrated


def log_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_a_real_server_logs_json_per_request_and_per_move_and_shuts_down_gracefully(tmp_path):
    url = f"sqlite:///{tmp_path / 'ops.sqlite3'}"
    migrated(url, tmp_path)
    server = Server(url, tmp_path).start()
    try:
        auth = api_player(server.url)
        game = httpx.post(server.url + "/api/games", json={"preset": "pyramid", "seed": 4}, headers=auth).json()
        moved = httpx.post(f"{server.url}/api/games/{game['id']}/moves", json={"move": "D", "ply": 0}, headers=auth)
        assert moved.status_code == 200
        stale = httpx.post(f"{server.url}/api/games/{game['id']}/moves", json={"move": "D", "ply": 0}, headers=auth)
        assert stale.status_code == 409
        with httpx.Client(base_url=server.url) as browser:
            html_game, board = first_move(browser, "/play/pyramid/3", action="draw")
            hint = browser.post(f"/games/{html_game}/hint", data={"csrf_token": csrf_of(board)}, headers=HX)
            assert hint.status_code == 200 and "data-hint=" in hint.text
        searching = children(server.process.pid)  # the solver's process, started by the hint
        assert searching
        # SIGTERM: stop accepting, finish, run the shutdown; uvicorn then re-raises the signal
        assert server.stop() in (0, -15)
        deadline = time.monotonic() + 5  # the resource tracker leaves once its last user has
        while any(map(alive, searching)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(map(alive, searching)), [Path(f"/proc/{pid}/cmdline").read_text() for pid in searching]
    finally:
        server.kill()
    lines = log_lines(server.log())
    requests = [line for line in lines if line["event"] == "request"]
    moves = [line for line in lines if line.get("action") == "move"]
    assert all({"ts", "method", "path", "status", "ms"} <= set(line) for line in requests)
    on_game = [line for line in requests if line.get("game") == game["id"]]
    assert [line["status"] for line in on_game if line["method"] == "POST"] == [200, 409]
    assert any(line.get("game") == html_game for line in requests)
    stored = [(m["game"], m["ply"], m["move"]) for m in moves if m["outcome"] == "stored"]
    assert stored == [(game["id"], 1, "D"), (html_game, 1, "D")]
    assert all(isinstance(m["ms"], float) for m in moves)
    assert any(line["event"] == "shutdown" for line in lines)
    assert "Application shutdown complete" in server.log()
    assert "leaked" not in server.log()  # the solver process's queues were closed, not abandoned


def test_device_link_secrets_never_reach_the_logs(tmp_path):
    url = f"sqlite:///{tmp_path / 'links.sqlite3'}"
    migrated(url, tmp_path)
    # uvicorn's own access log on too (tretten serve turns it off): its paths are cut as well
    with Server(url, tmp_path, access_log=True) as server:
        link = httpx.post(server.url + "/api/players/me/device-link", headers=api_player(server.url)).json()["url"]
        path = link.removeprefix(server.url)
        secret = path.removeprefix("/link/")
        assert path.startswith("/link/") and len(secret) > 20
        with httpx.Client(base_url=server.url) as browser:
            page = browser.get(path + "?from=mail")
            assert page.status_code == 200
            used = browser.post(path, data={"csrf_token": csrf_of(page.text)})
            assert used.status_code == 303
            assert browser.get("/link/not-a-link").status_code == 404
    log = server.log()
    signature = secret.partition(".")[2]
    assert secret not in log and signature not in log
    requests = [line for line in log_lines(log) if line["event"] == "request" and line["path"].startswith("/link")]
    # in any order: a line is written once its answer is out, and the next request may be quicker
    assert sorted((line["method"], line["path"], line["status"]) for line in requests) == [
        ("GET", "/link/…", 200), ("GET", "/link/…", 404), ("POST", "/link/…", 303)]
    assert '"GET /link/… HTTP/1.1" 200' in log  # uvicorn's access line


def children(pid: int) -> list[int]:
    """The process's children, whichever of its threads started them."""
    return [int(child) for task in Path(f"/proc/{pid}/task").iterdir()
            for child in (task / "children").read_text().split()]


def test_healthz_reports_a_database_that_is_down(tmp_path):
    settings = Settings(data_dir=tmp_path, secret_key="x" * 32,
                        database_url="postgresql+psycopg://postgres@127.0.0.1:1/none?connect_timeout=2")
    with TestClient(create_app(settings)) as client:
        response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["status"] == "error"


def test_healthz_says_ok_with_the_database_up(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok", "database": "ok"}


def test_the_in_process_app_logs_moves_from_the_html_path(client, caplog):
    game_id, html = start_seeded(client, "pyramid", 4)
    with caplog.at_level("INFO", logger="tretten"):
        response = act(client, game_id, html, action="draw")
    assert response.status_code == 200
    fields = [getattr(r, "fields", {}) for r in caplog.records]
    assert any(f.get("game") == game_id and f.get("action") == "move" and f.get("move") == "D" for f in fields)
    assert any(f.get("game") == game_id and f.get("path") == f"/games/{game_id}/act" for f in fields)



def test_a_request_whose_client_went_away_is_not_logged_as_a_server_error(app, caplog):
    """A page left while its icon was on its way (a reload, a tap on a link): Starlette drops the
    answer unsent, and the request's log line says the client closed it (499, nginx's word),
    not a 500 that never happened."""
    async def gone():
        return {"type": "http.disconnect"}

    async def send(message):
        pass

    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": "/static/icons/icon.svg", "raw_path": b"/static/icons/icon.svg",
             "query_string": b"", "root_path": "", "headers": [(b"host", b"testserver")],
             "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}
    # the app started (its lifespan), as a server runs it; called on the client's own event loop
    # thread (a browser test's Playwright may hold this thread's loop)
    with TestClient(app) as client, caplog.at_level("INFO", logger="tretten"):
        client.portal.call(app, scope, gone, send)
    lines = [getattr(r, "fields", {}) for r in caplog.records if getattr(r, "fields", {}).get("path") == scope["path"]]
    assert [line["status"] for line in lines] == [499]

def _aged(session, days: float, *, token: str | None = None, games: list[tuple[str, float]] = (),
          started: bool = False, hints: int = 0) -> str:
    now = utcnow()
    player = Player(token_hash=token, created_at=now - timedelta(days=days))
    session.add(player)
    session.flush()
    for status, age in games:
        session.add(Game(player_id=player.id, preset="pyramid", game="pyramid", rules={}, deal="x", deal_key="x", status=status,
                         created_at=now - timedelta(days=age), updated_at=now - timedelta(days=age),
                         started_at=now - timedelta(days=age) if started else None, hint_count=hints))
    session.commit()
    return player.id


def test_prune_removes_stale_unfinished_games_and_anonymous_players_without_games(app):
    with app.state.sessionmaker() as session:
        ids = {
            "old_empty": _aged(session, 40),
            "new_empty": _aged(session, 2),
            "old_api": _aged(session, 40, token=uuid.uuid4().hex * 2),
            "old_stale_game": _aged(session, 40, games=[("playing", 35)]),
            "old_finished": _aged(session, 40, games=[("won", 35), ("playing", 35)]),
            "old_active": _aged(session, 40, games=[("playing", 1)]),
            "old_abandoned": _aged(session, 40, games=[("playing", 35)], started=True),
            # a hint stored it before its first move: the player saw these cards' line, and a
            # later game of them is not their first (games.first_of_deal): it stays
            "old_hinted": _aged(session, 40, games=[("playing", 35)], hints=1),
        }
        game_count = {pid: len(session.get(Player, pid).games) for pid in ids.values()}
        dry = prune(session, 30, dry_run=True)
        assert session.get(Player, ids["old_empty"]) is not None  # a dry run deletes nothing
        result = prune(session, 30)
        assert result.games >= 2 and (dry.games, dry.players) == (result.games, result.players)
        session.expire_all()
        alive = {name: session.get(Player, pid) is not None for name, pid in ids.items()}
        assert alive == {"old_empty": False, "new_empty": True, "old_api": True, "old_stale_game": False,
                         "old_finished": True, "old_active": True, "old_abandoned": True, "old_hinted": True}
        # an abandoned game with moves counts as a loss in the statistics: it stays
        assert len(session.get(Player, ids["old_abandoned"]).games) == 1
        finished = session.get(Player, ids["old_finished"])
        assert [g.status for g in finished.games] == ["won"] and game_count[ids["old_finished"]] == 2
        assert len(session.get(Player, ids["old_active"]).games) == 1


def test_tretten_prune_on_the_command_line(tmp_path, monkeypatch, capsys):
    url = f"sqlite:///{tmp_path / 'prune.sqlite3'}"
    settings = migrated(url, tmp_path)
    with TestClient(create_app(settings)) as client:
        page = client.get("/")  # a visit stores nothing; a first POST stores the player (no games)
        stored = client.post("/prefs", data={"csrf_token": csrf_of(page.text), "scoring": "simple"}, follow_redirects=False)
        assert stored.status_code == 303
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    get_settings.cache_clear()
    try:
        assert cli_main(["prune", "--older-than", "1", "--dry-run"]) == 0
        assert json.loads(capsys.readouterr().out) | {"cutoff": None} == {"games": 0, "players": 0, "cutoff": None, "dry_run": True}
        assert cli_main(["prune", "--older-than", "0"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert (out["games"], out["players"], out["dry_run"]) == (0, 1, False)
        assert cli_main(["prune", "--older-than", "-3"]) == 2
        assert cli_main(["prune"]) == 2
    finally:
        get_settings.cache_clear()


def test_tretten_serve_runs_its_workers_on_one_sqlite_file_and_stops_them_together(tmp_path):
    """WEB_CONCURRENCY worker processes: players moving at once on both are all stored, in order,
    and SIGTERM stops every worker."""
    url = f"sqlite:///{tmp_path / 'workers.sqlite3'}"
    migrated(url, tmp_path)
    server = Server(url, tmp_path, cli=True, WEB_CONCURRENCY="2").start()
    try:
        workers: list[int] = []
        for _ in range(600):  # the second worker may still be starting
            workers = [int(pid) for pid in re.findall(r"Started server process \[(\d+)\]", server.log())]
            if len(workers) == 2 or server.process.poll() is not None:
                break
            time.sleep(0.05)
        assert len(workers) == 2 and set(workers) <= set(children(server.process.pid)), server.log()[-2000:]
        records = {}

        def play(seed: int) -> None:
            auth = api_player(server.url)
            game = httpx.post(server.url + "/api/games", json={"preset": "relaxed", "seed": seed}, headers=auth).json()
            record = GameRecord.new("pyramid", get_preset("relaxed").rules, deal_for_seed("pyramid", seed))
            with httpx.Client(base_url=server.url, headers=auth, timeout=30) as api:
                for _ in range(12):
                    legal = record.position.legal_moves()
                    if not legal:
                        break
                    moved = api.post(f"/api/games/{game['id']}/moves", json={"move": str(legal[0]), "ply": record.cursor})
                    assert moved.status_code == 200, moved.text
                    record = record.play(legal[0])
            records[game["id"]] = (auth, record)

        with ThreadPoolExecutor(6) as pool:
            list(pool.map(play, range(1, 7)))
        for game_id, (auth, record) in records.items():
            stored = httpx.get(f"{server.url}/api/games/{game_id}", headers=auth).json()
            assert stored["moves"] == record.moves_text and stored["ply"] == record.cursor
        assert server.stop() in (0, -15)
        assert not any(map(alive, workers))
    finally:
        server.kill()
