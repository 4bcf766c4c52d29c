"""Gaps par (app.solver.gaps_shortest): A* and the home beam against a plain breadth-first search
on reduced boards, and the par search on full deals (every line replayed by the engine)."""

from __future__ import annotations

import random
from collections import deque

import pytest

from app.engine import deal_for_seed, get_preset
from app.solver import ShortestWin, proves_shortest, shortest_win, solve
from app.solver.gaps import GapsCore
from app.solver.gaps_shortest import astar, shortest_gaps
from app.solver.result import Budget, BudgetExceeded

from . import gaps_reference as ref


def _codes(grid: tuple) -> list[int]:
    return [0 if x is None else 16 * x[0] + x[1] for x in grid]


def _line(moves) -> list:
    return [((card >> 4, card & 15), cell) for card, cell in moves]


def _shortest(rows: int, cols: int, grid: tuple, starters: tuple = ()) -> int | None:
    """The fewest fills to a won grid, breadth-first over every grid (None: no win)."""
    seen = {grid}
    queue = deque([(grid, 0)])
    while queue:
        here, depth = queue.popleft()
        if ref.won(rows, cols, here, starters):
            return depth
        for card, cell in ref.fills(rows, cols, here, starters):
            after = ref.play(here, card, cell)
            if after not in seen:
                seen.add(after)
                queue.append((after, depth + 1))
    return None


def _never(*_args) -> None:
    return None


@pytest.mark.parametrize("rows,cols,deals,starters", [
    pytest.param(4, 4, 12, False, marks=pytest.mark.slow), (3, 5, 40, False), (4, 4, 30, True),
    pytest.param(3, 6, 15, False, marks=pytest.mark.slow)])
def test_a_star_finds_the_breadth_first_shortest_win_on_reduced_boards(rows, cols, deals, starters):
    rng = random.Random(35 + rows * 10 + cols + 100 * starters)
    lengths = set()
    for _ in range(deals):
        grid = ref.random_grid(rows, cols, rng)
        order = tuple(rng.sample(range(rows), rows)) if starters else ()
        expected = _shortest(rows, cols, grid, order)
        core = GapsCore(rows, cols, order)
        assert core.bound(core.home(_codes(grid))) <= (expected if expected is not None else 1 << 30)
        line, lower, exhausted = astar(core, _codes(grid), None, _never)
        if expected is None:
            assert line is None and exhausted, grid
            continue
        lengths.add(expected)
        assert line is not None and len(line) == expected == lower, (grid, order)
        assert ref.replays_to_won(rows, cols, grid, _line(line), order)
        # below a known length it finds the same; at the shortest length it proves nothing shorter
        again, _, _ = astar(core, _codes(grid), expected + 1, _never)
        assert again is not None and len(again) == expected
        assert astar(core, _codes(grid), expected, _never) == (None, expected, True)
        beam = core.home_beam(_codes(grid), 8)
        if beam is not None:
            assert len(beam) >= expected and ref.replays_to_won(rows, cols, grid, _line(beam), order)
    assert len(lengths) > 3  # deals of many lengths were compared


def test_a_star_cut_by_its_budget_answers_a_bound_no_win_is_below():
    rng = random.Random(5)
    core = GapsCore(3, 6)
    compared = 0
    for _ in range(30):
        grid = ref.random_grid(3, 6, rng)
        expected = _shortest(3, 6, grid)
        if expected is None:
            continue
        def tick(ticks=[0]) -> None:  # noqa: B006 - a fresh counter for each deal's search
            ticks[0] += 1
            if ticks[0] > 20:
                raise BudgetExceeded

        line, lower, exhausted = astar(core, _codes(grid), None, tick)
        assert lower <= expected and not exhausted
        if line is not None:
            assert len(line) == expected
        compared += 1
    assert compared > 10


def _start(slug: str, seed: int, rounds: str | None = None):
    preset = get_preset(slug)
    options = dict(preset.options)
    if rounds:
        options["rounds"] = rounds
    return preset.variant.new_position(deal_for_seed("gaps", seed), preset.variant.parse_rules(options))


def _replays(position, moves) -> bool:
    for move in moves:
        position = position.apply(move)
    return position.status == "won"


def test_every_game_has_a_par_search_and_gaps_par_is_best_known_across_redeals():
    start = _start("gaps", 16)
    assert proves_shortest(start)
    found = shortest_win(start, budget_nodes=30_000)
    assert found.winnable and not found.proven and found.lower_bound == 0
    assert _replays(start, found.moves)
    first = solve(start, budget_nodes=10_000)  # the search's first phase: a third of the budget
    assert first.winnable and len(found.moves) <= len(first.moves)
    assert shortest_win(start, budget_nodes=30_000) is found  # kept per position and budget


# one round, the default par budget: a deal whose shortest win is proven, and the line and bound
# of one it could not prove (measured with bench/gaps_par.py --rounds 1)
GOLDEN = [  # preset, seed, length of the line, proven, bound
    ("gaps", 40, 77, False, 60),
    ("gaps-danish", 3, 89, True, 89),
]


@pytest.mark.slow
def test_one_round_par_on_golden_deals():
    for slug, seed, length, proven, bound in GOLDEN:
        start = _start(slug, seed, rounds="1")
        found = shortest_gaps(start, Budget(300_000, None))
        assert found.winnable and _replays(start, found.moves), seed
        assert (len(found.moves), found.proven, found.lower_bound) == (length, proven, bound), seed


def test_a_lost_deal_has_no_par_and_a_won_position_is_its_own():
    # one round, seeds 85 and 86: lost from the deal (the reach relaxation proves it at once)
    for seed in (85, 86):
        found = shortest_gaps(_start("gaps", seed, rounds="1"), Budget(20_000, None))
        assert found.winnable is False and found.proven and found.moves == ()
    start = _start("gaps", 40, rounds="1")
    line = solve(start, budget_nodes=50_000).moves
    assert line
    here = start
    for move in line:
        here = here.apply(move)
    assert shortest_win(here, budget_nodes=1000) == ShortestWin(True, (), True, 0, 0)
