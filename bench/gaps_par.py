"""Gaps par (``app.solver.gaps_shortest``): per deal the first line found (cleaned), the best
line known, whether it is proven and the bound, at a budget of positions, in CPU seconds.

    .venv/bin/python bench/gaps_par.py --seeds 1-20 --rounds 1
    .venv/bin/python bench/gaps_par.py --seeds 1-20 --rounds 3 --preset gaps-danish

Prints one line a deal and a summary (winnable, proven, lengths against the bound, CPU).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> None:
    from app.engine import deal_for_seed, get_preset
    from app.solver.gaps import solve_gaps
    from app.solver.gaps_shortest import shortest_gaps
    from app.solver.lines import clean_line
    from app.solver.result import Budget
    from app.solver.shortest import PAR_POSITIONS

    p = argparse.ArgumentParser()
    p.add_argument("--seeds", default="1-20")
    p.add_argument("--preset", default="gaps")
    p.add_argument("--rounds", default=None, help="override the preset's rounds (1 = one round)")
    p.add_argument("--nodes", type=int, default=PAR_POSITIONS)
    p.add_argument("--seconds", type=float, default=None, help="CPU seconds a deal, on top")
    p.add_argument("--first", action="store_true", help="also time the first line alone (solve)")
    a = p.parse_args(argv)
    lo, hi = (int(x) for x in a.seeds.split("-"))
    preset = get_preset(a.preset)
    options = dict(preset.options)
    if a.rounds:
        options["rounds"] = a.rounds
    variant = preset.variant
    rules = variant.parse_rules(options)
    won = lost = undecided = proven = 0
    times, gains, gaps_to_bound = [], [], []
    for seed in range(lo, hi + 1):
        position = variant.new_position(deal_for_seed(preset.game, seed), rules)
        first = None
        if a.first:
            r = solve_gaps(position, Budget(a.nodes // 2, a.seconds, time.process_time))
            if r.winnable:
                first = len(clean_line(position, r.moves))
        t = time.process_time()
        result = shortest_gaps(position, Budget(a.nodes, a.seconds, time.process_time))
        cpu = time.process_time() - t
        times.append(cpu)
        if result.winnable:
            won += 1
            replayed = position
            for m in result.moves:
                replayed = replayed.apply(m)
            assert replayed.status == "won", seed
            proven += result.proven
            if first:
                gains.append(first - len(result.moves))
            if result.lower_bound:
                gaps_to_bound.append(len(result.moves) / result.lower_bound - 1)
        elif result.winnable is False:
            lost += 1
        else:
            undecided += 1
        print(seed, result.winnable, len(result.moves), "proven" if result.proven else "best-known",
              f"bound {result.lower_bound}", f"first {first}" if a.first else "", f"nodes {result.nodes}",
              f"{cpu:.2f}s", flush=True)
    times.sort()
    print(f"{a.preset} rounds {rules.rounds}: won {won} lost {lost} undecided {undecided} proven {proven} "
          f"CPU median {statistics.median(times):.2f} p90 {times[int(len(times) * 0.9) - 1]:.2f} "
          f"max {times[-1]:.2f} s"
          + (f"; shorter than the first line by median {statistics.median(gains)}" if gains else "")
          + (f"; best known over bound median +{statistics.median(gaps_to_bound) * 100:.0f} %"
             if gaps_to_bound else ""))


if __name__ == "__main__":
    main()
