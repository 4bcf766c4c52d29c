"""The proven-shortest search (par) on random deals: how many winnable deals it proves within
the server's budget, and its CPU per deal (a figure, not a test).

    nice -n 10 .venv/bin/python bench/par.py                  # 100 random pyramid-3 deals
    nice -n 10 .venv/bin/python bench/par.py --preset pyramid --deals 200 --seed 7

Target (issue 28): every winnable deal of ``pyramid-3`` proven at the default budget
(app.services.assist.solver_cache.SHORTEST_NODES / SHORTEST_SECONDS), median CPU no worse than before.
The budget's seconds are counted as CPU seconds here (see ``main``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import deal_for_seed, get_preset
from app.services.assist.solver_cache import SHORTEST_NODES, SHORTEST_SECONDS
from app.solver import result
from app.solver.shortest import shortest_win


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="pyramid-3")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026, help="seeds the random deal seeds")
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    # the seconds of the budget as CPU seconds: on a shared machine a wall-clock budget would
    # measure the neighbours, and on an idle server the two agree
    clock_free = result.Budget.__init__

    def on_cpu(self, nodes, seconds, clock=None):
        clock_free(self, nodes, seconds, clock or time.process_time)

    result.Budget.__init__ = on_cpu
    preset = get_preset(args.preset)
    rng = random.Random(args.seed)
    seeds = [rng.randrange(2**64) for _ in range(args.deals)]
    cpu, winnable, proven, unproven, lost, undecided = [], 0, 0, [], 0, 0
    for seed in seeds:
        start = preset.variant.new_position(deal_for_seed(preset.game, seed), preset.rules)
        t0 = time.process_time()
        found = shortest_win(start, budget_nodes=SHORTEST_NODES, budget_seconds=SHORTEST_SECONDS)
        spent = time.process_time() - t0
        cpu.append(spent)
        if found.winnable:
            winnable += 1
            if found.proven:
                proven += 1
            else:
                unproven.append(seed)
        elif found.winnable is False:
            lost += 1
        else:
            undecided += 1
        if args.verbose:
            print(f"{seed:>20} winnable={found.winnable} moves={len(found.moves)} proven={found.proven} "
                  f"nodes={found.nodes} cpu={spent * 1000:.1f} ms", flush=True)
    cpu.sort()
    p90 = cpu[min(len(cpu) - 1, int(0.9 * len(cpu)))]
    print(f"{args.preset}: {len(seeds)} deals, budget {SHORTEST_NODES} nodes / {SHORTEST_SECONDS} s")
    print(f"winnable {winnable}, proven shortest {proven}, unproven {len(unproven)} {unproven}, "
          f"not winnable {lost}, undecided {undecided}")
    print(f"CPU per deal: median {statistics.median(cpu) * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, "
          f"max {cpu[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
