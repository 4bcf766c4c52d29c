"""The proven shortest win (``app/solver/shortest.py``): its length equals a plain breadth-first
search's on reduced deals (from the start and from the middle of a game), its lines replay to
``won`` through the engine, and a budget that runs out is said so."""

from __future__ import annotations

import random

import pytest

from app.engine import deal_for_seed, get_game, get_preset
from app.solver import solve
from app.solver.pyramid_problem import PyramidProblem
from app.solver.shortest import ShortestSearch, ShortestWin, proves_shortest, shortest_win

from . import reduced, reference
from .test_solver import _reduced_cases


def _check_against_breadth_first(small, problem, first=None) -> bool | None:
    line, lower = ShortestSearch(problem).run()
    expected = reference.shortest(small, first)
    assert (None if line is None else len(line)) == expected, (small, first)
    if line is None:
        return False
    here = reference.start(small) if first is None else first
    for move in (problem.move_text(m) for m in line):
        here = reference.play(small, here, move)
    assert reference.won(small, here)
    assert lower == len(line)
    return True


def test_shortest_lengths_equal_breadth_first_on_reduced_deals():
    """Every rule variant (passes 1-3 and unlimited, goal pyramid and all, overlap, Giza's
    reserves, two pyramids) on random small deals."""
    won = lost = 0
    for small, problem in _reduced_cases(250, seed=21):
        if _check_against_breadth_first(small, problem):
            won += 1
        else:
            lost += 1
    assert won > 40 and lost > 40


def test_shortest_lengths_equal_breadth_first_from_mid_game():
    rng = random.Random(5)
    checked = 0
    for small, _ in _reduced_cases(200, seed=33):
        if small.reserves:
            continue
        pos = reduced.walk(small, rng, rng.randint(1, 6))
        if reference.won(small, pos):
            continue
        removed, stock, waste, pas, _ = pos
        problem = PyramidProblem(values=small.layout, removed=sum(1 << i for i in removed),
                                 sequence=waste[::-1] + stock, pointer=len(waste), pass_number=pas,
                                 passes=small.passes, goal=small.goal, overlap=small.overlap,
                                 rows=small.rows, pyramids=small.pyramids)
        _check_against_breadth_first(small, problem, pos)
        checked += 1
    assert checked > 80


def _start(preset: str, seed: int):
    p = get_preset(preset)
    return p.variant.new_position(deal_for_seed(p.game, seed), p.rules)


@pytest.mark.parametrize("preset,seed", [("pyramid-3", 21), ("pyramid-3", 36), ("pyramid", 21),
                                         ("relaxed", 0), ("giza", 5)])
def test_proven_shortest_wins_on_full_deals_replay_and_beat_the_search(preset, seed):
    start = _start(preset, seed)
    found = shortest_win(start)
    assert found.winnable and found.proven
    assert found.lower_bound == len(found.moves) <= len(solve(start).moves)
    here = start
    for move in found.moves:
        here = here.apply(move)
    assert here.status == "won"
    if preset == "giza":  # goal all: 24 pairs and 4 kings, whatever the deal
        assert len(found.moves) == 28


def test_a_budget_that_runs_out_is_said_so():
    """Double Pyramid at a tiny budget: the search's win, not proven, with a true bound."""
    start = _start("double-pyramid", 4)
    found = shortest_win(start, budget_nodes=500, budget_seconds=None)
    known = solve(start).moves
    assert found.winnable is True and not found.proven
    assert found.moves == known
    assert 0 < found.lower_bound <= len(known)
    assert found.nodes <= 500 + 512


def test_lost_won_and_other_positions():
    lost = next(s for s in range(40) if solve(_start("pyramid", s)).winnable is False)
    assert shortest_win(_start("pyramid", lost)) == ShortestWin(False, (), True, 0, 0)
    start = _start("pyramid", 21)
    here = start
    for move in shortest_win(start).moves:
        here = here.apply(move)
    assert shortest_win(here) == ShortestWin(True, (), True, 0, 0)
    gaps = get_game("gaps")
    gaps_start = gaps.new_position(deal_for_seed("gaps", 1), gaps.default_rules())
    assert not proves_shortest(gaps_start)
    with pytest.raises(TypeError):
        shortest_win(gaps_start)
    assert all(proves_shortest(_start(slug, 1)) for slug in ("pyramid", "giza", "double-pyramid"))


def test_answers_are_cached_per_position_and_budget():
    start = _start("pyramid-3", 36)
    assert shortest_win(start) is shortest_win(start)
    assert shortest_win(start, budget_nodes=10) is not shortest_win(start)


@pytest.mark.parametrize("together", [2, 3])
def test_the_bound_of_groups_taken_together_keeps_the_lengths_of_breadth_first(together):
    """The strong bound (value groups in one relaxed game, as the hard deals are searched) is
    admissible too: the same lengths as breadth-first search, every rule variant."""
    won = 0
    for small, problem in _reduced_cases(120, seed=44):
        line, lower = ShortestSearch(problem, together=together).run()
        expected = reference.shortest(small)
        assert (None if line is None else len(line)) == expected, small
        if line is not None:
            won += 1
            assert lower == len(line)
    assert won > 20


def test_a_deal_the_cheap_bound_does_not_settle_is_proven_with_the_strong_one(monkeypatch):
    from app.solver import shortest

    start = _start("pyramid-3", 36)
    cheap = shortest_win(start, budget_seconds=None)
    monkeypatch.setattr(shortest, "QUICK_NODES", 10)  # the first search stops at once
    shortest._cached.cache_clear()
    strong = shortest_win(start, budget_seconds=None)
    shortest._cached.cache_clear()
    assert strong.proven and len(strong.moves) == len(cheap.moves)
    assert strong.nodes > 10
