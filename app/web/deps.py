"""Dependencies shared by the routers, as Annotated aliases (SessionDep, PlayerDep, …)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request
from sqlalchemy.orm import Session

from app import i18n
from app.db.models import Player
from app.services import players as player_service
from app.services.games import Limits
from app.settings import Settings

from . import security


# Trivial dependencies are `async def`: FastAPI runs a plain `def` one in the threadpool, and
# those hops cost more than the work (see bench/load.py).
async def get_app_settings(request: Request) -> Settings:
    return request.app.state.settings


SettingsDep = Annotated[Settings, Depends(get_app_settings)]


async def get_session(request: Request) -> AsyncIterator[Session]:
    # making a Session does no I/O (it connects on first use, in the handler's thread)
    with request.app.state.sessionmaker() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


async def get_limits(settings: SettingsDep) -> Limits:
    return Limits(games_per_minute=settings.games_per_minute, max_moves=settings.max_moves)


LimitsDep = Annotated[Limits, Depends(get_limits)]


def _queue_cookie(request: Request, header_value: str) -> None:
    request.scope.setdefault("state", {}).setdefault("set_cookies", []).append(header_value)


def get_browser_player(request: Request, session: SessionDep, settings: SettingsDep) -> Player:
    """The player of the signed cookie, created (and the cookie set) on a first visit."""
    player_id = security.unsign_player(settings.secret_key, request.cookies.get(security.PLAYER_COOKIE))
    player = player_service.get_player(session, player_id)
    if player is None:
        player = player_service.create_player(session)
        _queue_cookie(request, security.player_cookie_header(settings.secret_key, player.id, settings.secure_cookies))
    if player.language:
        request.state.language = player.language
    request.state.page = {
        "player": player,
        "csrf_token": security.csrf_token(settings.secret_key, player.id),
    }
    return player


PlayerDep = Annotated[Player, Depends(get_browser_player)]


async def require_csrf(request: Request, player: PlayerDep, settings: SettingsDep) -> None:
    """Every state-changing browser POST carries the token: htmx as a header, forms as a field."""
    presented = request.headers.get(security.CSRF_HEADER)
    if not presented:
        form = await request.form()  # Starlette caches it, so the handler can read it again
        value = form.get(security.CSRF_FIELD)
        presented = value if isinstance(value, str) else None
    if not security.csrf_ok(settings.secret_key, player.id, presented):
        raise HTTPException(status_code=403, detail="csrf")


CsrfDep = Depends(require_csrf)


def get_api_player(
    session: SessionDep, authorization: Annotated[str | None, Header()] = None
) -> Player:
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
        _queue_cookie(request, security.language_cookie_header(language, settings.secure_cookies))
