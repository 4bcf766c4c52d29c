"""The site's own files at fixed addresses: the favicon browsers ask for, the web app manifest
and the crawlers' robots.txt."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from starlette.responses import PlainTextResponse, Response

from app import i18n
from app.engine import PRESETS
from app.engine.presets import ALIASES
from app.web.views.assets import STATIC_DIR, asset_url

ICONS = STATIC_DIR / "icons"

router = APIRouter(include_in_schema=False)


@router.get("/favicon.ico")
def favicon() -> Response:
    # browsers and feed readers ask for this address whatever the page links (the pages link
    # the SVG and this file under /static with a hash); a day's cache, the address is fixed
    return Response(ICONS.joinpath("favicon.ico").read_bytes(), media_type="image/vnd.microsoft.icon",
                    headers={"cache-control": "public, max-age=86400"})


@router.get("/manifest.webmanifest")
def manifest(request: Request) -> Response:
    """The web app manifest: its icons' addresses carry their hashes (cached for a year), so
    the manifest itself is kept an hour only and follows a new icon within that. Its words are
    in the visitor's language (a browser asks for it without cookies: its Accept-Language)."""
    language = getattr(request.state, "language", i18n.DEFAULT_LANGUAGE)
    i18n.set_language(language)
    body = {
        "name": "Tretten",
        "short_name": "Tretten",
        "lang": language,
        "description": i18n.gettext("Pyramid and Gaps solitaires"),
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
    return Response(json.dumps(body, indent=1, ensure_ascii=False), media_type="application/manifest+json",
                    headers={"cache-control": "public, max-age=3600", "vary": "Accept-Language, Cookie"})


# A crawler that follows the lobby's links would deal itself a new game at each (a proven-winnable
# one is a search) and read players' own pages; shared deals, replays, the rules and the daily
# deals stay open to link previews and search engines. "$" ends a path (Google's and Bing's
# reading of the file; others skip those lines).
_CRAWLERS_KEEP_OUT = ("/games/", "/link/", "/profile", "/prefs", "/stats", "/api/", "/offline/",
                      "/play$", "/play?", *(f"/play/{slug}$" for slug in (*PRESETS, *ALIASES)))


@router.get("/robots.txt")
def robots() -> Response:
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in _CRAWLERS_KEEP_OUT)]
    return PlainTextResponse("\n".join(lines) + "\n", headers={"cache-control": "public, max-age=86400"})
