"""The player's statistics page: figures per preset, charts, and the game history."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from app.engine import PRESETS, SCORING_SYSTEMS
from app.services.assist import par
from app.services.play import daily, daily_calendar
from app.services.play.lifecycle import RESULTS
from app.services.stats import leaderboard, stats
from app.web.http.deps import PlayerDep, SessionDep
from app.web.views import charts, formatting
from app.web.views.templating import is_htmx, render

router = APIRouter(include_in_schema=False)


@router.get("/stats")
def stats_page(
    request: Request, session: SessionDep, player: PlayerDep,
    preset: Annotated[str, Query(max_length=40)] = "",
    result: Annotated[str, Query(max_length=10)] = "",
    scoring: Annotated[str, Query(max_length=16)] = "",
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    month: Annotated[str, Query(max_length=16)] = "",
) -> Response:
    # unknown filter values are ignored rather than refused: an old link still shows a page
    preset = preset if preset in PRESETS else ""
    result = result if result in RESULTS else ""
    scoring = scoring if scoring in SCORING_SYSTEMS else player.scoring
    today = daily.utc_today()
    history = stats.history(session, player.id, preset=preset or None, result=result or None, page=page)
    filters = {"preset": preset, "result": result, "scoring": scoring if scoring != player.scoring else ""}

    def link(**changes) -> str:
        query = {k: v for k, v in {**filters, **changes}.items() if v not in ("", None, 1)}
        return "/stats" + (f"?{urlencode(query)}" if query else "")

    rolling = stats.rolling_win_rate(session, player.id, preset=preset or None)
    context = {
        "filters": {"preset": preset, "result": result, "scoring": scoring},
        "history": history,
        "link": link,
        "rolling": charts.rolling_line(rolling.points),
        "rolling_decided": rolling.decided,
        "histogram": charts.histogram_bars(stats.score_histogram(session, player.id, scoring, preset=preset or None)),
        "days": charts.day_bars(stats.results_by_day(session, player.id, today, preset=preset or None),
                                partial(formatting.short_day, language=getattr(request.state, "language", None))),
        "rolling_window": stats.ROLLING_WINDOW,
        "results": RESULTS,
        "scorings": SCORING_SYSTEMS,
    }
    if is_htmx(request):
        return render(request, "stats.html", context, blocks=["stats_view"])
    total, per_preset = stats.figures(session, player.id)
    daily_figures = stats.daily_figures(session, player.id, today)
    calendar = daily_calendar.month_calendar(session, player.id, daily_calendar.parse_month(month, today), today,
                                             daily_figures.streak_days)
    context.update(total=total, per_preset=per_preset, daily=daily_figures, calendar=calendar,
                   par_figures=par.figures(session, player.id),
                   daily_history=leaderboard.history(session, player.id, today=today),
                   yesterday_tables=leaderboard.tables_of_day(session, today - timedelta(days=1), player.id))
    return render(request, "stats.html", context)
