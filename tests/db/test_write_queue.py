"""SQLite write transactions of one process queue on a lock (app.db.write_queue) instead of
napping in SQLite's busy handler: released on commit, rollback, close and a failed statement."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from app.db.session import build_engine


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


def test_a_second_writer_waits_for_the_first_and_then_goes_on(engine):
    with engine.connect() as holder:
        holder.execute(text("UPDATE counter SET n = n + 1"))  # this thread's write holds the lock
        done = threading.Event()

        def second_writer() -> None:
            with engine.connect() as connection:
                connection.execute(text("SELECT n FROM counter"))  # a read never needs the lock
                connection.execute(text("UPDATE counter SET n = n + 1"))  # waits on the lock
                connection.commit()
            done.set()

        thread = threading.Thread(target=second_writer)
        thread.start()
        assert not done.wait(0.3), "the second write did not wait for the first"
        holder.commit()
        thread.join(10)
        assert done.is_set()
    with engine.connect() as connection:
        assert connection.execute(text("SELECT n FROM counter")).scalar() == 2
