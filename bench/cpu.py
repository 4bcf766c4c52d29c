"""Server CPU per request: a move (board tap, board fragment back) against the floor.

Wall-clock latency on a shared machine says as much about the neighbours as about the app;
the CPU time the server process spends per request does not. One uvicorn (SQLite) serves
one client that plays random legal moves through the board form, then posts to the floor
(`/bench/floor/{game}`, the same fragment size) as often; the server's user+system CPU is
read from /proc before and after each phase. Phases alternate `--rounds` times, so a burst
of noise hits both alike; the figures are medians over the rounds.

  .venv/bin/python bench/cpu.py [--requests 1000] [--rounds 3] [--presets relaxed,pyramid-3,pyramid,giza]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx  # noqa: E402
from load import BOARD, CSRF, form_for, running_servers  # noqa: E402

from app.engine import GameRecord, deal_for_seed, get_preset  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    # fields 14 and 15 of /proc/PID/stat: utime and stime in clock ticks (after the "(comm)")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Client:
    def __init__(self, base: str, presets: list[str], rng: random.Random, pid: int) -> None:
        self.pid = pid
        self.uncounted = 0.0  # server CPU spent on opening new games, left out of the figures
        self.http = httpx.Client(base_url=base, timeout=30, headers={"Accept-Encoding": "gzip"})
        self.presets, self.rng = presets, rng
        self.sizes: list[int] = []

    def new_game(self) -> None:
        before = cpu_seconds(self.pid)
        preset = self.rng.choice(self.presets)
        seed = self.rng.randrange(1_000_000_000)
        link = f"/play/{preset}/{seed}"
        page = self.http.get(link)  # the deal ready to play; its first move stores the game
        self.csrf = CSRF.search(page.text).group(1)
        p = get_preset(preset)
        self.record = GameRecord.new(p.game, p.rules, deal_for_seed(p.game, seed))
        first = self.rng.choice([str(m) for m in self.record.position.legal_moves()])
        response = self.http.post(link, data={"csrf_token": self.csrf, **form_for(first)}, headers={"HX-Request": "true"})
        self.game_id = response.headers["hx-push-url"].rsplit("/", 1)[1]
        _status, self.ply, self.version, _ = BOARD.search(response.text).groups()
        self.record = self.record.play(first)
        self.uncounted += cpu_seconds(self.pid) - before

    def move(self) -> bool:
        """Play one random legal move; False (and a new game, uncounted) when the game is over."""
        legal = [str(m) for m in self.record.position.legal_moves()]
        if self.record.position.status != "playing" or not legal:
            self.new_game()
            return False
        move = self.rng.choice(legal)
        data = {"csrf_token": self.csrf, "ply": self.ply, "version": self.version, **form_for(move)}
        response = self.http.post(f"/games/{self.game_id}/act", data=data, headers={"HX-Request": "true"})
        board = BOARD.search(response.text)
        if response.status_code != 200 or board is None:
            raise SystemExit(f"move {move} failed: {response.status_code}")
        self.record = self.record.play(move)
        self.ply, self.version = board.group(2), board.group(3)
        self.sizes.append(len(response.content))
        return True

    def floor(self, size: int) -> None:
        self.http.post(f"/bench/floor/{self.game_id}", params={"size": size}).raise_for_status()


def measure(client: Client, count: int, step) -> float:
    """Milliseconds of server CPU per counted request."""
    before, uncounted, done = cpu_seconds(client.pid), client.uncounted, 0
    while done < count:
        done += step() is not False
    return (cpu_seconds(client.pid) - before - (client.uncounted - uncounted)) * 1000 / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=1000, help="per phase and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--presets", default="relaxed,pyramid-3,pyramid,giza")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not (1 <= args.requests <= 100_000 and 1 <= args.rounds <= 20):
        raise SystemExit("bounded: 1-100000 requests, 1-20 rounds")

    with running_servers("sqlite", 1, prefix="tretten-cpu-") as (_, [(process, base)]):
        client = Client(base, args.presets.split(","), random.Random(args.seed), process.pid)
        client.new_game()
        measure(client, 200, client.move)  # warm-up: imports, caches, pool
        moves, floors = [], []
        for _ in range(args.rounds):
            moves.append(measure(client, args.requests, client.move))
            size = int(statistics.median(client.sizes))
            floors.append(measure(client, args.requests, lambda: client.floor(size)))
    move, floor = statistics.median(moves), statistics.median(floors)
    print(f"server CPU per request, median of {args.rounds} rounds x {args.requests} requests "
          f"(move fragment {int(statistics.median(client.sizes))} B raw)")
    print(f"move   {move:6.2f} ms   rounds {' '.join(f'{x:.2f}' for x in moves)}")
    print(f"floor  {floor:6.2f} ms   rounds {' '.join(f'{x:.2f}' for x in floors)}")
    print(f"move / floor = {move / floor:.2f}")


if __name__ == "__main__":
    main()
