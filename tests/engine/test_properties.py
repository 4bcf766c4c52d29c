"""Rules properties over random games of every game and option."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine import (
    DECK,
    GapsPosition,
    IllegalMoveError,
    PyramidPosition,
    Remove,
    Status,
    Termination,
    card,
)
from app.engine.gaps import Fill
from app.engine.pyramid import RESERVE, STOCK, WASTE, Remove as PyramidRemove

from .strategies import CONFIGS, new_record, seeds

configs = st.sampled_from(CONFIGS)


def cards_in_play(position) -> Counter:
    if isinstance(position, GapsPosition):
        return Counter(c for c in position.grid if c is not None)
    held = [c for i, c in enumerate(position.layout) if not position.is_removed(i)]
    held += list(position.stock) + list(position.waste)
    held += [c for pile in position.reserves for c in pile]
    return Counter(held)


def candidate_moves(position):
    """Every syntactically valid move of the game (legal or not)."""
    if isinstance(position, GapsPosition):
        yield from (Fill(c, r, col) for c in DECK if c.rank > 1 for r in range(4) for col in range(13))
        yield position.parse_move("N")
        return
    locs = list(range(len(position.layout)))
    locs += [RESERVE + k for k in range(8)] if position.game == "giza" else [STOCK, WASTE]
    yield position.parse_move("D")
    yield position.parse_move("R")
    yield from (PyramidRemove((a,)) for a in locs)
    yield from (PyramidRemove(pair) for pair in combinations(locs, 2))


def check_status_agrees_with_legal_moves(position):
    legal = position.legal_moves()
    # an end reason exactly when the game is over, and one of the result the position says
    assert isinstance(position.status, Status)
    reason = position.end_reason
    assert (reason is None) == (position.status is Status.PLAYING)
    assert reason is None or (isinstance(reason, Termination) and reason.status is position.status)
    if position.status is Status.WON:
        assert legal == ()
    elif position.status is Status.PLAYING:
        assert legal
    elif isinstance(position, PyramidPosition) and position.rules.passes is None:
        assert not any(isinstance(m, Remove) for m in legal)
    else:
        assert legal == ()


@given(config=configs, seed=seeds, choices=st.lists(st.integers(0, 10**6), max_size=80), data=st.data())
def test_random_games_keep_every_rule_invariant(config, seed, choices, data):
    record = new_record(config, seed)
    removed: Counter = Counter()
    full = Counter(DECK * record.variant.decks)
    aces = Counter(c for c in record.deal if c.rank == 1) if config[0] == "gaps" else Counter()
    for choice in choices:
        position = record.position
        check_status_agrees_with_legal_moves(position)
        assert cards_in_play(position) + removed + aces == full
        legal = position.legal_moves()
        if not legal:
            break
        # a draw, recycle or redeal is listed last (the board reads its buttons from there)
        assert all(isinstance(m, (Remove, Fill)) for m in legal[:-1]), legal
        for move in legal:  # every legal move applies, and prints/parses back to itself
            assert position.parse_move(str(move)) == move
            position.apply(move)
        illegal = [m for m in candidate_moves(position) if m not in legal]
        for move in data.draw(st.lists(st.sampled_from(illegal), max_size=5)) if illegal else []:
            with pytest.raises(IllegalMoveError):
                position.apply(move)
            assert record.position == position
        move = legal[choice % len(legal)]
        if isinstance(move, Remove):
            removed.update(position.card_at(loc) for loc in move.locs)
        after = record.play(move)
        assert after.undo().position == position
        assert after.undo().redo().position == after.position
        record = after


@given(config=configs, seed=seeds, choices=st.lists(st.integers(0, 10**6), max_size=60))
def test_is_legal_says_what_legal_moves_lists(config, seed, choices):
    """A move's own check (used on every stored move a game replays) agrees with the list of
    legal moves, for every syntactically valid move, in positions along a random game."""
    record = new_record(config, seed)
    for index, choice in enumerate(choices):
        position = record.position
        legal = position.legal_moves()
        if index % 10 == 0 or not legal:
            assert {m for m in candidate_moves(position) if position.is_legal(m)} == set(legal)
        if not legal:
            break
        record = record.play(legal[choice % len(legal)])
    position = record.position
    assert {m for m in candidate_moves(position) if position.is_legal(m)} == set(position.legal_moves())
    assert not position.is_legal(PyramidRemove((1, 0)) if isinstance(position, PyramidPosition) else Fill(card(2, "H"), 4, 0))


@given(config=configs, seed=seeds, choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=30))
def test_undo_all_then_redo_all_restores_each_position(config, seed, choices):
    record = new_record(config, seed)
    seen = [record.position]
    for choice in choices:
        legal = record.position.legal_moves()
        if not legal:
            break
        record = record.play(legal[choice % len(legal)])
        seen.append(record.position)
    back = record
    for expected in reversed(seen[:-1]):
        back = back.undo()
        assert back.position == expected
    for expected in seen[1:]:
        back = back.redo()
        assert back.position == expected
    assert back.moves == record.moves


@given(config=configs, seed=seeds, steps=st.lists(st.tuples(st.sampled_from("pur"), st.integers(0, 10**6)),
                                                 max_size=40))
def test_the_move_texts_follow_plays_undos_and_branches(config, seed, steps):
    # the record hands each move's text on to the next record: it must always be the list's own
    record = new_record(config, seed)
    for kind, choice in steps:
        legal = record.position.legal_moves()
        if kind == "u" and record.can_undo:
            record = record.undo()
        elif kind == "r" and record.can_redo:
            record = record.redo()
        elif legal:
            record = record.play(legal[choice % len(legal)])
        assert record.moves_text == " ".join(str(m) for m in record.moves)
        assert record.played_text == " ".join(str(m) for m in record.moves[: record.cursor])
    replayed = type(record).from_text(record.game, record.rules, record.deal_text, record.moves_text, record.cursor)
    assert replayed.moves_text == record.moves_text and replayed.position == record.position


def test_a_new_move_after_undo_drops_the_redo_tail():
    record = new_record(("pyramid", {"passes": "3"}), 11)
    record = record.play("D").play("D")
    undone = record.undo()
    assert undone.can_redo
    replayed = undone.play(undone.position.legal_moves()[0])
    assert len(replayed.moves) == 2 and not replayed.can_redo


def test_two_to_column_zero_gap_and_successor_rule():
    record = new_record(("gaps", {}), 4)
    position = record.position
    for r, c in position.gap_positions():
        fills = position.moves_into(r, c)
        if c == 0:
            assert {m.card for m in fills} == {card(2, s) for s in "CDHS"}
        else:
            left = position.grid[r * 13 + c - 1]
            dead = left is None or left.rank == 13
            assert position.is_dead_gap(r, c) == dead
            assert [m.card for m in fills] == ([] if dead else [card(left.rank + 1, left.suit)])
