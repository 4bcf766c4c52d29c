"""The last-pass search (``app/solver/pyramid_last.py``, value-group relaxations as loss
proofs) against a plain exhaustive search on many reduced deals, and against the verdicts
of the previous solver on full deals."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from app.engine import GameRecord, deal_for_seed, format_deal, get_game
from app.solver import solve
from app.solver.pyramid import PyramidSearch, solve_problem

from . import reduced, reference
from .test_solver import _assert_agrees_at

OLD_VERDICTS = Path(__file__).with_name("pyramid_old_verdicts.json")


def _one_pass_cases(count: int, seed: int):
    """Reduced deals whose whole game is one pass: one pyramid of 3 to 5 rows or two of 2
    or 3, a stock of up to 7 to 14 cards (fewer for more layout cards, to keep the
    exhaustive search quick), goal pyramid or all, overlap on or off."""
    rng = random.Random(seed)
    for _ in range(count):
        pyramids = 2 if rng.random() < 0.2 else 1
        rows = rng.choice([2, 3]) if pyramids == 2 else rng.choice([3, 4, 4, 5])
        size = rows * (rows + 1) // 2 * pyramids
        goal = rng.choice(["pyramid", "all"])
        overlap = rng.random() < 0.3
        longest = {3: 14, 4: 11, 5: 9} if pyramids == 1 else {2: 12, 3: 7}
        cards = reduced.balanced(rng, size + rng.randint(0, longest[rows]))
        layout, stock = tuple(cards[:size]), tuple(cards[size:])
        small, problem = reduced.case(rows, pyramids, layout, stock, goal=goal, overlap=overlap)
        yield small, problem


def test_one_pass_verdicts_agree_with_exhaustive_search():
    counts = reference.verdict_counts(_one_pass_cases(700, seed=31), solve_problem)
    assert counts[True] > 100 and counts[False] > 100


def test_last_pass_positions_agree_with_exhaustive_search():
    """Positions part-way into the last pass (of 1, 2 or 3): a waste, a pointer past the
    start, cards already gone."""
    rng = random.Random(57)
    checked = 0
    for _ in range(500):
        rows = rng.choice([3, 4, 4, 5])
        size = rows * (rows + 1) // 2
        passes = rng.choice([1, 2, 3])
        goal = rng.choice(["pyramid", "all"])
        overlap = rng.random() < 0.3
        cards = reduced.balanced(rng, size + rng.randint(4, 12))
        small = reference.Small(rows, 1, tuple(cards[:size]), tuple(cards[size:]), (),
                                passes, goal, overlap)
        pos = reference.start(small)
        steps = rng.randint(1, 12)
        while pos[3] < passes or steps > 0:
            options = reference.moves(small, pos)
            if not options:
                break
            if pos[3] < passes and "D" in options and rng.random() < 0.7:
                move = "D"
            elif "R" in options:
                move = "R"
            else:
                move = rng.choice(options)
            pos = reference.play(small, pos, move)
            steps -= pos[3] == passes
        if pos[3] != passes or reference.won(small, pos):
            continue
        _assert_agrees_at(small, pos)
        checked += 1
    assert checked > 300


def test_giza_relaxations_agree_with_exhaustive_search(monkeypatch):
    """Giza on reduced deals with the value-group relaxations from the first position on
    (by default they start after a few dozen positions, which reduced deals seldom reach)."""
    monkeypatch.setattr(PyramidSearch, "giza_relax_after", 0)
    rng = random.Random(83)
    counts = {True: 0, False: 0}
    for _ in range(500):
        rows = rng.choice([3, 3, 4, 4, 5])
        size = rows * (rows + 1) // 2
        goal = rng.choice(["pyramid", "all"])
        overlap = rng.random() < 0.3
        piles = rng.randint(3, 5 if rows == 5 else 8)
        cards = reduced.balanced(rng, size + 3 * piles)
        layout, rest = tuple(cards[:size]), cards[size:]
        reserves = tuple(tuple(rest[3 * k: 3 * k + rng.randint(1, 3)]) for k in range(piles))
        small, problem = reduced.case(rows, 1, layout, reserves=reserves, goal=goal, overlap=overlap)
        expected = reference.winnable(small)
        won, moves, _ = solve_problem(problem)
        assert won is expected, small
        counts[won] += 1
        if won:
            assert reference.replay_wins(small, moves), (small, moves)
    assert counts[True] > 40 and counts[False] > 60, counts


def _old_cases():
    if not OLD_VERDICTS.exists():
        return []
    return json.loads(OLD_VERDICTS.read_text())


@pytest.mark.parametrize("rule_set", ["pyramid-1", "pyramid-1-all", "pyramid-1-overlap",
                                      "pyramid-2-last", "pyramid-3-all-last",
                                      "double-pyramid-1", "giza", "giza-all", "giza-overlap"])
def test_full_deals_agree_with_the_previous_solver(rule_set):
    """Verdicts of the solver before the value-group relaxations (commit be30eca), computed
    once and stored: start positions of seeded one-pass and Giza deals, and positions in the
    last pass of 2- and 3-pass games reached by a seeded random line. Every win replays to
    won."""
    cases = [c for c in _old_cases() if c["rule_set"] == rule_set]
    assert cases
    for case in cases:
        variant = get_game(case["game"])
        rules = variant.parse_rules(case["options"])
        deal = format_deal(deal_for_seed(case["game"], case["seed"]))
        position = GameRecord.from_text(case["game"], rules, deal, case["moves"]).position
        result = solve(position)
        assert result.winnable is case["winnable"], case
        if result.winnable:
            line = (case["moves"].split() if case["moves"] else []) + list(result.moves)
            record = GameRecord.from_text(case["game"], rules, deal, " ".join(line))
            assert record.position.status == "won", case
