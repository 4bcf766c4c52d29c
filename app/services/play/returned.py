"""Changes a page made with no network, judged on its return in one request (docs/lifecycle.md,
"Whole games offline").

The page queues every change that moved a game (a move, undo, redo, a Gaps redeal), each with
its own id (``mid``), in order. Back online it sends a game's waiting changes together; the
server judges them one by one, exactly as it judges one posted alone (``moves.perform``: the
owner, a fresh page for the first, a game still in play, a legal move), each on the game as the
one before left it, in the request's one unit of work. The ones taken up to the first refused
one are stored (each its own conditional write, so the game's version counts them); the first
refused one stops the rest, which were made on a board the server never had.

The same changes sent again (their answer was lost) are answered from what was stored: the
game's last stored change id (``games.last_mid``) names how many of them are in already, and
only those after it are judged, so none is made twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.db.models import Game, Player
from app.engine import actions, taps

from ..errors import ConflictError, InputError, ServiceError
from . import lifecycle, moves
from .games import Limits, record_of

MAX_CHANGES = 200  # changes judged in one request: a long game comes in a few (MAX_BODY_BYTES)


@dataclass(frozen=True)
class Change:
    """One queued change, as the board form would have posted it."""

    mid: str
    action: str = ""
    target: str = ""
    sel: str = ""


@dataclass(frozen=True)
class Judged:
    """What became of the changes sent: the first ``taken`` are stored (now or by an earlier
    request); ``refused`` is why the next one was not (its key), with the rest dropped."""

    result: moves.ActionResult
    taken: int
    refused: ServiceError | None = None


def already_taken(game: Game, changes: list[Change]) -> int:
    """How many of ``changes`` the game holds already: up to and with its last stored change's
    id, as a change is stored only after every one queued before it."""
    mids = [change.mid for change in changes]
    if not game.last_mid or game.last_mid not in mids:
        return 0
    return len(mids) - mids[::-1].index(game.last_mid)


def judge(session: Session, game: Game, player: Player, changes: list[Change], *, ply: int | None,
          version: int | None, limits: Limits = Limits()) -> Judged:
    """Each change in order, on the game as the one before left it, all marked played offline.

    The first change not already taken is checked against the page's ``ply`` and ``version``
    (a game moved on elsewhere: ConflictError, nothing stored). A change the server refuses
    (an illegal move, nothing to undo, a won game) or that does not move the game as the page's
    engine said it did (a tap that only selects) stops the rest; what came before it stays. A
    refusal of the write itself (ConflictError) can only come with the first write: after it the
    request holds the game's row until it commits. It is raised, and nothing is stored."""
    if not changes or len(changes) > MAX_CHANGES:
        raise InputError("too many changes in one request", "bad_request")
    taken = already_taken(game, changes)
    lifecycle.check_owner(game, player)
    result = moves.ActionResult(record_of(game))
    if taken == 0:
        lifecycle.check(game, player, ply=ply, version=version)
    for change in changes[taken:]:
        before = game.version
        try:
            # as the board's form would have posted it, of the actions a page makes with no network
            # (``Action.queued``; leaving the game is never queued)
            result = moves.perform(session, game, player, change.action, target=change.target, selected=change.sel,
                                   ply=game.cursor, version=game.version, limits=limits, mid=change.mid,
                                   offline=True, record=result.record, among=actions.QUEUED_ACTIONS)
        except ConflictError:
            raise
        except ServiceError as exc:
            return Judged(result, taken, exc)
        if game.version == before:  # a selection or a question: the page's engine moved, the server did not
            key = result.note if result.note in taps.NOTES else "illegal_move"
            return Judged(moves.ActionResult(result.record), taken, InputError("this change moves nothing here", key))
        taken += 1
    return Judged(result, taken)

