"""The engine is pure: standard library only, nothing from the web, database or templates, and no
words of a language (they are in the catalogs: app/web/views/preset_words.py)."""

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "app" / "engine"


def imported_modules(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.append(node.module or "")
    return names


def test_engine_imports_only_the_standard_library():
    offenders = {
        f"{path.name}: {name}"
        for path in ENGINE.glob("*.py")
        for name in imported_modules(path)
        if name.split(".")[0] not in sys.stdlib_module_names
    }
    assert ENGINE.exists() and list(ENGINE.glob("*.py"))
    assert not offenders, f"non-stdlib imports in app/engine: {sorted(offenders)}"


def test_the_purity_check_would_catch_a_third_party_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import fastapi\nfrom sqlalchemy import orm\nfrom . import cards\n")
    assert [n for n in imported_modules(bad) if n.split(".")[0] not in sys.stdlib_module_names] == [
        "fastapi",
        "sqlalchemy",
    ]


def languages_named(path: Path) -> list[str]:
    """Where a language's code stands as a string, as the key of a dict of words would:
    ``{"da": "Pyramide", ...}``, ``names.get("sv")``."""
    return [f"{path.name}:{node.lineno} {node.value!r}" for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Constant) and node.value in ("da", "sv", "en")]


def test_the_engine_holds_no_words_of_a_language():
    found = [place for path in sorted(ENGINE.glob("*.py")) for place in languages_named(path)]
    assert not found, f"words by language in app/engine (they belong in the catalogs): {found}"


def test_the_words_check_would_catch_a_dict_of_names(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('NAMES = {"da": "Pyramide", "sv": "Pyramid", "en": "Pyramid"}\nname = NAMES.get("da")\n')
    assert languages_named(bad) == ["bad.py:1 'da'", "bad.py:1 'sv'", "bad.py:1 'en'", "bad.py:2 'da'"]
