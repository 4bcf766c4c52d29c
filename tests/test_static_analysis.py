"""ruff and mypy over app/, as configured in pyproject.toml: both must report nothing.

The versions are pinned in the ``test`` extra (and the lock), so a new release's new checks
arrive only when someone moves the pin. The tools run from the test's own venv, like
bandit and pip-audit in tests/hardening/test_static_analysis.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from app.settings import PROJECT_ROOT

BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    path = BIN / name
    found = str(path) if path.exists() else shutil.which(name)
    assert found, f"{name} is not installed: pip install -r requirements-test.txt"
    return found


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing_in_the_app():
    result = run(tool("ruff"), "check", "--no-cache", "--output-format", "concise", "app")
    assert result.returncode == 0, f"ruff check app (exit {result.returncode}):\n{result.stdout}{result.stderr}"


def test_mypy_finds_nothing_in_the_app():
    # files = ["app"] in [tool.mypy]; no cache, so a stale one cannot hide an error
    result = run(tool("mypy"), "--cache-dir", "/dev/null", "--no-error-summary")
    assert result.returncode == 0, f"mypy (exit {result.returncode}):\n{result.stdout}{result.stderr}"
