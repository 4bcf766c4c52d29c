"""``/healthz``: 200 only when the database answers and takes a write."""

from __future__ import annotations

import contextlib

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.db.session import is_locked, lock_wait
from app.services import health
from app.web.http.deps import SessionDep

router = APIRouter(tags=["operations"])


LOCK_WAIT_MS = 100  # SQLite: another writer's lock (prune, a backup) is "busy", not "down"


@router.get("/healthz", summary="Liveness and database check (a read and a write)")
def healthz(session: SessionDep) -> JSONResponse:
    # It owns its transaction (docs/architecture.md, "The unit of work"): the write is committed
    # here, not by the dependency, because a commit that fails (a full disk) is the answer, 503,
    # and a rollback ends it; the dependency then has nothing left to commit.
    try:
        with lock_wait(session, LOCK_WAIT_MS):
            health.check_write(session)
            session.commit()  # the write must reach the disk (a full disk fails here)
    except Exception as exc:  # any database failure means "not healthy", never a 500 page
        with contextlib.suppress(Exception):  # a database that is gone cannot roll back either
            session.rollback()
        if is_locked(exc):  # the file takes writes; another process is writing just now
            return JSONResponse({"status": "ok", "database": "busy"})
        return JSONResponse({"status": "error", "database": type(exc).__name__}, status_code=503,
                            headers={"retry-after": "5"})
    return JSONResponse({"status": "ok", "database": "ok"})
