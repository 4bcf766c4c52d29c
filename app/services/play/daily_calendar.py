"""The statistics page's month of daily deals: each day played, won, or not played, and the
days of the current daily streak (app.services.stats.stats.daily_figures counts them).

Weeks start on Monday, as Danish, Swedish and British calendars do. Days are UTC days, as the
daily deal's are (app.services.play.daily).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Game
from app.engine import PRESETS, Status

from .lifecycle import result_expression

RANK = {Status.WON: 0, Status.LOST: 1, Status.PLAYING: 2}  # a day's result is its best preset's
FIRST_YEAR = 2000  # no daily deal before; keeps "the month before" a real date


@dataclass(frozen=True)
class CalendarDay:
    day: date
    result: Status | None                   # None: no daily deal played
    presets: tuple[tuple[str, Status], ...]  # (preset, result) of each daily deal played, lobby order
    in_streak: bool                         # one of the days of the current daily streak
    today: bool
    future: bool


@dataclass(frozen=True)
class MonthCalendar:
    first: date                             # the month's first day
    weeks: list[list[CalendarDay | None]]   # Monday first; None before the 1st and after the last day
    weekdays: list[date]                    # a Monday to Sunday, for the column heads
    played: int                             # days of this month with a daily deal played
    won: int
    previous: date | None                   # the previous month's first day, if played in or before it
    next: date | None                       # the next month's first day, unless it is still to come


def parse_month(text: str, today: date) -> date:
    """The first day of the month a ``YYYY-MM`` query names; this month for anything else,
    a month still to come included (an old or hand-made link still shows a calendar)."""
    this_month = today.replace(day=1)
    try:
        year, month = (int(part) for part in text.split("-"))
        first = date(year, month, 1)
    except ValueError:
        return this_month
    return this_month if first.year < FIRST_YEAR else min(first, this_month)


def month_calendar(session: Session, player_id: str, first: date, today: date,
                   streak_days: Collection[date] = ()) -> MonthCalendar:
    first = first.replace(day=1)
    following = (first + timedelta(days=32)).replace(day=1)
    last = following - timedelta(days=1)
    per_day: dict[date, dict[str, Status]] = {}
    rows = session.execute(
        select(Game.daily_on, Game.preset, result_expression())
        .where(Game.player_id == player_id, Game.daily_on >= first, Game.daily_on <= last,
               Game.started_at.is_not(None))
    )
    for day, preset, result in rows:
        day = _as_date(day)
        seen = per_day.setdefault(day, {})
        if preset not in seen or RANK[result] < RANK[seen[preset]]:
            seen[preset] = result
    streak = set(streak_days)
    order = {slug: i for i, slug in enumerate(PRESETS)}

    def cell(day: date) -> CalendarDay:
        results = per_day.get(day, {})
        best = min(results.values(), key=RANK.__getitem__) if results else None
        presets = tuple(sorted(results.items(), key=lambda item: order.get(item[0], len(order))))
        return CalendarDay(day, best, presets, day in streak, day == today, day > today)

    start = first - timedelta(days=first.weekday())
    weeks: list[list[CalendarDay | None]] = []
    monday = start
    while monday <= last:
        weeks.append([cell(d) if first <= d <= last else None for d in (monday + timedelta(days=k) for k in range(7))])
        monday += timedelta(days=7)
    earliest = session.scalar(select(func.min(Game.daily_on)).where(
        Game.player_id == player_id, Game.daily_on.is_not(None), Game.started_at.is_not(None)))
    previous = (first - timedelta(days=1)).replace(day=1)
    return MonthCalendar(
        first=first, weeks=weeks, weekdays=[start + timedelta(days=k) for k in range(7)],
        played=len(per_day), won=sum(1 for r in per_day.values() if Status.WON in r.values()),
        previous=previous if earliest is not None and _as_date(earliest) < first else None,
        next=following if following <= today else None,
    )


def _as_date(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value)[:10])
