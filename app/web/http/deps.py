"""The routers' dependencies, as Annotated aliases (SessionDep, PlayerDep, CsrfDep, …): the
settings, the request's unit of work, limits, ids and presets here; who is asking in app.web.http.identity;
the CSRF check there too."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Annotated, TypeVar

import anyio
from fastapi import Depends, Header, Request
from sqlalchemy.orm import Session

from app.db.models import Player
from app.engine import Preset
from app.services.errors import NotFoundError
from app.services.play.games import Limits, get_preset_or_error
from app.settings import Settings
from app.web.http import identity
from app.web.http.identity import STORED_PLAYER, forget_blank_visitor, forget_visitor, queue_cookie
from app.web.http.middleware import client_address


async def get_app_settings(request: Request) -> Settings:
    return request.app.state.settings


SettingsDep = Annotated[Settings, Depends(get_app_settings)]
T = TypeVar("T")


COMMITTED = "tretten.committed"  # session.info: the request's change is stored (``commit_now``)


def get_session(request: Request) -> Iterator[Session]:
    """The request's unit of work: what the route and the services change is committed once,
    when the route has answered (before the answer is sent), or rolled back if it raised (or
    refused: ``discard``). Services never commit; a route that writes and then builds its answer
    brings the same commit forward (``commit_now``). What steps outside it is named in
    app.db.session (a search's ``release``, the solver's ``facts``) and in ``identity.end_read``.
    A visitor stored by this request (its first POST) gets its cookie once the request has
    succeeded, if it stored something of theirs; a refused one, or one that stored nothing,
    takes the visitor back."""
    with request.app.state.sessionmaker() as session:
        try:
            yield session
            forget_blank_visitor(session)
            session.commit()
        except Exception:
            if session.info.get(COMMITTED):  # the change is stored: the error page must not say "nothing changed"
                request.state.stored = True
            # the error page is drawn after this, from what was read (the player's settings):
            # detached as they are, not expired by the rollback
            session.expunge_all()
            session.rollback()
            forget_visitor(session)
            session.commit()
            raise
        stored = session.info.get(STORED_PLAYER)
        if stored is not None:
            settings = request.app.state.settings
            # first: a cookie the route set (a device link's player) comes after it and wins
            queue_cookie(request, identity.player_cookie_header(settings.secret_key, stored.id,
                                                                settings.secure_cookies, stored.session_generation),
                         first=True)


def commit_now(session: Session) -> None:
    """The request's one commit, brought forward: the route has written and builds its answer
    next. Drawing a board takes milliseconds, and SQLite has one write lock for the whole file:
    held meanwhile it kept the next player's move waiting (the database is written once either
    way; an error while drawing leaves the change stored, as a reload would show it). An API
    route's answer is checked against its response model in a worker thread, and a write lock
    held while waiting for a thread could wait for threads that all wait for the lock
    (tests/hardening/test_write_lock.py). The dependency's commit then has nothing left to do."""
    session.commit()
    session.info[COMMITTED] = True


# scope="function": the commit runs when the route returns, before the answer is sent (with the
# default scope FastAPI sends the answer first, and a client could act on what is not stored yet)
SessionDep = Annotated[Session, Depends(get_session, scope="function")]


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


async def valid_preset(preset: str) -> Preset:
    """The preset a path names (404 unless there is one), resolved here once: a former name
    (app.engine.presets.ALIASES) is the preset itself, so the routes go on with its ``slug``,
    the name its games are stored under, and a former name's link finds the same games."""
    return get_preset_or_error(preset)


PresetDep = Annotated[Preset, Depends(valid_preset)]


def get_browser_player(request: Request, session: SessionDep, settings: SettingsDep) -> Player:
    return identity.browser_player(request, session, settings)


PlayerDep = Annotated[Player, Depends(get_browser_player)]


def discard(session: Session) -> None:
    """A refused action's changes are rolled back (and a visitor it stored taken back), so the
    page drawn next shows what is stored."""
    session.rollback()
    forget_visitor(session)


async def require_csrf(request: Request, settings: SettingsDep) -> None:
    await identity.check_csrf(request, settings)


CsrfDep = Depends(require_csrf)


def in_solver_thread(request: Request, function: Callable[[], T]) -> Awaitable[T]:
    """Run a route's work that may wait for the solver (a hint, "still winnable?", auto-finish,
    the analysis) in a thread of the solver's own, as many as SOLVER_SEARCHES and one more: a
    search's wait holds none of the THREADS the other players' moves are served by (a storm of
    hints would otherwise leave their moves one thread)."""
    limiter = getattr(request.app.state, "solver_threads", None)
    if limiter is None:
        limiter = request.app.state.solver_threads = anyio.CapacityLimiter(
            request.app.state.settings.solver_searches + 1)
    return anyio.to_thread.run_sync(function, limiter=limiter)


def in_thread(request: Request, function: Callable[[], T], *, may_search: bool) -> Awaitable[T]:
    """A route whose work searches only sometimes (a new deal, proven winnable for a player who
    asked for those): in the solver's threads when it may search (``in_solver_thread``), else
    in the THREADS every move is served by. ``may_search`` is told from what the request brings
    (its form, its player): nothing is read from the database here, on the event loop."""
    return in_solver_thread(request, function) if may_search else anyio.to_thread.run_sync(function)


PAGE_TURNS = 1  # browsing pages drawn at once per worker process


async def page_turn(request: Request) -> AsyncIterator[None]:
    """A page that is only read, and costs more to draw than a move (a deal's page and its API
    answer, a day's table), waits here for its turn, on the event loop, holding no thread and
    no connection, and its turn lasts twice as long as it took to draw: a crawler's flood of
    them queues behind itself and gets at most half the process's time, and the players' moves
    keep their threads and the rest (bench/solver_storm.py --pages)."""
    turns = getattr(request.app.state, "page_turns", None)
    if turns is None:
        turns = request.app.state.page_turns = anyio.Semaphore(PAGE_TURNS)
    async with turns:
        started = time.perf_counter()
        yield
        await anyio.sleep(time.perf_counter() - started)  # the turn's rest: the moves' time


# scope="function": the turn is given back when the page is drawn, before it is sent
PageTurnDep = Depends(page_turn, scope="function")


def get_api_player(session: SessionDep, authorization: Annotated[str | None, Header()] = None) -> Player:
    return identity.api_player(session, authorization)


ApiPlayerDep = Annotated[Player, Depends(get_api_player)]


