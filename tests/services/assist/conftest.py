"""A fresh SQLite database for a test of the assist services, its searches in the test's own
process (a module may keep one database for all its tests with a ``sessions`` of its own)."""

from __future__ import annotations

import pytest

from app.db.migrate import upgrade_to_head
from app.db.session import session_factory
from app.services.assist import searches
from app.settings import Settings


@pytest.fixture
def sessions(tmp_path):
    settings = Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'assist.sqlite3'}",
                        secret_key="assist-secret-assist-secret-assist-secret")
    upgrade_to_head(settings)
    searches.use_processes(0)
    return session_factory(settings)
