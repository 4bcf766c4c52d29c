"""Engine and session factory, one per database URL; the FastAPI dependency lives in app.web.deps."""

from __future__ import annotations

import contextlib
import os
from functools import lru_cache

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import Session, sessionmaker

from app.settings import Settings

BUSY_SECONDS = 5  # a writer waits this long for another to finish (SQLite's busy timeout)


def _on_sqlite_connect(dbapi_connection, _record) -> None:
    # WAL lets readers run beside the one writer; busy_timeout makes a second writer
    # wait instead of failing at once with "database is locked".
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _private_sqlite_files(url: str) -> None:
    """The database file made 0600 before SQLite opens it: SQLite gives the -wal, -shm and
    -journal files it creates the database file's mode, so they are 0600 too. Files an
    older version left 0644 are narrowed as well."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    os.close(os.open(database, os.O_RDWR | os.O_CREAT, 0o600))  # never truncates an existing file
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(database + suffix, 0o600)


def build_engine(url: str, *, pool_size: int = 10, echo: bool = False) -> Engine:
    if url.startswith("sqlite"):
        _private_sqlite_files(url)
        # a pool as large as the server's threadpool: no connection (and PRAGMA) churn under load
        engine = create_engine(url, echo=echo, connect_args={"check_same_thread": False, "timeout": BUSY_SECONDS},
                               pool_size=20, max_overflow=20)
        event.listen(engine, "connect", _on_sqlite_connect)
        return engine
    # READ COMMITTED is enough and deliberate: every game write is an UPDATE … WHERE version = :seen,
    # which PostgreSQL re-checks against the newest committed row after waiting on a concurrent
    # writer, so the loser matches no row (409) instead of overwriting; nothing reads-then-writes
    # across rows. The pool is per instance: DB_POOL_SIZE, as many again on overflow.
    return create_engine(
        url, echo=echo, isolation_level="READ COMMITTED", pool_size=pool_size, max_overflow=pool_size,
        pool_timeout=10, pool_recycle=1800, pool_pre_ping=True,
    )


@lru_cache
def _engine_for(url: str, pool_size: int, echo: bool) -> Engine:
    return build_engine(url, pool_size=pool_size, echo=echo)


def get_engine(settings: Settings) -> Engine:
    return _engine_for(settings.database_url, settings.db_pool_size, settings.log_sql)


def session_factory(settings: Settings) -> sessionmaker[Session]:
    return sessionmaker(bind=get_engine(settings), expire_on_commit=False)
