"""Services know nothing of HTTP or presentation (app/services/__init__.py): no web framework,
templates, drawing or translation, and no addresses of the site's pages; the web layer builds
URLs and words from the values services return."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ..engine.test_purity import imported_modules

SERVICES = Path(__file__).resolve().parents[2] / "app" / "services"
PRESENTATION = ("fastapi", "starlette", "jinja2", "babel", "PIL", "app.web")


def modules() -> list[Path]:
    found = sorted(SERVICES.rglob("*.py"))
    assert found
    return found


def test_services_import_nothing_of_the_web():
    offenders = [f"{path.relative_to(SERVICES)}: {name}" for path in modules()
                 for name in imported_modules(path) if name.startswith(PRESENTATION)]
    assert not offenders


def test_services_translate_nothing_and_build_no_page_address():
    offenders = []
    for path in modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Name | ast.Attribute) and re.search(r"gettext$", getattr(node, "id", "")
                                                                        or getattr(node, "attr", "")):
                offenders.append(f"{path.name}:{node.lineno} translates")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.match(r"/(play|games|preview|deal|daily|g|stats|profile)\b", node.value):
                offenders.append(f"{path.name}:{node.lineno} {node.value!r}")
    assert not offenders
