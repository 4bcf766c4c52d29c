"""``/healthz``: 200 only when the database answers and takes a write."""

from __future__ import annotations

import contextlib

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.services import health

from ..deps import SessionDep

router = APIRouter(tags=["operations"])


@router.get("/healthz", summary="Liveness and database check (a read and a write)")
def healthz(session: SessionDep) -> JSONResponse:
    try:
        health.check_write(session)
        session.commit()  # the write must reach the disk (a full disk fails here)
    except Exception as exc:  # any database failure means "not healthy", never a 500 page
        with contextlib.suppress(Exception):  # a database that is gone cannot roll back either
            session.rollback()
        return JSONResponse({"status": "error", "database": type(exc).__name__}, status_code=503,
                            headers={"retry-after": "5"})
    return JSONResponse({"status": "ok", "database": "ok"})
