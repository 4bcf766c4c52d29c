"""Changing a stored game: a move, several moves as one action, undo and redo.

Every change is checked (``lifecycle.check``: the owner, a fresh page, a game still in play),
played by the engine, then written in one UPDATE conditional on the game's version
(SQLAlchemy's ``version_id_col``, see app.db.models.Game): a write that finds the row moved on
(another tab, another instance) matches nothing, raises StaleDataError, and becomes a
ConflictError (409), so two writers can never fork a history. The write is flushed here, so a
refusal is known before the page is drawn; the request's session commits it (app.web.deps).
Each stored change writes a JSON log line (logger ``tretten.move``).
"""

from __future__ import annotations

import logging
import time

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from app.db.models import Game, Player, utcnow
from app.engine import GameRecord, IllegalMoveError, InvalidMoveError, Move

from . import lifecycle
from .errors import ConflictError, InputError
from .games import Limits, current_score, record_of

move_log = logging.getLogger("tretten.move")


class RacedError(ConflictError):
    """Another first move of this player and preset was stored at the same moment (another tab,
    another instance): the database keeps one unfinished game per player and preset."""


def store(session: Session, game: Game, record: GameRecord, action: str, *,
          same_deal_kept: bool = False) -> GameRecord:
    """Write the record's state into the game row (ConflictError if the row moved on).

    A game's first move makes it played, and replaces the player's unfinished game of the
    preset (counted as lost); with ``same_deal_kept`` a game of the same deal is not replaced,
    and a racing one makes this write fail instead (RacedError)."""
    started = time.perf_counter()
    now = utcnow()
    first = game.started_at is None and record.cursor > 0
    if first:  # before this game's row is written: the index allows one unfinished game
        lifecycle.abandon_unfinished(session, game.player_id, game.preset, keep=game.id,
                                     seed=game.seed if same_deal_kept else None,
                                     deal=game.deal if same_deal_kept and game.seed is None else None)
        game.started_at = now
    game.moves = record.moves_text
    game.cursor = record.cursor
    game.status = record.position.status
    game.finished_at = now if game.status != "playing" else None
    game.seconds = lifecycle.finish_time(game)
    game.score = current_score(game, record)
    game.hinted_ply = None
    game_id = game.id  # read before the flush: after a failed one the row can't be read
    try:
        session.flush()  # UPDATE … WHERE id = :id AND version = :seen (or the first move's INSERT)
    except StaleDataError:
        _log(game_id, action, record, "stale", started)
        raise ConflictError("this game moved on in another tab", "stale") from None
    except IntegrityError:
        _log(game_id, action, record, "raced", started)
        raise RacedError("a game of this preset was started in another tab", "raced") from None
    _log(game.id, action, record, "stored", started)
    return record


def _log(game_id: str | None, action: str, record: GameRecord, outcome: str, started: float) -> None:
    """One JSON line per stored (or refused as stale) change: see app.web.middleware, "logs"."""
    if not move_log.isEnabledFor(logging.INFO):
        return
    fields = {"game": game_id, "action": action, "outcome": outcome, "ply": record.cursor,
              "status": record.position.status, "ms": round((time.perf_counter() - started) * 1000, 2)}
    if action == "move" and record.cursor:
        fields["move"] = str(record.moves[record.cursor - 1])
    move_log.info(action, extra={"fields": fields})


def played(record: GameRecord, moves: list[Move | str], limits: Limits) -> GameRecord:
    """The record after ``moves`` (the engine's Move objects, or the notation from the API and
    the solver), all legal or an InputError naming the first that is not."""
    if record.cursor + len(moves) > limits.max_moves:
        raise InputError("this game has reached the longest move list allowed", "too_many_moves")
    try:
        for move in moves:
            record = record.play(move.strip()[:64] if isinstance(move, str) else move)
    except InvalidMoveError as exc:
        raise InputError(str(exc), "bad_move", detail=str(exc)) from None
    except IllegalMoveError as exc:
        raise InputError(str(exc), "illegal_move", detail=str(exc)) from None
    return record


# ---------------------------------------------------------------- actions

def play_moves(session: Session, game: Game, player: Player | None, moves: list[Move | str], *,
               ply: int | None = None, version: int | None = None, limits: Limits = Limits(),
               action: str = "move") -> GameRecord:
    """Play ``moves`` at the cursor, all legal or none stored, in one write (an auto-finish plays
    the rest of a won game; "try again from here" the start of one). A move drops any redo tail."""
    lifecycle.check(game, player, ply=ply, version=version)
    return store(session, game, played(record_of(game), moves, limits), action)


def play_move(session: Session, game: Game, player: Player | None, move: Move | str, *,
              ply: int | None = None, version: int | None = None, limits: Limits = Limits()) -> GameRecord:
    return play_moves(session, game, player, [move], ply=ply, version=version, limits=limits)


def undo(session: Session, game: Game, player: Player | None, *, ply: int | None = None,
         version: int | None = None) -> GameRecord:
    """Take back the last move (not after a win: lifecycle)."""
    lifecycle.check(game, player, ply=ply, version=version)
    record = record_of(game)
    if not record.can_undo:
        raise InputError("there is nothing to undo", "nothing_to_undo")
    game.undo_count += 1
    return store(session, game, record.undo(), "undo")


def redo(session: Session, game: Game, player: Player | None, *, ply: int | None = None,
         version: int | None = None) -> GameRecord:
    lifecycle.check(game, player, ply=ply, version=version)
    record = record_of(game)
    if not record.can_redo:
        raise InputError("there is nothing to redo", "nothing_to_redo")
    return store(session, game, record.redo(), "redo")
