"""Dependencies shared by the routers, as Annotated aliases (SessionDep, PlayerDep, …)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request
from sqlalchemy.orm import Session

from app import i18n
from app.db.models import Player
from app.services import players as player_service
from app.services.errors import NotFoundError
from app.services.games import Limits
from app.settings import Settings

from . import security


async def get_app_settings(request: Request) -> Settings:
    return request.app.state.settings


SettingsDep = Annotated[Settings, Depends(get_app_settings)]


def get_session(request: Request) -> Iterator[Session]:
    with request.app.state.sessionmaker() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


async def get_limits(settings: SettingsDep) -> Limits:
    return Limits(games_per_minute=settings.games_per_minute, max_moves=settings.max_moves)


LimitsDep = Annotated[Limits, Depends(get_limits)]

# ids are made by app.db.models.new_public_id: 12 URL-safe characters (24 at most, the column)
PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,24}")


async def valid_game_id(game_id: str) -> str:
    """A game id from the path, refused at the edge (404) unless it could be one of ours: no
    other text (a NUL byte, say, which PostgreSQL refuses) ever reaches the database."""
    if not PUBLIC_ID.fullmatch(game_id):
        raise NotFoundError("no such game", "no_such_game")
    return game_id


GameIdDep = Annotated[str, Depends(valid_game_id)]


def queue_cookie(request: Request, header_value: str) -> None:
    """Set a cookie on the response to this request (app.web.security sends queued cookies)."""
    request.scope.setdefault("state", {}).setdefault("set_cookies", []).append(header_value)


def cookie_player_id(request: Request, settings: Settings) -> str | None:
    """The player id the signed cookie names (None: no cookie, or a forged one); no database."""
    return security.unsign_player(settings.secret_key, request.cookies.get(security.PLAYER_COOKIE))


CSRF_CHECKED = "csrf_player"  # request state: the player id the CSRF token was checked against


def get_browser_player(request: Request, session: SessionDep, settings: SettingsDep) -> Player:
    """The player of the signed cookie, created (and the cookie set) on a first visit. Refuses
    (403) a request whose CSRF token was checked against a player that turns out not to exist
    (deleted or pruned): the new player made here has a token no page can have presented."""
    player = player_service.get_player(session, cookie_player_id(request, settings))
    if player is None:
        player = player_service.create_player(session)
        queue_cookie(request, security.player_cookie_header(settings.secret_key, player.id, settings.secure_cookies))
    if player.language:
        request.state.language = player.language
    request.state.page = {"player": player, "csrf_token": security.csrf_token(settings.secret_key, player.id)}
    checked = request.scope.get("state", {}).get(CSRF_CHECKED)
    if checked is not None and checked != player.id:
        raise HTTPException(status_code=403, detail="csrf")
    return player


PlayerDep = Annotated[Player, Depends(get_browser_player)]


async def require_csrf(request: Request, settings: SettingsDep) -> None:
    """Every state-changing browser POST carries the token: htmx as a header, forms as a field.

    The token is an HMAC of the player id, so it is checked against the signed cookie without
    the database; the player dependency then confirms that player exists."""
    presented = request.headers.get(security.CSRF_HEADER)
    if not presented:
        try:
            value = (await request.form()).get(security.CSRF_FIELD)  # parsed once: the route reads it again
        except HTTPException:
            raise
        except Exception as exc:  # malformed multipart, too many fields
            raise HTTPException(status_code=400, detail="There was an error parsing the body") from exc
        presented = value if isinstance(value, str) else None
    player_id = cookie_player_id(request, settings)
    if player_id is None or not security.csrf_ok(settings.secret_key, player_id, presented):
        raise HTTPException(status_code=403, detail="csrf")
    request.scope.setdefault("state", {})[CSRF_CHECKED] = player_id


CsrfDep = Depends(require_csrf)


def get_api_player(session: SessionDep, authorization: Annotated[str | None, Header()] = None) -> Player:
    scheme, _, token = (authorization or "").partition(" ")
    player = player_service.player_for_token(session, token.strip()) if scheme.lower() == "bearer" and token else None
    if player is None:
        raise HTTPException(
            status_code=401, detail="send Authorization: Bearer <token> (POST /api/players gives one)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return player


ApiPlayerDep = Annotated[Player, Depends(get_api_player)]


def set_language_cookie(request: Request, language: str, settings: Settings) -> None:
    if language in i18n.LANGUAGES:
        queue_cookie(request, security.language_cookie_header(language, settings.secure_cookies))
