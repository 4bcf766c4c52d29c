"""Print the shipped first deals (app/services/assist/first_deals.py): for every preset, the
first ``--per-preset`` seeds from ``--start`` that ``app.solver.solve`` proves winnable within
``first_deals.NODES`` searched positions (no time budget: the same seeds on every machine).

    .venv/bin/python scripts/first_deals.py [--start 1] [--per-preset 8]
"""

from __future__ import annotations

import argparse

from app.engine import PRESETS, GameRecord, get_game
from app.services.assist.first_deals import NODES
from app.solver import solve


def proven_seeds(slug: str, start: int, count: int) -> list[int]:
    preset = PRESETS[slug]
    found: list[int] = []
    seed = start
    while len(found) < count:
        position = GameRecord.new(preset.game, preset.rules, get_game(preset.game).deal(seed)).position
        if solve(position, budget_nodes=NODES).winnable:
            found.append(seed)
        seed += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--per-preset", type=int, default=8)
    args = parser.parse_args()
    for slug in PRESETS:
        print(f'    "{slug}": {tuple(proven_seeds(slug, args.start, args.per_preset))},')


if __name__ == "__main__":
    main()
