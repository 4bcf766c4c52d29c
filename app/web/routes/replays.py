"""Replays: /g/{id}/replay?ply=N, the whole page or (htmx) the frame alone."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from app.services import spare_time
from app.services.assist import analysis
from app.services.errors import BusyError, RateLimitError
from app.services.play import games, replays
from app.services.stats import leaderboard
from app.web.http.deps import GameIdDep, PlayerDep, SessionDep
from app.web.http.identity import came_back
from app.web.views.boards import board_of
from app.web.views.link_meta import game_meta
from app.web.views.templating import is_htmx, render

router = APIRouter(include_in_schema=False)


@router.get("/g/{game_id}/replay")
def replay_page(game_id: GameIdDep, request: Request, session: SessionDep, player: PlayerDep,
                ply: Annotated[int | None, Query(ge=0, le=1_000_000)] = None) -> Response:
    # htmx asks for the frame alone; a history restore (back button, no cache) needs the page
    fragment = is_htmx(request)
    game = games.get_game_row(session, game_id)
    leaderboard.check_may_watch(session, game, player.id)
    frame = replays.frame(game, 0 if ply is None else ply)  # a replay opens at the deal
    context = {
        "game": game,
        "frame": frame,
        "board": board_of(frame.position, None),  # nothing selected
        "status": frame.position.status,
        "end_reason": frame.position.end_reason,
        "analysis": _analysis(request, session, game, player.id),
        "is_owner": game.player_id == player.id,
        "link_meta": None if fragment else game_meta(request, session, game, f"/g/{game.id}/replay"),
    }
    return render(request, "replay.html", context, blocks=["frame"] if fragment else None)


def _analysis(request: Request, session, game, player_id: str) -> analysis.GameAnalysis | None:
    """The replay's analysis: for its own player searched where it is not kept yet (and kept for
    the next frames), but a replay is never refused for it: while the solver has no room (the
    end screen's own search of it under way, or every slot taken) its frames show what is kept.
    Anyone else sees what is kept (``spare_time.watched_analysis``)."""
    if game.player_id != player_id:
        return spare_time.watched_analysis(request.app.state.sessionmaker, session, game,
                                           search_later=came_back(request))
    try:
        return analysis.analyse(session, game, player_id)
    except (BusyError, RateLimitError):
        return analysis.analyse(session, game, player_id, search=False)
