"""Which files of app/ one pair's completing tap passes through, and how often control enters one.

The request is the board's htmx POST that completes a pair on a stored Pyramid game, served
in-process (FastAPI's TestClient) on a fresh SQLite database. A profile hook on every thread
records each Python call; counted are the files of app/ outside the engine and the solver
(those are the rules, not the path) that run, the hops from one such file into another (a
function calling a function of another file, each pair once: a loop over the cards is one hop;
calls from the framework, Jinja or the engine are not counted), all such calls, and the SQL
statements the tap sends.

    .venv/bin/python bench/trace_move.py
"""

from __future__ import annotations

import re
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

APP = str(ROOT / "app") + "/"
LEFT_OUT = (APP + "engine/", APP + "solver/")


def main() -> None:
    from fastapi.testclient import TestClient

    from app.db.migrate import upgrade_to_head
    from app.settings import Settings

    data = Path(tempfile.mkdtemp(prefix="trace-move-"))
    settings = Settings(data_dir=data, database_url=f"sqlite:///{data / 'trace.sqlite3'}",
                        secret_key="trace-secret-of-at-least-32-characters", solver_processes=0)
    upgrade_to_head(settings)
    from app.web.main import create_app

    app = create_app(settings)
    entered: Counter[str] = Counter()
    hops: set[tuple] = set()
    files: set[str] = set()
    statements: list[str] = []
    tracing = threading.Event()

    def ours(path: str) -> bool:
        return path.startswith(APP) and not path.startswith(LEFT_OUT)

    def hook(frame, event, _arg):
        if not tracing.is_set() or event != "call":
            return
        callee = frame.f_code.co_filename
        if not ours(callee):
            return
        files.add(callee)
        caller = frame.f_back.f_code.co_filename if frame.f_back else ""
        if ours(caller) and caller != callee:
            entered[callee] += 1
            hops.add((frame.f_back.f_code, frame.f_code))

    threading.setprofile(hook)
    sys.setprofile(hook)
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as client:
        # seed 250's first move is the pair P21+P24 (tests/web/play.py); store the game with a
        # draw first, then select P21 and time the tap on P24 that completes the pair
        page = client.get("/play/pyramid/250").text
        token = re.search(r'name="csrf_token" value="([0-9a-f]+)"', page).group(1)
        hx = {"HX-Request": "true"}
        first = client.post("/play/pyramid/250", data={"csrf_token": token, "action": "draw"}, headers=hx)
        game_id = first.headers["HX-Push-Url"].rsplit("/", 1)[1]
        undone = client.post(f"/games/{game_id}/act", data={"csrf_token": token, "action": "undo", "ply": 1}, headers=hx)
        assert undone.status_code == 200, undone.text
        version = int(re.search(r'data-version="(\d+)"', undone.text).group(1))
        data = {"csrf_token": token, "action": "tap", "target": "P24", "sel": "P21", "ply": 0, "version": version}
        from sqlalchemy import event

        from app.db.session import get_engine

        def sent(_conn, _cursor, statement, *_rest):
            if tracing.is_set():
                statements.append(statement.split(None, 1)[0].upper())

        event.listen(get_engine(settings), "before_cursor_execute", sent)
        tracing.set()
        answer = client.post(f"/games/{game_id}/act", data=data, headers=hx)
        tracing.clear()
    sys.setprofile(None)
    threading.setprofile(None)  # type: ignore[arg-type]
    assert answer.status_code == 200 and 'data-ply="1"' in answer.text, answer.text[:500]
    print(f"files of app/ outside engine and solver entered: {len(files)}")
    print(f"hops from one of them into another (each pair of functions once): {len(hops)}")
    print(f"calls from one of them into another: {sum(entered.values())}")
    print(f"SQL statements: {len(statements)} ({', '.join(statements)})")
    for path in sorted(files - set(entered)):
        print(f"     0  {path.removeprefix(str(ROOT) + '/')}")
    for path, count in entered.most_common():
        print(f"  {count:4d}  {path.removeprefix(str(ROOT) + '/')}")


if __name__ == "__main__":
    main()
