"""A game's life, in one place: from its first move to a result that never changes after the fact.

- **Ready to play.** A share link, the daily deal, an imported deal or "New deal" shows a deal
  ready to play; nothing is stored (a GET never changes a result, and a link-preview bot's visit
  creates no player and no game). The game is stored with its **first move**.
- **Playing** (``PLAYING``): from the first move. It counts as **played** from then on.
- **Won** (``WON``): the engine says so. Final: no undo or redo.
- **No moves left** (``LOST``): the engine says so. It may be undone and played on; it counts by
  its final state.
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

from datetime import UTC, datetime, timedelta
from enum import StrEnum

from sqlalchemy import case, literal, update
from sqlalchemy.orm import Session

from app.db.models import Game, utcnow

from .errors import InputError

IDLE_LIMIT = timedelta(days=1)
RESULTS = ("won", "lost", "playing")  # what the statistics count (a played game's result)


class Phase(StrEnum):
    NEW = "new"
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"                # no moves left: may still be undone
    ABANDONED = "abandoned"      # counted as lost for good: replaced, or idle for a day


def aware(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes (always UTC here)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def idle(game: Game, now: datetime | None = None) -> bool:
    """Unfinished and untouched for a day since a move was made."""
    updated = aware(game.updated_at)
    return (game.status == "playing" and game.started_at is not None and updated is not None
            and updated < (now or utcnow()) - IDLE_LIMIT)


def phase_of(game: Game, now: datetime | None = None) -> Phase:
    if game.status == "won":
        return Phase.WON
    if game.abandoned or idle(game, now):
        return Phase.ABANDONED
    if game.status == "lost":
        return Phase.LOST
    return Phase.PLAYING if game.started_at is not None else Phase.NEW


def check_can_move(game: Game) -> None:
    phase = phase_of(game)
    if phase is Phase.WON:
        raise InputError("the game is won: a win is final", "won_final")
    if phase is Phase.ABANDONED:
        raise InputError("this game was counted as lost", "counted_lost")


def check_can_undo(game: Game) -> None:
    """Undo and redo: while playing, and after "no moves left"; never after a win or once lost for good."""
    check_can_move(game)


def result_expression(now: datetime | None = None, *, cutoff=None):
    """SQL: 'won', 'lost' or 'playing' for a played game (callers filter started_at IS NOT NULL).

    ``cutoff`` may be a bind parameter (statements built once and reused: see app.services.stats)."""
    if cutoff is None:
        cutoff = (now or utcnow()) - IDLE_LIMIT
    return case(
        (Game.abandoned.is_(True), literal("lost")),
        (Game.status.in_(("won", "lost")), Game.status),
        (Game.updated_at < cutoff, literal("lost")),
        else_=literal("playing"),
    )


def result_of(game: Game, now: datetime | None = None) -> str | None:
    """The same rule in Python for one game; None when it was never played."""
    if game.started_at is None:
        return None
    phase = phase_of(game, now)
    return "lost" if phase is Phase.ABANDONED else phase.value


def finish_time(game: Game) -> int | None:
    """Seconds from the first move to the end, for a finished game."""
    if game.status == "playing" or game.started_at is None or game.finished_at is None:
        return None
    started, finished = aware(game.started_at), aware(game.finished_at)
    assert started is not None and finished is not None
    return max(0, int((finished - started).total_seconds()))


def abandon_unfinished(session: Session, player_id: str, preset: str, *, keep: str | None = None) -> None:
    """The player's unfinished, played games of the preset (but ``keep``) count as lost from now on:
    a new game of the preset replaces them."""
    query = update(Game).where(
        Game.player_id == player_id,
        Game.preset == preset,
        Game.status == "playing",
        Game.started_at.is_not(None),
        Game.abandoned.is_(False),
    )
    if keep is not None:
        query = query.where(Game.id != keep)
    session.execute(query.values(abandoned=True).execution_options(synchronize_session=False))
