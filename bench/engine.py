"""Random-playout speed of the rules engine, per game.

Prints, for each game: moves applied per second (random legal playouts through the
public immutable API, ``apply`` checks legality) and legal-move generations per second.
Figures are measured in one run on this machine; compare rows, not runs.

    .venv/bin/python bench/engine.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import time

from app.engine import SplitMix64, deal_for_seed, get_game

CONFIGS = [
    ("pyramid", {}),
    ("pyramid", {"passes": "unlimited", "overlap": "true"}),
    ("giza", {}),
    ("double-pyramid", {"passes": "3"}),
    ("gaps", {}),
    ("gaps", {"aces": "starters"}),
]


def playouts(game: str, options: dict, seconds: float) -> tuple[float, float, int]:
    variant = get_game(game)
    rules = variant.parse_rules(options)
    rng = SplitMix64(99)
    moves = generations = games = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        position = variant.new_position(deal_for_seed(game, seed), rules)
        seed += 1
        games += 1
        for _ in range(400):  # unlimited passes can cycle for ever: cap a playout
            legal = position.legal_moves()
            generations += 1
            if not legal:
                break
            position = position.apply(legal[rng.below(len(legal))])
            moves += 1
    elapsed = time.perf_counter() - start
    return moves / elapsed, generations / elapsed, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game (default 2)")
    args = parser.parse_args()
    print(f"{'game':<16}{'options':<34}{'moves/s':>10}{'legal gen/s':>13}{'games':>7}")
    for game, options in CONFIGS:
        moves, generations, games = playouts(game, options, args.seconds)
        label = " ".join(f"--{k} {v}" for k, v in options.items()) or "(defaults)"
        print(f"{game:<16}{label:<34}{moves:>10,.0f}{generations:>13,.0f}{games:>7}")


if __name__ == "__main__":
    main()
