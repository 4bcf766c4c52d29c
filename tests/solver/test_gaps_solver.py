"""The Gaps solver against a plain breadth-first search on reduced boards, and its
reductions (the reach relaxation, restarts) checked for soundness."""

from __future__ import annotations

import random

import pytest

from app.engine import deal_for_seed, get_game
from app.solver.gaps import GapsCore, GapsSearch, _luby, solve_gaps
from app.solver.result import Budget

from . import gaps_reference as ref
from . import reduced


def _codes(grid: tuple) -> list[int]:
    return [0 if x is None else 16 * x[0] + x[1] for x in grid]


def _line(moves) -> list:
    return [((card >> 4, card & 15), cell) for card, cell in moves]


BOARDS = [  # rows, cols, deals, starters
    (4, 4, 25, False),
    (3, 5, 40, False),
    (3, 6, 15, False),
    (4, 4, 25, True),
]


@pytest.mark.parametrize("rows,cols,deals,starters", BOARDS)
def test_reduced_boards_agree_with_breadth_first(rows, cols, deals, starters):
    """Every verdict of the solver (plain, with the relaxation, with restarts) equals the
    exhaustive breadth-first one, and every win replays to won under the reference rules."""
    rng = random.Random(rows * 100 + cols + 1000 * starters)
    seen = {True: 0, False: 0}
    for _ in range(deals):
        grid = ref.random_grid(rows, cols, rng)
        order = tuple(rng.sample(range(rows), rows)) if starters else ()
        expected = ref.winnable(rows, cols, grid, order)
        seen[expected] += 1
        # the relaxation at every depth (1) as well as only at each run's start (0); column 0
        # as one arrangement (the default) and as plain positions
        for prune, restarts, every, classes in ((False, False, 0, True), (True, False, 1, True),
                                                (True, True, 1, True), (True, True, 0, True),
                                                (False, False, 0, False)):
            core = GapsCore(rows, cols, order, None, prune)
            core.stride = every
            core.classes = classes
            core.FIRST_RUN_NODES = core.RESTART_NODES = 8  # many restarts on small boards
            run = core.solve if restarts else core.search
            won, moves = run(_codes(grid))
            assert won == expected, (grid, order, prune, restarts, every, classes)
            if won:
                assert ref.replays_to_won(rows, cols, grid, _line(moves), order)
    assert seen[True] and seen[False]  # both verdicts are exercised


def test_relaxation_never_condemns_a_winnable_position():
    """Along random play on reduced boards, ``analyse`` condemns (None) only where the
    breadth-first search finds no win."""
    rng = random.Random(7)
    condemned = 0
    for _ in range(40):
        rows, cols = 4, 4
        grid = ref.random_grid(rows, cols, rng)
        core = GapsCore(rows, cols)
        for _ in range(12):
            codes = _codes(grid)
            where = [0] * 64
            for i, x in enumerate(codes):
                if x:
                    where[x] = i
            gaps = [i for i, x in enumerate(codes) if not x]
            if core.analyse(where, gaps) is None:
                condemned += 1
                assert not ref.winnable(rows, cols, grid)
            moves = ref.fills(rows, cols, grid)
            if not moves:
                break
            grid = ref.play(grid, *rng.choice(moves))
    assert condemned


def test_full_deal_wins_replay_and_budget_is_honest():
    _assert_one_round_win_replays(seed=3, nodes=200_000)
    variant = get_game("gaps")
    rules = variant.parse_rules({"rounds": "1"})
    small = solve_gaps(variant.new_position(deal_for_seed("gaps", 0), rules), Budget(600, None))
    assert small.winnable is None and small.reason == "budget" and small.moves == ()


def test_lost_full_position_is_proven_at_once():
    """Kings in column 0 with a gap behind each: the relaxation proves the loss."""
    stuck = reduced.gaps_kings_first()
    search = GapsSearch(stuck, Budget(10_000, None))
    assert search.run() == (False, [])


def test_luby():
    assert [_luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@pytest.mark.parametrize("checkpoint", [0.0, 1.0])
def test_checkpoint_restarts_agree_with_breadth_first(checkpoint):
    """Runs started from a checkpoint on the line to the most advanced dead end (always,
    or never): verdicts still equal breadth-first search, and a win found from a
    checkpoint replays from the root (prefix + the run's own moves)."""
    rng = random.Random(11)
    seen = {True: 0, False: 0}
    for _ in range(30):
        rows, cols = 3, 6
        grid = ref.random_grid(rows, cols, rng)
        expected = ref.winnable(rows, cols, grid)
        seen[expected] += 1
        core = GapsCore(rows, cols)
        core.FIRST_RUN_NODES = core.RESTART_NODES = 4
        core.CHECKPOINT = checkpoint
        won, moves = core.solve(_codes(grid))
        assert won == expected, grid
        if won:
            assert ref.replays_to_won(rows, cols, grid, _line(moves))
    assert seen[True] and seen[False]


@pytest.mark.parametrize("rows,cols,starters", [(4, 4, False), (3, 5, False), (4, 4, True)])
def test_beam_wins_replay_and_beam_first_agrees_with_breadth_first(rows, cols, starters):
    """The beam alone only ever returns lines that replay to won (on winnable deals); and
    ``solve`` with the beam forced on from the start (every other run a beam of width 2)
    still gives the breadth-first verdict on every deal."""
    rng = random.Random(rows * 7 + cols + 100 * starters)
    found = 0
    for _ in range(30):
        grid = ref.random_grid(rows, cols, rng)
        order = tuple(rng.sample(range(rows), rows)) if starters else ()
        expected = ref.winnable(rows, cols, grid, order)
        line = GapsCore(rows, cols, order).beam(_codes(grid), 3)
        if line is not None:
            found += 1
            assert expected and ref.replays_to_won(rows, cols, grid, _line(line), order)
        core = GapsCore(rows, cols, order)
        core.FIRST_RUN_NODES = core.RESTART_NODES = 4
        core.BEAM_WIDTH, core.BEAM_SHARE = 2, 1e9
        won, moves = core.solve(_codes(grid))
        assert won == expected, (grid, order)
        if won:
            assert ref.replays_to_won(rows, cols, grid, _line(moves), order)
    assert found


def test_beam_win_on_a_full_deal_replays():
    """Seed 6 (one round) was undecided within 5 s before the beam; the beam's line is
    legal move by move and ends won through the engine."""
    _assert_one_round_win_replays(seed=6, nodes=100_000)


def _assert_one_round_win_replays(seed: int, nodes: int) -> None:
    variant = get_game("gaps")
    position = variant.new_position(deal_for_seed("gaps", seed), variant.parse_rules({"rounds": "1"}))
    result = solve_gaps(position, Budget(nodes, None), compiled=False)  # the Python search's own
    assert result.winnable is True
    replayed = position
    for move in result.moves:
        replayed = replayed.apply(move)
    assert replayed.status == "won"


@pytest.mark.parametrize("rows,cols,starters", [(4, 4, False), (3, 6, False), (4, 5, True)])
def test_beam_counts_of_kept_positions_match_a_recount(rows, cols, starters):
    """The beam scores a child from its parent's counts (dead gaps and adjacencies updated
    at the cells a fill touches, runs only when a fill touches one); every kept position's
    counts equal the ones recounted from its grid, and none of them is a dead end."""
    rng = random.Random(rows + 10 * cols + 100 * starters)
    checked = 0
    for _ in range(20):
        grid = ref.random_grid(rows, cols, rng)
        order = tuple(rng.sample(range(rows), rows)) if starters else ()
        core = GapsCore(rows, cols, order)
        build = core._beam_level

        def level(level, candidates, history, core=core, build=build):
            nonlocal checked
            kept = build(level, candidates, history)
            for here, gaps, runs, in_runs, adjacent, dead, _ in kept:
                recount = [q for q in gaps if q % cols and
                           (not here[q - 1] or here[q - 1] & 15 == core.top)]
                assert dead == len(recount) < len(gaps)
                assert runs == tuple(core.run_length(list(here), r) for r in range(rows))
                assert in_runs == sum(runs)
                assert adjacent == sum(1 for i, x in enumerate(here)
                                       if i % cols and x and x == here[i - 1] + 1)
                assert sorted(gaps) == [i for i, x in enumerate(here) if not x]
                checked += 1
            return kept

        core._beam_level = level
        core.beam(_codes(grid), 4)
    assert checked


def _state(grid: list[int]):
    where = [0] * 64
    for i, x in enumerate(grid):
        if x:
            where[x] = i
    return where, [i for i, x in enumerate(grid) if not x]


def _played(grid: list[int], fills) -> list[int]:
    grid = list(grid)
    for card, frm, to in fills:
        assert grid[frm] == card and not grid[to]
        grid[frm], grid[to] = 0, card
    return grid


@pytest.mark.parametrize("rows,cols", [(4, 4), (4, 5), (3, 5)])
def test_column0_moves_are_the_moves_of_every_arrangement(rows, cols):
    """A class (the arrangements of the 2s of column 0 over its 2s and gaps) moves, in one
    class move, to exactly the classes that any of its members reaches by 2s jumping
    between column-0 gaps and then one other fill; every class move is legal fill by fill
    under the reference rules."""
    rng = random.Random(rows * 10 + cols)
    core = GapsCore(rows, cols)

    def canonical(grid):
        return sum(x * core.power[i] for i, x in enumerate(grid)) + core.column0_key(grid)

    def is_shuffle(fill):
        card, frm, to = fill
        return frm % cols == 0 and to % cols == 0

    checked = 0
    for _ in range(60):
        grid = ref.random_grid(rows, cols, rng)
        for _ in range(rng.randint(0, 6)):
            options = ref.fills(rows, cols, grid)
            if options:
                grid = ref.play(grid, *rng.choice(options))
        codes = _codes(grid)
        members, frontier = {tuple(codes)}, [codes]
        while frontier:  # every arrangement reachable by 2s moving within column 0
            here = frontier.pop()
            for fill in core.fills(here, *_state(here)):
                if is_shuffle(fill):
                    after = _played(here, [fill])
                    if tuple(after) not in members:
                        members.add(tuple(after))
                        frontier.append(after)
        if len({canonical(list(m)) for m in members}) != 1:
            raise AssertionError(("members of one class with different keys", grid))
        expected = {canonical(_played(list(m), [fill])) for m in members
                    for fill in core.fills(list(m), *_state(list(m))) if not is_shuffle(fill)}
        got = set()
        for move in core.column0_moves(codes, *_state(codes)):
            line = move if type(move[0]) is tuple else (move,)
            here = grid
            for card, frm, to in line:
                target = ((card >> 4, card & 15), to)
                assert target in ref.fills(rows, cols, here), (grid, move)
                here = ref.play(here, *target)
            got.add(canonical(_played(codes, line)))
        assert got == expected, grid
        checked += len(members) > 1
    assert checked > 10

