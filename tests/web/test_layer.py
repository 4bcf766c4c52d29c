"""The web package states its dependency rule in its folders: ``views`` builds pages (templates,
boards, charts, words, pictures) and imports nothing else of the web; ``http`` is the plumbing
(middleware, identity, dependencies, errors and refusals, redirects, the server process) and may
draw pages; ``routes`` use both; ``main`` assembles the app from them all."""

from __future__ import annotations

from pathlib import Path

from ..services.test_layer import imported_packages

WEB = Path(__file__).resolve().parents[2] / "app" / "web"
ORDER = ("views", "http", "routes", "main")


def modules() -> list[Path]:
    found = sorted(WEB.rglob("*.py"))
    assert found
    return found


def own_package(path: Path) -> str:
    return path.relative_to(WEB).with_suffix("").parts[0]


def test_each_web_package_imports_only_the_ones_below_it():
    offenders = []
    for path in modules():
        own = own_package(path)
        if own == "__init__":
            continue
        allowed = set(ORDER[:ORDER.index(own) + 1])
        offenders += [f"{path.relative_to(WEB)} imports {name}"
                      for name in sorted(imported_packages(path, WEB, ORDER) - allowed)]
    assert not offenders


def test_every_web_module_has_its_place_in_the_order():
    assert {own_package(path) for path in modules()} - {"__init__"} == set(ORDER)


def test_the_order_check_finds_a_view_that_imports_the_plumbing(tmp_path):
    root = tmp_path / "app" / "web"
    (root / "views").mkdir(parents=True)
    module = root / "views" / "game_view.py"
    module.write_text("from ..http.deps import discard\nfrom app.web.routes import games\nfrom . import boards\n")
    assert imported_packages(module, root, ORDER) == {"http", "routes", "views"}
