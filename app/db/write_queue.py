"""SQLite write transactions of one process queue on a lock of that process first.

SQLite lets one writer in at a time; a second one waits in SQLite's busy handler, which
sleeps and polls (1, 2, 5, 10, … up to 100 ms a nap), so under concurrent moves most of a
move's latency was naps taken after the lock was already free. Threads of one process wait on
a plain lock instead, and are woken the moment it is free. Other processes (a second instance,
the CLI) still meet in SQLite's own locking; nothing about what is stored or when changes.
``build_engine`` (app.db.session) gives every SQLite engine its own ``connection_factory()``.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

BUSY_SECONDS = 5
_WRITES = ("insert", "update", "delete", "replace")


class _WriteQueueCursor(sqlite3.Cursor):
    # made only by _WriteQueueConnection.cursor, so its connection is one (sqlite3 types it as the base class)
    def execute(self, sql, parameters=(), /):
        with _write_lock_for(cast(_WriteQueueConnection, self.connection), sql):
            return super().execute(sql, parameters)

    def executemany(self, sql, seq_of_parameters, /):
        with _write_lock_for(cast(_WriteQueueConnection, self.connection), sql):
            return super().executemany(sql, seq_of_parameters)


@contextmanager
def _write_lock_for(connection: _WriteQueueConnection, sql: str) -> Iterator[None]:
    """Around one statement: the write lock taken first if it begins a write transaction."""
    acquired = _take_write_lock(connection, sql)
    try:
        yield
    finally:
        if acquired and not connection.in_transaction:
            connection._release_write_lock()  # no transaction began (an error): let the next in


def _take_write_lock(connection: _WriteQueueConnection, sql: str) -> bool:
    if connection.in_transaction or connection._holds_write_lock:
        return False
    if not sql.lstrip()[:7].lower().startswith(_WRITES):
        return False
    # past the timeout, go on to SQLite, whose own busy timeout then decides (as without the queue)
    connection._holds_write_lock = connection._write_lock.acquire(timeout=BUSY_SECONDS)
    return connection._holds_write_lock


class _WriteQueueConnection(sqlite3.Connection):
    """A pysqlite connection that takes its process's write lock before the statement that
    begins a write transaction (pysqlite begins one before the first INSERT/UPDATE/DELETE) and
    releases it when the transaction ends (commit, rollback, close, a failed statement)."""

    _write_lock: threading.Lock  # set on the per-engine subclass

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._holds_write_lock = False

    def cursor(self, factory=_WriteQueueCursor):
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


def connection_factory() -> type[_WriteQueueConnection]:
    """A connection class with a lock of its own: one per engine, i.e. per database file."""
    return type("WriteQueueConnection", (_WriteQueueConnection,), {"_write_lock": threading.Lock()})


