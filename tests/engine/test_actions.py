"""What a board action does to a record (app/engine/actions.py), said once for the server's board
(app.services.play.moves) and the page's offline engine (app.web.views.offline_engine): read as
the form names it, asked first where it gives something up, refused with a key, or done."""

from __future__ import annotations

import pytest

from app.engine import GameRecord, IllegalMoveError, actions, get_preset
from app.engine.actions import (
    OFFLINE_ACTIONS,
    Action,
    ActionRefused,
    Step,
    final,
    in_play,
    play,
    read_action,
    step,
)
from app.engine.gaps import REDEAL
from app.engine.pyramid import DRAW, RECYCLE

# a won line of Pyramid, seed 250 (tests/web/play.py: WIN_LINE)
WIN_SEED = 250
WIN_LINE = ["P21+P24", "P23+P25", "P22+P26", "P16+P17", "P11+P27", "P15+P20", "P19+S", "D", "D", "D", "P10+S",
            "P6+P18", "P12+P14", "P7+P13", "P8", "D", "P4+S", "D", "P3+S", "D", "P9+S", "P1+S", "S", "P5+S", "P2",
            "P0+S"]


def new(preset: str, seed: int) -> GameRecord:
    chosen = get_preset(preset)
    return GameRecord.new(chosen.variant.name, chosen.rules, chosen.variant.deal(seed))


def refusal(call) -> str:
    with pytest.raises(ActionRefused) as refused:
        call()
    assert isinstance(refused.value, IllegalMoveError)  # the engine's errors, caught broadly as ValueError
    return refused.value.key


def test_the_sets_the_board_and_the_page_take():
    assert actions.ACTIONS == {"draw", "recycle", "redeal", "undo", "redo", "new", "restart", "give-up", "tap"}
    assert actions.FIRST_ACTIONS == {"draw", "recycle", "redeal", "tap"}
    assert actions.QUEUED_ACTIONS == {"tap", "draw", "recycle", "redeal", "undo", "redo"}
    assert actions.OFFLINE_ACTIONS == actions.QUEUED_ACTIONS | {"new"}
    assert actions.MOVE_OF_ACTION == {"draw": DRAW, "recycle": RECYCLE, "redeal": REDEAL}
    assert {action for action in Action if action.move is not None} == set(actions.MOVE_OF_ACTION)


def test_read_action():
    assert read_action("confirm-redeal") == (Action.REDEAL, True)
    assert read_action("", "P3") == (Action.TAP, False)
    for name in ("confirm-draw", "hint", "", "confirm-", "Draw"):
        assert refusal(lambda name=name: read_action(name)) == "unknown_action"
    assert refusal(lambda: read_action("restart", among=OFFLINE_ACTIONS)) == "unknown_action"


def test_a_button_plays_its_move_and_a_tap_the_cards():
    record = new("pyramid", 7)
    drawn = step(record, Action.DRAW)
    assert drawn.move is not None and str(drawn.move) == "D" and drawn.record.cursor == 1 and drawn.selected is None
    pair = next(str(m) for m in drawn.record.position.legal_moves() if "+" in str(m))
    first, second = pair.split("+")
    selected = step(drawn.record, Action.TAP, target=first)
    assert selected == Step(drawn.record, selected=first)
    removed = step(drawn.record, Action.TAP, target=second, selected=first)
    assert str(removed.move) == pair and removed.record.cursor == 2
    assert refusal(lambda: step(drawn.record, Action.TAP, target="nowhere")) == "bad_move"


def test_undo_and_redo_step_the_cursor_or_say_there_is_nothing():
    record = new("gaps", 3)
    assert refusal(lambda: step(record, Action.UNDO)) == "nothing_to_undo"
    assert refusal(lambda: step(record, Action.REDO)) == "nothing_to_redo"
    moved = play(record, next(iter(record.position.legal_moves())))
    undone = step(moved, Action.UNDO)
    assert undone.stepped and undone.move is None and undone.record.cursor == 0
    assert step(undone.record, Action.REDO).record.cursor == 1


def test_a_win_is_final_but_the_game_may_be_left():
    won = play(new("pyramid", WIN_SEED), *WIN_LINE)
    assert final(won) and not in_play(won)
    for action in (Action.UNDO, Action.REDO, Action.DRAW, Action.TAP, Action.GIVE_UP):
        assert refusal(lambda action=action: step(won, action, target="P0")) == "won_final"
    assert step(won, Action.NEW) == Step(won)  # nothing to ask: the game is over
    assert not final(won.undo())


def test_a_redeal_that_gives_up_moves_asks_first_and_its_yes_plays_it():
    record = new("gaps", 21)
    asked = step(record, Action.REDEAL)
    assert asked == Step(record, note="confirm_redeal", confirm=Action.REDEAL)
    yes = step(record, Action.REDEAL, confirmed=True)
    assert yes.move == REDEAL and yes.record.cursor == 1


def test_a_new_deal_asks_first_while_the_game_is_in_play():
    record = new("pyramid", WIN_SEED)
    assert step(record, Action.NEW) == Step(record)
    moved = play(record, WIN_LINE[0])
    assert in_play(moved) and in_play(moved.undo())  # a move made, even taken back
    assert step(moved, Action.NEW).confirm is Action.NEW
    assert step(moved, Action.RESTART, playing=False) == Step(moved)  # the stored game's phase knows better
    assert step(moved, Action.NEW, confirmed=True) == Step(moved)


def test_play_refuses_with_a_key():
    record = new("pyramid", 7)
    assert refusal(lambda: play(record, "P99")) == "bad_move"
    assert refusal(lambda: play(record, "R")) == "illegal_move"
    assert refusal(lambda: play(record, "D", "D", max_moves=1)) == "too_many_moves"
    assert refusal(lambda: step(record, Action.DRAW, max_moves=0)) == "too_many_moves"
    assert play(record, "D", "D", max_moves=2).cursor == 2
