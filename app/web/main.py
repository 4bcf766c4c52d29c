"""The app factory: `uvicorn --factory app.web.main:create_app`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.sessions import SessionMiddleware

from app import i18n
from app.db.session import get_engine, session_factory
from app.services.assist import searches
from app.settings import Settings, get_settings
from app.web.http.errors import install_error_handlers
from app.web.http.middleware import (
    HeadAsGet,
    LanguageMiddleware,
    RequestLogMiddleware,
    SecurityMiddleware,
    configure_logging,
    install_limits,
    log_event,
    request_log,
)
from app.web.http.serve import leave_with_supervisor
from app.web.http.solver_room import SolverRoom
from app.web.views.assets import STATIC_DIR, CachedStaticFiles

from .routes import (
    api,
    api_docs,
    api_stats,
    daily_table,
    deals,
    games,
    health,
    lobby,
    odds,
    offline,
    prefs,
    previews,
    profile,
    replays,
    rules,
    site,
    solver,
    stats,
)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    i18n.ensure_compiled()
    configure_logging()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        leave_with_supervisor()  # a worker of `tretten serve` does not outlive it
        yield
        await anyio.to_thread.run_sync(searches.stop)  # a search under way ends first (its budget)
        # uvicorn stops accepting on SIGTERM/SIGINT, lets requests in flight finish, then runs this
        get_engine(settings).dispose()
        log_event(request_log, "shutdown")

    app = FastAPI(
        lifespan=lifespan,
        title="Tretten",
        summary="Pyramid and Gaps solitaires: the JSON API for scripts.",
        docs_url=None,  # our own page at /api/docs (app/web/routes/api_docs.py): FastAPI's breaks the CSP
        redoc_url=None,
        openapi_url="/api/openapi.json",
        # without an OpenTelemetry SDK configured FastAPI emits nothing anyway, but it asks the
        # global providers on every request to find that out; TELEMETRY=true turns it on
        telemetry=None if settings.telemetry else {"tracing": False, "metrics": False, "logs": False},
    )
    app.state.settings = settings
    app.state.sessionmaker = session_factory(settings)
    searches.use_processes(settings.solver_processes, max_searches=settings.solver_searches)

    # added last = outermost: security headers wrap even compressed and error responses
    # a plain form post's answer, for the page it redirects to (app/web/http/redirects.py, "flash"):
    # a signed cookie that lives until the browser closes and is emptied by the page that reads it
    app.add_middleware(SessionMiddleware, secret_key=settings.secret_key, session_cookie="tretten_flash",
                       max_age=None, same_site="lax", https_only=settings.secure_cookies)
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.add_middleware(SolverRoom)  # a hint the solver cannot take is refused before the router
    app.add_middleware(HeadAsGet)
    app.add_middleware(LanguageMiddleware)
    app.add_middleware(SecurityMiddleware, max_body_bytes=settings.max_body_bytes)
    app.add_middleware(RequestLogMiddleware)
    install_limits(app, settings)  # limits on new players and games; the proxy headers, outermost

    app.mount("/static", CachedStaticFiles(directory=STATIC_DIR), name="static")
    for module in (games, lobby, prefs, rules, api, health, site, stats, profile, deals, replays, api_stats, solver,
                   api_docs, previews, daily_table, offline, odds):
        app.include_router(module.router)
    install_error_handlers(app)
    return app
