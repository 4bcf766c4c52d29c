"""One browser action on a game (a tap, draw, undo, redeal…) turned into service calls.

The board's single form posts the action; this module decides what it means and
returns what the page needs to show next.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.db.models import Game, Player
from app.engine import GameRecord, InvalidMoveError

from . import board, games
from .errors import InputError

ACTIONS = ("draw", "recycle", "redeal", "undo", "redo", "new", "restart", "tap")
MOVE_OF_ACTION = {"draw": "D", "recycle": "R", "redeal": "N"}


@dataclass(frozen=True)
class Outcome:
    record: GameRecord
    selected: str | None = None
    note: str | None = None           # message key: the tap did nothing, or asks to confirm
    announcement: "board.Announcement | None" = None
    new_game: Game | None = None      # "new"/"restart": the page moves to this game
    confirm_redeal: bool = False


@dataclass(frozen=True)
class ActionForm:
    action: str = ""
    target: str = ""        # a location (P12, S, G3) or a Gaps position (r.c)
    selected: str = ""
    ply: int | None = None
    version: int | None = None
    confirm: bool = False


def perform(session: Session, game: Game, player: Player, form: ActionForm, limits: games.Limits) -> Outcome:
    action = form.action or ("tap" if form.target else "")
    if action not in ACTIONS:
        raise InputError("unknown action", "unknown_action")
    if action in ("new", "restart"):
        games.check_owner(game, player)
        if action == "new":
            return Outcome(games.record_of(game), new_game=games.start_game(session, player, game.preset, limits=limits))
        return Outcome(games.record_of(game), new_game=games.restart(session, game, player, limits=limits))
    fresh = {"ply": form.ply, "version": form.version}
    if action == "undo":
        before = games.record_of(game)
        record = games.undo(session, game, player, **fresh)
        return Outcome(record, announcement=board.Announcement("undo", move=str(before.moves[record.cursor])))
    if action == "redo":
        record = games.redo(session, game, player, **fresh)
        return Outcome(record, announcement=board.describe(record.moves[record.cursor - 1], games.previous_position(record), record.position))
    if action == "redeal" and not form.confirm:
        position = games.record_of(game).position
        if board.gaps_board(position, None).early_redeal:
            games.check_owner(game, player)
            return Outcome(games.record_of(game), confirm_redeal=True, note="confirm_redeal")
    if action in MOVE_OF_ACTION:
        return _play(session, game, player, MOVE_OF_ACTION[action], fresh, limits)
    games.check_owner(game, player)
    games.check_fresh(game, form.ply, form.version)
    record = games.record_of(game)
    try:
        tap = board.tap(record.position, form.selected or None, form.target)
    except InvalidMoveError as exc:
        raise InputError(str(exc), "bad_move", detail=str(exc)) from None
    if tap.move is None:
        return Outcome(record, selected=tap.selected, note=tap.note)
    return _play(session, game, player, str(tap.move), fresh, limits)


def _play(session, game, player, move_text, fresh, limits) -> Outcome:
    before = games.record_of(game).position
    record = games.play_move(session, game, player, move_text, limits=limits, **fresh)
    return Outcome(record, announcement=board.describe(record.moves[record.cursor - 1], before, record.position))
