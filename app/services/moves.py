"""Changing a stored game: a move, several moves as one action, undo and redo.

Every change is checked by the engine, then stored in one write conditional on the game's
version (SQLAlchemy's ``version_id_col``, see app.db.models.Game): a write that finds the row
moved on (another tab, another instance) matches nothing, raises StaleDataError, and becomes a
ConflictError (409), so two writers can never fork a history. Each stored change writes a JSON
log line (logger ``tretten.move``).
"""

from __future__ import annotations

import logging
import time

from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from app.db.models import Game, Player, utcnow
from app.engine import GameRecord, IllegalMoveError, InvalidMoveError

from . import lifecycle
from .errors import ConflictError, InputError
from .games import Limits, check_fresh, check_owner, current_score
from .records import record_of

move_log = logging.getLogger("tretten.move")


# ---------------------------------------------------------------- storing

def _store(session: Session, game: Game, record: GameRecord, action: str, started: float) -> GameRecord:
    """Write the record's state into the game row and commit (ConflictError if it moved on)."""
    now = utcnow()
    game.moves = record.moves_text
    game.cursor = record.cursor
    game.status = record.position.status
    first = game.started_at is None and record.cursor > 0
    if first:  # the game is played from now on
        game.started_at = now
    game.finished_at = now if game.status != "playing" else None
    game.seconds = lifecycle.finish_time(game)
    game.score = current_score(game, record)
    try:
        if first:  # and replaces the player's unfinished game of the preset: counted as lost
            lifecycle.abandon_unfinished(session, game.player_id, game.preset, keep=game.id)
        session.commit()  # UPDATE … WHERE id = :id AND version = :seen
    except StaleDataError:
        session.rollback()
        _log(game.id, action, record, "stale", started)
        raise ConflictError("this game moved on in another tab", "stale") from None
    _log(game.id, action, record, "stored", started)
    return record


def _log(game_id: str, action: str, record: GameRecord, outcome: str, started: float) -> None:
    """One JSON line per stored (or refused as stale) change: see app.web.logs."""
    if not move_log.isEnabledFor(logging.INFO):
        return
    fields = {"game": game_id, "action": action, "outcome": outcome, "ply": record.cursor,
              "status": record.position.status, "ms": round((time.perf_counter() - started) * 1000, 2)}
    if action == "move" and record.cursor:
        fields["move"] = str(record.moves[record.cursor - 1])
    move_log.info(action, extra={"fields": fields})


def _played(record: GameRecord, moves: list[str]) -> GameRecord:
    try:
        for move_text in moves:
            record = record.play(move_text.strip()[:64])
    except InvalidMoveError as exc:
        raise InputError(str(exc), "bad_move", detail=str(exc)) from None
    except IllegalMoveError as exc:
        raise InputError(str(exc), "illegal_move", detail=str(exc)) from None
    return record


# ---------------------------------------------------------------- actions

def play_moves(session: Session, game: Game, player: Player | None, moves: list[str], *,
               ply: int | None = None, version: int | None = None, limits: Limits = Limits(),
               action: str = "move") -> GameRecord:
    """Play ``moves`` at the cursor, all legal or none stored, in one write (an auto-finish plays
    the rest of a won game; "try again from here" the start of one). A move drops any redo tail;
    an undo takes back one move."""
    started = time.perf_counter()
    check_owner(game, player)
    check_fresh(game, ply, version)
    lifecycle.check_can_move(game)
    record = record_of(game)
    start = record.cursor
    if start + len(moves) > limits.max_moves:
        raise InputError("this game has reached the longest move list allowed", "too_many_moves")
    record = _played(record, moves)
    return _store(session, game, record, action, started)


def play_move(session: Session, game: Game, player: Player | None, move_text: str, *,
              ply: int | None = None, version: int | None = None, limits: Limits = Limits()) -> GameRecord:
    return play_moves(session, game, player, [move_text], ply=ply, version=version, limits=limits)


def undo(session: Session, game: Game, player: Player | None, *, ply: int | None = None,
         version: int | None = None) -> GameRecord:
    """Take back the last move (not after a win: lifecycle)."""
    started = time.perf_counter()
    check_owner(game, player)
    check_fresh(game, ply, version)
    lifecycle.check_can_undo(game)
    record = record_of(game)
    if not record.can_undo:
        raise InputError("there is nothing to undo", "nothing_to_undo")
    game.undo_count += 1
    return _store(session, game, record.undo(), "undo", started)


def redo(session: Session, game: Game, player: Player | None, *, ply: int | None = None,
         version: int | None = None) -> GameRecord:
    started = time.perf_counter()
    check_owner(game, player)
    check_fresh(game, ply, version)
    lifecycle.check_can_undo(game)
    record = record_of(game)
    if not record.can_redo:
        raise InputError("there is nothing to redo", "nothing_to_redo")
    return _store(session, game, record.redo(), "redo", started)
