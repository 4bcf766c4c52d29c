"""The solver's features on the web: hints, "still winnable?", auto-finish, post-game analysis,
and "try again from here".

Same URL for the whole page and the htmx fragment; every POST carries the CSRF token and
answers an htmx request with the board, a plain form post with a redirect (post/redirect/get).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from pydantic import BaseModel, Field
from starlette.responses import Response

from app.engine.announcements import Announcement
from app.services import spare_time
from app.services.assist import analysis, assist
from app.services.errors import BusyError, RateLimitError, ServiceError
from app.services.play import games
from app.services.play.moves import ActionResult
from app.services.stats import leaderboard
from app.web.http.deps import (
    CsrfDep,
    GameIdDep,
    LimitsDep,
    PlayerDep,
    SessionDep,
    commit_now,
    in_solver_thread,
    in_thread,
)
from app.web.http.errors import RefusedEarly
from app.web.http.identity import came_back
from app.web.http.redirects import answer_hint, see_other
from app.web.http.refusals import refused
from app.web.views import par_view
from app.web.views.boards import motion_steps
from app.web.views.game_view import render_game, streak_after
from app.web.views.templating import is_htmx, render

router = APIRouter(include_in_schema=False)


class SeenFields(BaseModel):
    """What the page had seen when the button was pressed."""

    ply: int | None = Field(None, ge=0)
    version: int | None = Field(None, ge=0)
    csrf_token: str = Field("", max_length=128)


@router.post("/games/{game_id}/hint", dependencies=[CsrfDep])  # refused first if the solver has no room: SolverRoom
async def hint(game_id: GameIdDep, request: Request, session: SessionDep, player: PlayerDep,
               fields: Annotated[SeenFields, Form()]) -> Response:
    return await in_solver_thread(request, lambda: _hint(game_id, request, session, player, fields))


def _hint(game_id: str, request: Request, session, player, fields: SeenFields) -> Response:
    game = games.get_game_row(session, game_id)
    try:
        found = assist.hint(session, game, player, ply=fields.ply, version=fields.version)
    except (BusyError, RateLimitError) as exc:
        raise RefusedEarly(exc) from None  # the board is as it was: say so, draw nothing
    except ServiceError as exc:
        return refused(request, session, player, exc, lambda: games.get_game_row(session, game_id))
    commit_now(session)
    spare_time.hint_line(request.app.state.sessionmaker, session, game)
    return answer_hint(request, game, player, found)


@router.get("/games/{game_id}/solver")
async def solver_status(game_id: GameIdDep, request: Request, session: SessionDep, player: PlayerDep) -> Response:
    """Loaded by the board's placeholder after each move (htmx: the fragment alone; without
    JavaScript the link leads to the whole game page with the status in place)."""
    return await in_solver_thread(request, lambda: _solver_status(game_id, request, session, player))


def _solver_status(game_id: str, request: Request, session, player) -> Response:
    game = games.get_game_row(session, game_id)
    leaderboard.check_may_watch(session, game, player.id)
    found = assist.still_winnable(session, game, player)
    if is_htmx(request):
        context = {"game": game, "solver_status": found, "winnable_indicator": bool(player.winnable_indicator),
                   "is_owner": player.id == game.player_id}
        return render(request, "game.html", context, blocks=["solver_status"])
    return render_game(request, game, player, extra={"solver_status": found, "status_placeholder": True})


@router.post("/games/{game_id}/autofinish", dependencies=[CsrfDep])
async def auto_finish(game_id: GameIdDep, request: Request, session: SessionDep, player: PlayerDep,
                      limits: LimitsDep, fields: Annotated[SeenFields, Form()]) -> Response:
    return await in_solver_thread(request, lambda: _auto_finish(game_id, request, session, player, limits, fields))


def _auto_finish(game_id: str, request: Request, session, player, limits, fields: SeenFields) -> Response:
    game = games.get_game_row(session, game_id)
    try:
        before = game.cursor
        record = assist.auto_finish(session, game, player, ply=fields.ply, version=fields.version, limits=limits)
    except ServiceError as exc:
        return refused(request, session, player, exc, lambda: games.get_game_row(session, game_id))
    commit_now(session)
    if not is_htmx(request):
        return see_other(request, f"/games/{game.id}")
    said = Announcement("autofinish", count=record.cursor - before)
    return render_game(request, game, player, ActionResult(record, announcement=said),
                       extra={"motion_steps": motion_steps(record, before), **streak_after(session, game)})


@router.get("/games/{game_id}/analysis")
async def game_analysis(game_id: GameIdDep, request: Request, session: SessionDep, player: PlayerDep) -> Response:
    """The end screen's analysis (htmx: the fragment; otherwise the game page with it in place).
    Only its player searches (``_game_analysis``), and a browser without a cookie of ours is
    nobody's player: it reads what is kept, in the threads every move is served by."""
    returning = came_back(request)
    return await in_thread(request, lambda: _game_analysis(game_id, request, session, player, returning),
                           may_search=returning)


def _game_analysis(game_id: str, request: Request, session, player, returning: bool) -> Response:
    game = games.get_game_row(session, game_id)
    leaderboard.check_may_watch(session, game, player.id)
    mine = player.id == game.player_id
    found = (analysis.analyse(session, game, player.id) if mine
             else spare_time.watched_analysis(request.app.state.sessionmaker, session, game, search_later=returning))
    shared = par_view.scored_share(request, session, game, player) if found is not None else None
    # "Try again from here" replaces the player's game in play of the preset, as a new deal does: said beside it
    retry_replaces = (next(iter(games.unfinished_games(session, player, 1, preset=game.preset)), None)
                      if mine and found is not None and found.retry_ply is not None else None)
    if is_htmx(request):
        context = {"game": game, "analysis": found, "is_owner": mine, "analysis_waiting": analysis.analysable(game),
                   "retry_replaces": retry_replaces, "share_result": shared, "share_result_oob": shared is not None}
        return render(request, "_analysis.html", context)
    return render_game(request, game, player, extra={"analysis": found, "retry_replaces": retry_replaces,
                                                     **({"share_result": shared} if shared else {})})


@router.post("/games/{game_id}/retry", dependencies=[CsrfDep])
def retry(game_id: GameIdDep, request: Request, session: SessionDep, player: PlayerDep, limits: LimitsDep,
          retry_ply: Annotated[int, Form(ge=0, le=100_000)]) -> Response:
    game = games.get_game_row(session, game_id)
    new = analysis.retry_from(session, game, player, retry_ply, limits=limits)
    return see_other(request, f"/games/{new.id}")
