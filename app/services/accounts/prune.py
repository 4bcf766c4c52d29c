"""`tretten prune --older-than DAYS`: forget what nobody will come back to.

Removes games never started (no move played, no hint asked) and not touched for DAYS days,
then anonymous players (no API token) created more than DAYS days ago who have no games left.
Finished games, and unfinished games with moves, stay: the statistics count an abandoned
game as a loss, and pruning must not erase losses. A game a hint stored before its first move
stays too: it says the player has seen help on these cards, so that a later game of them is
no first, clean game (app.services.play.games.first_of_deal). Each part is one DELETE; the
caller's unit of work commits them together (app.cli).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, Delete, delete, exists, select
from sqlalchemy.orm import Session

from app.db.models import Game, Player, utcnow
from app.engine import Status


@dataclass(frozen=True)
class PruneResult:
    games: int
    players: int
    cutoff: datetime

    def as_dict(self) -> dict:
        return {"games": self.games, "players": self.players, "cutoff": self.cutoff.isoformat()}


def prune(
    session: Session, older_than_days: float, *, now: datetime | None = None, dry_run: bool = False
) -> PruneResult:
    if older_than_days < 0:
        raise ValueError("--older-than must be 0 or more days")
    cutoff = (now or utcnow()) - timedelta(days=older_than_days)
    stale_games = ((Game.status == Status.PLAYING) & Game.started_at.is_(None) & (Game.hint_count == 0)
                   & (Game.updated_at < cutoff))
    lonely_players = (
        Player.token_hash.is_(None)
        & (Player.created_at < cutoff)
        & ~exists(select(Game.id).where(Game.player_id == Player.id))
    )
    if dry_run:
        games = len(session.scalars(select(Game.id).where(stale_games)).all())
        # players whose only games are the stale ones would go too
        would_be_lonely = (
            Player.token_hash.is_(None)
            & (Player.created_at < cutoff)
            & ~exists(select(Game.id).where(Game.player_id == Player.id, ~stale_games))
        )
        players = len(session.scalars(select(Player.id).where(would_be_lonely)).all())
        return PruneResult(games, players, cutoff)
    games = _deleted(session, delete(Game).where(stale_games))
    players = _deleted(session, delete(Player).where(lonely_players))
    return PruneResult(games, players, cutoff)


def _deleted(session: Session, statement: Delete) -> int:
    result = session.execute(statement.execution_options(synchronize_session=False))
    # a DELETE's result is a CursorResult, though Session.execute is typed with the general Result
    return cast("CursorResult[Any]", result).rowcount or 0
