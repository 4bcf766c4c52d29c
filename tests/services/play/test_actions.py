"""The board's actions (app.engine.actions.Action), said once:
what a stored game, a deal's first action and the changes a page sends back from offline each take
is what the one definition says."""

from __future__ import annotations

import itertools

import pytest

from app.engine import actions
from app.engine.actions import Action
from app.services.accounts import players
from app.services.errors import InputError, ServiceError
from app.services.play import games, moves, returned
from app.services.play.moves import read_action
from tests.databases import migrated_sessions

NAMES = [*Action, *(f"confirm-{action}" for action in Action), "", "confirm-", "confirm-confirm-redeal", "hint",
         "move", "Draw", " draw"]
ids = itertools.count()


@pytest.fixture(scope="module")
def sessions(tmp_path_factory):
    return migrated_sessions(tmp_path_factory.mktemp("actions"))


def _taken(action: Action, confirmed: bool, among: frozenset[Action]) -> bool:
    return action in among and (action.asks_first or not confirmed)


def _expected(name: str, among: frozenset[Action]) -> bool:
    """Whether ``name`` (no card named) is one of ``among``, read as the board's form names them."""
    confirmed = name.startswith("confirm-")
    try:
        action = Action(name.removeprefix("confirm-"))
    except ValueError:
        return False
    return _taken(action, confirmed, among)


def _refused_as_unknown(call) -> bool:
    try:
        call()
    except ServiceError as exc:
        return exc.key == "unknown_action"
    return False


def test_the_sets_are_the_ones_the_board_always_had():
    assert {"draw", "recycle", "redeal", "undo", "redo", "new", "restart", "give-up", "tap"} == actions.ACTIONS
    assert {"redeal", "new", "restart"} == actions.CONFIRMED
    assert {"draw", "recycle", "redeal", "tap"} == actions.FIRST_ACTIONS
    assert {"tap", "draw", "recycle", "redeal", "undo", "redo"} == actions.QUEUED_ACTIONS
    assert {action: action.move for action in Action if action.move is not None} == actions.MOVE_OF_ACTION
    assert {action for action in Action if action.leaves} == {"new", "restart"}


@pytest.mark.parametrize("name", NAMES)
def test_read_action_reads_the_form_once(name):
    if _expected(name, actions.ACTIONS):
        assert read_action(name) == (Action(name.removeprefix("confirm-")), name.startswith("confirm-"))
    else:
        with pytest.raises(InputError) as refused:
            read_action(name)
        assert refused.value.key == "unknown_action" and str(refused.value) == "unknown action"


def test_no_action_with_a_card_named_is_a_tap():
    assert read_action("", "0") == (Action.TAP, False)
    assert _refused_as_unknown(lambda: read_action("confirm-", "0"))


@pytest.mark.parametrize("name", NAMES)
def test_a_stored_game_takes_every_action(sessions, name):
    with sessions() as session:
        player = players.stored_visitor(session, f"actions-{next(ids)}")
        game = games.start_game(session, player, "pyramid", seed=5)
        unknown = _refused_as_unknown(lambda: moves.perform(session, game, player, name, next_seed=lambda: 6))
        assert unknown is not _expected(name, actions.ACTIONS)


@pytest.mark.parametrize("name", NAMES)
def test_a_deal_ready_to_play_takes_the_first_actions(sessions, name):
    with sessions() as session:
        player = players.stored_visitor(session, f"actions-{next(ids)}")
        unknown = _refused_as_unknown(lambda: moves.first_move(session, player, "gaps", seed=5, deal_text=None,
                                                                action=name))
        assert unknown is not _expected(name, actions.FIRST_ACTIONS)


@pytest.mark.parametrize("name", NAMES)
def test_a_page_sends_back_from_offline_the_queued_actions(sessions, name):
    with sessions() as session:
        player = players.stored_visitor(session, f"actions-{next(ids)}")
        game = games.start_game(session, player, "gaps", seed=5)
        judged = returned.judge(session, game, player, [returned.Change("m1", name)], ply=0, version=game.version)
        unknown = judged.refused is not None and judged.refused.key == "unknown_action"
        assert unknown is not _expected(name, actions.QUEUED_ACTIONS)
