"""The app on a fresh database per test worker: SQLite always, PostgreSQL as a second backend.

PostgreSQL comes from TRETTEN_TEST_POSTGRES_URL (default: this machine's server at
127.0.0.1:5432, trust auth). Each xdist worker gets its own database, created and
migrated here. Without a server the PostgreSQL half is skipped, except under CI=true,
where it fails: CI must test both.
"""

from __future__ import annotations

import os

import pytest

from app.db.migrate import upgrade_to_head
from app.settings import Settings
from app.web.main import create_app

from ..databases import fresh_postgres, worker

BACKENDS = os.environ.get("TRETTEN_TEST_BACKENDS", "sqlite,postgresql").split(",")


def pytest_collection_modifyitems(config, items):
    """A module marked ``sqlite_only`` tests what a page draws, the same from either database:
    its PostgreSQL half is left out (tests that store, refuse or count run on both)."""
    dropped = {item for item in items if item.get_closest_marker("sqlite_only")
               and getattr(item, "callspec", None) and item.callspec.params.get("settings") == "postgresql"}
    if dropped:
        config.hook.pytest_deselected(items=list(dropped))
        items[:] = [item for item in items if item not in dropped]


# the fast tier (-m "not slow") runs the web tests on SQLite; the whole suite on both
@pytest.fixture(scope="session", params=[pytest.param(b, marks=pytest.mark.slow) if b == "postgresql" else b
                                         for b in BACKENDS if b])
def settings(request, tmp_path_factory) -> Settings:
    data_dir = tmp_path_factory.mktemp(f"data-{request.param}")
    url = f"sqlite:///{data_dir / 'test.sqlite3'}" if request.param == "sqlite" else fresh_postgres(f"tretten_test_{worker()}")
    settings = Settings(data_dir=data_dir, database_url=url, secret_key="test-secret-of-at-least-32-characters", games_per_minute=1000,
                        # one address (the test client) makes every player and game: no arrival limits
                        new_players_per_address=0, new_players_total=0,
                        new_games_per_address=0, new_games_total=0,
                        # the searches in the app's own threads: each test's client ends the app's
                        # lifespan, and with it its solver processes, so each test would start new
                        # ones. The solver's processes are tested in the real servers
                        # (tests/browser, tests/hardening)
                        solver_processes=0)
    upgrade_to_head(settings)
    return settings


@pytest.fixture(scope="session")
def app(settings):
    return create_app(settings)
