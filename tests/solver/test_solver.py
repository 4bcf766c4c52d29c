"""The solver: verdicts match the shared vectors, every claimed win replays to ``won`` through
the engine, and unwinnable verdicts agree with a plain exhaustive search on reduced deals."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from app.engine import GameRecord, deal_for_seed, format_deal, get_game
from app.solver import SolveResult, best_score_move, line_from, solve
from app.solver.pyramid import solve_problem
from app.solver.pyramid_problem import PyramidProblem

from . import reduced, reference

VECTORS = Path(__file__).resolve().parents[1] / "vectors"


def _vectors() -> list[dict]:
    path = VECTORS / "solve.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _start(game: str, options: dict, deal_text: str):
    variant = get_game(game)
    rules = variant.parse_rules(options)
    return rules, variant.new_position(variant.parse_deal(deal_text), rules)


def _replays_to_won(game: str, rules, deal_text: str, moves) -> bool:
    record = GameRecord.from_text(game, rules, deal_text, " ".join(moves))
    return record.position.status == "won"


# --- the shared vectors ------------------------------------------------------------------
@pytest.mark.parametrize("case", _vectors(), ids=lambda c: f"{c['game']}-{c['deal'][:11]}")
def test_verdicts_match_the_vectors(case):
    rules, position = _start(case["game"], case.get("options", {}), case["deal"])
    result = solve(position, budget_seconds=60)
    assert result.winnable is case["winnable"]
    if result.winnable:
        assert _replays_to_won(case["game"], rules, case["deal"], result.moves)
    else:
        assert result.moves == ()


def test_vector_wins_are_found_from_the_middle_of_their_example_line():
    for case in _vectors():
        if not case["winnable"]:
            continue
        rules, _ = _start(case["game"], case.get("options", {}), case["deal"])
        line = case["example_win"].split()
        played = " ".join(line[: len(line) // 2])
        position = GameRecord.from_text(case["game"], rules, case["deal"], played).position
        result = solve(position)
        assert result.winnable is True
        assert _replays_to_won(case["game"], rules, case["deal"], played.split() + list(result.moves))


# --- claimed wins replay through the engine ------------------------------------------------
CONFIGS = [
    ("pyramid", {"passes": "1"}),
    ("pyramid", {"passes": "1", "goal": "all"}),
    ("pyramid", {"passes": "2"}),
    ("pyramid", {"passes": "3", "goal": "all"}),
    ("pyramid", {"passes": "unlimited"}),
    ("pyramid", {"passes": "unlimited", "goal": "all"}),
    ("pyramid", {"passes": "unlimited", "overlap": "true"}),
    ("pyramid", {"passes": "1", "overlap": "true"}),
    ("giza", {}),
    ("giza", {"goal": "all"}),
    ("giza", {"overlap": "true"}),
    ("double-pyramid", {"passes": "3"}),
    ("double-pyramid", {"passes": "1"}),
    ("double-pyramid", {"passes": "unlimited"}),
]


@pytest.mark.parametrize("game,options", CONFIGS, ids=lambda x: str(x))
def test_claimed_wins_replay_to_won(game, options):
    """Ten seeded deals (fewer once four wins are found), each claimed win replayed.

    The budget counts nodes, not seconds, so the outcome does not depend on how loaded the
    machine is."""
    variant = get_game(game)
    rules = variant.parse_rules(options)
    wins = decided = 0
    for seed in range(1000, 1010):
        if wins == 4:
            break
        deal = deal_for_seed(game, seed)
        result = solve(variant.new_position(deal, rules), budget_nodes=50_000)
        if result.winnable is None:
            assert result.reason == "budget" and result.moves == ()
            continue
        decided += 1
        if result.winnable:
            wins += 1
            assert _replays_to_won(game, rules, format_deal(deal), result.moves)
    assert decided > 0
    if game != "double-pyramid" and options.get("passes") != "1":
        assert wins > 0


# --- unwinnable verdicts against a plain exhaustive search -----------------------------------


def _reduced_cases(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        kind = rng.choice(["stock", "stock", "stock", "giza", "double"])
        rows = rng.choice([2, 3]) if kind == "double" else rng.choice([3, 4])
        pyramids = 2 if kind == "double" else 1
        size = rows * (rows + 1) // 2 * pyramids
        goal = rng.choice(["pyramid", "all"])
        overlap = rng.random() < 0.3
        if kind == "giza":
            piles = rng.randint(1, 5)
            cards = reduced.balanced(rng, size + 3 * piles)
            layout, rest = tuple(cards[:size]), cards[size:]
            reserves = tuple(tuple(rest[3 * k: 3 * k + rng.randint(1, 3)]) for k in range(piles))
            small, problem = reduced.case(rows, 1, layout, reserves=reserves, goal=goal, overlap=overlap)
        else:
            passes = rng.choice([1, 1, 2, 3, None])
            cards = reduced.balanced(rng, size + rng.randint(0, 10))
            layout, stock = tuple(cards[:size]), tuple(cards[size:])
            small, problem = reduced.case(rows, pyramids, layout, stock, passes=passes, goal=goal, overlap=overlap)
        yield small, problem


def test_verdicts_agree_with_exhaustive_search_on_reduced_deals():
    counts = reference.verdict_counts(_reduced_cases(300, seed=4), solve_problem)
    assert counts[True] > 30 and counts[False] > 30


def test_last_pass_pruning_agrees_with_exhaustive_search():
    """The last-pass search (1 or 2 passes, goal pyramid and all, with and without overlap)
    on many more reduced deals with a longer stock, where its waste and counting cut-offs
    and their per-stock caches do the most work."""
    rng = random.Random(2024)
    counts = {True: 0, False: 0}
    for _ in range(400):
        rows = rng.choice([3, 4])
        size = rows * (rows + 1) // 2
        goal = rng.choice(["pyramid", "all"])
        overlap = rng.random() < 0.3
        passes = rng.choice([1, 1, 1, 2])
        cards = reduced.balanced(rng, size + rng.randint(4, 12))
        layout, stock = tuple(cards[:size]), tuple(cards[size:])
        small, problem = reduced.case(rows, 1, layout, stock, passes=passes, goal=goal, overlap=overlap)
        expected = reference.winnable(small)
        won, moves, _ = solve_problem(problem)
        assert won is expected, small
        counts[won] += 1
        if won:
            assert reference.replay_wins(small, moves), (small, moves)
    assert counts[True] > 40 and counts[False] > 40


def test_reduced_positions_in_mid_game_agree_too():
    """Start from a position part-way through a random line (waste, later passes)."""
    rng = random.Random(7)
    checked = 0
    for small, _ in _reduced_cases(300, seed=11):
        if small.reserves:
            continue
        pos = reduced.walk(small, rng, rng.randint(1, 8))
        if reference.won(small, pos):
            continue
        _assert_agrees_at(small, pos)
        checked += 1
    assert checked > 100


def _problem_at(small, pos) -> PyramidProblem:
    """The solver's problem for a reference position part-way into a game."""
    removed, stock, waste, pas, _ = pos
    return PyramidProblem(values=small.layout, removed=sum(1 << i for i in removed),
                          sequence=waste[::-1] + stock, pointer=len(waste), pass_number=pas,
                          passes=small.passes, goal=small.goal, overlap=small.overlap,
                          rows=small.rows, pyramids=small.pyramids)


def _assert_agrees_at(small, pos) -> None:
    """The solver's verdict at a mid-game position equals the exhaustive one, and a claimed
    win, played on from there, wins."""
    won, moves, _ = solve_problem(_problem_at(small, pos))
    assert won is _reference_from(small, pos), (small, pos)
    if won:
        here = pos
        for move in moves:
            here = reference.play(small, here, move)
        assert reference.won(small, here)


def _reference_from(small, pos) -> bool:
    from collections import deque

    def key(p):
        return p[:3] + p[4:] if small.passes is None else p

    seen = {key(pos)}
    queue = deque([pos])
    while queue:
        here = queue.popleft()
        if reference.won(small, here):
            return True
        for move in reference.moves(small, here):
            nxt = reference.play(small, here, move)
            if key(nxt) not in seen:
                seen.add(key(nxt))
                queue.append(nxt)
    return False


# --- Gaps ------------------------------------------------------------------------------------
@pytest.mark.parametrize("options,seeds", [
    ({"rounds": "1"}, (15, 16, 17)),
    ({"rounds": "1", "aces": "starters"}, (17, 28)),
    ({"rounds": "3"}, (1, 5, 6)),
    ({"rounds": "2", "aces": "starters"}, (2, 4, 6)),
    ({"rounds": "unlimited"}, (3,)),
])
def test_gaps_wins_replay_to_won(options, seeds):
    """Seeds whose wins this solver finds within 60,000 positions (a redeal included for
    several rounds); each win replays through the engine."""
    variant = get_game("gaps")
    rules = variant.parse_rules(options)
    for seed in seeds:
        deal = deal_for_seed("gaps", seed)
        result = solve(variant.new_position(deal, rules), budget_nodes=60_000)
        assert result.winnable is True, seed
        assert _replays_to_won("gaps", rules, format_deal(deal), result.moves)


def test_gaps_budget_is_honest_and_solves_mid_game():
    variant = get_game("gaps")
    rules = variant.parse_rules({"rounds": "3"})
    deal = deal_for_seed("gaps", 5)
    start = variant.new_position(deal, rules)
    # from the middle of a round-2 position the continuation still replays to won
    line = solve(start, budget_nodes=20_000).moves
    cut = line.index("N") + 1 if "N" in line else len(line) // 2
    played = " ".join(line[:cut])
    middle = GameRecord.from_text("gaps", rules, format_deal(deal), played).position
    result = solve(middle, budget_nodes=20_000)
    assert result.winnable is True
    assert _replays_to_won("gaps", rules, format_deal(deal), played.split() + list(result.moves))
    for seed in range(3):
        small = solve(variant.new_position(deal_for_seed("gaps", seed), rules), budget_nodes=5)
        assert small.winnable in (True, None)
        if small.winnable is None:
            assert small.reason == "budget" and small.moves == ()


def test_gaps_budget_runs_out_as_none():
    variant = get_game("gaps")
    rules = variant.parse_rules({"rounds": "3"})
    position = variant.new_position(deal_for_seed("gaps", 0), rules)
    result = solve(position, budget_nodes=50)
    assert result == SolveResult(None, (), "budget", result.nodes)
    assert result.to_json() == {"winnable": None, "reason": "budget"}


def test_gaps_lost_position_is_proven():
    """Every gap right of a king and no redeal left: lost, and the solver proves it."""
    stuck = reduced.gaps_kings_first()
    assert stuck.status == "lost"
    assert solve(stuck).winnable is False


# --- what the hints use -----------------------------------------------------------------------
def test_a_kept_line_is_followed_to_the_end():
    """A hint is the next move of one kept line: solved once, then read with ``line_from``
    from each position the line passes through."""
    case = next(c for c in _vectors() if c["winnable"] and c["game"] == "giza")
    rules, start = _start(case["game"], case.get("options", {}), case["deal"])
    kept = solve(start).moves
    position = start
    for _ in range(len(kept)):
        rest = line_from(start, kept, position)
        assert rest, position
        position = position.apply(rest[0])
    assert position.status == "won"
    assert line_from(start, kept, position) == ()


def test_line_from_a_position_off_the_line_is_none():
    case = next(c for c in _vectors() if c["winnable"] and c["game"] == "pyramid")
    rules, start = _start(case["game"], case.get("options", {}), case["deal"])
    kept = solve(start).moves
    off = next(m for m in start.legal_moves() if str(m) != kept[0])
    assert line_from(start, kept, start.apply(off)) is None
    assert line_from(start, kept, start) == kept
    assert line_from(start, ("K9",), start) is None  # not a move at all


def test_best_score_move_in_a_lost_deal_is_a_legal_move():
    case = next(c for c in _vectors() if not c["winnable"] and c["game"] == "pyramid")
    rules, position = _start(case["game"], case.get("options", {}), case["deal"])
    assert solve(position).winnable is False
    assert best_score_move(position, max_nodes=200) in {str(m) for m in position.legal_moves()}


@pytest.mark.parametrize("options", [{"rounds": "1"}, {"rounds": "3"}, {"rounds": "3", "aces": "starters"}])
def test_best_score_move_in_gaps_is_legal_and_the_same_every_time(options):
    variant = get_game("gaps")
    rules = variant.parse_rules(options)
    for seed in (0, 1):
        position = variant.new_position(deal_for_seed("gaps", seed), rules)
        move = best_score_move(position, max_nodes=2_000)
        assert move in {str(m) for m in position.legal_moves()}
        assert best_score_move(position, max_nodes=2_000) == move


def test_result_json_shapes():
    assert SolveResult(True, ("D", "P0"), None, 3).to_json() == {"winnable": True, "moves": "D P0"}
    assert SolveResult(False).to_json() == {"winnable": False}


@pytest.mark.parametrize("game", ["pyramid", "giza", "double-pyramid", "gaps"])
def test_only_the_long_searches_want_a_budget(game):
    from app.engine import GAMES
    from app.solver.solve import wants_budget

    variant = GAMES[game]
    for options in ({}, {"passes": "unlimited", "goal": "all"} if variant.family == "pyramid" else {"rounds": "4"}):
        position = variant.new_position(variant.deal(3), variant.parse_rules(options))
        assert wants_budget(position) is (game in ("gaps", "double-pyramid"))
