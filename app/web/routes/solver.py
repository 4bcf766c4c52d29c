"""The solver's features on the web: hints, "still winnable?", auto-finish, post-game analysis,
"try again from here", the winnable-only toggle and the odds page.

Same URL for the whole page and the htmx fragment; every POST carries the CSRF token and
answers an htmx request with the board, a plain form post with a redirect (post/redirect/get).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Query, Request
from pydantic import BaseModel, Field
from starlette.responses import Response

from app.engine import PRESETS
from app.services import analysis, assist, board, games, odds, players
from app.services.errors import ServiceError

from ..deps import CsrfDep, LimitsDep, PlayerDep, SessionDep
from ..errors import status_of
from ..game_view import Feedback, render_game
from ..redirects import see_other
from ..solver_view import hint_targets
from ..templating import is_htmx, render
from .prefs import _safe_next

router = APIRouter(include_in_schema=False)


class BoardFields(BaseModel):
    ply: int | None = Field(None, ge=0)
    version: int | None = Field(None, ge=0)
    csrf_token: str = Field("", max_length=128)


def _hint_context(game, move: str, winning: bool) -> tuple[dict, Feedback]:
    """The highlighted hint and its announcement (None if the move is not legal now)."""
    record = games.record_of(game)
    position = record.position
    try:
        parsed = position.parse_move(move)
        after = position.apply(parsed)
    except Exception:
        return {}, Feedback()
    said = board.describe(parsed, position, after)
    if said.kind == "draw":  # a hint must not show the card under the stock's top
        said = replace(said, cards=())
    hint = {"move": str(parsed), "winning": winning, "said": said, **hint_targets(str(parsed), position)}
    return {"hint": hint}, Feedback(announcement=replace(said, kind="hint"))


def _refused(request: Request, session, game_id: str, player, exc: ServiceError) -> Response:
    session.expire_all()
    game = games.get_game_row(session, game_id)
    return render_game(request, game, player, feedback=Feedback(error=exc.key, detail=exc.params.get("detail")),
                       status_code=status_of(exc))


@router.post("/games/{game_id}/hint", dependencies=[CsrfDep])
def hint(game_id: str, request: Request, session: SessionDep, player: PlayerDep,
         fields: Annotated[BoardFields, Form()]) -> Response:
    game = games.get_game_row(session, game_id)
    try:
        found = assist.hint(session, game, player, ply=fields.ply, version=fields.version)
    except ServiceError as exc:
        return _refused(request, session, game_id, player, exc)
    if not is_htmx(request):
        query = urlencode({"move": found.move, **({"win": "1"} if found.winning else {})})
        return see_other(request, f"/games/{game.id}/hinted?{query}")
    extra, feedback = _hint_context(game, found.move, found.winning)
    return render_game(request, game, player, feedback=feedback, extra=extra)


@router.get("/games/{game_id}/hinted")
def hinted(game_id: str, request: Request, session: SessionDep, player: PlayerDep,
           move: Annotated[str, Query(max_length=64)] = "", win: Annotated[str, Query(max_length=2)] = "") -> Response:
    """The page after a hint without JavaScript (post/redirect/get). Shows the hint only while
    it is a legal move of the current position; hint_count was counted by the POST."""
    game = games.get_game_row(session, game_id)
    extra, feedback = _hint_context(game, move, win == "1")
    return render_game(request, game, player, feedback=feedback, extra=extra)


@router.get("/games/{game_id}/solver")
def solver_status(game_id: str, request: Request, session: SessionDep, player: PlayerDep) -> Response:
    """Loaded by the board's placeholder after each move (htmx: the fragment alone; without
    JavaScript the link leads to the whole game page with the status in place)."""
    game = games.get_game_row(session, game_id)
    found = assist.status(session, game, player)
    context = {"game": game, "solver_status": found, "winnable_indicator": bool(player.winnable_indicator),
               "record": games.record_of(game), "is_owner": player.id == game.player_id}
    if is_htmx(request):
        return render(request, "_solver_status.html", context)
    return render_game(request, game, player, extra={"solver_status": found, "status_placeholder": True})


@router.post("/games/{game_id}/autofinish", dependencies=[CsrfDep])
def auto_finish(game_id: str, request: Request, session: SessionDep, player: PlayerDep, limits: LimitsDep,
                fields: Annotated[BoardFields, Form()]) -> Response:
    game = games.get_game_row(session, game_id)
    try:
        record = assist.auto_finish(session, game, player, ply=fields.ply, version=fields.version, limits=limits)
    except ServiceError as exc:
        return _refused(request, session, game_id, player, exc)
    if not is_htmx(request):
        return see_other(request, f"/games/{game.id}")
    said = board.Announcement("autofinish", round=record.cursor)
    return render_game(request, game, player, feedback=Feedback(announcement=said))


@router.get("/games/{game_id}/analysis")
def game_analysis(game_id: str, request: Request, session: SessionDep, player: PlayerDep) -> Response:
    """The end screen's analysis (htmx: the fragment; otherwise the game page with it in place)."""
    game = games.get_game_row(session, game_id)
    found = analysis.analyse(session, game)
    if is_htmx(request):
        context = {"game": game, "analysis": found, "is_owner": player.id == game.player_id}
        return render(request, "_analysis.html", context)
    return render_game(request, game, player, extra={"analysis": found})


@router.post("/games/{game_id}/retry", dependencies=[CsrfDep])
def retry(game_id: str, request: Request, session: SessionDep, player: PlayerDep, limits: LimitsDep,
          retry_ply: Annotated[int, Form(ge=0, le=100_000)]) -> Response:
    game = games.get_game_row(session, game_id)
    new = analysis.retry_from(session, game, player, retry_ply, limits=limits)
    return see_other(request, f"/games/{new.id}")


@router.post("/prefs/winnable-only", dependencies=[CsrfDep])
def set_winnable_only(request: Request, session: SessionDep, player: PlayerDep,
                      winnable_only: Annotated[str, Form(max_length=5)] = "",
                      next: Annotated[str, Form(max_length=300)] = "/") -> Response:
    players.update_solver_preferences(session, player, winnable_only=winnable_only == "on")
    return see_other(request, _safe_next(next))


@router.get("/odds")
def odds_page(request: Request) -> Response:
    language = request.state.language
    context = {"rows": odds.rows(language), "survey": odds.survey_info(), "presets": PRESETS}
    return render(request, "odds.html", context)
