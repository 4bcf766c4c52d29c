"""Winnable-only deals: how long "new deal" takes when the player asked for winnable deals only.

    .venv/bin/python bench/winnable.py [--deals 50] [--presets pyramid,pyramid-classic,...] [--seed 1]

For each Pyramid-family preset, N new deals from random starting seeds (drawn from --seed, so a
run can be repeated) through ``app.services.assist.winnable.first_winnable`` — the same search, budgets
and limits the server uses — and prints candidates tried, p50 / p95 / max seconds and how many
searches found no proven deal within the limits (the server then deals at random, unproven).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import PRESETS  # noqa: E402
from app.services.assist.winnable import first_winnable  # noqa: E402

PYRAMID_FAMILY = [slug for slug, p in PRESETS.items() if p.game != "gaps"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--presets", default=",".join(PYRAMID_FAMILY))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{'preset':<16} {'deals':>5} {'tried mean':>10} {'tried max':>9} {'p50 s':>7} {'p95 s':>7} {'max s':>7} {'none':>4}")
    for slug in args.presets.split(","):
        times, tried, misses = [], [], 0
        for _ in range(args.deals):
            start = rng.randrange(1_000_000_000)
            began = time.perf_counter()
            seed, _result, count = first_winnable(slug, start)
            times.append(time.perf_counter() - began)
            tried.append(count)
            misses += seed is None
        print(f"{slug:<16} {args.deals:>5} {statistics.mean(tried):>10.1f} {max(tried):>9} "
              f"{percentile(times, .5):>7.3f} {percentile(times, .95):>7.3f} {max(times):>7.3f} {misses:>4}", flush=True)


if __name__ == "__main__":
    main()
