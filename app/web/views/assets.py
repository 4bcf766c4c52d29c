"""Static files: our own from static/, htmx and Swagger UI from node_modules; URLs carry a content hash.

A hashed URL never changes content, so it may be cached for a year; an edit changes
the hash and so the URL.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from app.settings import PROJECT_ROOT

STATIC_DIR = PROJECT_ROOT / "static"
VENDOR_FILES = {
    # URL name under /static/vendor/ -> file installed by `npm ci` (package.json pins the version)
    "htmx.min.js": PROJECT_ROOT / "node_modules" / "htmx.org" / "dist" / "htmx.min.js",
    # /api/docs only (app/web/routes/api_docs.py)
    "swagger-ui.css": PROJECT_ROOT / "node_modules" / "swagger-ui-dist" / "swagger-ui.css",
    "swagger-ui-bundle.js": PROJECT_ROOT / "node_modules" / "swagger-ui-dist" / "swagger-ui-bundle.js",
}
# the service worker (/sw.js, app/web/routes/offline.py): workbox-sw loads its modules from
# /static/vendor/workbox/ (``modulePathPrefix``), the production builds of each package
WORKBOX_MODULES = ("core", "precaching", "routing", "strategies", "expiration", "cacheable-response")
VENDOR_FILES["workbox/workbox-sw.js"] = PROJECT_ROOT / "node_modules" / "workbox-sw" / "build" / "workbox-sw.js"
VENDOR_FILES.update({f"workbox/workbox-{name}.prod.js": PROJECT_ROOT / "node_modules" / f"workbox-{name}" / "build"
                     / f"workbox-{name}.prod.js" for name in WORKBOX_MODULES})
# the offline engine's Python (static/js/engine-worker.js): Pyodide's core, which it fetches by
# these names from one folder (its indexURL); loaded only once the player turns offline play on
PYODIDE_DIR = PROJECT_ROOT / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
VENDOR_FILES.update({f"pyodide/{name}": PYODIDE_DIR / name for name in PYODIDE_FILES})
# a worker lives under its own script's policy: the offline engine's may compile WebAssembly
# (Pyodide), which the pages' policy (app/web/middleware.py) never allows
WASM_SCRIPTS = frozenset({"js/engine-worker.js"})
WASM_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'"


@lru_cache(maxsize=64)
def _digest(path: Path, mtime: float) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def file_for(url_path: str) -> Path:
    if url_path.startswith("vendor/"):
        return VENDOR_FILES[url_path.removeprefix("vendor/")]
    return STATIC_DIR / url_path


def asset_url(url_path: str) -> str:
    path = file_for(url_path)
    try:
        version = _digest(path, path.stat().st_mtime)
    except (FileNotFoundError, KeyError):
        version = "missing"
    return f"/static/{url_path}?v={version}"


# Our stylesheets and scripts say why in comments; a player's first load need not carry them
# (a third of their compressed bytes), nor the lines' indentation. Whole comments only: a CSS
# comment, a script's line that is a comment (the scripts keep no multi-line strings, so such a
# line, or a line's leading space, is never inside one).
_COMMENTS = {
    ".css": re.compile(r"/\*.*?\*/", re.S),
    ".js": re.compile(r"^[ \t]*//.*\n", re.M),
}


@lru_cache(maxsize=32)
def _without_comments(path: Path, mtime: float) -> bytes:
    text = _COMMENTS[path.suffix].sub("", path.read_text(encoding="utf-8"))
    return re.sub(r"\n\s*", "\n", text).encode()


def served_bytes(url_path: str) -> bytes:
    """What /static/{url_path} answers: our CSS and scripts without their comments."""
    path = file_for(url_path)
    if path.suffix in _COMMENTS and not url_path.startswith("vendor/"):
        return _without_comments(path, path.stat().st_mtime)
    return path.read_bytes()


class CachedStaticFiles(StaticFiles):
    """StaticFiles that marks hashed requests immutable and serves the vendored htmx."""

    def lookup_path(self, path: str):
        if path.startswith("vendor/"):
            target = VENDOR_FILES.get(path.removeprefix("vendor/"))
            if target is not None and target.is_file():
                return str(target), target.stat()
            return "", None
        return super().lookup_path(path)

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        suffix = Path(path).suffix
        if response.status_code == 200 and suffix in _COMMENTS and not path.startswith("vendor/"):
            media = "text/css" if suffix == ".css" else "text/javascript"
            response = Response(served_bytes(path), media_type=f"{media}; charset=utf-8")
        # immutable only under the hash of what is served now: an old or made-up ?v= may
        # name other content, so it gets the short cache
        if response.status_code == 200 and f"v={asset_url(path).partition('?v=')[2]}" in \
                scope.get("query_string", b"").decode("latin-1").split("&"):
            response.headers["cache-control"] = "public, max-age=31536000, immutable"
        else:
            response.headers["cache-control"] = "public, max-age=300"
        if path in WASM_SCRIPTS:
            response.headers["content-security-policy"] = WASM_POLICY
        return response

