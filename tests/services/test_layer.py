"""Services know nothing of HTTP or presentation (app/services/__init__.py): no web framework,
templates, drawing or translation, and no addresses of the site's pages; the web layer builds
URLs and words from the values services return. Nor do they own a transaction: the session
dependency commits or rolls back (docs/architecture.md, "The unit of work")."""

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


TRANSACTION_ENDS = ("commit", "rollback")


def transaction_ends(path: Path) -> list[str]:
    """Where the module at ``path`` calls ``.commit()`` or ``.rollback()`` on anything, in line
    order."""
    calls = [node for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr in TRANSACTION_ENDS]
    return [f"{path.name}:{call.lineno} .{call.func.attr}()" for call in sorted(calls, key=lambda call: call.lineno)]


def test_services_never_commit_or_roll_back():
    """The session dependency owns the request's transaction; a unit of work of its own is
    ``app.db.session.unit_of_work`` (or ``facts``), never a service's commit."""
    offenders = [f"{path.relative_to(SERVICES).parent / found}" for path in modules()
                 for found in transaction_ends(path)]
    assert not offenders


def test_the_transaction_check_finds_a_commit_and_a_rollback(tmp_path):
    module = tmp_path / "job.py"
    module.write_text("def job(sessions):\n    with sessions() as s:\n        s.commit()\n"
                      "    sessions().rollback()\n    commit = 1\n")
    assert transaction_ends(module) == ["job.py:3 .commit()", "job.py:4 .rollback()"]


# The service packages, lowest first: each imports only those before it (and the shared modules
# beside them, errors, ratelimit and health, which import none). play is the game itself;
# accounts the players; assist the solver's help (and choosing the day's deal); stats what was
# played (a deal's page, the tables); spare_time, a module on top, what a page leaves to the
# solver's spare time (it runs assist's and stats' searches).
ORDER = ("play", "accounts", "assist", "stats", "spare_time")


def imported_packages(path: Path, root: Path, packages: tuple[str, ...]) -> set[str]:
    """Which of ``packages`` (sub-packages of ``root``) the module at ``path`` imports, its
    relative imports resolved."""
    here = path.relative_to(root.parent.parent).with_suffix("").parts  # ("app", "services", "stats", "deals")
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = list(here[:len(here) - node.level]) if node.level else []
            module = ".".join([*base, *(node.module or "").split(".")]).strip(".")
            # the module, and each name taken from it: a package's module (or a sub-package)
            names = [module, *(f"{module}.{alias.name}" for alias in node.names)]
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
        own = Path(path.relative_to(SERVICES).parts[0]).stem  # a package, or a module beside them
        if own not in ORDER:
            continue
        allowed = set(ORDER[:ORDER.index(own) + 1])
        offenders += [f"{path.relative_to(SERVICES)} imports {name}"
                      for name in sorted(imported_packages(path, SERVICES, ORDER) - allowed)]
    assert not offenders


def test_every_service_package_has_its_place_in_the_order():
    """Every package has its place, and so has every module beside them that imports one (a
    shared module imports none: it sits beneath them all)."""
    packages = {p.name for p in SERVICES.iterdir() if (p / "__init__.py").exists()}
    modules_on_top = {p.stem for p in SERVICES.glob("*.py") if imported_packages(p, SERVICES, ORDER)}
    assert packages | modules_on_top == set(ORDER)


def test_the_order_check_finds_an_import_upwards(tmp_path):
    root = tmp_path / "app" / "services"
    (root / "play").mkdir(parents=True)
    module = root / "play" / "games.py"
    module.write_text("from ..assist import winnable\nfrom app.services.stats import deals\nfrom . import lifecycle\n")
    assert imported_packages(module, root, ORDER) == {"assist", "stats", "play"}
    beside = root / "errors.py"
    beside.write_text("from .play import games\nfrom app.services import spare_time\n")
    assert imported_packages(beside, root, ORDER) == {"play", "spare_time"}
