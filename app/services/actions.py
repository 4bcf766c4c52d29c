"""One browser action on a game's board (a tap, draw, undo, redeal, new deal…): what it means,
done through the services, and what the page shows next.

The board's single form posts the action; ``perform`` (a stored game) and ``first_move`` (a
deal ready to play, stored with its first move) answer an ``ActionResult``, the one object the
web layer draws from, refusals included (``error``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.db.models import Game, Player
from app.engine import DRAW, RECYCLE, REDEAL, GameRecord, InvalidMoveError, Move

from . import boards, games, lifecycle, moves
from .boards import Announcement, describe
from .errors import InputError, ServiceError
from .games import record_of

ACTIONS = ("draw", "recycle", "redeal", "undo", "redo", "new", "restart", "tap")
MOVE_OF_ACTION: dict[str, Move] = {"draw": DRAW, "recycle": RECYCLE, "redeal": REDEAL}
CONFIRMED = ("redeal", "new", "restart")  # actions that ask first, posted again as "confirm-…"


@dataclass(frozen=True)
class ActionResult:
    """What an action did, for the page: the game's record now, the selection, and what to say."""

    record: GameRecord
    selected: str | None = None
    note: str | None = None               # message key: the tap did nothing, or asks to confirm
    announcement: Announcement | None = None
    confirm: str | None = None            # "redeal", "new" or "restart": asks before it does it
    redirect: str | None = None           # the page moves on: a new deal, the deal again
    next_seed: int | None = None          # …to this seeded deal (the page may show it in place)
    game: Game | None = None              # the game stored by a first move (first_move)
    error: str | None = None              # message key of a refused action
    detail: str | None = None             # the engine's precise reason, if any
    status_code: int = 200
    retry_after: int | None = None        # a refusal that passes with time (the solver is busy)

    @classmethod
    def refused(cls, record: GameRecord, error: ServiceError, status_code: int, selected: str | None) -> ActionResult:
        """A refused action: the game as stored now, and why."""
        detail, retry_after = error.params.get("detail"), error.params.get("retry_after")
        return cls(record, selected=selected, error=error.key, detail=str(detail) if detail else None,
                   status_code=status_code, retry_after=retry_after if isinstance(retry_after, int) else None)


def _asks_first(action: str, record: GameRecord, game: Game | None) -> bool:
    """Whether ``action`` needs a confirmation on this game: a redeal that skips possible moves;
    a new deal or restart that counts a game in play as lost."""
    if action == "redeal":
        legal = record.position.legal_moves()
        return REDEAL in legal and len(legal) > 1
    if action in ("new", "restart"):
        return game is not None and lifecycle.phase_of(game) is lifecycle.Phase.PLAYING
    return False


def _move_of(record: GameRecord, action: str, target: str, selected: str) -> tuple[Move | None, ActionResult | None]:
    """The move an action or tap means here, or the result of a tap that only selects."""
    if action in MOVE_OF_ACTION:
        return MOVE_OF_ACTION[action], None
    try:
        tap = boards.tap(record.position, selected or None, target)
    except InvalidMoveError as exc:
        raise InputError(str(exc), "bad_move", detail=str(exc)) from None
    if tap.move is None:
        said = Announcement("no_pair", cards=tap.cards) if tap.note == "no_pair" else None
        return None, ActionResult(record, selected=tap.selected, note=tap.note, announcement=said)
    return tap.move, None


def perform(session: Session, game: Game, player: Player, action: str, *, target: str = "",
            selected: str = "", ply: int | None = None, version: int | None = None, confirm: bool = False,
            limits: games.Limits = games.Limits()) -> ActionResult:
    """An action on a stored game: checked once (``lifecycle.check``), then done."""
    action = action or ("tap" if target else "")
    if action not in ACTIONS:
        raise InputError("unknown action", "unknown_action")
    if action in ("new", "restart"):  # they leave this game: only the owner, as it is now
        lifecycle.check_owner(game, player)
    else:
        lifecycle.check(game, player, ply=ply, version=version)
    record = record_of(game)
    if not confirm and _asks_first(action, record, game):
        return ActionResult(record, confirm=action, note=f"confirm_{action}")
    if action == "new":
        games.abandon(game)
        seed = games.new_seed(session, player, game.preset)
        return ActionResult(record, redirect=f"/play/{game.preset}/{seed}", next_seed=seed)
    if action == "restart":
        games.abandon(game)
        return ActionResult(record, redirect=games.share_path(game), next_seed=game.seed)
    if action == "undo":
        if not record.can_undo:
            raise InputError("there is nothing to undo", "nothing_to_undo")
        game.undo_count += 1
        after = moves.store(session, game, record.undo(), "undo")
        return ActionResult(after, announcement=Announcement("undo", undone=_last_move(record)))
    if action == "redo":
        if not record.can_redo:
            raise InputError("there is nothing to redo", "nothing_to_redo")
        after = moves.store(session, game, record.redo(), "redo")
        return ActionResult(after, announcement=_last_move(after))
    move, selection = _move_of(record, action, target, selected)
    if move is None:
        assert selection is not None
        return selection
    after = moves.store(session, game, moves.played(record, [move], limits), "move")
    return ActionResult(after, announcement=_last_move(after))


def first_move(session: Session, player: Player, preset: str, *, seed: int | None, deal_text: str | None,
               action: str, target: str = "", selected: str = "", confirm: bool = False,
               limits: games.Limits = games.Limits()) -> ActionResult:
    """An action on a deal ready to play: a selection changes only the page; a move stores the
    game with that move, replacing the player's unfinished game of the preset (counted as
    lost). If the player already plays this very deal (another tab moved first), that game is
    the answer, and nothing is stored or counted lost."""
    action = action or ("tap" if target else "")
    if action not in ("draw", "recycle", "redeal", "tap"):
        raise InputError("unknown action", "unknown_action")
    draft = games.pending(player, preset, seed=seed, deal_text=deal_text)
    record = record_of(draft)
    if not confirm and _asks_first(action, record, None):
        return ActionResult(record, confirm=action, note=f"confirm_{action}")
    move, selection = _move_of(record, action, target, selected)
    if move is None:
        assert selection is not None
        return selection
    after = moves.played(record, [move], limits)
    in_play = games.game_of_deal(session, player, draft)
    if in_play is not None:
        raise moves.RacedError("this deal is already in play in another tab", "raced")
    game = games.start_game(session, player, preset, seed=seed, deal_text=deal_text, limits=limits)
    moves.store(session, game, after, "move", same_deal_kept=True)
    return ActionResult(after, announcement=_last_move(after), game=game)
def _last_move(record: GameRecord) -> Announcement:
    """The move that led to the record's position, in words."""
    return describe(record.moves[record.cursor - 1], record.at(record.cursor - 1).position, record.position)
