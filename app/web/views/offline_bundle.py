"""The page's offline engine as one zip, built from the repository when first asked for: the
app's own ``app/engine`` as it is, the board's view models and templates, the catalogs, Jinja2
and MarkupSafe (pure Python: MarkupSafe's own fallback without its C speedups), unpacked by
Pyodide in the engine's worker (static/js/engine-worker.js). One source of rules: nothing in it
is a copy kept by hand.

Its address carries its content's hash (``engine_url``), so the service worker and the browser
keep it until a deploy changes it.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from functools import lru_cache
from pathlib import Path

import jinja2
import markupsafe

from app.settings import PROJECT_ROOT

APP = PROJECT_ROOT / "app"
VIEWS = APP / "web" / "views"
TEMPLATES = PROJECT_ROOT / "templates"
# the app's modules the offline engine imports (app/web/views/offline_engine.py), beside the engine
WEB_MODULES = ("board_templates.py", "boards.py", "card_words.py", "offline_engine.py")
STAMP = (2020, 1, 1, 0, 0, 0)  # every entry's date: the same sources make the same bytes


def _files() -> list[tuple[str, bytes]]:
    from . import templating  # the words by key and the figures' addresses, as the server has them

    files: list[tuple[str, bytes]] = [
        ("app/__init__.py", b""),
        ("app/i18n.py", (APP / "i18n.py").read_bytes()),  # its catalogs read without Babel
        ("app/web/__init__.py", b""),
        ("app/web/views/__init__.py", b""),
        ("app/web/views/offline_data.json", json.dumps(
            {"texts": {str(key): text for key, text in templating.TEXTS.items()},
             "figures": templating.COURT_FIGURES, "sheet": templating.COURT_SHEET}, sort_keys=True).encode()),
    ]
    files += [(f"app/engine/{p.name}", p.read_bytes()) for p in sorted((APP / "engine").glob("*.py"))]
    files += [(f"app/web/views/{name}", (VIEWS / name).read_bytes()) for name in WEB_MODULES]
    files += [(p.relative_to(PROJECT_ROOT).as_posix(), p.read_bytes())  # app/locale, beside app/i18n.py
              for p in sorted((APP / "locale").glob("*/LC_MESSAGES/messages.mo"))]
    files += [(p.relative_to(PROJECT_ROOT).as_posix(), p.read_bytes())
              for p in sorted([*TEMPLATES.glob("_*.html"), *TEMPLATES.glob("boards/*.html")])]
    for package in (jinja2, markupsafe):
        folder = Path(package.__file__).parent  # type: ignore[arg-type]
        files += [(f"{folder.name}/{p.name}", p.read_bytes()) for p in sorted(folder.glob("*.py"))]
    return files


@lru_cache(maxsize=1)
def engine_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in _files():
            archive.writestr(zipfile.ZipInfo(name, STAMP), data, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


@lru_cache(maxsize=1)
def engine_version() -> str:
    return hashlib.sha256(engine_zip()).hexdigest()[:12]


def engine_url() -> str:
    return f"/offline/engine.zip?v={engine_version()}"
