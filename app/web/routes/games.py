"""Game pages, the board's actions, and the links that start games (share links)."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Form, Query, Request
from pydantic import BaseModel, Field
from starlette.responses import Response

from app.services import actions, games
from app.services.actions import ActionResult
from app.services.errors import ServiceError
from app.services.records import record_of

from ..deps import CsrfDep, GameIdDep, LimitsDep, PlayerDep, SessionDep
from ..errors import status_of
from ..game_view import render_game
from ..redirects import see_other

router = APIRouter(include_in_schema=False)

PAGE_NOTES = {"not_playable", "dead_gap"}  # notes a plain form post carries to the page it lands on


class BoardForm(BaseModel):
    """The board form: which button was pressed, and what the page had seen."""

    action: str = Field("", max_length=20)
    target: str = Field("", max_length=8)
    sel: str = Field("", max_length=8)
    ply: int | None = Field(None, ge=0)
    version: int | None = Field(None, ge=0)
    csrf_token: str = Field("", max_length=128)


@router.get("/games/{game_id}")
def show_game(game_id: GameIdDep, request: Request, session: SessionDep, player: PlayerDep,
              sel: Annotated[str, Query(max_length=8)] = "",
              note: Annotated[str, Query(max_length=20)] = "",
              confirm: Annotated[str, Query(max_length=10)] = "") -> Response:
    """The game page: every new deal and every move without JavaScript lands here."""
    game = games.get_game_row(session, game_id)
    result = ActionResult(record_of(game), selected=sel or None,
                          note=note if note in PAGE_NOTES else ("confirm_redeal" if confirm == "redeal" else None),
                          confirm_redeal=confirm == "redeal")
    return render_game(request, game, player, result)


@router.post("/games/{game_id}/act", dependencies=[CsrfDep])
def act(game_id: GameIdDep, form: Annotated[BoardForm, Form()], request: Request, session: SessionDep,
        player: PlayerDep, limits: LimitsDep) -> Response:
    """A board action: a tap, draw, undo, redeal… (htmx: answered by the board; a plain form
    post: post/redirect/get)."""
    game = games.get_game_row(session, game_id)
    confirmed = form.action == "confirm-redeal"
    try:
        result = actions.perform(session, game, player, "redeal" if confirmed else form.action, target=form.target,
                                 selected=form.sel, ply=form.ply, version=form.version, confirm=confirmed,
                                 limits=limits)
    except ServiceError as exc:
        session.rollback()
        session.expire_all()  # show what is stored now, not what this request tried
        game = games.get_game_row(session, game_id)
        return render_game(request, game, player, ActionResult.refused(game, exc, status_of(exc), form.sel or None))
    if result.new_game is not None:
        return see_other(request, f"/games/{result.new_game.id}")
    if request.headers.get("hx-request") == "true":
        return render_game(request, game, player, result)
    query = {"sel": result.selected or "", "note": result.note if result.note in PAGE_NOTES else "",
             "confirm": "redeal" if result.confirm_redeal else ""}
    query = {k: v for k, v in query.items() if v}
    return see_other(request, f"/games/{game.id}" + (f"?{urlencode(query)}" if query else ""))


@router.post("/games", dependencies=[CsrfDep])
def new_game(request: Request, session: SessionDep, player: PlayerDep, limits: LimitsDep,
             preset: Annotated[str, Form(max_length=40)]) -> Response:
    game = games.start_game(session, player, preset, limits=limits)
    return see_other(request, f"/games/{game.id}")


@router.get("/play")
def play_from_lobby(preset: Annotated[str, Query(max_length=40)] = "",
                    seed: Annotated[str, Query(max_length=30)] = "",
                    deal: Annotated[str, Query(max_length=games.MAX_DEAL_TEXT)] = "") -> Response:
    """The lobby's seed and import forms are GET forms: the address they lead to is the share link."""
    games.get_preset_or_error(preset)
    if deal.strip():
        return see_other_plain(f"/play/{preset}?deal={quote(' '.join(deal.split()))}")
    if seed.strip():
        return see_other_plain(f"/play/{preset}/{games.parse_seed(seed)}")
    return see_other_plain(f"/play/{preset}")


@router.get("/play/{preset}")
def play_preset(preset: str, request: Request, session: SessionDep, player: PlayerDep, limits: LimitsDep,
                deal: Annotated[str | None, Query(max_length=games.MAX_DEAL_TEXT)] = None) -> Response:
    games.get_preset_or_error(preset)
    if deal is None:
        return see_other(request, f"/play/{preset}/{games.random_seed()}")
    game = games.find_or_start(session, player, preset, deal_text=deal, limits=limits)
    return see_other(request, f"/games/{game.id}")


@router.get("/play/{preset}/{seed}")
def play_seed(preset: str, seed: str, request: Request, session: SessionDep, player: PlayerDep,
              limits: LimitsDep) -> Response:
    """A share link (and the lobby's way into a new deal)."""
    game = games.find_or_start(session, player, preset, seed=games.parse_seed(seed), limits=limits)
    return see_other(request, f"/games/{game.id}")


def see_other_plain(url: str) -> Response:
    return Response(status_code=303, headers={"location": url})
