"""Test databases: a fresh PostgreSQL database per purpose and xdist worker.

PostgreSQL comes from TRETTEN_TEST_POSTGRES_URL (default: this machine's server at
127.0.0.1:5432, trust auth). Without a server, callers skip locally but fail under
CI=true, where both backends must be tested.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

POSTGRES_URL = os.environ.get("TRETTEN_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def worker() -> str:
    """The xdist worker, and which checkout: two checkouts' suites may run at once beside
    one PostgreSQL server, and must not drop each other's databases."""
    checkout = hashlib.sha256(str(Path(__file__).resolve().parent.parent).encode()).hexdigest()[:6]
    return re.sub(r"\W", "", os.environ.get("PYTEST_XDIST_WORKER", "main")) + "_" + checkout


def fresh_postgres(name: str) -> str:
    """A new empty database called ``name`` beside POSTGRES_URL; its URL."""
    base = make_url(POSTGRES_URL)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL at {POSTGRES_URL} is needed under CI: {exc}")
        pytest.skip(f"no PostgreSQL at {POSTGRES_URL}: {type(exc).__name__}")
    finally:
        admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def migrated_sessions(folder: Path, database_url: str | None = None):
    """A session factory on a database migrated to head: SQLite in ``folder`` unless
    ``database_url`` names another; the app's searches in this process (their tests count them)."""
    from app.db.migrate import upgrade_to_head
    from app.db.session import session_factory
    from app.services.assist import searches
    from app.settings import Settings

    settings = Settings(data_dir=folder, database_url=database_url or f"sqlite:///{folder / 'tretten.sqlite3'}",
                        secret_key="tests-secret-tests-secret-tests-secret-0")
    upgrade_to_head(settings)
    searches.use_processes(0)
    return session_factory(settings)
