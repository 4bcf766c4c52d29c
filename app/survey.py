"""Win-rate survey: solve many seeded deals and report how often the rules can be won.

Used by ``tretten survey``. The solver decides each deal exactly where it can; deals
whose budget runs out are counted as undecided, never guessed.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from app.engine import deal_for_seed, get_game

Z95 = 1.959963984540054


@dataclass(frozen=True)
class DealResult:
    seed: int
    winnable: bool | None
    seconds: float


@dataclass
class SurveyReport:
    game: str
    options: dict[str, str]
    first_seed: int
    results: list[DealResult] = field(default_factory=list)

    @property
    def won(self) -> int:
        return sum(1 for r in self.results if r.winnable is True)

    @property
    def decided(self) -> int:
        return sum(1 for r in self.results if r.winnable is not None)

    @property
    def undecided(self) -> int:
        return len(self.results) - self.decided

    def win_rate(self) -> tuple[float, float, float]:
        """Wins over decided deals, with the Wilson 95 % interval."""
        return wilson(self.won, self.decided)

    def as_dict(self) -> dict:
        rate, low, high = self.win_rate()
        times = [r.seconds for r in self.results] or [0.0]
        return {
            "game": self.game,
            "options": self.options,
            "seeds": [self.first_seed, self.first_seed + len(self.results) - 1],
            "deals": len(self.results),
            "decided": self.decided,
            "undecided": self.undecided,
            "winnable": self.won,
            "win_rate": round(rate, 5),
            "ci95": [round(low, 5), round(high, 5)],
            "seconds_mean": round(statistics.fmean(times), 5),
            "seconds_median": round(statistics.median(times), 5),
            "seconds_max": round(max(times), 5),
        }


def wilson(successes: int, trials: int) -> tuple[float, float, float]:
    """The share and its Wilson score interval at 95 %."""
    if trials == 0:
        return 0.0, 0.0, 1.0
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    spread = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return p, max(0.0, centre - spread), min(1.0, centre + spread)


def _solve_seed(task: tuple[str, dict, int, float | None]) -> DealResult:
    from app.solver import solve

    game, options, seed, budget = task
    variant = get_game(game)
    position = variant.new_position(deal_for_seed(game, seed), variant.parse_rules(options))
    start = time.perf_counter()
    result = solve(position, budget_seconds=budget)
    return DealResult(seed, result.winnable, time.perf_counter() - start)


def run_survey(
    game: str, options: dict[str, str], deals: int, first_seed: int, jobs: int, budget: float | None
) -> Iterator[DealResult]:
    tasks = [(game, options, seed, budget) for seed in range(first_seed, first_seed + deals)]
    if jobs <= 1:
        yield from map(_solve_seed, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_solve_seed, tasks, chunksize=max(1, min(64, deals // (jobs * 8) or 1)))


def progress(done: int, total: int, started: float, stream=sys.stderr) -> None:
    width = 30
    filled = width * done // max(total, 1)
    elapsed = time.perf_counter() - started
    eta = elapsed / done * (total - done) if done else 0.0
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {elapsed:.0f}s  eta {eta:.0f}s ")
    if done == total:
        stream.write("\n")
    stream.flush()
