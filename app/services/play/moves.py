"""A game's board actions and its stored moves.

What a browser's action on the board means (a tap, draw, undo, redeal, new deal…): ``perform``
(a stored game) and ``first_move`` (a deal ready to play, stored with its first move) answer an
``ActionResult``, the one object the web layer draws from, refusals included (``error``).
What an action does to the game's moves (a question first, a win final, undo and redo, a tap
as the variant reads it) is the engine's, app/engine/actions.py, which the page's offline engine
runs too; here is what only a stored game knows (its owner, a fresh page, storing the change).

Changing a stored game (a move, several moves as one action, undo and redo): every change is
checked (``lifecycle.check``: the owner, a fresh page, a game still in play), played by the
engine, then written in one UPDATE conditional on the game's version (SQLAlchemy's
``version_id_col``, see app.db.models.Game): a write that finds the row moved on (another tab,
another instance) matches nothing, raises StaleDataError, and becomes a ConflictError (409),
so two writers can never fork a history. The write is flushed here, so a refusal is known
before the page is drawn; the request's session commits it (app.web.http.deps). Each stored change
writes a JSON log line (logger ``tretten.move``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from app.db.models import Game, Player, utcnow
from app.engine import GameRecord, Move, Status, actions
from app.engine.actions import ACTIONS, FIRST_ACTIONS, Action, ActionRefused
from app.engine.announcements import Announcement, describe

from ..errors import ConflictError, InputError
from . import games, lifecycle
from .games import Limits, record_of

move_log = logging.getLogger("tretten.move")


class RacedError(ConflictError):
    """Another first move of this player and preset was stored at the same moment (another tab,
    another instance): the database keeps one unfinished game per player and preset."""


def store(session: Session, game: Game, record: GameRecord, action: str, *,
          same_deal_kept: bool = False, mid: str | None = None, offline: bool = False) -> GameRecord:
    """Write the record's state into the game row (ConflictError if the row moved on), and the
    id the page gave this change (``mid``; none from the API), so that the page's retry of it
    is recognised (``lifecycle.repeated``). ``offline``: the page made this change with no
    network (it comes now with the others made meanwhile): the game is played offline for good,
    and its time never counts (``lifecycle.finish_time``).

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
    if offline:
        game.played_offline = True
    game.moves = record.moves_text
    game.cursor = record.cursor
    game.status = record.position.status
    game.finished_at = now if game.status != Status.PLAYING else None
    game.seconds = lifecycle.finish_time(game)
    game.score = games.score_as_stored(game, record)
    game.hinted_ply = game.last_hint = None
    game.last_mid = mid or None
    game_id = game.id  # read before the flush: after a failed one the row can't be read
    try:
        session.flush()  # UPDATE … WHERE id = :id AND version = :seen (or the first move's INSERT)
    except StaleDataError:
        _log(game_id, action, record, "stale", started)
        raise ConflictError("this game moved on in another tab", "stale") from None
    except IntegrityError:
        _log(game_id, action, record, "raced", started)
        raise RacedError("a game of this preset was started in another tab", "raced") from None
    if "score" in inspect(game).expired_attributes:  # scored in the UPDATE: read back as it found the row
        session.refresh(game, ["score", "scoring"])
    _log(game.id, action, record, "stored", started)
    return record


def _log(game_id: str | None, action: str, record: GameRecord, outcome: str, started: float) -> None:
    """One JSON line per stored (or refused as stale) change: see app.web.http.middleware, "logs"."""
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
    with refused():
        return actions.play(record, *(move.strip()[:64] if isinstance(move, str) else move for move in moves),
                            max_moves=limits.max_moves)


@contextmanager
def refused() -> Iterator[None]:
    """The engine's refusal of an action (``actions.ActionRefused``) as the services say it: an
    InputError with its key (and the engine's words as its detail, where it has some)."""
    try:
        yield
    except ActionRefused as exc:
        raise InputError(exc.message, exc.key, **({"detail": exc.detail} if exc.detail else {})) from None


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
    """Take back the last move (not after a win: lifecycle), as the board's undo does."""
    return _along(session, game, player, Action.UNDO, ply, version)


def redo(session: Session, game: Game, player: Player | None, *, ply: int | None = None,
         version: int | None = None) -> GameRecord:
    """Play again the move last taken back, as the board's redo does."""
    return _along(session, game, player, Action.REDO, ply, version)


def _along(session: Session, game: Game, player: Player | None, action: Action, ply: int | None,
           version: int | None) -> GameRecord:
    """The cursor moved back or on along the moves (``action``: undo or redo), as the board's button does."""
    lifecycle.check(game, player, ply=ply, version=version)
    record = record_of(game)
    return _done(session, game, record, action, _step(record, action), "", False).record


def give_up(session: Session, game: Game, player: Player | None, *, ply: int | None = None) -> GameRecord:
    """Give up a game with no moves left, as the board's "Give up" does: it is over."""
    lifecycle.check(game, player, ply=ply)
    record = record_of(game)
    _given_up(session, game, record, "")
    return record


def _step(record: GameRecord, action: Action, **said) -> actions.Step:
    """What the engine says ``action`` does to the record (``actions.step``), its refusal an InputError."""
    with refused():
        return actions.step(record, action, **said)


def _done(session: Session, game: Game, before: GameRecord, action: Action, done: actions.Step, mid: str,
          offline: bool) -> ActionResult:
    """Store a step that moved the game (a move, an undo, a redo; checked already), said in words:
    the move made, or the one an undo took back (an undo is counted)."""
    if action is Action.UNDO:
        game.undo_count += 1
        after = store(session, game, done.record, "undo", mid=mid, offline=offline)
        return ActionResult(after, announcement=Announcement("undo", undone=_last_move(before)))
    after = store(session, game, done.record, "redo" if action is Action.REDO else "move", mid=mid, offline=offline)
    return ActionResult(after, announcement=_last_move(after))


def _given_up(session: Session, game: Game, record: GameRecord, mid: str) -> ActionResult:
    """A game with no moves left given up: it is over (``lifecycle.Phase.CONCEDED``), and its
    analysis and the deal's winning line are shown. A game in play is left by "New deal" instead.
    The page's id of the change is kept, as a move's is: sent again, it is answered as stored."""
    if lifecycle.phase_of(game) is not lifecycle.Phase.LOST:
        raise InputError("only a game with no moves left can be given up", "give_up_not_stuck")
    game.last_mid = mid or None
    games.abandon(session, game)
    return ActionResult(record)


# ---------------------------------------------------------------- a board action

# the board's actions themselves (``Action``, ``read_action``, what each does to a record: ``step``)
# are the engine's, app/engine/actions.py: the page's offline engine runs the same module


def read_action(action: str, target: str = "", among: frozenset[Action] = ACTIONS) -> tuple[Action, bool]:
    """The action a board form names, one of ``among``, and whether it is the yes to one that
    asked first (``actions.read_action``); any other name is refused ("unknown_action")."""
    with refused():
        return actions.read_action(action, target, among)


@dataclass(frozen=True)
class ActionResult:
    """What an action did, for the page: the game's record now, the selection, and what to say.
    A refusal is an error (app.services.errors); the page then shows the game as stored with its
    key, in the page's words (app.web.views.game_view.refused)."""

    record: GameRecord
    selected: str | None = None
    note: str | None = None               # message key: the tap did nothing, or asks to confirm
    announcement: Announcement | None = None
    confirm: str | None = None            # "redeal", "new" or "restart": asks before it does it
    leaves: bool = False                  # the page moves on: a new deal, or this game's deal again
    next_seed: int | None = None          # …to this seeded deal (the page may show it in place)
    game: Game | None = None              # the game stored by a first move (first_move)
    error: str | None = None              # message key of a refused action


def _selection(done: actions.Step) -> ActionResult:
    """A step that moved nothing, for the page: a tap that only selects (and why it made no pair),
    or the question an action asks first."""
    said = Announcement("no_pair", cards=done.cards) if done.note == "no_pair" else None
    return ActionResult(done.record, selected=done.selected, note=done.note, announcement=said, confirm=done.confirm)


def perform(session: Session, game: Game, player: Player, action: str, *, target: str = "",
            selected: str = "", ply: int | None = None, version: int | None = None,
            limits: games.Limits = games.Limits(), mid: str = "", offline: bool = False,
            next_seed: Callable[[], int] = games.random_seed, record: GameRecord | None = None,
            among: frozenset[Action] = ACTIONS) -> ActionResult:
    """An action on a stored game, as the board's form names it (``read_action``: one of ``among``,
    or "confirm-" and one that asked first), checked once (``lifecycle.check``), then done. ``mid``
    is the page's id of the change: sent again after a lost answer, it is answered with the game as stored;
    ``offline``: the page made it with no network (``store``). ``next_seed`` chooses a new
    deal's seed (the player's rule for new deals: a proven winnable one,
    app.services.assist.winnable.new_seed, is the caller's to give). ``record``: the game's
    record as stored, when the caller has it (app.services.play.returned: the change before's),
    so the game is not replayed again."""
    action, confirm = read_action(action, target, among)
    if action.leaves:  # only the owner, as the game is now
        lifecycle.check_owner(game, player)
    elif lifecycle.check(game, player, ply=ply, version=version, mid=mid):
        return ActionResult(record_of(game))
    record = record if record is not None else record_of(game)
    # what the action does to the game's moves is the engine's (``actions.step``); a new deal or a
    # restart asks first while the stored game is in play (``lifecycle.phase_of``: it knows more
    # than the record, a game counted as lost or left for a day)
    done = _step(record, action, target=target, selected=selected, confirmed=confirm, max_moves=limits.max_moves,
                 playing=lifecycle.phase_of(game) is lifecycle.Phase.PLAYING)
    if done.confirm is not None:
        return _selection(done)
    if action.leaves:
        # the next deal first (a winnable one may be searched, and refused when the solver is
        # busy): until it is known, nothing of this game changes
        seed = next_seed() if action is Action.NEW else game.seed
        games.abandon(session, game)
        return ActionResult(record, leaves=True, next_seed=seed)
    if action is Action.GIVE_UP:
        return _given_up(session, game, record, mid)
    if done.move is None and not done.stepped:
        return _selection(done)
    return _done(session, game, record, action, done, mid, offline)


def first_move(session: Session, player: Player, preset: str, *, seed: int | None, deal_text: str | None,
               action: str, target: str = "", selected: str = "",
               limits: games.Limits = games.Limits(), mid: str = "", offline: bool = False) -> ActionResult:
    """An action on a deal ready to play (``read_action``: one that ``opens`` a deal, or the yes
    to one that asked first): a selection changes only the page; a move stores the
    game with that move, replacing the player's unfinished game of the preset (counted as
    lost); a game of the deal stored by a hint before its first move goes on instead, its hints
    counted. If the player already plays this very deal (another tab moved first), that game is
    the answer, and nothing is stored or counted lost; if that game's first move is this one
    (``mid``: the page sent it again after a lost answer), the answer is that game as stored."""
    action, confirm = read_action(action, target, FIRST_ACTIONS)
    draft = games.pending(player, preset, seed=seed, deal_text=deal_text)
    record = record_of(draft)
    done = _step(record, action, target=target, selected=selected, confirmed=confirm, max_moves=limits.max_moves,
                 playing=False)
    if done.move is None:
        return _selection(done)
    after = done.record
    in_play = games.game_of_deal(session, player, draft)
    if in_play is not None and lifecycle.repeated(in_play, mid):
        return ActionResult(record_of(in_play), game=in_play)
    if in_play is not None:
        raise RacedError("this deal is already in play in another tab", "raced")
    game = games.game_to_start(session, player, preset, seed=seed, deal_text=deal_text, limits=limits)
    store(session, game, after, "move", same_deal_kept=True, mid=mid, offline=offline)
    return ActionResult(after, announcement=_last_move(after), game=game)


def _last_move(record: GameRecord) -> Announcement:
    """The move that led to the record's position, in words."""
    return describe(record.moves[record.cursor - 1], record.at(record.cursor - 1).position, record.position)
