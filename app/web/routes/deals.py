"""Deal pages (/deal/{preset}/{seed}) and the daily deal (/daily/{preset})."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from app.services import spare_time
from app.services.assist import daily_choice, par
from app.services.play import challenges, daily, lifecycle
from app.services.stats import deals
from app.web.http.deps import PUBLIC_ID, PageTurnDep, PlayerDep, PresetDep, SessionDep
from app.web.http.redirects import see_other
from app.web.views.link_meta import deal_meta
from app.web.views.templating import render

router = APIRouter(include_in_schema=False)


@router.get("/deal/{preset}/{seed}", dependencies=[PageTurnDep])
def deal_page(preset: PresetDep, seed: str, request: Request, session: SessionDep, player: PlayerDep,
              origin: Annotated[str, Query(alias="from")] = "") -> Response:
    """A deal's results; opened from a shared result (``?from=`` its game), that result leads."""
    summary = deals.deal_summary(session, preset.slug, seed, player.id)
    if summary.to_search:
        spare_time.deal(request.app.state.sessionmaker, summary.preset, summary.seed)
    today = daily.utc_today()
    # a bad or foreign id shows the plain page, never an error: the link was shared as it is
    challenge = (challenges.origin_result(session, summary.preset, summary.seed, origin, player.id)
                 if PUBLIC_ID.fullmatch(origin) else None)
    path = f"/deal/{summary.preset}/{summary.seed}" + (f"?from={challenge.game_id}" if challenge else "")
    return render(request, "deal.html", {
        "deal": summary,
        "verdict_said": deals.line_said(summary.preset, summary.seed, summary.winning_line)
                        if summary.verdict is not None and summary.verdict.winnable and summary.winning_line else (),
        "deal_preset": preset,
        "is_today": today in summary.daily_days,
        "play_url": f"/play/{summary.preset}/{summary.seed}",
        "challenge": challenge,
        "mine": challenges.viewer_result(session, summary.preset, summary.seed, player.id)
                if summary.viewer_finished else None,
        "link_meta": deal_meta(request, summary.preset, path, seed=summary.seed,
                               daily_on=summary.daily_days[-1] if summary.daily_days else None,
                               players=summary.players, winners=summary.winners),
    })


@router.get("/daily/{preset}")
def play_daily(preset: PresetDep, request: Request, session: SessionDep, player: PlayerDep) -> Response:
    """Today's deal of the preset: the player's game of it (no moves left too: it may still be
    undone, or given up), its results once that game is over, or the deal ready to play."""
    slug = preset.slug
    row = daily_choice.daily_deal(session, slug)
    if par.known(session, par.start_of_deal(slug, row.seed)) is None:  # not chosen ahead (a fresh server)
        spare_time.deal(request.app.state.sessionmaker, slug, row.seed)
    mine = daily.todays_game(session, player.id, slug, row)
    if mine is not None and lifecycle.phase_of(mine).over:
        return see_other(request, f"/deal/{slug}/{row.seed}")  # played: its results
    return see_other(request, f"/games/{mine.id}" if mine is not None else f"/play/{slug}/{row.seed}")
