"""Dependencies shared by the routers, as Annotated aliases (SessionDep, PlayerDep, …)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from app import i18n
from app.db.models import Player
from app.services import players as player_service
from app.services.games import Limits
from app.settings import Settings

from . import security
from .clients import check_new_player, client_address


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


def limits_for(request: Request) -> Limits:
    settings: Settings = request.app.state.settings
    return Limits(games_per_minute=settings.games_per_minute, max_moves=settings.max_moves,
                  new_games=request.app.state.new_games, address=client_address(request))


async def get_limits(request: Request) -> Limits:
    return limits_for(request)


LimitsDep = Annotated[Limits, Depends(get_limits)]


def _queue_cookie(request: Request, header_value: str) -> None:
    request.scope.setdefault("state", {}).setdefault("set_cookies", []).append(header_value)


def cookie_player_id(request: Request, settings: Settings) -> str | None:
    """The player id the signed cookie names (None: no cookie, or a forged one); no database."""
    return security.unsign_player(settings.secret_key, request.cookies.get(security.PLAYER_COOKIE))


def browser_player(request: Request, session: Session, settings: Settings, player: Player | None) -> Player:
    """The request's player, given the cookie's player as loaded (None: no cookie, a bad one, or
    no such player): created (and the cookie set) on a first visit. Refuses (403) a request whose
    CSRF token was checked against another player than the one that turns out to exist."""
    if player is None:
        check_new_player(request)  # 429 for a flood of cookie-less requests (app/web/clients.py)
        player = player_service.create_player(session)
        _queue_cookie(request, security.player_cookie_header(settings.secret_key, player.id, settings.secure_cookies))
    if player.language:
        request.state.language = player.language
    request.state.page = {
        "player": player,
        "csrf_token": security.csrf_token(settings.secret_key, player.id),
    }
    checked = request.scope.get("state", {}).get(CSRF_CHECKED)
    if checked is not None and checked != player.id:
        # the token was right for the cookie's player, but that player is gone (deleted or
        # pruned): a new one was just made, whose token no page can have presented
        raise HTTPException(status_code=403, detail="csrf")
    return player


def get_browser_player(request: Request, session: SessionDep, settings: SettingsDep) -> Player:
    """The player of the signed cookie, created (and the cookie set) on a first visit."""
    player = player_service.get_player(session, cookie_player_id(request, settings))
    return browser_player(request, session, settings, player)


PlayerDep = Annotated[Player, Depends(get_browser_player)]

CSRF_CHECKED = "csrf_player"  # request state: the player id the CSRF token was checked against


async def read_form(request: Request) -> FormData:
    """The request's form, parsed once (Starlette caches it); an unreadable body is a 400, as
    FastAPI answers for a route with Form parameters."""
    try:
        return await request.form()
    except HTTPException:
        raise
    except Exception as exc:  # malformed multipart, too many fields, a body past the limit (413: security)
        raise HTTPException(status_code=400, detail="There was an error parsing the body") from exc


async def require_csrf(request: Request) -> None:
    """Every state-changing browser POST carries the token: htmx as a header, forms as a field.

    The token is an HMAC of the player id, so it is checked against the signed cookie without
    the database; the player dependency (or the board action) then confirms that player exists
    (see ``browser_player``). A refused request still gets its player and cookie, as before."""
    settings: Settings = request.app.state.settings  # not a sub-dependency: one less to solve per POST
    form = await read_form(request)  # the body is read before any check, as for a Form route
    presented = request.headers.get(security.CSRF_HEADER)
    if not presented:
        value = form.get(security.CSRF_FIELD)
        presented = value if isinstance(value, str) else None
    player_id = cookie_player_id(request, settings)
    if player_id is not None and security.csrf_ok(settings.secret_key, player_id, presented):
        request.scope.setdefault("state", {})[CSRF_CHECKED] = player_id
        return
    await run_in_threadpool(_refused_player, request, settings)
    raise HTTPException(status_code=403, detail="csrf")


def _refused_player(request: Request, settings: Settings) -> None:
    """What the player dependency did for a refused POST: the player (made on a first visit,
    with its cookie) and its language for the 403 page."""
    with request.app.state.sessionmaker() as session:
        get_browser_player(request, session, settings)


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
