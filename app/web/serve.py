"""`tretten serve`: migrate the database, then serve the app with uvicorn.

uvicorn's own keep-alive timeout and cap on connections come from the settings; deadlines for
slow clients (trickled headers or bodies) are the reverse proxy's (README, "Operating it").
With several workers, each leaves when the supervising process is gone (``SUPERVISOR``; a
`kill -9` of `tretten serve` gives uvicorn no chance to stop them): it stops as on SIGTERM,
so the port is free for the next `tretten serve`.
"""

from __future__ import annotations

import os
import signal

import uvicorn

from app import lifeline
from app.db.migrate import upgrade_to_head
from app.settings import get_settings

SUPERVISOR = "TRETTEN_SUPERVISOR_PID"  # set by serve() for its worker processes


def serve(host: str | None = None, port: int | None = None) -> None:
    settings = get_settings()
    upgrade_to_head(settings)
    os.environ[SUPERVISOR] = str(os.getpid())  # inherited by the workers uvicorn starts
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


def leave_with_supervisor() -> None:
    """In a worker process of `tretten serve`: stop (as on SIGTERM: requests in flight finish)
    once the supervising process is gone. Nothing in the process that runs the server itself,
    or outside `tretten serve`."""
    supervisor = os.environ.get(SUPERVISOR, "")
    if supervisor.isdigit() and int(supervisor) != os.getpid() and int(supervisor) == os.getppid():
        lifeline.leave_with(int(supervisor), lambda: os.kill(os.getpid(), signal.SIGTERM))
