"""What counts as a played, won or lost game: the rule stats, deal pages and the daily deal share.

- A game counts as **played** from its first move (``started_at`` is set then and never cleared).
- It is **won** or **lost** when the engine says so (``status``).
- It also counts as **lost** when it was *abandoned*: the player started a new game of the same
  preset while it was unfinished, or it was left unfinished for a day (24 hours after its last
  move). An abandoned game stays lost even if it is finished later, so closing a tab or
  starting over never erases a loss.
- Otherwise a played, unfinished game is **in progress**.

The 24 hours need no background job: ``result_expression`` decides in SQL at query time, and a
move made on a game idle that long marks it abandoned for good (``mark_idle``).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import case, literal, update
from sqlalchemy.orm import Session

from app.db.models import Game, utcnow

IDLE_LIMIT = timedelta(days=1)
RESULTS = ("won", "lost", "playing")


def aware(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes (always UTC here)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=timezone.utc)


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
    if game.abandoned:
        return "lost"
    if game.status in ("won", "lost"):
        return game.status
    if aware(game.updated_at) < (now or utcnow()) - IDLE_LIMIT:
        return "lost"
    return "playing"


def mark_idle(game: Game, now: datetime) -> None:
    """Before a change is stored: a game left unfinished for a day has been counted lost."""
    if game.status == "playing" and game.started_at is not None and game.updated_at is not None \
            and aware(game.updated_at) < now - IDLE_LIMIT:
        game.abandoned = True


def finish_time(game: Game) -> int | None:
    """Seconds from the first move to the end, for a finished game."""
    if game.status == "playing" or game.started_at is None or game.finished_at is None:
        return None
    return max(0, int((aware(game.finished_at) - aware(game.started_at)).total_seconds()))


def abandon_unfinished(session: Session, new_game: Game) -> None:
    """A new game of a preset replaces the player's unfinished, played games of that preset."""
    session.execute(
        update(Game)
        .where(
            Game.player_id == new_game.player_id,
            Game.preset == new_game.preset,
            Game.id != new_game.id,
            Game.status == "playing",
            Game.started_at.is_not(None),
            Game.abandoned.is_(False),
        )
        .values(abandoned=True)
        .execution_options(synchronize_session=False)
    )
