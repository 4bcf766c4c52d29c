"""The daily deals as stored: one seeded deal per preset per UTC day, the same for everyone
(chosen by the rule of app.services.assist.daily_choice, docs/daily-deal.md, the first time
anyone asks, and never changed afterwards), and a player's games of them.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import DailyDeal, Game

from .lifecycle import Phase, result_expression


def utc_today() -> date:
    return datetime.now(UTC).date()


def cached_daily(session: Session, preset_slug: str, day: date | None = None) -> DailyDeal | None:
    return session.get(DailyDeal, (day or utc_today(), preset_slug))


def first_day(session: Session, preset_slug: str) -> date | None:
    """The first day the preset had a daily deal (None: none yet): the daily tables begin there."""
    return session.scalar(select(func.min(DailyDeal.day)).where(DailyDeal.preset == preset_slug))


def day_of_daily(session: Session, preset_slug: str, seed: int | None) -> date | None:
    """Today, if this seed is today's daily deal of the preset (only if already chosen)."""
    if seed is None:
        return None
    row = cached_daily(session, preset_slug)
    return row.day if row is not None and row.seed == seed else None


def todays_game(session: Session, player_id: str, preset_slug: str, row: DailyDeal):
    """The player's latest game of this daily deal, if any."""
    return session.scalar(
        select(Game).where(Game.player_id == player_id, Game.preset == preset_slug, Game.daily_on == row.day,
                           Game.seed == row.seed)
        .order_by(Game.created_at.desc()).limit(1)
    )


def results_of_day(session: Session, player_id: str, day: date | None = None) -> dict[str, Phase]:
    """{preset: WON | LOST | PLAYING | NEW} for the player's daily games of the day (the best
    per preset; NEW = opened but no move made yet)."""
    day = day or utc_today()
    rank = {Phase.WON: 0, Phase.LOST: 1, Phase.PLAYING: 2, Phase.NEW: 3}
    out: dict[str, Phase] = {}
    rows = session.execute(
        select(Game.preset, Game.started_at.is_not(None), result_expression())
        .where(Game.player_id == player_id, Game.daily_on == day)
    )
    for preset, started, result in rows:
        phase = Phase(result) if started else Phase.NEW
        if preset not in out or rank[phase] < rank[out[preset]]:
            out[preset] = phase
    return out
