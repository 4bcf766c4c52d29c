"""Dependencies shared by the routers, as Annotated aliases (SessionDep, PlayerDep, …)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request
from sqlalchemy.orm import Session

from app import i18n
from app.db.models import Player, new_public_id
from app.services import players as player_service
from app.services.errors import NotFoundError
from app.services.games import Limits
from app.settings import Settings

from . import security
from .clients import check_new_player, client_address


async def get_app_settings(request: Request) -> Settings:
    return request.app.state.settings


SettingsDep = Annotated[Settings, Depends(get_app_settings)]


async def get_session(request: Request) -> AsyncIterator[Session]:
    # async, though the session is used by sync routes in the threadpool: FastAPI runs a sync
    # generator's start and end each in a thread of their own, and under load those two extra
    # hops a request cost a move about a quarter of its server CPU (bench/load.py: 6.4 -> 4.9
    # ms a move). Making a session does no I/O; closing it only hands its connection back.
    with request.app.state.sessionmaker() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


async def get_limits(request: Request, settings: SettingsDep) -> Limits:
    return Limits(games_per_minute=settings.games_per_minute, max_moves=settings.max_moves,
                  new_games=request.app.state.new_games, address=client_address(request))


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


def cookie_identity(request: Request, settings: Settings) -> security.Identity | None:
    """The (player id, session generation) the signed cookie names (None: no cookie, or a
    forged one); no database."""
    return security.unsign_player(settings.secret_key, request.cookies.get(security.PLAYER_COOKIE))


CSRF_CHECKED = "csrf_identity"  # request state: the identity the CSRF token was checked against
SAFE_METHODS = ("GET", "HEAD")


def get_browser_player(request: Request, session: SessionDep, settings: SettingsDep) -> Player:
    """The browser's player, from its signed cookie.

    A first visit (no cookie, or a forged one) gets a visitor's id in a new cookie. A GET stores
    nothing: the player is stored by its first POST (so link-preview bots and prefetches make no
    rows), and its cookie then names a stored player. A cookie naming a stored player that is
    gone (deleted, pruned) or of an older session generation (its device was logged out) counts
    as no cookie; a POST with it is refused (403), as its CSRF token was made for that player."""
    identity = cookie_identity(request, settings)
    player = player_service.get_player(session, identity[0]) if identity else None
    if identity is not None and player is not None and max(identity[1], 0) != player.session_generation:
        player, identity = None, None  # logged out: a revoked device link, or "log out other devices"
    elif identity is not None and player is None and identity[1] != security.VISITOR:
        identity = None  # a stored player that is no more
    if identity is None:
        identity = (new_public_id(), security.VISITOR)
        queue_cookie(request, security.player_cookie_header(settings.secret_key, identity[0], settings.secure_cookies,
                                                            identity[1]))
    if player is None:
        player = player_service.visitor(identity[0])
        if request.method not in SAFE_METHODS:
            check_new_player(request)  # 429 for a flood of new visitors' first POSTs (app/web/clients.py)
            player = player_service.stored_visitor(session, identity[0])
            queue_cookie(request, security.player_cookie_header(settings.secret_key, player.id,
                                                                settings.secure_cookies, player.session_generation))
    if player.language:
        request.state.language = player.language
    generation = player.session_generation or 0
    request.state.page = {"player": player,
                          "csrf_token": security.csrf_token(settings.secret_key, player.id, generation)}
    checked = request.scope.get("state", {}).get(CSRF_CHECKED)
    if checked is not None and (checked[0], max(checked[1], 0)) != (player.id, generation):
        raise HTTPException(status_code=403, detail="csrf")
    end_read(session)
    return player


def end_read(session: Session) -> None:
    """End a dependency's read, so its connection goes back to the pool: a sync route then waits
    for a thread of its own, and a connection kept meanwhile would let a crowd of requests hold
    every connection while the threads wait for one (bench/solver_storm.py: 500s after the pool's
    10 s). The objects read stay loaded (the sessions do not expire them on commit)."""
    session.commit()


PlayerDep = Annotated[Player, Depends(get_browser_player)]


def visitor_page(request: Request, settings: Settings) -> None:
    """What a page needs of its visitor (the CSRF token of its forms: the language switch) when
    no player was looked up, as for an error page: from the cookie alone, without the database."""
    if getattr(request.state, "page", None) is not None:
        return
    identity = cookie_identity(request, settings)
    if identity is None:
        identity = (new_public_id(), security.VISITOR)
        queue_cookie(request, security.player_cookie_header(settings.secret_key, identity[0], settings.secure_cookies,
                                                            identity[1]))
    request.state.page = {"player": None, "csrf_token": security.csrf_token(settings.secret_key, *identity)}


async def require_csrf(request: Request, settings: SettingsDep) -> None:
    """Every state-changing browser POST carries the token: htmx as a header, forms as a field.

    The token is an HMAC of the cookie's identity, so it is checked without the database; the
    player dependency then confirms that identity is still valid."""
    presented = request.headers.get(security.CSRF_HEADER)
    if not presented:
        try:
            value = (await request.form()).get(security.CSRF_FIELD)  # parsed once: the route reads it again
        except HTTPException:
            raise
        except Exception as exc:  # malformed multipart, too many fields
            raise HTTPException(status_code=400, detail="There was an error parsing the body") from exc
        presented = value if isinstance(value, str) else None
    identity = cookie_identity(request, settings)
    if identity is None or not security.csrf_ok(settings.secret_key, identity, presented):
        raise HTTPException(status_code=403, detail="csrf")
    request.scope.setdefault("state", {})[CSRF_CHECKED] = identity


CsrfDep = Depends(require_csrf)


def get_api_player(session: SessionDep, authorization: Annotated[str | None, Header()] = None) -> Player:
    scheme, _, token = (authorization or "").partition(" ")
    player = player_service.player_for_token(session, token.strip()) if scheme.lower() == "bearer" and token else None
    if player is None:
        raise HTTPException(
            status_code=401, detail="send Authorization: Bearer <token> (POST /api/players gives one)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    end_read(session)
    return player


ApiPlayerDep = Annotated[Player, Depends(get_api_player)]


def set_language_cookie(request: Request, language: str, settings: Settings) -> None:
    if language in i18n.LANGUAGES:
        queue_cookie(request, security.language_cookie_header(language, settings.secure_cookies))
