"""The multi-pass search (``app/solver/pyramid_multi.py``, value-group relaxations with
passes as loss proofs in every pass) against a plain exhaustive search on reduced deals,
with the relaxations checked from the first position on (by default they start after a
few dozen positions, which reduced deals seldom reach)."""

from __future__ import annotations

import random

import pytest

from app.solver.pyramid import PyramidSearch, solve_problem

from . import reduced, reference
from .test_solver import _assert_agrees_at


@pytest.fixture(autouse=True)
def _relax_at_once(monkeypatch):
    monkeypatch.setattr(PyramidSearch, "stock_first_nodes", 0)
    monkeypatch.setattr(PyramidSearch, "multi_relax_after", 0)


def _cases(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        pyramids = 2 if rng.random() < 0.15 else 1
        rows = rng.choice([2, 3]) if pyramids == 2 else rng.choice([3, 4, 4, 5])
        size = rows * (rows + 1) // 2 * pyramids
        passes = rng.choice([2, 3])
        goal = rng.choice(["pyramid", "all"])
        overlap = rng.random() < 0.3
        longest = {3: 11, 4: 9, 5: 7} if pyramids == 1 else {2: 9, 3: 5}
        cards = reduced.balanced(rng, size + rng.randint(2, longest[rows]))
        layout, stock = tuple(cards[:size]), tuple(cards[size:])
        small, problem = reduced.case(rows, pyramids, layout, stock, passes=passes, goal=goal, overlap=overlap)
        yield small, problem


def test_multi_pass_verdicts_agree_with_exhaustive_search(monkeypatch):
    # Without the unlimited-passes precheck, so that the relaxations decide the losses.
    monkeypatch.setattr(PyramidSearch, "free_precheck", False)
    counts = reference.verdict_counts(_cases(500, seed=91), solve_problem)
    assert counts[True] > 80 and counts[False] > 80, counts


def test_multi_pass_positions_in_mid_game_agree_too():
    """Positions part-way into an earlier pass (a waste, cards gone, a later pass)."""
    rng = random.Random(5)
    checked = 0
    for small, _ in _cases(400, seed=17):
        pos = reduced.walk(small, rng, rng.randint(1, 10))
        if pos[3] >= small.passes or reference.won(small, pos):
            continue
        _assert_agrees_at(small, pos)
        checked += 1
    assert checked > 150, checked


# Verdicts of the solver before this search (commit e14d91d, ``_run_stock``) on full
# ``pyramid-3`` deals: losses that the unlimited-passes precheck lets through (so the
# relaxations prove them) and wins that take more than the first 500 positions (764: 1.8
# million positions in the previous solver).
PYRAMID_3_OLD = {346: False, 756: False, 960: False, 1501: False,
                 5: True, 6: True, 10: True, 13: True, 14: True, 20: True, 22: True, 23: True,
                 764: True}


@pytest.mark.parametrize("stock_first", [0, 1000])
def test_full_pyramid_3_deals_agree_with_the_previous_solver(monkeypatch, stock_first):
    """With the relaxations from the 500th position (as in play), straight away or after
    the plain search gave up at 1,000 positions."""
    from app.engine import GameRecord, deal_for_seed, format_deal, get_game
    from app.solver import solve

    monkeypatch.setattr(PyramidSearch, "stock_first_nodes", stock_first)
    monkeypatch.setattr(PyramidSearch, "multi_relax_after", 500)
    variant = get_game("pyramid")
    rules = variant.parse_rules({"passes": "3"})
    for seed, expected in PYRAMID_3_OLD.items():
        deal = deal_for_seed("pyramid", seed)
        result = solve(variant.new_position(deal, rules))
        assert result.winnable is expected, seed
        if expected:
            record = GameRecord.from_text("pyramid", rules, format_deal(deal),
                                          " ".join(result.moves))
            assert record.position.status == "won", seed
