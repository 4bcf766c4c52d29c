from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.engine import PRESETS
from app.services.play import daily, games
from app.web.http.deps import PlayerDep, SessionDep
from app.web.views.templating import render

router = APIRouter(include_in_schema=False)


@router.get("/")
def lobby(request: Request, session: SessionDep, player: PlayerDep) -> Response:
    context = {
        "presets": list(PRESETS.values()),
        "unfinished": games.unfinished_games(session, player),
        "daily_results": daily.results_of_day(session, player.id),  # today's daily deals played
    }
    return render(request, "lobby.html", context)
