"""`tretten serve`: migrate the database, then serve the app with uvicorn.

How long a client may take is set here: the request deadlines of app/web/protocol.py,
uvicorn's keep-alive timeout and its cap on connections (README, "Settings").
"""

from __future__ import annotations

import uvicorn

from app.db.migrate import upgrade_to_head
from app.settings import get_settings

from .protocol import guarded_protocol


def serve(host: str | None = None, port: int | None = None) -> None:
    settings = get_settings()
    upgrade_to_head(settings)
    uvicorn.run(
        "app.web.main:create_app",
        factory=True,
        host=host or settings.host,
        port=port or settings.port,
        proxy_headers=False,  # the app believes X-Forwarded-* from TRUSTED_PROXIES only (app/web/clients.py)
        access_log=False,  # app.web.logs writes one JSON line per request instead
        timeout_graceful_shutdown=10,
        http=guarded_protocol(settings.header_timeout, settings.body_timeout, settings.max_header_bytes),
        ws="none",  # the app has no WebSocket route: an upgrade request stays plain HTTP
        timeout_keep_alive=settings.keep_alive_timeout,
        limit_concurrency=settings.max_connections,
    )
