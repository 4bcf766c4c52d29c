"""`tretten serve`: migrate the database, then serve the app with uvicorn.

uvicorn's own keep-alive timeout and cap on connections come from the settings; deadlines for
slow clients (trickled headers or bodies) are the reverse proxy's (README, "Operating it").
"""

from __future__ import annotations

import uvicorn

from app.db.migrate import upgrade_to_head
from app.settings import get_settings


def serve(host: str | None = None, port: int | None = None) -> None:
    settings = get_settings()
    upgrade_to_head(settings)
    uvicorn.run(
        "app.web.main:create_app",
        factory=True,
        host=host or settings.host,
        port=port or settings.port,
        proxy_headers=False,  # the app believes X-Forwarded-* from TRUSTED_PROXIES only (app/web/middleware.py)
        access_log=False,  # app.web.middleware writes one JSON line per request instead
        timeout_graceful_shutdown=10,
        ws="none",  # the app has no WebSocket route: an upgrade request stays plain HTTP
        timeout_keep_alive=settings.keep_alive_timeout,
        limit_concurrency=settings.max_connections,
        workers=settings.web_concurrency,
    )
