"""The JSON API for scripts: bearer tokens, never cookies (so no CSRF exposure)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, model_validator
from sqlalchemy.orm import Session

from app.db.models import Game
from app.engine import MAX_SEED, GameRecord
from app.services.accounts import players
from app.services.assist import winnable
from app.services.errors import ConflictError
from app.services.play import games, moves
from app.services.play.games import OnTable
from app.services.stats import leaderboard
from app.web.http.deps import ApiPlayerDep, GameIdDep, LimitsDep, SessionDep, commit_now, discard, in_thread
from app.web.http.middleware import check_new_player

router = APIRouter(prefix="/api", tags=["api"])


class ErrorOut(BaseModel):
    error: str


RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before trying again", "schema": {"type": "integer"}}}
ERRORS: dict[int, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "The body could not be decoded (JSON in UTF-8 expected)"},
    401: {"model": ErrorOut, "description": "Missing or unknown bearer token"},
    403: {"model": ErrorOut, "description": "Not your game"},
    404: {"model": ErrorOut, "description": "No such game"},
    413: {"model": ErrorOut, "description": "Body larger than the server accepts (MAX_BODY_BYTES)"},
    422: {"model": ErrorOut, "description": "Malformed or illegal input"},
    429: {"model": ErrorOut, "description": "Too many new games (or players) just now", "headers": RETRY_AFTER},
}


def errors(*codes: int, described: dict[int, str] | None = None) -> dict[int | str, dict[str, Any]]:
    """The documented error responses of one operation, some of them reworded for it."""
    described = described or {}
    return {code: {**ERRORS[code], **({"description": described[code]} if code in described else {})}
            for code in codes}


class PlayerOut(BaseModel):
    player_id: str
    token: str = Field(description="Send as `Authorization: Bearer <token>`")


class NewGame(BaseModel):
    preset: str = Field(max_length=40, examples=["pyramid"])
    seed: int | None = Field(None, ge=0, le=MAX_SEED)
    deal: str | None = Field(None, max_length=games.MAX_DEAL_TEXT)

    @model_validator(mode="after")
    def _one_source(self) -> NewGame:
        if self.seed is not None and self.deal is not None:
            raise ValueError("give a seed or a deal, not both")
        return self


class MoveIn(BaseModel):
    move: str = Field(max_length=64, examples=["P21+P23"])
    ply: int = Field(ge=0, description="How many moves the client has seen (the game's cursor)")


class PlyIn(BaseModel):
    ply: int | None = Field(None, ge=0)


class GameOut(BaseModel):
    id: str
    preset: str
    game: str
    rules: dict[str, str]
    deal: str
    seed: int | None
    moves: str
    cursor: int
    ply: int
    version: int
    status: str = Field(description="What the game counts as: playing, won or lost (a game counted as lost too)")
    phase: str = Field(description="Where it is in its life: new, playing, won, lost (no moves left: undo may "
                                   "still take it back), conceded (no moves left, and over: given up, another game "
                                   "of its preset begun, or left for a day) or abandoned (counted as lost: replaced, "
                                   "or left for a day)")
    legal: list[str] = Field(description="The moves it takes now (none once it takes no more)")
    played_via: str = Field(description="Where its moves came from: page (a person at the board) or api (once any "
                                        "came through the API); an api game is never ranked on a daily table")
    played_offline: bool = Field(description="Moves of it were made offline and sent on return (their times "
                                             "are not the server's)")
    score: int
    scoring: dict[str, Any]
    position: dict[str, Any]


class ConflictOut(BaseModel):
    error: str
    game: GameOut = Field(description="The game as it is now: go on from its `ply`")


STALE: dict[int | str, dict[str, Any]] = {
    409: {"model": ConflictOut, "description": "Stale ply: the game moved on; `game` is the current game"},
}
CHANGE_ERRORS = {**errors(400, 401, 403, 404, 413, 422), **STALE}


def _changed(session: Session, game: Game, change: Callable[[], GameRecord]) -> dict | JSONResponse:
    """The game after ``change``, or 409 with the game as it is now (as the board's 409
    carries the current board): a script goes on from there without another request."""
    games.through_api(game)  # stored only with the change
    try:
        record = change()
    except ConflictError as exc:
        discard(session)  # what is stored now, not what this request tried
        current = game_json(games.get_game_row(session, game.id))
        return JSONResponse(jsonable_encoder({"error": exc.message, "game": current}), status_code=409)
    commit_now(session)
    return game_json(game, record)


@router.post("/players", response_model=PlayerOut, status_code=201,
             responses=errors(429, described={429: "Too many new players from your address, or in all, just now"}))
def create_player(request: Request, session: SessionDep) -> PlayerOut:
    check_new_player(request)
    player, token = players.create_api_player(session)
    commit_now(session)
    return PlayerOut(player_id=player.id, token=token)


@router.post("/games", response_model=GameOut, status_code=201,
             responses=errors(400, 401, 404, 413, 422, 429, described={404: "No such preset"}))
async def create_game(body: NewGame, request: Request, session: SessionDep, player: ApiPlayerDep,
                      limits: LimitsDep) -> dict:
    new_deal = body.seed is None and body.deal is None
    return await in_thread(request, lambda: _create_game(body, session, player, limits),
                           may_search=new_deal and player.winnable_only)


def _create_game(body: NewGame, session, player, limits) -> dict:
    seed = body.seed
    if seed is None and body.deal is None:  # a new deal: at random, or proven winnable (the player's choice)
        seed = winnable.new_seed(session, player, games.get_preset_or_error(body.preset).slug)
    game = games.start_game(session, player, body.preset, seed=seed, deal_text=body.deal, limits=limits,
                            via=games.API)
    commit_now(session)
    return game_json(game)


@router.get("/games/{game_id}", response_model=GameOut, responses=errors(
    401, 403, 404, described={403: "Another player's game of today's daily deal, which you have not finished"}))
def get_game(game_id: GameIdDep, session: SessionDep, player: ApiPlayerDep) -> dict:
    game = games.get_game_row(session, game_id)
    leaderboard.check_may_watch(session, game, player.id)  # no line of today's daily deal before you finish it
    return game_json(game)


@router.post("/games/{game_id}/moves", response_model=GameOut, responses=CHANGE_ERRORS)
def post_move(game_id: GameIdDep, body: MoveIn, session: SessionDep, player: ApiPlayerDep, limits: LimitsDep):
    game = games.get_game_row(session, game_id)
    return _changed(session, game, lambda: moves.play_move(session, game, player, body.move, ply=body.ply,
                                                           limits=limits))


@router.post("/games/{game_id}/undo", response_model=GameOut, responses=CHANGE_ERRORS)
def undo(game_id: GameIdDep, session: SessionDep, player: ApiPlayerDep,
         body: Annotated[PlyIn | None, Body()] = None):
    game = games.get_game_row(session, game_id)
    return _changed(session, game, lambda: moves.undo(session, game, player, ply=body.ply if body else None))


@router.post("/games/{game_id}/redo", response_model=GameOut, responses=CHANGE_ERRORS)
def redo(game_id: GameIdDep, session: SessionDep, player: ApiPlayerDep,
         body: Annotated[PlyIn | None, Body()] = None):
    game = games.get_game_row(session, game_id)
    return _changed(session, game, lambda: moves.redo(session, game, player, ply=body.ply if body else None))


@router.post("/games/{game_id}/give-up", response_model=GameOut, responses=CHANGE_ERRORS)
def give_up(game_id: GameIdDep, session: SessionDep, player: ApiPlayerDep,
            body: Annotated[PlyIn | None, Body()] = None):
    """A game with no moves left (phase `lost`) given up: it is over (phase `conceded`), and the
    deal's verdict and other players' games of it are shown to you (422 for a game in play)."""
    game = games.get_game_row(session, game_id)
    return _changed(session, game, lambda: moves.give_up(session, game, player, ply=body.ply if body else None))


def game_json(game: Game, record: GameRecord | None = None) -> dict:
    """A game as the API shows it: the stored game, what it counts as, plus what `tretten replay`
    prints for its position."""
    table = OnTable.of(game, record)
    position = table.position
    return {
        "id": game.id,
        "preset": game.preset,
        "game": game.game,
        "rules": game.rules,
        "deal": game.deal,
        "seed": game.seed,
        "moves": game.moves,
        "cursor": game.cursor,
        "ply": game.cursor,
        "version": game.version,
        "status": table.status,
        "phase": table.phase,
        "legal": sorted(str(m) for m in position.legal_moves()) if table.open else [],
        "played_via": game.played_via or "page",
        "played_offline": bool(game.played_offline),
        "score": position.simple_score,
        "scoring": {"system": game.scoring, "points": game.score},
        "position": position.to_json(),
    }
