"""Suite-wide settings: a bounded Hypothesis profile for CI (CI=true selects it), and the
browser-like clients of the packages that define an ``app`` fixture (tests/web, tests/hardening)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

# Bytecode: a shell may set PYTHONDONTWRITEBYTECODE (this machine's do), and then each of the
# suite's Python processes (the workers, each real server and `tretten serve` worker, each solver
# process they spawn, each CLI run) compiles the app from its source again, and pytest rewrites
# the asserts of every test module again in each worker. The suite keeps its bytecode under
# .pytest_cache/ instead: a prefix, so nothing is written beside the sources, and Python checks
# each cached file against its source's size and time. Set here, before the workers start, so
# that they and every process they start inherit it.
PYCACHE = Path(__file__).resolve().parents[1] / ".pytest_cache" / "pycache"
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
sys.dont_write_bytecode = False
sys.pycache_prefix = str(PYCACHE)

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,  # 2 shared cores: wall-clock deadlines only make flaky failures
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev"))


# the fast tier (-m "not slow") leaves these out: Chromium, real servers in processes of their own
SLOW_FOLDERS = {"browser", "hardening"}


def pytest_collection_modifyitems(items):
    for item in items:
        if SLOW_FOLDERS & set(Path(item.fspath).parts):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def client(app):
    """A browser-like client with its own cookie jar: a new anonymous player."""
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as c:
        yield c


@pytest.fixture
def other_client(app):
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as c:
        yield c
