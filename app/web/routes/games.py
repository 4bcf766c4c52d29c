"""Game pages, the board's actions, and the links that start games (share links)."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Form, Query, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, ValidationError
from starlette.datastructures import FormData, UploadFile
from starlette.responses import Response

from app.services import actions, games
from app.services.errors import ServiceError

from ..deps import (CsrfDep, LimitsDep, PlayerDep, SessionDep, browser_player, cookie_player_id, get_browser_player,
                    limits_for, read_form)
from ..errors import retry_after_header, status_of
from ..game_view import Feedback, render_game
from ..redirects import see_other
from ..threads import leave_the_loop, run_board_work

router = APIRouter(include_in_schema=False)

PAGE_NOTES = {"not_playable", "dead_gap"}


class ActionFields(BaseModel):
    """The board form: which button was pressed, and what the page had seen."""

    action: str = Field("", max_length=20)
    target: str = Field("", max_length=8)
    sel: str = Field("", max_length=8)
    ply: int | None = Field(None, ge=0)
    version: int | None = Field(None, ge=0)
    csrf_token: str = Field("", max_length=128)

    def to_form(self) -> actions.ActionForm:
        confirmed = self.action == "confirm-redeal"
        return actions.ActionForm(
            action="redeal" if confirmed else self.action, target=self.target, selected=self.sel,
            ply=self.ply, version=self.version, confirm=confirmed,
        )


@router.get("/games/{game_id}")
async def show_game(game_id: str, request: Request,
                    sel: Annotated[str, Query(max_length=8)] = "",
                    note: Annotated[str, Query(max_length=20)] = "",
                    confirm: Annotated[str, Query(max_length=10)] = "") -> Response:
    """The game page: every new deal and every move without JavaScript lands here, so it runs
    as a board action does (app/web/threads.py). In the threadpool, each one took turns at the
    GIL with the moves on the event loop and stretched them: under load nearly all moves slower
    than 20 ms overlapped such a page."""
    feedback = Feedback(note=note if note in PAGE_NOTES else None, confirm_redeal=confirm == "redeal")
    return await run_board_work(request, _show_game, game_id, request, sel or None, feedback)


def _show_game(game_id: str, request: Request, selected: str | None, feedback: Feedback) -> Response:
    settings = request.app.state.settings
    with request.app.state.sessionmaker() as session:
        player, game = games.player_and_game(session, cookie_player_id(request, settings), game_id)
        player = browser_player(request, session, settings, player)
        if game is None:
            game = games.get_game_row(session, game_id)  # raises the 404
        return render_game(request, game, player, selected=selected, feedback=feedback)


@router.post("/games/{game_id}/act", dependencies=[CsrfDep])
async def act(game_id: str, request: Request) -> Response:
    """A board action. The hot path of the app: the CSRF dependency checks the token against
    the signed cookie without the database, and everything else (the player and the game in
    one query, the move, the board) runs in ONE hop to the threadpool, with its own session."""
    form = await read_form(request)  # already parsed by the CSRF check: no second read
    return await run_board_work(request, _act, game_id, request, form)


def _action_fields(form: FormData) -> ActionFields:
    """The form as FastAPI reads a Form model: an empty field (or empty file) counts as absent."""
    data = {}
    for name in ActionFields.model_fields:
        value = form.get(name)
        if value is None or value == "" or (isinstance(value, UploadFile) and not value.filename):
            continue
        data[name] = value
    try:
        return ActionFields.model_validate(data)
    except ValidationError as exc:
        raise RequestValidationError(exc.errors(include_url=False)) from None


def _act(game_id: str, request: Request, form: FormData) -> Response:
    settings = request.app.state.settings
    limits = limits_for(request)
    with request.app.state.sessionmaker() as session:
        player, game = games.player_and_game(session, cookie_player_id(request, settings), game_id)
        # in the order a Form route takes them: the player (403 if the CSRF check was against a
        # player that no longer exists), the form (400), then the game (404)
        player = browser_player(request, session, settings, player)
        fields = _action_fields(form)
        if game is None:
            game = games.get_game_row(session, game_id)  # raises the 404
        if fields.action == "new" and player.winnable_only:
            leave_the_loop()  # the solver looks for a winnable deal: up to seconds, not on the loop
        was_playing = game.status == "playing"
        try:
            outcome = actions.perform(session, game, player, fields.to_form(), limits)
        except ServiceError as exc:
            session.expire_all()  # show what is stored now, not what this request tried
            game = games.get_game_row(session, game_id)
            feedback = Feedback(error=exc.key, detail=exc.params.get("detail"))
            response = render_game(request, game, player, selected=fields.sel or None, feedback=feedback,
                                   status_code=status_of(exc))
            response.headers.update(retry_after_header(exc))
            return response
        if outcome.new_game is not None:
            return see_other(request, f"/games/{outcome.new_game.id}")
        feedback = Feedback(note=outcome.note, announcement=outcome.announcement, confirm_redeal=outcome.confirm_redeal)
        if request.headers.get("hx-request") == "true":
            # the share link changes only when the game ends or an undo reopens it
            return render_game(request, game, player, selected=outcome.selected, feedback=feedback,
                               share_changed=was_playing != (game.status == "playing"))
        query = {"sel": outcome.selected or "", "note": outcome.note if outcome.note in PAGE_NOTES else "",
                 "confirm": "redeal" if outcome.confirm_redeal else ""}
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
async def play_seed(preset: str, seed: str, request: Request) -> Response:
    """A share link (and the lobby's way into a new deal): run as the game page is, above."""
    return await run_board_work(request, _play_seed, preset, games.parse_seed(seed), request)


def _play_seed(preset: str, seed: int, request: Request) -> Response:
    settings = request.app.state.settings
    limits = limits_for(request)
    with request.app.state.sessionmaker() as session:
        player = get_browser_player(request, session, settings)
        game = games.find_or_start(session, player, preset, seed=seed, limits=limits)
        return see_other(request, f"/games/{game.id}")


def see_other_plain(url: str) -> Response:
    return Response(status_code=303, headers={"location": url})
