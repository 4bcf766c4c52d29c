"""SQLite write transactions of one process queue on a lock (app.db.session) instead of napping
in SQLite's busy handler: released on commit, rollback, close and a failed statement. Work on
the event loop does not wait for it (no_waiting; app/web/threads.py)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from app.db.session import WriteLockBusy, build_engine, no_waiting


@pytest.fixture
def engine(tmp_path):
    engine = build_engine(f"sqlite:///{tmp_path / 'queue.sqlite3'}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)"))
        connection.execute(text("INSERT INTO counter VALUES (1, 0)"))
    yield engine
    engine.dispose()


def held(connection) -> bool:
    return connection.connection.dbapi_connection._holds_write_lock


def test_the_lock_is_held_for_the_write_transaction_only(engine):
    with engine.connect() as connection:
        connection.execute(text("SELECT n FROM counter"))
        assert not held(connection)  # reads take no lock
        connection.execute(text("UPDATE counter SET n = n + 1"))
        assert held(connection)
        connection.commit()
        assert not held(connection)
        connection.execute(text("UPDATE counter SET n = n + 1"))
        connection.rollback()
        assert not held(connection)
        with pytest.raises(OperationalError):
            connection.execute(text("UPDATE no_such_table SET n = 1"))
        connection.rollback()
        assert not held(connection)
    with engine.connect() as connection:  # and a connection closed mid-transaction lets go too
        connection.execute(text("UPDATE counter SET n = n + 1"))
    with engine.begin() as connection:
        assert connection.execute(text("SELECT n FROM counter")).scalar() == 1
        connection.execute(text("UPDATE counter SET n = n + 1"))  # not blocked: the lock was free


def test_concurrent_writers_all_get_through(engine):
    errors: list[Exception] = []

    def writer() -> None:
        try:
            for _ in range(40):
                with engine.begin() as connection:
                    n = connection.execute(text("SELECT n FROM counter")).scalar()
                    connection.execute(text("UPDATE counter SET n = :n WHERE n = :seen"), {"n": n + 1, "seen": n})
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    with engine.connect() as connection:
        # a read-then-write that lost a race changes nothing (WHERE n = :seen), so the total is
        # at most 320; every transaction finished without "database is locked"
        assert 0 < connection.execute(text("SELECT n FROM counter")).scalar() <= 320


def test_no_waiting_refuses_a_write_another_thread_holds_and_keeps_nothing(engine):
    with engine.connect() as holder:
        holder.execute(text("UPDATE counter SET n = n + 1"))  # this thread's write holds the lock

        outcome: list[object] = []

        def write_without_waiting() -> None:
            with engine.connect() as connection:
                connection.execute(text("SELECT n FROM counter"))  # a read never needs the lock
                with no_waiting():
                    try:
                        connection.execute(text("UPDATE counter SET n = 100"))
                    except WriteLockBusy as exc:  # SQLAlchemy passes it through, unwrapped
                        outcome.append(exc)
                        connection.rollback()
                        outcome.append(held(connection))

        thread = threading.Thread(target=write_without_waiting)
        thread.start()
        thread.join(10)
        assert not thread.is_alive(), "it waited for the lock"
        assert isinstance(outcome[0], WriteLockBusy) and outcome[1] is False
        holder.commit()
    with engine.connect() as connection:
        with no_waiting():  # free now: the write goes ahead as usual
            connection.execute(text("UPDATE counter SET n = n + 1"))
            assert held(connection)
        connection.commit()
        assert connection.execute(text("SELECT n FROM counter")).scalar() == 2
