"""In-process apps for the hardening tests, on SQLite and on PostgreSQL (a database of their own).

The PostgreSQL half fails under CI=true when there is no server (see servers.fresh_postgres).
"""

from __future__ import annotations

import os

import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from app.web.main import create_app

from .servers import fresh_postgres, migrated, worker

BACKENDS = os.environ.get("TRETTEN_TEST_BACKENDS", "sqlite,postgresql").split(",")


@pytest.fixture(scope="session", params=[b for b in BACKENDS if b])
def settings(request, tmp_path_factory) -> Settings:
    data_dir = tmp_path_factory.mktemp(f"hard-{request.param}")
    if request.param == "sqlite":
        url = f"sqlite:///{data_dir / 'hard.sqlite3'}"
    else:
        url = fresh_postgres(f"tretten_hard_{worker()}")
    base = migrated(url, data_dir)
    return Settings(data_dir=data_dir, database_url=base.database_url, secret_key="test-secret-of-at-least-32-characters", games_per_minute=100000,
                    # one address (the test client) makes every player and game: no arrival limits
                    new_players_per_address=0, new_players_total=0,
                    new_games_per_address=0, new_games_total=0)


@pytest.fixture(scope="session")
def app(settings):
    return create_app(settings)


@pytest.fixture
def make_client(settings):
    """A client of an app built with some settings changed (limits, Secure cookies…)."""
    opened = []

    def make(base_url: str = "http://testserver", **changes) -> TestClient:
        app = create_app(Settings(**{**settings.model_dump(), **changes}))
        client = TestClient(app, base_url=base_url, follow_redirects=False)
        opened.append(client.__enter__())
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)
