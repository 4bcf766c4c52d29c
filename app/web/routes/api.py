"""The JSON API for scripts: bearer tokens, never cookies (so no CSRF exposure)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from pydantic import BaseModel, Field, model_validator

from app.services import games, players

from ..clients import check_new_player
from ..deps import ApiPlayerDep, LimitsDep, SessionDep

router = APIRouter(prefix="/api", tags=["api"])


class ErrorOut(BaseModel):
    error: str


ERRORS = {
    401: {"model": ErrorOut, "description": "Missing or unknown bearer token"},
    403: {"model": ErrorOut, "description": "Not your game"},
    404: {"model": ErrorOut, "description": "No such game or preset"},
    409: {"model": ErrorOut, "description": "Stale ply: the game moved on"},
    422: {"model": ErrorOut, "description": "Malformed or illegal input"},
    429: {"model": ErrorOut, "description": "Too many new games"},
}


class PlayerOut(BaseModel):
    player_id: str
    token: str = Field(description="Send as `Authorization: Bearer <token>`")


class NewGame(BaseModel):
    preset: str = Field(max_length=40, examples=["pyramid"])
    seed: int | None = Field(None, ge=0, le=games.MAX_SEED)
    deal: str | None = Field(None, max_length=games.MAX_DEAL_TEXT)

    @model_validator(mode="after")
    def _one_source(self) -> "NewGame":
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
    status: str
    legal: list[str]
    score: int
    scoring: dict[str, Any]
    position: dict[str, Any]


@router.post("/players", response_model=PlayerOut, status_code=201, responses={429: ERRORS[429]})
def create_player(request: Request, session: SessionDep) -> PlayerOut:
    check_new_player(request)
    player, token = players.create_api_player(session)
    return PlayerOut(player_id=player.id, token=token)


@router.post("/games", response_model=GameOut, status_code=201, responses=ERRORS)
def create_game(body: NewGame, session: SessionDep, player: ApiPlayerDep, limits: LimitsDep) -> dict:
    game = games.start_game(session, player, body.preset, seed=body.seed, deal_text=body.deal, limits=limits)
    return games.game_json(game)


@router.get("/games/{game_id}", response_model=GameOut, responses=ERRORS)
def get_game(game_id: str, session: SessionDep, player: ApiPlayerDep) -> dict:
    return games.game_json(games.get_game_row(session, game_id))


@router.post("/games/{game_id}/moves", response_model=GameOut, responses=ERRORS)
def post_move(game_id: str, body: MoveIn, session: SessionDep, player: ApiPlayerDep, limits: LimitsDep) -> dict:
    game = games.get_game_row(session, game_id)
    record = games.play_move(session, game, player, body.move, ply=body.ply, limits=limits)
    return games.game_json(game, record)


@router.post("/games/{game_id}/undo", response_model=GameOut, responses=ERRORS)
def undo(game_id: str, session: SessionDep, player: ApiPlayerDep,
         body: Annotated[PlyIn | None, Body()] = None) -> dict:
    game = games.get_game_row(session, game_id)
    record = games.undo(session, game, player, ply=body.ply if body else None)
    return games.game_json(game, record)


@router.post("/games/{game_id}/redo", response_model=GameOut, responses=ERRORS)
def redo(game_id: str, session: SessionDep, player: ApiPlayerDep,
         body: Annotated[PlyIn | None, Body()] = None) -> dict:
    game = games.get_game_row(session, game_id)
    record = games.redo(session, game, player, ply=body.ply if body else None)
    return games.game_json(game, record)
