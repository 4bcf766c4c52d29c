"""Tretten offline (docs/architecture.md, "Offline"): the service worker at /sw.js, built on
Workbox from npm, the list of what offline play keeps (/offline/files.json), the page's offline
engine (/offline/engine.zip: app/web/views/offline_bundle.py) and a game as that engine takes it
(/offline/games/{id}).

The service worker's own text carries the hashes of everything it precaches, so a deploy that
changes a style or a script changes it, and browsers install the new one.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from fastapi import APIRouter, Request
from starlette.responses import JSONResponse, Response

from app import i18n
from app.i18n import N_
from app.services.play import games
from app.services.stats import leaderboard
from app.web.http.deps import GameIdDep, PlayerDep, SessionDep
from app.web.views.assets import PYODIDE_DIR, PYODIDE_FILES, STATIC_DIR, asset_url
from app.web.views.offline_bundle import engine_url, engine_version, engine_zip
from app.web.views.templating import environment, render

router = APIRouter(include_in_schema=False)

# what the offline setting says (static/js/offline.js draws it when the settings are opened,
# engine.js says its state): a page's weight carries none of it
STATES = {
    "label": N_("Play offline on this device: keeps the rules, the cards and your games here (about 7 MB)"),
    "loading": N_("Getting offline play ready…"),
    "ready": N_("Ready: your games go on without a connection, and are checked when it is back."),
    "failed": N_("Offline play could not be made ready. It will be tried again next time."),
    # a new version waits for the player's tap (offline.js): a short label, the whole sentence said
    "update": N_("New version"),
    "update_label": N_("New version: reload"),
}

# what every page needs, precached when the service worker installs: the pages' own styles and
# scripts (already in the browser's cache after the first page, so installing fetches little)
SHELL = ["css/theme.css", "css/app.css", "css/cards.css", "css/motion.css", "css/leaderboard.css",
         "vendor/htmx.min.js", "js/app.js", "js/motion.js", "js/table.js", "js/offline.js", "js/offline-play.js",
         "js/engine.js", "js/engine-worker.js", "icons/icon.svg", "icons/favicon.ico"]
WORKBOX = "/static/vendor/workbox/"


def _pyodide_version() -> str:
    try:
        return str(json.loads((PYODIDE_DIR / "package.json").read_text())["version"])
    except (OSError, ValueError, KeyError):
        return "missing"


def offline_files() -> dict[str, object]:
    """What offline play keeps beyond the shell, fetched only once the player turns it on (or
    installs the app): the court figures, Pyodide's core and the engine's bundle; under a cache
    name that changes with them, so the service worker drops an old one."""
    art = sorted(asset_url(f"cards/{p.name}") for p in (STATIC_DIR / "cards").glob("*.svg"))
    engine = [f"/static/vendor/pyodide/{name}" for name in PYODIDE_FILES] + [engine_url()]
    name = hashlib.sha256(json.dumps([art, engine, _pyodide_version()]).encode()).hexdigest()[:12]
    return {"cache": f"tretten-offline-{name}", "art": art, "engine": engine, "engine_url": engine_url(),
            "pyodide": "/static/vendor/pyodide/",
            "scripts": {"play": asset_url("js/offline-play.js"), "engine": asset_url("js/engine.js"),
                        "worker": asset_url("js/engine-worker.js")}}


@lru_cache(maxsize=1)
def _service_worker(shell: tuple[str, ...], files: str) -> str:
    precache = json.dumps([{"url": url, "revision": None} for url in shell])
    # the page for pages not kept, one copy per version: a new worker installing never changes
    # the running version's (its styles and scripts are the precache's, named in ``shell``)
    fallback = "tretten-fallback-" + hashlib.sha256(precache.encode()).hexdigest()[:12]
    return environment.get_template("sw.js").render(
        workbox_sw=asset_url("vendor/workbox/workbox-sw.js"), workbox=WORKBOX, files=files, precache=precache,
        fallback=fallback)


@router.get("/offline")
def offline_page(request: Request, player: PlayerDep) -> Response:
    """What the service worker shows offline for a page it has not kept (kept when it installs,
    in the player's language then)."""
    return render(request, "offline.html", {})


@router.get("/sw.js")
def service_worker() -> Response:
    """Never cached by HTTP: browsers compare it byte for byte to find an update."""
    body = _service_worker(tuple(asset_url(name) for name in SHELL), json.dumps(offline_files()))
    return Response(body, media_type="text/javascript",
                    headers={"cache-control": "no-cache", "service-worker-allowed": "/"})


@router.get("/offline/files.json")
def files() -> Response:
    return Response(json.dumps(offline_files()), media_type="application/json",
                    headers={"cache-control": "no-cache"})


@router.get("/offline/engine.zip")
def engine(request: Request) -> Response:
    """The offline engine (app/web/views/offline_bundle.py); a year's cache under its current hash."""
    current = request.query_params.get("v") == engine_version()
    return Response(engine_zip(), media_type="application/zip",
                    headers={"cache-control": "public, max-age=31536000, immutable" if current else "no-cache"})


@router.get("/offline/games/{game_id}")
def game_record(game_id: GameIdDep, session: SessionDep, player: PlayerDep) -> Response:
    """A game as the offline engine takes it (static/js/engine.js's ``game``): its preset, deal,
    rules, moves and cursor, for its own player (another's only once it may be watched, as its
    replay). The page asks once offline play is on; never cached, the game moves on."""
    game = games.get_game_row(session, game_id)
    leaderboard.check_may_watch(session, game, player.id)
    body = {"id": game.id, "preset": game.preset, "deal": {"text": game.deal}, "rules": game.rules,
            "moves": game.moves.split(), "cursor": game.cursor, "version": game.version}
    return JSONResponse(body, headers={"cache-control": "no-store"})


@router.get("/offline/words")
def words(request: Request, player: PlayerDep) -> Response:
    """The offline setting's words in the page's language (the player's own, as pages have it)."""
    i18n.set_language(getattr(request.state, "language", i18n.DEFAULT_LANGUAGE))
    return JSONResponse({key: i18n.gettext(text) for key, text in STATES.items()},
                        headers={"cache-control": "no-store"})
