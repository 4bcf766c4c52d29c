"""Server instructions per request, move against the floor: the noise-free companion of cpu.py.

Wall-clock and even CPU time on a shared machine move by tens of percent from one hour to the
next; the number of instructions the server executes does not. This runs one uvicorn (SQLite)
under valgrind's cachegrind (instruction counts only) twice, once serving N1 and once N2
requests of a kind (board moves through the form, or the floor, `/bench/floor/{game}`, at the
move fragment's size), from the same seeded client, and prints (I(N2) - I(N1)) / (N2 - N1):
start-up, warm-up and shutdown cancel out. The same code gives the same figure to about 0.01 M.
Kernel time (sockets, file I/O) is not counted, so compare versions, not seconds.

  .venv/bin/python bench/instructions.py [--kinds move,floor] [--requests 50,250] [--http PROTOCOL]

--http is uvicorn's: `httptools` (the default, what `tretten serve` runs), `h11`, or an
import string of a protocol class.

Needs valgrind (Debian's package). Takes about a minute per kind.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx  # noqa: E402
from cpu import Client  # noqa: E402
from load import free_port  # noqa: E402

from app.db.migrate import upgrade_to_head  # noqa: E402
from app.settings import Settings  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PRESETS = "relaxed,pyramid-3,pyramid,giza"  # the load benchmark's; its form_for knows no Gaps moves


def instructions(kind: str, requests: int, http: str = "httptools") -> int:
    """Instructions of one server process that served `requests` requests of `kind` (plus warm-up)."""
    data_dir = Path(tempfile.mkdtemp(prefix="tretten-instr-"))
    url = f"sqlite:///{data_dir / 'instr.sqlite3'}"
    upgrade_to_head(Settings(data_dir=data_dir, database_url=url, secret_key="instr-secret-of-at-least-32-characters"))
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "DATA_DIR": str(data_dir), "SECRET_KEY": "instr-secret-of-at-least-32-characters",
           "GAMES_PER_MINUTE": "100000", "PYTHONHASHSEED": "0",
           "NEW_PLAYERS_PER_ADDRESS": "0", "NEW_PLAYERS_TOTAL": "0", "NEW_GAMES_PER_ADDRESS": "0", "NEW_GAMES_TOTAL": "0"}
    log = data_dir / "valgrind.log"
    server = subprocess.Popen(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", f"--log-file={log}",
         sys.executable, "-m", "uvicorn", "--app-dir", str(ROOT / "bench"), "--factory", "floor:create_app", "--host", "127.0.0.1",
         "--port", str(port), "--no-access-log", "--log-level", "warning", "--http", http],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"server did not start: see {log}")
            time.sleep(0.5)
        client = Client(f"http://127.0.0.1:{port}", PRESETS.split(","), random.Random(1), server.pid)
        client.new_game()
        for _ in range(50):  # warm-up: imports, caches, pool
            client.move()
        done = 0
        while done < requests:
            if kind == "move":
                done += client.move() is not False
            else:
                client.floor(9400)
                done += 1
    finally:
        server.terminate()
        server.wait(120)
    match = re.search(r"I\s+refs:\s+([\d,]+)", log.read_text())
    if match is None:
        raise SystemExit(f"no instruction count in {log}")
    return int(match.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kinds", default="move,floor")
    parser.add_argument("--requests", default="50,250", help="N1,N2")
    parser.add_argument("--http", default="httptools", help="uvicorn's --http: httptools or an import string")
    args = parser.parse_args()
    low, high = (int(x) for x in args.requests.split(","))
    if not (0 <= low < high <= 5000):
        raise SystemExit("bounded: 0 <= N1 < N2 <= 5000")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install -y valgrind)")
    per_request = {}
    for kind in args.kinds.split(","):
        per_request[kind] = (instructions(kind, high, args.http) - instructions(kind, low, args.http)) / (high - low)
        print(f"{kind:6s} {per_request[kind] / 1e6:7.3f} M instructions per request", flush=True)
    if {"move", "floor"} <= per_request.keys():
        print(f"move / floor = {per_request['move'] / per_request['floor']:.2f}")


if __name__ == "__main__":
    main()
