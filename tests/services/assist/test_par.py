"""A deal's par (app/services/assist/par.py): the length of a line that replays to a win, with no
shorter win (checked by breadth-first search over the engine's own moves), and the best known
line, never called par, where the solver proves nothing."""

from __future__ import annotations

import random

import pytest

from app.engine import GameRecord, deal_for_seed, get_preset
from app.services.assist import par as par_service
from app.solver import shortest_win


def _record(preset: str, seed: int) -> GameRecord:
    p = get_preset(preset)
    return GameRecord.new(p.game, p.rules, deal_for_seed(p.game, seed))


def breadth_first(position, limit: int) -> int | None:
    """The fewest moves that win from ``position`` (the engine's legal moves), up to ``limit``."""
    frontier, seen = [position], {position}
    for depth in range(limit + 1):
        if any(p.status == "won" for p in frontier):
            return depth
        following = []
        for here in frontier:
            if here.status != "playing":
                continue
            for move in here.legal_moves():
                there = here.apply(move)
                if there not in seen:
                    seen.add(there)
                    following.append(there)
        frontier = following
    return None


def _small_deals():
    """Hand-made small deals: real deals played towards their end (along a par line and then off
    it at random), so that only a few moves are left and breadth-first search can see them all."""
    rng = random.Random(28)
    for preset, seed in (("pyramid", 250), ("pyramid-3", 21), ("pyramid", 18), ("relaxed", 0),
                         ("giza", 5), ("pyramid-3", 36)):
        record = _record(preset, seed)
        line = shortest_win(record.position, budget_seconds=None).moves
        for left in (3, 5, 7, 9):
            here = record
            for move in line[:len(line) - left]:
                here = here.play(move)
            yield f"{preset}/{seed}/-{left}", here
            position = here.position
            for _ in range(2):  # a move or two off the line: par may grow, or the deal be lost
                legal = list(position.legal_moves())
                if not legal:
                    break
                here = here.play(str(rng.choice(legal)))
                position = here.position
            yield f"{preset}/{seed}/-{left}/off", here


CASES = list(_small_deals())


@pytest.mark.parametrize("name,record", CASES, ids=[c[0] for c in CASES])
def test_par_is_a_winning_line_and_no_shorter_line_wins(name, record):
    found = shortest_win(record.position, budget_seconds=None)
    expected = breadth_first(record.position, 14)
    if found.winnable is False:
        assert expected is None
        return
    assert found.winnable and found.proven
    assert len(found.moves) == expected, name
    here = record
    for move in found.moves:
        here = here.play(move)
    assert here.position.status == "won"


def test_the_cases_reach_both_won_and_lost_positions():
    verdicts = {shortest_win(r.position, budget_seconds=None).winnable for _, r in CASES}
    assert verdicts == {True, False}


def test_over_par():
    found = par_service.Par(41, True, ("D",) * 41)
    assert (found.over(44), found.over(41)) == (3, 0)
    assert found.to_json() == {"par": 41, "par_proven": True, "best_known": 41, "lower_bound": 41}
    assert par_service.Par(50, False, (), bound=44).to_json() == {"par": None, "par_proven": False,
                                                                 "best_known": 50, "lower_bound": 44}
    assert par_service.to_json(par_service.Par(50, False, ())) == {"par": None, "par_proven": False,
                                                                  "best_known": 50, "lower_bound": None}
    assert par_service.to_json(None) == {"par": None, "par_proven": False, "best_known": None, "lower_bound": None}
