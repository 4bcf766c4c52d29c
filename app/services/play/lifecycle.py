"""A game's life, in one place: from its first move to a result that never changes after the fact.

- **Ready to play.** A share link, the daily deal, an imported deal or "New deal" shows a deal
  ready to play; nothing is stored (a GET never changes a result, and a link-preview bot's visit
  creates no player and no game). The game is stored with its **first move**.
- **Playing** (``PLAYING``): from the first move. It counts as **played** from then on.
- **Won** (``WON``): the engine says so. Final: no undo or redo.
- **No moves left** (``LOST``): the engine says so. It may be undone and played on; it counts by
  its final state. It is over (``CONCEDED``) once the player gives it up, starts another game of
  the preset (this deal's too), or leaves it for a day: no undo then. Only a game that is over
  shows its player the deal's answers (the analysis, the winning line, other players' games of a
  daily deal): a game seen lost and then undone would be won with them.
- **Counted as lost** (``ABANDONED``): the player made the first move of another deal of the same
  preset, or confirmed "New deal" or "Restart" while it was unfinished (``abandoned`` is set), or
  it was left unfinished for a day (24 hours after its last move). Final, and it opens as
  finished: closing a tab or starting over never erases a loss.
- A game of the API may be stored before its first move (``NEW``); it is not played yet.

The 24 hours need no background job: ``phase_of`` and ``result_expression`` decide at read time
(in Python and in SQL alike). docs/lifecycle.md says the same for players and operators; the
stats page states it in a sentence.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import and_, case, literal, or_, update
from sqlalchemy.orm import Session

from app.db.models import STATUS_TYPE, Game, Player, utcnow
from app.engine import GameRecord, Status, get_game

from ..errors import ConflictError, ForbiddenError, InputError

IDLE_LIMIT = timedelta(days=1)
RESULTS = (Status.WON, Status.LOST, Status.PLAYING)  # what the statistics count (a played game's result)


class Phase(StrEnum):
    """The stored game's ``Status``, and beside it what only the stored game knows."""

    NEW = "new"                  # stored before its first move (the API): not played yet
    PLAYING = Status.PLAYING
    WON = Status.WON
    LOST = Status.LOST           # no moves left: may still be undone
    CONCEDED = "conceded"        # no moves left, and over: given up, another game begun, or idle for a day
    ABANDONED = "abandoned"      # counted as lost for good: replaced, or idle for a day

    @property
    def result(self) -> Status:
        """What the game counts as (a game not played yet: ``PLAYING``)."""
        if self in (Phase.ABANDONED, Phase.CONCEDED):
            return Status.LOST
        return Status.PLAYING if self is Phase.NEW else Status(self)

    @property
    def finished(self) -> bool:
        """Won, no moves left, or counted as lost: a result to show (an analysis once ``over``)."""
        return self not in (Phase.NEW, Phase.PLAYING)

    @property
    def open(self) -> bool:
        """Takes moves, undo, redo and the solver's help: not won, not counted as lost (``check``)."""
        return self not in (Phase.WON, Phase.ABANDONED, Phase.CONCEDED)

    @property
    def over(self) -> bool:
        """Played, and its result can no longer change: its player may see the deal's answers."""
        return self in (Phase.WON, Phase.ABANDONED, Phase.CONCEDED)


class Abandonment(StrEnum):
    """Why a game counts as lost though its last position was not (the pages' key)."""

    REPLACED = "replaced"        # a new game of its preset was started while it was unfinished
    IDLE = "idle"                # left unfinished for a day


def idle(game: Game, now: datetime | None = None) -> bool:
    """Unfinished (or with no moves left) and untouched for a day since a move was made."""
    updated = game.updated_at
    return (game.status in (Status.PLAYING, Status.LOST) and game.started_at is not None and updated is not None
            and updated < (now or utcnow()) - IDLE_LIMIT)


def phase_of(game: Game, now: datetime | None = None) -> Phase:
    """The rule every page, query (``result_expression``, the same in SQL) and the API follow: a
    game counted as lost stays lost, whatever its row says after."""
    stuck = game.status == Status.LOST
    if game.abandoned:
        return Phase.CONCEDED if stuck else Phase.ABANDONED
    if game.status == Status.WON:
        return Phase.WON
    if idle(game, now):
        return Phase.CONCEDED if stuck else Phase.ABANDONED
    if stuck:
        return Phase.LOST
    return Phase.PLAYING if game.started_at is not None else Phase.NEW


def abandonment(game: Game) -> Abandonment:
    """Why a game of phase ``ABANDONED`` counts as lost."""
    return Abandonment.REPLACED if game.abandoned else Abandonment.IDLE


def check_owner(game: Game, player: Player | None) -> None:
    if player is None or game.player_id != player.id:
        raise ForbiddenError("only the player who started this game can change it", "not_owner")


def repeated(game: Game, mid: str | None) -> bool:
    """Whether ``mid``, the id a page gave a change, is the game's last stored change: the page
    sent it again because its answer was lost (a network error, a reload). It is stored: the
    answer is the game as it is, never the change applied twice, and never a 409."""
    return bool(mid) and game.last_mid == mid


def check(game: Game, player: Player | None, *, ply: int | None = None, version: int | None = None,
          mid: str | None = None) -> bool:
    """The one check before anything changes a stored game or asks the solver about it (a
    move, undo, redo, a hint, "still winnable?", auto-finish): the player's own game, as the
    page saw it (``ply``/``version``: a stale tab gets 409), and still in play. A won game, or
    one counted as lost (replaced, or a day idle), takes nothing more: not a move, not a hint,
    not a setting. "No moves left" (``LOST``) may still be undone, until it is over (``CONCEDED``).

    True when the change is already stored (``repeated``: the page's own retry, even of the move
    that won the game): there is nothing to do but answer with the game as it is."""
    check_owner(game, player)
    if repeated(game, mid):
        return True
    if (ply is not None and ply != game.cursor) or (version is not None and version != game.version):
        raise ConflictError("this game moved on in another tab", "stale")
    closed = closed_reason(phase_of(game))
    if closed is None:
        return False
    raise InputError("the game is won: a win is final" if closed == "won_final" else "this game was counted as lost",
                     closed)


def closed_reason(phase: Phase) -> str | None:
    """Why a game of ``phase`` takes nothing more (a message key: a win is final, or it was
    counted as lost); None while it is open."""
    if phase.open:
        return None
    return "won_final" if phase is Phase.WON else "counted_lost"


def asks_still_winnable(game: Game, record: GameRecord, player: Player | None) -> bool:
    """Whether "still winnable?" is asked after a move (the page asks by itself): of the owner's
    game in play, when the player shows the indicator or the game is near its end (its variant
    says when: an auto-finish may be offered). The search itself is the solver's."""
    return bool(player is not None and player.id == game.player_id and phase_of(game).open
                and record.position.status is Status.PLAYING
                and (player.winnable_indicator or get_game(record.game).near_end(record.position)))


def unfinished_expression():
    """SQL: a played game whose row is unfinished (in play, or left for a day and not marked):
    the database keeps one such game per player and preset (the same condition as
    app.db.models.UNFINISHED, its unique index)."""
    return and_(Game.status == Status.PLAYING, Game.abandoned.is_(False), Game.started_at.is_not(None))


def in_play_expression(now: datetime | None = None):
    """SQL: the games still in play, ``NEW`` or ``PLAYING`` (``phase_of``'s rule in SQL): what a
    change of the player's settings may touch."""
    cutoff = (now or utcnow()) - IDLE_LIMIT
    return and_(Game.status == Status.PLAYING, Game.abandoned.is_(False),
                or_(Game.started_at.is_(None), Game.updated_at >= cutoff))


def over_expression(now: datetime | None = None):
    """SQL: a played game that is over (``Phase.over``): won, counted as lost, or with no moves
    left and given up, replaced or idle for a day."""
    cutoff = (now or utcnow()) - IDLE_LIMIT
    return and_(Game.started_at.is_not(None),
                or_(Game.status == Status.WON, Game.abandoned.is_(True), Game.updated_at < cutoff))


def playing_expression(now: datetime | None = None):
    """SQL: the games of phase ``PLAYING``: a move made, in play."""
    return and_(in_play_expression(now), Game.started_at.is_not(None))


def result_expression(now: datetime | None = None, *, cutoff=None):
    """SQL: the ``Status`` a played game counts as (callers filter started_at IS NOT NULL).

    ``cutoff`` may be a bind parameter (app.services.stats.stats binds it with the player's id)."""
    if cutoff is None:
        cutoff = (now or utcnow()) - IDLE_LIMIT
    lost = literal(Status.LOST, STATUS_TYPE)
    return case(
        (Game.abandoned.is_(True), lost),
        (Game.status.in_((Status.WON, Status.LOST)), Game.status),
        (Game.updated_at < cutoff, lost),
        else_=literal(Status.PLAYING, STATUS_TYPE),
    )


def clock_counts(game: Game) -> bool:
    """Whether the server's clock times the game: not for a game played offline, whose moves the
    server saw only when they arrived together (the page's clock is not trusted). Such a game has
    no time (``finish_time``) and earns no time bonus (``games.current_score``)."""
    return not game.played_offline


def elapsed_seconds(game: Game) -> int:
    """Seconds from the first move to the end, or to now while the game is not over (0 before it)."""
    if game.started_at is None:
        return 0
    end = game.finished_at or utcnow()
    return max(0, int((end - game.started_at).total_seconds()))


def finish_time(game: Game) -> int | None:
    """Seconds from the first move to the end, for a finished game the clock times (``clock_counts``)."""
    if game.status == Status.PLAYING or game.started_at is None or game.finished_at is None or not clock_counts(game):
        return None
    return elapsed_seconds(game)


def abandon_unfinished(session: Session, player_id: str, preset: str, *, keep: str | None = None,
                       seed: int | None = None, deal: str | None = None) -> None:
    """The player's unfinished, played games of the preset (but ``keep``) count as lost from now on,
    and those with no moves left are over (``CONCEDED``): a new game of the preset replaces them.
    Given a deal (``seed``, or an imported deal's text), its own unfinished games are left alone: a
    first move of a deal already in play elsewhere (two tabs racing) must not count that game
    lost, and the database's one-unfinished-game index refuses the second instead
    (app.services.play.moves.first_move). A game of the deal with no moves left is over all the
    same: played again, its deal has been seen from the start."""
    idle_before = utcnow() - IDLE_LIMIT  # an idle game of the deal is counted lost like any other
    replaced = unfinished_expression()
    if seed is not None:
        replaced = and_(replaced, or_(Game.seed.is_(None), Game.seed != seed, Game.updated_at < idle_before))
    elif deal is not None:
        replaced = and_(replaced, or_(Game.seed.is_not(None), Game.deal != deal, Game.updated_at < idle_before))
    stuck = and_(Game.status == Status.LOST, Game.abandoned.is_(False))
    query = update(Game).where(Game.player_id == player_id, Game.preset == preset, or_(replaced, stuck))
    if keep is not None:
        query = query.where(Game.id != keep)
    # a new version, as every change of a game has: a move of it racing this finds its page
    # stale (409) instead of playing on a game already counted as lost
    session.execute(query.values(abandoned=True, version=Game.version + 1)
                    .execution_options(synchronize_session=False))
