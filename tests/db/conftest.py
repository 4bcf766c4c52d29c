"""A fresh, migrated database per test, SQLite and PostgreSQL: its sessionmaker."""

from __future__ import annotations

import pytest

from app.db.migrate import upgrade_to_head
from app.db.session import get_engine, session_factory
from app.settings import Settings

from ..databases import fresh_postgres, worker


@pytest.fixture(params=["sqlite", "postgresql"])
def sessions(request, tmp_path):
    url = (f"sqlite:///{tmp_path / 'db.sqlite3'}" if request.param == "sqlite"
           else fresh_postgres(f"tretten_db_{worker()}"))
    settings = Settings(data_dir=tmp_path, database_url=url, secret_key="test-secret-of-at-least-32-characters")
    upgrade_to_head(settings)
    yield session_factory(settings)
    get_engine(settings).dispose()
