"""A flood of link-preview images while players move (issue 25): does it slow the moves?

`--movers` players tap random legal moves through the board form (as bench/load.py's players),
first alone for `--seconds`, then again while `--flooders` anonymous clients fetch previews of
random seeds (each a drawing the cache has never seen) as fast as they are answered. Prints the
movers' p50/p99 in both phases and what the flood got (images, 429s, other answers).

  .venv/bin/python bench/preview_flood.py
  .venv/bin/python bench/preview_flood.py --db postgresql --instances 2
  options: --movers 20 --flooders 16 --seconds 10

Target (issue 25): the movers' p99 during the flood within twice its value without it.
Only 127.0.0.1 is ever contacted; every loop ends by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import Http, Player, Stats, running_servers  # noqa: E402



def quantiles(latencies: list[float]) -> tuple[float, float]:
    ms = sorted(x * 1000 for x in latencies)
    if len(ms) < 3:
        return float("nan"), float("nan")
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return q[49], q[98]


async def phase(players: list[Player], seconds: float, rng: random.Random, flood: list[Http] | None) -> tuple:
    moves = Stats()
    answers: Counter[str] = Counter()
    done = asyncio.Event()

    async def play(player: Player) -> None:
        while not done.is_set():
            await player.move(moves)
            await asyncio.sleep(rng.uniform(0.075, 0.225))

    async def fetch(http: Http) -> None:
        while not done.is_set():
            seed = rng.randrange(10**12)
            try:
                status, _, _ = await http.request("GET", f"/preview/en/gaps/{seed}.png")
            except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
                answers["connection error"] += 1
                continue
            answers["image" if status == 200 else str(status)] += 1
            if status == 429:
                await asyncio.sleep(0.05)  # a client that is refused asks again soon (a bot would)

    tasks = [asyncio.create_task(play(p)) for p in players]
    tasks += [asyncio.create_task(fetch(h)) for h in flood or ()]
    await asyncio.sleep(seconds)
    done.set()
    await asyncio.gather(*tasks)
    return quantiles(moves.latencies), len(moves.latencies), moves.errors, answers


async def run(bases: list[str], args) -> None:
    rng = random.Random(11)
    players = [Player(i, bases[i % len(bases)], ["relaxed", "pyramid-3", "pyramid", "giza"], random.Random(rng.random()))
               for i in range(args.movers)]
    for player in players:
        player.prepare(int(2 * args.seconds / 0.15) + 50)
    await asyncio.gather(*(p.new_game() for p in players))
    flood = [Http(bases[i % len(bases)]) for i in range(args.flooders)]
    (q50, q99), n, errors, _ = await phase(players, args.seconds, rng, None)
    print(f"without the flood: {n} moves, p50 {q50:.1f} ms, p99 {q99:.1f} ms, errors {errors}")
    started = time.perf_counter()
    (f50, f99), n, errors, answers = await phase(players, args.seconds, rng, flood)
    elapsed = time.perf_counter() - started
    print(f"with {args.flooders} clients fetching new previews: {n} moves, p50 {f50:.1f} ms, p99 {f99:.1f} ms, "
          f"errors {errors}")
    print("the flood got: " + ", ".join(f"{k} {v} ({v / elapsed:.1f}/s)" for k, v in answers.most_common()))
    print(f"p99 with / without: {f99 / q99:.2f} (target <= 2)")
    for http in flood + [p.http for p in players]:
        await http.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--movers", type=int, default=20)
    parser.add_argument("--flooders", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--instances", type=int, default=1)
    args = parser.parse_args()
    if not (1 <= args.movers <= 200 and 0 <= args.flooders <= 100 and 1 <= args.instances <= 4
            and 1 <= args.seconds <= 120):
        raise SystemExit("bounded: 1-200 movers, 0-100 flooders, 1-4 instances, 1-120 s")
    with running_servers(args.db, args.instances, prefix="tretten-previews-") as (_, servers):
        asyncio.run(run([b for _, b in servers], args))


if __name__ == "__main__":
    main()
