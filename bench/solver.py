"""Solver benchmark: time per deal over seeded deals, one row per rule set (a figure, not a
test). Each row runs in its own process, so its peak memory is its own.

    .venv/bin/python bench/solver.py                    # 10,000 deals a row (Gaps: 200)
    .venv/bin/python bench/solver.py --deals 500 --rows pyramid-1,giza
    .venv/bin/python bench/solver.py --deals 200 --gaps-deals 50 --jobs 2

Targets (issue 4): Pyramid 1 pass median <= 5 ms, max <= 1 s, peak memory <= 200 MB;
Gaps one round: >= 97 % of deals decided within 5 s each. Pyramid 3 passes
(``--rows pyramid-3``, 2,000 deals): max <= 1 s, peak memory <= 200 MB, median no worse
than before ``pyramid_multi`` (1.7 ms).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROWS = {
    # name: (game, rule options, per-deal budget in seconds or None for exact)
    "pyramid-1": ("pyramid", {"passes": "1"}, None),
    "pyramid-1-all": ("pyramid", {"passes": "1", "goal": "all"}, None),
    "pyramid-3": ("pyramid", {"passes": "3"}, None),
    "pyramid-unlimited": ("pyramid", {"passes": "unlimited"}, None),
    "relaxed": ("pyramid", {"passes": "unlimited", "overlap": "true"}, None),
    "giza": ("giza", {}, None),
    "giza-all": ("giza", {"goal": "all"}, None),
    "double-pyramid": ("double-pyramid", {"passes": "3"}, 5.0),
    "gaps-1": ("gaps", {"rounds": "1"}, 5.0),
}
DEFAULT_ROWS = "pyramid-1,pyramid-unlimited,giza,gaps-1"


def run_row(name: str, deals: int, first_seed: int, queue) -> None:
    from app.engine import deal_for_seed, get_game
    from app.solver import solve

    game, options, budget = ROWS[name]
    variant = get_game(game)
    rules = variant.parse_rules(options)
    times, verdicts = [], []
    for seed in range(first_seed, first_seed + deals):
        position = variant.new_position(deal_for_seed(game, seed), rules)
        start = time.perf_counter()
        result = solve(position, budget_seconds=budget)
        times.append(time.perf_counter() - start)
        verdicts.append(result.winnable)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    queue.put((name, times, verdicts, peak_mb))


def report(name: str, times: list[float], verdicts: list, peak_mb: float) -> str:
    n = len(times)
    ordered = sorted(times)
    won = verdicts.count(True)
    lost = verdicts.count(False)
    decided = won + lost
    return (
        f"{name:18} {n:6d} {won / n * 100:6.1f}% {decided / n * 100:7.1f}% "
        f"{statistics.median(ordered) * 1000:9.1f} {ordered[int(0.9 * (n - 1))] * 1000:9.1f} "
        f"{ordered[int(0.99 * (n - 1))] * 1000:9.1f} {ordered[-1] * 1000:9.0f} "
        f"{sum(times):8.1f} {peak_mb:8.0f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000, help="deals per row")
    parser.add_argument("--gaps-deals", type=int, default=200,
                        help="deals for the Gaps row (each may take its whole 5 s)")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--rows", default=DEFAULT_ROWS,
                        help=f"comma-separated, from: {', '.join(ROWS)}")
    parser.add_argument("--jobs", type=int, default=1, help="rows run at once")
    args = parser.parse_args(argv)
    names = [r.strip() for r in args.rows.split(",") if r.strip()]
    for name in names:
        if name not in ROWS:
            parser.error(f"unknown row {name!r}")
    print(f"{'rule set':18} {'deals':>6} {'won':>7} {'decided':>8} {'median ms':>9} "
          f"{'p90 ms':>9} {'p99 ms':>9} {'max ms':>9} {'total s':>8} {'peak MB':>8}")
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    pending = list(names)
    running: list = []
    results = {}
    while pending or running:
        while pending and len(running) < args.jobs:
            name = pending.pop(0)
            deals = min(args.deals, args.gaps_deals) if ROWS[name][0] == "gaps" else args.deals
            proc = ctx.Process(target=run_row, args=(name, deals, args.seed, queue))
            proc.start()
            running.append(proc)
        name, times, verdicts, peak = queue.get()
        results[name] = report(name, times, verdicts, peak)
        print(results[name], flush=True)
        for proc in list(running):
            proc.join(timeout=0.1)
            if not proc.is_alive():
                running.remove(proc)


if __name__ == "__main__":
    main()
