"""The app factory: `uvicorn --factory app.web.main:create_app`."""

from __future__ import annotations

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware

from app import i18n
from app.db.session import session_factory
from app.settings import Settings, get_settings

from .assets import STATIC_DIR, CachedStaticFiles
from .errors import install_error_handlers
from .language import LanguageMiddleware
from .routes import api, games, health, lobby, prefs, rules
from .security import SecurityMiddleware


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    i18n.ensure_compiled()
    app = FastAPI(
        title="Tretten",
        summary="Pyramid and Gaps solitaires: the JSON API for scripts.",
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.settings = settings
    app.state.sessionmaker = session_factory(settings)

    # added last = outermost: security headers wrap even compressed and error responses
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.add_middleware(LanguageMiddleware)
    app.add_middleware(SecurityMiddleware, max_body_bytes=settings.max_body_bytes)

    app.mount("/static", CachedStaticFiles(directory=STATIC_DIR), name="static")
    for module in (lobby, games, prefs, rules, api, health):
        app.include_router(module.router)
    install_error_handlers(app)
    return app
