"""The daily table (/daily/{preset}/table): the day's wins of a preset's daily deal."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from app.engine import PRESETS
from app.services import spare_time
from app.services.errors import InputError, NotFoundError
from app.services.play import daily, games
from app.services.stats import leaderboard
from app.web.http.deps import PageTurnDep, PlayerDep, SessionDep
from app.web.views.templating import render

router = APIRouter(include_in_schema=False)


FIRST_DAY = date(2000, 1, 1)  # no table before it (Tretten is younger): its pages need no day before it


def parse_day(text: str, today: date) -> date:
    """A day of a table: today (empty) or an ISO date from FIRST_DAY up to today."""
    if not text:
        return today
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise InputError(f"not a day (YYYY-MM-DD): {text!r}", "bad_day") from None
    if day > today:
        raise NotFoundError("that day's table is not open yet", "future_day")
    if day < FIRST_DAY:
        raise NotFoundError(f"there are no tables before {FIRST_DAY.isoformat()}", "not_found")
    return day


@router.get("/daily/{preset}/table", dependencies=[PageTurnDep])
def table_page(preset: str, request: Request, session: SessionDep, player: PlayerDep,
               day: Annotated[str, Query(max_length=10)] = "") -> Response:
    slug = games.get_preset_or_error(preset).slug
    today = daily.utc_today()
    when = parse_day(day, today)
    # today's deal is chosen on demand; an earlier day's only if somebody asked for it then
    found = leaderboard.table(session, slug, when, player.id, choose=when == today)
    first = daily.first_day(session, slug)
    if found is not None and found.to_search:
        spare_time.deal(request.app.state.sessionmaker, slug, found.seed)
    return render(request, "daily_table.html", {
        "table": found,
        "table_preset": PRESETS[slug],
        "day": when,
        "is_today": when == today,
        # no pager back past the first daily deal (it led on into days that never had one)
        "earlier": when - timedelta(days=1) if first is not None and when > first else None,
        "later": when + timedelta(days=1) if when < today else None,
        "presets": list(PRESETS.values()),
    })
