"""Suite-wide settings: a bounded Hypothesis profile for CI (CI=true selects it), and the
browser-like clients of the packages that define an ``app`` fixture (tests/web, tests/hardening)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

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
