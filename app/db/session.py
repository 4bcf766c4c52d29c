"""Engine and session factory, one per database URL; the FastAPI dependency lives in app.web.deps."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import Session, sessionmaker

from app.settings import Settings


def _on_sqlite_connect(dbapi_connection, _record) -> None:
    # WAL lets readers run beside the one writer; busy_timeout makes a second writer
    # wait instead of failing at once with "database is locked".
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


BUSY_SECONDS = 5
_WRITES = ("insert", "update", "delete", "replace")


class _WriteQueueCursor(sqlite3.Cursor):
    def execute(self, sql, parameters=(), /):
        with _write_lock_for(self.connection, sql):
            return super().execute(sql, parameters)

    def executemany(self, sql, seq_of_parameters, /):
        with _write_lock_for(self.connection, sql):
            return super().executemany(sql, seq_of_parameters)


@contextmanager
def _write_lock_for(connection: "_WriteQueueConnection", sql: str) -> Iterator[None]:
    """Around one statement: the write lock taken first if it begins a write transaction."""
    acquired = _take_write_lock(connection, sql)
    try:
        yield
    finally:
        if acquired and not connection.in_transaction:
            connection._release_write_lock()  # no transaction began (an error): let the next in


class WriteLockBusy(Exception):
    """A write that may not wait found another thread of this process writing (see ``no_waiting``)."""


_no_waiting: ContextVar[bool] = ContextVar("tretten_sqlite_no_waiting", default=False)


@contextmanager
def no_waiting() -> Iterator[None]:
    """Inside, a write transaction that cannot begin at once raises WriteLockBusy instead of
    waiting. For work run on the event loop (app/web/threads.py): the thread holding the lock
    may need the loop to finish (a request's session is closed there), so waiting on the loop
    could wait for ever; the caller rolls back and runs the work in a thread instead."""
    token = _no_waiting.set(True)
    try:
        yield
    finally:
        _no_waiting.reset(token)


def _take_write_lock(connection: "_WriteQueueConnection", sql: str) -> bool:
    if connection.in_transaction or connection._holds_write_lock:
        return False
    if not sql.lstrip()[:7].lower().startswith(_WRITES):
        return False
    if _no_waiting.get():
        if not connection._write_lock.acquire(blocking=False):
            raise WriteLockBusy
        connection._holds_write_lock = True
        return True
    # past the timeout, go on to SQLite, whose own busy timeout then decides (as without the queue)
    connection._holds_write_lock = connection._write_lock.acquire(timeout=BUSY_SECONDS)
    return connection._holds_write_lock


class _WriteQueueConnection(sqlite3.Connection):
    """A pysqlite connection whose write transactions queue on a lock of this process first.

    SQLite lets one writer in at a time; a second one waits in SQLite's busy handler, which
    sleeps and polls (1, 2, 5, 10, … up to 100 ms a nap), so under concurrent moves most of a
    move's latency was naps taken after the lock was already free. Threads of one process now
    wait on a plain lock instead, taken before the statement that begins a write transaction
    (pysqlite begins one before the first INSERT/UPDATE/DELETE) and released when it ends, and
    are woken the moment it is free. Other processes (a second instance, the CLI) still meet
    in SQLite's own locking, as before; nothing about what is stored or when changes.
    """

    _write_lock: threading.Lock  # set on the per-engine subclass

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._holds_write_lock = False

    def cursor(self, factory=_WriteQueueCursor):  # type: ignore[override]
        return super().cursor(factory)

    def _release_write_lock(self) -> None:
        if self._holds_write_lock:
            self._holds_write_lock = False
            self._write_lock.release()

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            if not self.in_transaction:
                self._release_write_lock()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            if not self.in_transaction:
                self._release_write_lock()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._release_write_lock()


def _write_queue_factory() -> type[_WriteQueueConnection]:
    """A connection class with a lock of its own: one per engine, i.e. per database file."""
    return type("WriteQueueConnection", (_WriteQueueConnection,), {"_write_lock": threading.Lock()})


def _private_sqlite_files(url: str) -> None:
    """The database file made 0600 before SQLite opens it: SQLite gives the -wal, -shm and
    -journal files it creates the database file's mode, so they are 0600 too. Files an
    older version left 0644 are narrowed as well."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    os.close(os.open(database, os.O_RDWR | os.O_CREAT, 0o600))  # never truncates an existing file
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.chmod(database + suffix, 0o600)
        except FileNotFoundError:
            pass


def build_engine(url: str, *, pool_size: int = 10, echo: bool = False) -> Engine:
    if url.startswith("sqlite"):
        _private_sqlite_files(url)
        # a pool as large as the server's threadpool: no connection (and PRAGMA) churn under load
        engine = create_engine(url, echo=echo, connect_args={"check_same_thread": False, "timeout": BUSY_SECONDS,
                                                             "factory": _write_queue_factory()},
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
