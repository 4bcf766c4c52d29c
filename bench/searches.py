"""Moves while the solver searches: does a search slow down everybody else's moves?

One uvicorn (SQLite); one client plays random legal moves through the board form, one after
another, and times each; meanwhile a second client takes new Gaps deals to their last round and
asks for a hint on each (`POST /games/{id}/hint`: a fresh search, mostly its whole 1.5 s
budget, then the best-score fallback).
Three runs, each on a new server: no searches (the baseline), searches in the web process
(SOLVER_PROCESSES=0: a thread), searches in a solver process (SOLVER_PROCESSES=1, the
default). Prints the moves' p50/p99 for each, and how many hints were answered meanwhile.

  .venv/bin/python bench/searches.py [--seconds 8]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx  # noqa: E402
from cpu import Client  # noqa: E402
from load import BOARD, CSRF, running_servers  # noqa: E402



def searcher(base: str, stop: threading.Event, answered: list[float]) -> None:
    """Gaps deals taken to their last round (two redeals), then a hint: a search that takes its
    whole budget on most deals, as one-round Gaps does."""
    with httpx.Client(base_url=base, timeout=60) as http:
        seed = 1
        while not stop.is_set():
            link = f"/play/gaps/{seed}"
            csrf = CSRF.search(http.get(link).text).group(1)
            first = http.post(link, data={"csrf_token": csrf, "action": "confirm-redeal"}, headers={"HX-Request": "true"})
            game_id = first.headers["hx-push-url"].rsplit("/", 1)[1]  # the first move (a redeal) stored it
            _status, ply, version, _ = BOARD.search(first.text).groups()
            form = {"csrf_token": csrf, "ply": ply, "version": version, "action": "confirm-redeal"}
            http.post(f"/games/{game_id}/act", data=form, headers={"HX-Request": "true"})
            started = time.perf_counter()
            http.post(f"/games/{game_id}/hint", data={"csrf_token": csrf},
                      headers={"HX-Request": "true"}).raise_for_status()
            answered.append(time.perf_counter() - started)
            seed += 1


def run(processes: int | None, seconds: float) -> tuple[list[float], list[float]]:
    env = {"SOLVER_PROCESSES": str(processes if processes is not None else 1)}
    stop, answered, moves = threading.Event(), [], []
    with running_servers("sqlite", 1, prefix="tretten-searches-", extra_env=env) as (_, [(process, base)]):
        client = Client(base, ["relaxed", "pyramid-3", "pyramid", "giza"], random.Random(1), process.pid)
        client.new_game()
        for _ in range(200):  # warm-up
            client.move()
        thread = threading.Thread(target=searcher, args=(base, stop, answered)) if processes is not None else None
        if thread:
            thread.start()
            time.sleep(0.5)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            started = time.perf_counter()
            if client.move():
                moves.append(time.perf_counter() - started)
        stop.set()
        if thread:
            thread.join(60)
    return moves, answered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=8)
    args = parser.parse_args()
    if not 0 < args.seconds <= 120:
        raise SystemExit("bounded: at most 120 s a run")
    for name, processes in (("no searches", None), ("searches in the web process", 0),
                            ("searches in a solver process", 1)):
        moves, answered = run(processes, args.seconds)
        ms = sorted(x * 1000 for x in moves)
        q = statistics.quantiles(ms, n=100, method="inclusive")
        hints = f", {statistics.median(answered):.2f} s at the median" if answered else ""
        print(f"{name:30s} moves p50 {q[49]:6.2f} ms  p99 {q[98]:6.2f} ms  n {len(ms):5d}   "
              f"hints answered {len(answered)}{hints}", flush=True)


if __name__ == "__main__":
    main()
