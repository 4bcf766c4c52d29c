from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text
from starlette.responses import Response

from ..assets import STATIC_DIR, asset_url
from ..deps import SessionDep

ICONS = STATIC_DIR / "icons"

router = APIRouter(tags=["operations"])


@router.get("/healthz", summary="Liveness and database check")
def healthz(session: SessionDep) -> JSONResponse:
    try:
        session.execute(text("SELECT 1"))
    except Exception as exc:  # any database failure means "not healthy", never a 500 page
        return JSONResponse({"status": "error", "database": type(exc).__name__}, status_code=503)
    return JSONResponse({"status": "ok", "database": "ok"})


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:
    # browsers and feed readers ask for this address whatever the page links (the pages link
    # the SVG and this file under /static with a hash); a day's cache, the address is fixed
    return Response(ICONS.joinpath("favicon.ico").read_bytes(), media_type="image/vnd.microsoft.icon",
                    headers={"cache-control": "public, max-age=86400"})


@router.get("/manifest.webmanifest", include_in_schema=False)
def manifest() -> Response:
    """The web app manifest: its icons' addresses carry their hashes (cached for a year), so
    the manifest itself is kept an hour only and follows a new icon within that."""
    body = {
        "name": "Tretten",
        "short_name": "Tretten",
        "description": "Pyramid and Gaps solitaires",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#0e5a3a",
        "theme_color": "#0a4029",
        "icons": [
            {"src": asset_url("icons/icon.svg"), "type": "image/svg+xml", "sizes": "any"},
            {"src": asset_url("icons/icon-192.png"), "type": "image/png", "sizes": "192x192"},
            {"src": asset_url("icons/icon-512.png"), "type": "image/png", "sizes": "512x512"},
            {"src": asset_url("icons/icon-maskable-512.png"), "type": "image/png", "sizes": "512x512",
             "purpose": "maskable"},
        ],
    }
    return Response(json.dumps(body, indent=1), media_type="application/manifest+json",
                    headers={"cache-control": "public, max-age=3600"})
