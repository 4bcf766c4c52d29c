"""Par (the proven shortest win) on random deals of each Pyramid-family preset: how many winnable
deals are proven within the par budget, the CPU each takes, and where one is not proven, how far
the best-known line is from its bound (a figure, not a test).

    nice -n 10 .venv/bin/python bench/par.py                          # every preset, 20 deals each
    nice -n 10 .venv/bin/python bench/par.py --preset relaxed --deals 100 --seed 7 --verbose

The deals' seeds are drawn from ``random.Random(--seed)``; measure on a ``--seed`` the solver was
not tuned on. The budget is the solver's own (``app.solver.PAR_POSITIONS`` positions, no clock),
so the figures count CPU seconds (``time.process_time``), which a shared machine's load does not
inflate. Targets (issue 35): every winnable deal proven, at most 10 s CPU, median at most 1 s per
preset; an unproven line within 10 % of its bound.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import PRESETS, deal_for_seed, get_preset
from app.solver import PAR_POSITIONS, shortest_win

# the presets whose par search is the Pyramid family's (Gaps': bench/gaps_par.py)
PYRAMID_FAMILY = [slug for slug, p in PRESETS.items() if p.variant.hint_shortest]


def measure(slug: str, seeds: list[int], budget: int, verbose: bool) -> str:
    preset = get_preset(slug)
    cpu, winnable, proven, lost, undecided, gaps = [], 0, 0, 0, 0, []
    for seed in seeds:
        start = preset.variant.new_position(deal_for_seed(preset.game, seed), preset.rules)
        t0 = time.process_time()
        found = shortest_win(start, budget_nodes=budget, budget_seconds=None)
        spent = time.process_time() - t0
        cpu.append(spent)
        if found.winnable:
            winnable += 1
            proven += found.proven
            if not found.proven:
                gaps.append((len(found.moves), found.lower_bound))
        elif found.winnable is False:
            lost += 1
        else:
            undecided += 1
        if verbose:
            print(f"{slug} {seed:>20} winnable={found.winnable} moves={len(found.moves)} "
                  f"bound={found.lower_bound} proven={found.proven} positions={found.nodes} "
                  f"cpu={spent:.2f} s", flush=True)
    cpu.sort()
    p90 = cpu[min(len(cpu) - 1, int(0.9 * len(cpu)))]
    unproven = ", ".join(f"{moves}/{bound} (+{100 * (moves - bound) / bound:.0f} %)" for moves, bound in gaps)
    return (f"| {slug} | {len(seeds)} | {winnable}{f' (+{undecided} undecided)' if undecided else ''} | {proven} | "
            f"{statistics.median(cpu):.2f} / {p90:.2f} / {cpu[-1]:.2f} s | {unproven or '-'} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="all", help=f"one of {', '.join(PYRAMID_FAMILY)}, or all")
    parser.add_argument("--deals", type=int, default=20, help="per preset")
    parser.add_argument("--seed", type=int, default=2026, help="seeds the random deal seeds")
    parser.add_argument("--positions", type=int, default=PAR_POSITIONS, help="the budget of each search")
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seeds = [rng.randrange(2**64) for _ in range(args.deals)]
    rows = []
    for slug in PYRAMID_FAMILY if args.preset == "all" else [args.preset]:
        rows.append(measure(slug, seeds, args.positions, args.verbose))
        print(rows[-1], flush=True)
    print(f"\nbudget {args.positions} positions; --seed {args.seed}, {args.deals} deals a preset")
    print("| preset | deals | winnable | par proven | CPU median / p90 / max | unproven: best known / bound |")
    print("| --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
