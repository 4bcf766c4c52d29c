"""Gaps solver at an equal node budget (noise-free), one round by default.

    .venv/bin/python bench/gaps.py --seeds 0-199 --nodes 20000
    .venv/bin/python bench/gaps.py --seeds 1-100 --seconds 5   (CPU seconds a deal)

Prints won / lost / undecided, per won deal the nodes to the win (median, max), and the CPU
seconds a deal (median, 90th percentile, max). Every win is replayed by the engine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> None:
    from app.engine import deal_for_seed, get_game
    from app.solver.gaps import solve_gaps
    from app.solver.result import Budget
    import time as clock

    p = argparse.ArgumentParser()
    p.add_argument("--seeds", default="0-199")
    p.add_argument("--nodes", type=int, default=None)
    p.add_argument("--seconds", type=float, default=None)
    p.add_argument("--rounds", default="1")
    p.add_argument("-v", action="store_true")
    a = p.parse_args(argv)
    lo, hi = (int(x) for x in a.seeds.split("-"))
    variant = get_game("gaps")
    rules = variant.parse_rules({"rounds": a.rounds})
    counts = {True: 0, False: 0, None: 0}
    win_nodes = []
    cpu = []
    start = time.process_time()
    for seed in range(lo, hi + 1):
        position = variant.new_position(deal_for_seed("gaps", seed), rules)
        t = time.process_time()
        r = solve_gaps(position, Budget(a.nodes, a.seconds, clock.process_time))
        counts[r.winnable] += 1
        if r.winnable:
            win_nodes.append(r.nodes)
            replayed = position
            for m in r.moves:
                replayed = replayed.apply(m)
            assert replayed.status == "won", seed
        cpu.append(time.process_time() - t)
        if a.v:
            print(seed, r.winnable, r.nodes, f"{cpu[-1]:.2f}s", flush=True)
    n = hi - lo + 1
    print(f"won {counts[True]} lost {counts[False]} undecided {counts[None]} "
          f"decided {(counts[True] + counts[False]) / n * 100:.1f}% "
          f"win nodes median {statistics.median(win_nodes) if win_nodes else '-'} "
          f"max {max(win_nodes) if win_nodes else '-'} "
          f"CPU median {statistics.median(cpu):.2f}s p90 {statistics.quantiles(cpu, n=10)[-1]:.2f}s "
          f"max {max(cpu):.2f}s total {time.process_time() - start:.0f}s")


if __name__ == "__main__":
    main()
