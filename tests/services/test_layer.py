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


# The service packages, lowest first: each imports only those before it (and the shared modules
# beside them, errors and ratelimit). play is the game itself; accounts the players; assist the
# solver's help (and choosing the day's deal); stats what was played (a deal's page, the tables).
ORDER = ("play", "accounts", "assist", "stats")


def imported_packages(path: Path, root: Path, packages: tuple[str, ...]) -> set[str]:
    """Which of ``packages`` (sub-packages of ``root``) the module at ``path`` imports, its
    relative imports resolved."""
    here = path.relative_to(root.parent.parent).with_suffix("").parts  # ("app", "services", "stats", "deals")
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = list(here[:len(here) - node.level]) if node.level else []
            names = [".".join([*base, *(node.module or "").split(".")]).strip(".")]
            if not node.module:
                names = [".".join([*base, alias.name]) for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        prefix = ".".join(root.relative_to(root.parent.parent).parts) + "."
        for name in names:
            if name.startswith(prefix) and name[len(prefix):].split(".")[0] in packages:
                found.add(name[len(prefix):].split(".")[0])
    return found


def test_each_service_package_imports_only_the_ones_below_it():
    offenders = []
    for path in modules():
        own = path.relative_to(SERVICES).parts[0]
        if own not in ORDER:
            continue
        allowed = set(ORDER[:ORDER.index(own) + 1])
        offenders += [f"{path.relative_to(SERVICES)} imports {name}"
                      for name in sorted(imported_packages(path, SERVICES, ORDER) - allowed)]
    assert not offenders


def test_every_service_package_has_its_place_in_the_order():
    packages = {p.name for p in SERVICES.iterdir() if (p / "__init__.py").exists()}
    assert packages == set(ORDER)


def test_the_order_check_finds_an_import_upwards(tmp_path):
    root = tmp_path / "app" / "services"
    (root / "play").mkdir(parents=True)
    module = root / "play" / "games.py"
    module.write_text("from ..assist import winnable\nfrom app.services.stats import deals\nfrom . import lifecycle\n")
    assert imported_packages(module, root, ORDER) == {"assist", "stats", "play"}
