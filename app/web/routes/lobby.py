from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.db.models import Game
from app.engine import PRESETS
from app.services.play import daily, games
from app.web.http.deps import PlayerDep, SessionDep
from app.web.views import deal_pictures
from app.web.views.templating import render

router = APIRouter(include_in_schema=False)

# the lobby's two ways in, one per game (each preset is under "More ways to play")
FEATURED = ("pyramid", "gaps")


@router.get("/")
def lobby(request: Request, session: SessionDep, player: PlayerDep) -> Response:
    unfinished = games.unfinished_games(session, player)
    in_play: dict[str, Game] = {}
    for game in unfinished:  # newest first: the one a preset's "Continue" leads to
        in_play.setdefault(game.preset, game)
    featured = [(slug, PRESETS[slug].game, deal_pictures.picture(PRESETS[slug].game)) for slug in FEATURED]
    context = {
        "presets": list(PRESETS.values()),
        "featured": featured,
        "unfinished": unfinished,
        "in_play": in_play,
        "in_play_ids": [in_play[slug].id for slug in FEATURED if slug in in_play],
        "daily_results": daily.results_of_day(session, player.id),  # today's daily deals played
    }
    return render(request, "lobby.html", context)
