"""The compiled exhaustive search of one Gaps round (``app.solver.gaps_exhaustive``) against
the plain breadth-first search (``gaps_reference``) on reduced boards and on full boards with
few cards out of place, and ``solve_gaps``'s last round with it: wins replayed by the engine."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import deal_for_seed, get_game
from app.solver import gaps_exhaustive
from app.solver.gaps import fill_text, solve_gaps
from app.solver.result import Budget

from . import gaps_reference as ref


def _codes(grid: tuple) -> list[int]:
    return [0 if x is None else 16 * x[0] + x[1] for x in grid]


def _line(moves) -> list:
    return [((c >> 4, c & 15), cell) for c, cell in moves]


# (first run, unit) of the restarts: none (one run in the fixed order), the module's, and
# allowances so small that reduced boards are searched by many cut runs (the stack of each cut
# run leaves the set of grids met, the rest stays; the last run must still prove a loss).
RESTARTS = [(0, 0), (gaps_exhaustive.FIRST_RUN_GRIDS, gaps_exhaustive.RESTART_GRIDS), (1, 1),
            (3, 2), (20, 5)]


def _agrees(rows: int, cols: int, grid: tuple, starters: tuple = ()) -> bool:
    """Every verdict (with the relaxation at every grid, at some, or none; with and without
    restarts) equals
    breadth-first search's, and a win replays under the reference rules; returns the verdict."""
    expected = ref.winnable(rows, cols, grid, starters)
    # The relaxation at every grid, at every 4th depth (the module's), or nowhere.
    for prune, every in ((True, 1), (True, gaps_exhaustive.PRUNE_EVERY), (False, 1)):
        for first_run, unit in RESTARTS:
            won, moves, _ = gaps_exhaustive.exhaustive(_codes(grid), rows, cols, starters,
                                                       prune=prune, first_run=first_run, unit=unit,
                                                       prune_every=every)
            assert won == expected, (grid, starters, prune, every, first_run, unit)
            if won:
                assert ref.replays_to_won(rows, cols, grid, _line(moves), starters)
    return expected


@pytest.mark.parametrize("rows,cols,deals,starters", [
    (4, 4, 60, False), (3, 5, 60, False), (3, 6, 30, False), (4, 5, 8, False), (4, 4, 40, True),
])
def test_reduced_boards_agree_with_breadth_first(rows, cols, deals, starters):
    rng = random.Random(rows * 100 + cols + 1000 * starters)
    seen = {True: 0, False: 0}
    for _ in range(deals):
        grid = ref.random_grid(rows, cols, rng)
        order = tuple(rng.sample(range(rows), rows)) if starters else ()
        seen[_agrees(rows, cols, grid, order)] += 1
    assert seen[True] and seen[False]  # both verdicts are exercised


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([(3, 4), (4, 4), (3, 5), (2, 6)]),
       st.booleans())
def test_any_reduced_grid_agrees_with_breadth_first(rng, board, starters):
    rows, cols = board
    grid = ref.random_grid(rows, cols, rng)
    _agrees(rows, cols, grid, tuple(rng.sample(range(rows), rows)) if starters else ())


def _nearly_won(rng: random.Random, loose: int) -> tuple:
    """A full board won but for the ``loose`` highest ranks of each row, shuffled with the
    last column's gaps over those cells of all four rows (the suits' rows shuffled too)."""
    rows, cols = 4, 13
    suits = rng.sample(range(rows), rows)
    grid: list = [None] * (rows * cols)
    for r, s in enumerate(suits):
        for k in range(cols - 1):
            grid[r * cols + k] = (s, k + 2)
    cells = [r * cols + k for r in range(rows) for k in range(cols - 1 - loose, cols)]
    held = [grid[q] for q in cells]
    rng.shuffle(held)
    for q, x in zip(cells, held, strict=True):
        grid[q] = x
    return tuple(grid)


@pytest.mark.parametrize("loose", [2, 3])
def test_full_boards_with_few_cards_out_of_place_agree_with_breadth_first(loose):
    rng = random.Random(loose)
    seen = {True: 0, False: 0}
    for _ in range(40):
        seen[_agrees(4, 13, _nearly_won(rng, loose))] += 1
    assert seen[True] and seen[False]


def test_budget_out_is_undecided_never_a_verdict():
    variant = get_game("gaps")
    position = variant.new_position(deal_for_seed("gaps", 4), variant.parse_rules({"rounds": "1"}))
    grid = [0 if c is None else 16 * "CDHS".index(c.suit) + c.rank for c in position.grid]
    assert gaps_exhaustive.exhaustive(grid, 4, 13, budget=Budget(5_000, None))[0] is None
    assert gaps_exhaustive.exhaustive(grid, 4, 13, max_grids=5_000)[0] is None
    budget = Budget(None, 0.05, time.process_time)
    assert gaps_exhaustive.exhaustive(grid, 4, 13, budget=budget)[0] is None


def test_restarts_search_more_grids_than_one_run_to_the_same_loss():
    """A lost reduced board searched with tiny allowances: many runs are cut (their stacks are
    searched again), so more grids are counted than one run meets, and the verdict stays lost."""
    rng = random.Random(7)
    for _ in range(200):
        grid = ref.random_grid(3, 6, rng)
        if ref.winnable(3, 6, grid):
            continue
        one = gaps_exhaustive.exhaustive(_codes(grid), 3, 6, prune=False, first_run=0)
        if one[2] < 20:
            continue
        cut = gaps_exhaustive.exhaustive(_codes(grid), 3, 6, prune=False, first_run=1, unit=1)
        assert one[0] is False and cut[0] is False
        assert cut[2] > one[2]
        return
    pytest.fail("no lost board of enough grids")


def test_a_full_board_loss_is_proven_with_runs_of_one_grid():
    """Seed 63 (one round) is lost (one run in the fixed order proves it); with the runs cut
    after every new grid, thousands of stacks leave the set (deletions from a full-size
    table), and the last run proves the same loss."""
    variant = get_game("gaps")
    position = variant.new_position(deal_for_seed("gaps", 63), variant.parse_rules({"rounds": "1"}))
    grid = [0 if c is None else 16 * "CDHS".index(c.suit) + c.rank for c in position.grid]
    once = gaps_exhaustive.exhaustive(grid, 4, 13, first_run=0)
    cut = gaps_exhaustive.exhaustive(grid, 4, 13, first_run=1, unit=1)
    assert once[0] is False and cut[0] is False
    assert cut[2] > once[2]


def test_restarts_win_a_deal_the_fixed_order_does_not_within_the_same_grids():
    """Seed 29 (one round): the fixed order meets no win in 1.5 million grids; the restarts
    (shuffled orders, the set of grids met shared) win it within them (after about 370,000),
    and the line replays."""
    variant = get_game("gaps")
    position = variant.new_position(deal_for_seed("gaps", 29), variant.parse_rules({"rounds": "1"}))
    grid = [0 if c is None else 16 * "CDHS".index(c.suit) + c.rank for c in position.grid]
    budget = 1_500_000 // gaps_exhaustive.GRIDS_PER_NODE
    assert gaps_exhaustive.exhaustive(grid, 4, 13, budget=Budget(budget, None), first_run=0)[0] is None
    won, line, _ = gaps_exhaustive.exhaustive(grid, 4, 13, budget=Budget(budget, None))
    assert won is True
    for card, cell in line:
        position = position.apply(fill_text(card, cell))
    assert position.is_won()


def test_last_round_win_found_by_the_exhaustive_search_replays():
    """Seed 9 (one round): the Python search's share (no budget: ``FIRST_PHASE_NODES``) finds
    no win; the exhaustive search does, and the engine replays its line to a won game."""
    variant = get_game("gaps")
    position = variant.new_position(deal_for_seed("gaps", 9), variant.parse_rules({"rounds": "1"}))
    result = solve_gaps(position)
    assert result.winnable is True
    for move in result.moves:
        position = position.apply(move)
    assert position.is_won()
