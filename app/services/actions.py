"""One browser action on a game's board (a tap, draw, undo, redeal, new deal…): what it means,
done through the services, and what the page shows next.

The board's single form posts the action; ``perform`` answers an ``ActionResult``, the one
object the web layer draws from, refusals included (``error``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.db.models import Game, Player
from app.engine import DRAW, RECYCLE, REDEAL, GameRecord, InvalidMoveError, Move, get_game

from . import games, moves
from .boards import Announcement, describe
from .errors import InputError, ServiceError
from .records import record_of
from .taps import TAPS

ACTIONS = ("draw", "recycle", "redeal", "undo", "redo", "new", "restart", "tap")
MOVE_OF_ACTION: dict[str, Move] = {"draw": DRAW, "recycle": RECYCLE, "redeal": REDEAL}


@dataclass(frozen=True)
class ActionResult:
    """What an action did, for the page: the game's record now, the selection, and what to say."""

    record: GameRecord
    selected: str | None = None
    note: str | None = None               # message key: the tap did nothing, or asks to confirm
    announcement: Announcement | None = None
    new_game: Game | None = None          # "new"/"restart": the page moves to this game
    confirm_redeal: bool = False
    error: str | None = None              # message key of a refused action
    detail: str | None = None             # the engine's precise reason, if any
    status_code: int = 200

    @classmethod
    def refused(cls, game: Game, error: ServiceError, status_code: int, selected: str | None) -> ActionResult:
        """A refused action: the game as stored now, and why."""
        detail = error.params.get("detail")
        return cls(record_of(game), selected=selected, error=error.key,
                   detail=str(detail) if detail else None, status_code=status_code)


def perform(session: Session, game: Game, player: Player, action: str, *, target: str = "",
            selected: str = "", ply: int | None = None, version: int | None = None, confirm: bool = False,
            limits: games.Limits = games.Limits()) -> ActionResult:
    action = action or ("tap" if target else "")
    if action not in ACTIONS:
        raise InputError("unknown action", "unknown_action")
    games.check_owner(game, player)
    if action == "new":
        return ActionResult(record_of(game), new_game=games.start_game(session, player, game.preset, limits=limits))
    if action == "restart":
        return ActionResult(record_of(game), new_game=games.restart(session, game, player, limits=limits))
    if action == "undo":
        before = record_of(game)
        record = moves.undo(session, game, player, ply=ply, version=version)
        return ActionResult(record, announcement=Announcement("undo", undone=_last_move(before)))
    if action == "redo":
        before = record_of(game)
        record = moves.redo(session, game, player, ply=ply, version=version)
        return ActionResult(record, announcement=_last_move(record))
    record = record_of(game)
    if action == "redeal" and not confirm:
        legal = record.position.legal_moves()
        if REDEAL in legal and len(legal) > 1:  # a redeal now would skip possible moves: ask first
            return ActionResult(record, confirm_redeal=True, note="confirm_redeal")
    if action in MOVE_OF_ACTION:
        return _play(session, game, player, str(MOVE_OF_ACTION[action]), ply, version, limits)
    games.check_fresh(game, ply, version)
    try:
        tap = TAPS[get_game(game.game).family](record.position, selected or None, target)
    except InvalidMoveError as exc:
        raise InputError(str(exc), "bad_move", detail=str(exc)) from None
    if tap.move is None:
        return ActionResult(record, selected=tap.selected, note=tap.note)
    return _play(session, game, player, str(tap.move), ply, version, limits)


def _last_move(record: GameRecord) -> Announcement:
    """The move that led to the record's position, in words."""
    return describe(record.moves[record.cursor - 1], record.at(record.cursor - 1).position, record.position)


def _play(session, game, player, move_text, ply, version, limits) -> ActionResult:
    record = moves.play_move(session, game, player, move_text, ply=ply, version=version, limits=limits)
    return ActionResult(record, announcement=_last_move(record))
