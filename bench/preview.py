"""Link preview images: time to draw, bytes, and the cached second call, per game family.

    .venv/bin/python bench/preview.py --deals 50

Target: a new image drawn in at most 100 ms and at most 100 KB. Each family's first image
in the process also builds the shapes it pastes (shown apart as "first"). The CPU column is
the process's own time, which other work on a shared machine does not inflate.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

FAMILIES = ("pyramid", "giza", "double-pyramid", "gaps", "gaps-danish")


def main(argv=None) -> None:
    from app.engine import PRESETS, deal_for_seed, format_deal
    from app.web.views import previews

    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=50, help="deals drawn per family")
    p.add_argument("--first-seed", type=int, default=1000)
    a = p.parse_args(argv)

    print(f"{'preset':<16}{'first ms':>9}{'median ms':>10}{'max ms':>8}{'CPU median':>11}{'CPU max':>8}"
          f"{'median KB':>10}{'max KB':>8}{'cached µs':>10}")
    worst_ms = worst_kb = 0.0
    for preset in FAMILIES:
        game = PRESETS[preset].game
        deals = [format_deal(deal_for_seed(game, a.first_seed + k)) for k in range(a.deals)]
        times, cpu, sizes, cached = [], [], [], []
        for deal in deals:
            start, start_cpu = time.perf_counter(), time.process_time()
            png = previews.preview_png(preset, deal)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            sizes.append(len(png) / 1000)
            start = time.perf_counter()
            previews.preview_png(preset, deal)
            cached.append((time.perf_counter() - start) * 1e6)
        drawn, drawn_cpu = times[1:] or times, cpu[1:] or cpu
        worst_ms, worst_kb = max(worst_ms, max(drawn)), max(worst_kb, max(sizes))
        print(f"{preset:<16}{times[0]:>9.1f}{statistics.median(drawn):>10.1f}{max(drawn):>8.1f}"
              f"{statistics.median(drawn_cpu):>11.1f}{max(drawn_cpu):>8.1f}"
              f"{statistics.median(sizes):>10.1f}{max(sizes):>8.1f}{statistics.median(cached):>10.1f}")
    print(f"worst after the first: {worst_ms:.1f} ms (target 100), {worst_kb:.1f} KB (target 100)")
    print(f"load average while measured: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
