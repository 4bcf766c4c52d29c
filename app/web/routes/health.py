from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from ..deps import SessionDep

router = APIRouter(tags=["operations"])


@router.get("/healthz", summary="Liveness and database check")
def healthz(session: SessionDep) -> JSONResponse:
    try:
        session.execute(text("SELECT 1"))
    except Exception as exc:  # any database failure means "not healthy", never a 500 page
        return JSONResponse({"status": "error", "database": type(exc).__name__}, status_code=503)
    return JSONResponse({"status": "ok", "database": "ok"})
