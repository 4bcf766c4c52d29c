"""Line cleaning (``app/solver/lines.py``): golden positions written by hand, and properties on
real deals' winning lines with detours added (loops, moves undone later, column-0 shuffles).

Every cleaned line must replay to ``won`` through the engine, be no longer than the line it
came from, and reach no position twice."""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    DECK,
    Fill,
    GameRecord,
    GapsPosition,
    PyramidPosition,
    PyramidRules,
    card,
    deal_for_seed,
    format_deal,
    get_game,
)
from app.solver import LineError, clean_line, line_from, solve
from app.solver.solve import search


def _positions(start, line) -> list:
    out = [start]
    for move in line:
        out.append(out[-1].apply(move))
    return out


def _key(position):
    """Positions that count as the same: a Pyramid position's pass number aside."""
    if isinstance(position, PyramidPosition):
        return position.removed, position.stock, position.waste, position.reserves
    return position


def _assert_clean(start, line, cleaned) -> None:
    positions = _positions(start, cleaned)
    assert positions[-1].status == "won"
    assert all(p.status == "playing" for p in positions[:-1])
    assert len(cleaned) <= len(line)
    keys = [_key(p) for p in positions]
    assert len(set(keys)) == len(keys), "a position repeats"


# --- golden positions -------------------------------------------------------------------------
def _gaps_three_open_rows() -> GapsPosition:
    """One round. Rows 0-2 are 3..K of clubs, diamonds, hearts after a gap in column 0, with a
    2 of another suit in column 12; row 3 is 2..K of spades. Won by putting each 2 home."""
    variant = get_game("gaps")
    position = variant.new_position(deal_for_seed("gaps", 0), variant.parse_rules({"rounds": "1"}))
    grid: list = []
    for suit, stray in (("C", "D"), ("D", "H"), ("H", "C")):
        grid += [None] + [card(rank, suit) for rank in range(3, 14)] + [card(2, stray)]
    grid += [card(rank, "S") for rank in range(2, 14)] + [None]
    return replace(position, grid=tuple(grid))


@pytest.mark.parametrize("line,cleaned", [
    # a loop: the 2 of clubs goes to row 1 and comes back
    ("2C>0.0 2C>1.0 2C>0.0 2D>1.0 2H>2.0", "2C>0.0 2D>1.0 2H>2.0"),
    # 2s put in the wrong rows and shuffled home: each goes home at once
    ("2D>0.0 2H>1.0 2H>2.0 2D>1.0 2C>0.0", "2H>2.0 2D>1.0 2C>0.0"),
    # a 2 shuffled round every open row first
    ("2C>1.0 2C>2.0 2C>0.0 2D>1.0 2H>2.0", "2C>0.0 2D>1.0 2H>2.0"),
    # nothing to clean
    ("2H>2.0 2C>0.0 2D>1.0", "2H>2.0 2C>0.0 2D>1.0"),
])
def test_gaps_golden_lines(line, cleaned):
    position = _gaps_three_open_rows()
    assert " ".join(clean_line(position, line.split())) == cleaned
    _assert_clean(position, line.split(), cleaned.split())


def _pyramid_apex_left(passes) -> PyramidPosition:
    """Only the apex (a queen) is left; the stock is 5♣ A♥ 7♦ (top first)."""
    queen, stock = card(12, "C"), (card(5, "C"), card(1, "H"), card(7, "D"))
    others = [c for c in DECK if c not in (queen, *stock)]
    layout = (queen, *others[:27])
    return PyramidPosition(get_game("pyramid").table, PyramidRules(passes=passes), layout,
                           removed=(1 << 28) - 2, stock=stock)


@pytest.mark.parametrize("passes", [2, 3, None])
def test_pyramid_golden_a_pass_that_comes_round_again_is_cut(passes):
    position = _pyramid_apex_left(passes)
    line = "D D D R D D P0+W".split()
    assert clean_line(position, line) == ("D", "D", "P0+W")


def test_lines_that_do_not_win_are_refused():
    position = _gaps_three_open_rows()
    with pytest.raises(LineError):
        clean_line(position, "2C>0.0 2D>1.0".split())  # not won at the end
    with pytest.raises(LineError):
        clean_line(position, "2C>0.0 2C>0.0".split())  # illegal
    with pytest.raises(LineError):
        clean_line(position, "2C>0.0 nonsense".split())
    with pytest.raises(LineError):
        clean_line(_pyramid_apex_left(1), "D D D R".split())


def test_a_line_that_wins_early_is_cut_at_the_win():
    position = _gaps_three_open_rows()
    assert clean_line(position, "2C>0.0 2D>1.0 2H>2.0".split()) == ("2C>0.0", "2D>1.0", "2H>2.0")
    assert clean_line(position.apply("2C>0.0").apply("2D>1.0").apply("2H>2.0"), ()) == ()


def test_the_daily_gaps_deal_of_the_report_loses_its_shuffles():
    """Seed 2405430459679097184 (the daily Gaps deal of the play review): the search's line
    shuffles 2s between column-0 gaps; the cleaned one never moves a 2 back to where it just
    was, nor one card twice where once would do."""
    variant = get_game("gaps")
    rules = variant.parse_rules({"rounds": "3"})
    start = variant.new_position(deal_for_seed("gaps", 2405430459679097184), rules)
    raw = search(start, budget_nodes=200_000).moves
    cleaned = clean_line(start, raw)
    assert len(cleaned) < len(raw)
    _assert_clean(start, raw, cleaned)
    positions = _positions(start, cleaned)
    for i in range(len(cleaned) - 1):
        first, then = start.parse_move(cleaned[i]), start.parse_move(cleaned[i + 1])
        if isinstance(first, Fill) and isinstance(then, Fill) and first.card == then.card:
            # one card twice in a row: going there at once must be illegal
            assert then not in positions[i].legal_moves(), cleaned[i:i + 2]


# --- properties on real deals -------------------------------------------------------------------
CASES = [  # game, rule options, seed: deals the search wins within its budget
    ("gaps", {"rounds": "1"}, 3),
    ("gaps", {"rounds": "1", "aces": "starters"}, 17),
    ("gaps", {"rounds": "3"}, 5),
    ("gaps", {"rounds": "3", "aces": "starters"}, 2),
    ("pyramid", {"passes": "1"}, 18),
    ("pyramid", {"passes": "3"}, 2),
    ("pyramid", {"passes": "unlimited", "overlap": "true"}, 1),
    ("giza", {"goal": "all"}, 1),
]


@functools.cache
def _case(index: int):
    game, options, seed = CASES[index]
    variant = get_game(game)
    start = variant.new_position(deal_for_seed(game, seed), variant.parse_rules(options))
    result = search(start, budget_nodes=200_000)
    assert result.winnable, CASES[index]
    return start, result.moves


def _detour(position, rng: random.Random) -> list[str] | None:
    """A few random legal moves that could each be taken back at once, and then all of them
    taken back (a loop), or None when they cannot be. Gaps only: a card goes back to the
    cell it left, which it may fill when it is a 2 from column 0 or sat right of the card
    before it."""
    played, here = [], position
    for _ in range(rng.randint(1, 3)):
        moves = []
        for move in here.legal_moves():
            if isinstance(move, Fill):
                origin = here.grid.index(move.card)
                if Fill(move.card, *divmod(origin, 13)) in here.apply(move).legal_moves():
                    moves.append((move, divmod(origin, 13)))
        if not moves:
            break
        move, origin = rng.choice(moves)
        played.append((move, origin))
        here = here.apply(move)
    back = []
    for move, (row, col) in reversed(played):
        undo = Fill(move.card, row, col)
        if undo not in here.legal_moves():
            return None
        back.append(undo)
        here = here.apply(undo)
    return [str(m) for m, _ in played] + [str(m) for m in back] or None


def _pyramid_detour(position, rng: random.Random) -> list[str] | None:
    """With a pass to spare: the rest of the stock drawn, a recycle, and the waste drawn
    again (a loop, the pass number aside)."""
    passes_left = position.passes_left
    if not (passes_left is None or passes_left > 0) or not (position.stock or position.waste):
        return None
    return ["D"] * len(position.stock) + ["R"] + ["D"] * len(position.waste)


def _wins(start, line) -> bool:
    here = start
    for move in line:
        if here.status != "playing" or here.parse_move(move) not in here.legal_moves():
            return False
        here = here.apply(move)
    return here.status == "won"


def _perturbed(start, line, rng: random.Random) -> list[str]:
    """``line`` with detours that keep it a win: loops, and a card sent somewhere first
    before its own move."""
    line = list(line)
    wanted = rng.randint(1, 4)
    for _ in range(40):  # places to try (many positions offer no detour)
        if not wanted:
            break
        at = rng.randrange(len(line))
        here = _positions(start, line[:at])[-1]
        kind = rng.random()
        if isinstance(here, PyramidPosition):
            extra = _pyramid_detour(here, rng)
        elif kind < 0.5:
            extra = _detour(here, rng)
        else:
            # the card of the next move goes first to another gap it may fill, if any
            move = here.parse_move(line[at])
            extra = None
            if isinstance(move, Fill):
                elsewhere = [m for m in here.legal_moves() if isinstance(m, Fill)
                             and m.card == move.card and m != move]
                if elsewhere:
                    first = rng.choice(elsewhere)
                    if move in here.apply(first).legal_moves():
                        extra = [str(first)]
        if extra and _wins(start, line[:at] + extra + line[at:]):
            line[at:at] = extra
            wanted -= 1
    return line


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(CASES) - 1), seed=st.integers(0, 2**32 - 1))
def test_cleaned_lines_win_are_no_longer_and_repeat_no_position(index, seed):
    start, line = _case(index)
    noisy = _perturbed(start, line, random.Random(seed))
    assert _positions(start, noisy)[-1].status == "won"
    cleaned = clean_line(start, noisy)
    _assert_clean(start, noisy, cleaned)
    assert len(cleaned) <= len(line)  # every detour is a loop or a move undone at once


@pytest.mark.parametrize("index", [0, 2, 5, 6])  # the cases whose lines can take a detour
def test_the_detours_are_made_and_cleaned_away(index):
    """The property above is not vacuous: detours go in, and cleaning takes them out."""
    start, line = _case(index)
    made = 0
    for seed in range(10):  # many places of a line offer no detour (Gaps' one round: 4 of 10)
        noisy = _perturbed(start, line, random.Random(seed))
        if len(noisy) > len(line):
            made += 1
            assert len(clean_line(start, noisy)) <= len(line)
    assert made >= 3


@settings(max_examples=15, deadline=None)
@given(index=st.integers(0, len(CASES) - 1), cut=st.floats(0, 1))
def test_cleaning_from_the_middle_of_a_line(index, cut):
    """From any position along a winning line, the rest of it cleans to a win from there."""
    start, line = _case(index)
    k = int(cut * (len(line) - 1))
    middle = _positions(start, line[:k])[-1]
    _assert_clean(middle, line[k:], clean_line(middle, line[k:]))


def test_solve_returns_cleaned_lines_that_replay_from_the_deal():
    """What ``tretten solve`` prints: a complete winning continuation, cleaned."""
    for index in range(len(CASES)):
        start, raw = _case(index)
        game, options, seed = CASES[index]
        result = solve(start, budget_nodes=200_000)
        assert result.moves == clean_line(start, raw)
        rules = get_game(game).parse_rules(options)
        record = GameRecord.from_text(game, rules, format_deal(deal_for_seed(game, seed)),
                                      " ".join(result.moves))
        assert record.position.status == "won"


def test_line_from_follows_a_line_and_leaves_it_when_the_player_does():
    start, line = _case(0)
    positions = _positions(start, line)
    for k in (0, 5, len(line) - 1, len(line)):
        assert line_from(start, line, positions[k]) == tuple(line[k:])
    off = next(m for m in start.legal_moves() if str(m) != line[0])
    assert line_from(start, line, start.apply(off)) is None


def test_hints_from_one_kept_line_win_the_daily_gaps_deal():
    """The play review's bug 1 at the solver's level: on that day's daily Gaps deal, a player
    who takes every hint, each the next move of the one line kept from the first solve, wins
    in as many hints as the cleaned line has moves (no 2 sent back and forth)."""
    variant = get_game("gaps")
    start = variant.new_position(deal_for_seed("gaps", 2405430459679097184),
                                 variant.parse_rules({"rounds": "3"}))
    kept = solve(start, budget_nodes=200_000).moves
    here, hints = start, 0
    while here.status == "playing":
        rest = line_from(start, kept, here)
        assert rest, "the player left the kept line"
        here = here.apply(rest[0])
        hints += 1
    assert here.status == "won" and hints == len(kept)
