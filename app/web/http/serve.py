"""`tretten serve`: migrate the database, then serve the app with uvicorn.

uvicorn's own keep-alive timeout and cap on connections come from the settings; deadlines for
slow clients (trickled headers or bodies) are the reverse proxy's (README, "Operating it").
With several workers, each leaves when the supervising process is gone (``SUPERVISOR``; a
`kill -9` of `tretten serve` gives uvicorn no chance to stop them): it stops as on SIGTERM,
so the port is free for the next `tretten serve`.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import time

import uvicorn

from app import lifeline
from app.db.migrate import upgrade_to_head
from app.settings import get_settings

SUPERVISOR = "TRETTEN_SUPERVISOR_PID"  # set by serve() for its worker processes

log = logging.getLogger("tretten.ahead")

AHEAD_EVERY_SECONDS = 3600


def prepare_ahead(parent: int) -> None:
    """Today's and tomorrow's daily deals, chosen with their par (app.services.assist.ahead),
    now and then every hour, in a process of the instance's own: its searches take no core's
    turn from the requests. It ends with the server, even one killed outright (app.lifeline)."""
    from app.db.session import session_factory
    from app.services.assist import ahead

    if os.getppid() != parent:
        return
    lifeline.leave_with(parent, lambda: os._exit(0))
    sessions = None
    due = 0.0
    while os.getppid() == parent:
        if time.monotonic() >= due:
            sessions = sessions or session_factory(get_settings())
            try:
                with sessions() as session:
                    kept = ahead.prepare_days(session)
                log.info("daily deals of today and tomorrow ready: %d with their par", kept)
            except Exception:  # the database away for a while: tried again at the next hour
                log.exception("preparing the daily deals failed")
            due = time.monotonic() + AHEAD_EVERY_SECONDS
        time.sleep(60)


def serve(host: str | None = None, port: int | None = None) -> None:
    settings = get_settings()
    upgrade_to_head(settings)
    os.environ[SUPERVISOR] = str(os.getpid())  # inherited by the workers uvicorn starts
    if settings.prepare_ahead:
        multiprocessing.get_context("spawn").Process(target=prepare_ahead, args=(os.getpid(),), daemon=True,
                                                     name="tretten-ahead").start()
    uvicorn.run(
        "app.web.main:create_app",
        factory=True,
        host=host or settings.host,
        port=port or settings.port,
        proxy_headers=False,  # the app believes X-Forwarded-* from TRUSTED_PROXIES only (app/web/http/middleware.py)
        access_log=False,  # app.web.http.middleware writes one JSON line per request instead
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
    if not supervisor.isdigit() or int(supervisor) == os.getpid():
        return
    if int(supervisor) == os.getppid():
        lifeline.leave_with(int(supervisor), lambda: os.kill(os.getpid(), signal.SIGTERM))
    else:  # it went while this worker's app was starting: no lifeline would ever see it go
        os.kill(os.getpid(), signal.SIGTERM)
