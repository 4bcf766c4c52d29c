"""Engine and session factory, one per database URL, the two ways work may step outside a
request's unit of work (the unit itself, the FastAPI dependency, lives in app.web.http.deps),
and the unit of work of a job that no request waits for (``unit_of_work``).

A request's changes are committed once, by its session dependency, or rolled back; services
never commit or roll back (tests/services/test_layer.py), and docs/architecture.md ("The unit of
work") lists every place that does. Two kinds of work must not wait for the request's commit:

- **A search** (the solver: up to seconds) must not hold the request's transaction open: a
  connection (and on SQLite a read snapshot) held meanwhile would make other requests wait for
  one. ``release`` ends a transaction that has only read, before the search; a request searches
  before it writes (read → search → write).
- **A fact found on the way** (a solver's verdict on a position, the day's deal, a deal's
  shortest win) holds whatever becomes of the request, and other requests should find it at
  once: ``facts`` writes it in a short unit of work of its own. It runs while the request's
  transaction holds no writes (just after ``release``), so on SQLite it never waits for its own
  request's write lock.

Work that no request waits for (a page's search left to the solver's spare time,
app.services.spare_time) opens a unit of its own from the session factory: ``unit_of_work``.

The web app's engine answers within a bounded time when the database does not (down,
restarted, or black-holed behind a proxy that takes bytes and forwards none): SQLite's busy
timeout bounds a wait for its write lock; for PostgreSQL a connection is made within
``CONNECT_SECONDS``, a statement runs at most ``STATEMENT_SECONDS`` on the server, and the
client waits at most ``ANSWER_SECONDS`` for any answer (``BoundedConnection``: the server's own
timeout never fires when nothing reaches it). Each failure is an OperationalError, which the web
app answers with 503 and Retry-After (app.web.http.errors). The command line (prune, migrations)
has no such bounds: its long statements are expected.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from functools import lru_cache

import psycopg
from psycopg import errors as pg_errors
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import ORMExecuteState, Session, sessionmaker

from app.settings import Settings

BUSY_SECONDS = 5  # a writer waits this long for another to finish (SQLite's busy timeout)
CONNECT_SECONDS = 3     # PostgreSQL: a new connection (libpq's connect_timeout)
STATEMENT_SECONDS = 5   # PostgreSQL: a statement, on the server (statement_timeout)
ANSWER_SECONDS = 7      # PostgreSQL: any answer, on the client (BoundedConnection)
POOL_SECONDS = 5        # a request waits this long for a pooled connection


class BoundedConnection(psycopg.Connection):
    """A psycopg connection that waits at most ``ANSWER_SECONDS`` for the server's answer to any
    query, commit or ping; then it is closed (its state is unknown) and the query fails with an
    OperationalError, as a lost connection does."""

    answer_seconds: float = ANSWER_SECONDS

    def wait(self, gen, interval=0.1, timeout=None):
        try:
            return super().wait(gen, interval=interval, timeout=self.answer_seconds if timeout is None else timeout)
        except pg_errors._WaitTimeout:  # psycopg's own "no answer in time", raised by its wait
            if timeout is not None:  # a caller's own deadline (LISTEN/NOTIFY): theirs to handle
                raise
            self.pgconn.finish()
            raise psycopg.OperationalError(f"the database sent no answer within {self.answer_seconds:g} s") from None


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


@contextlib.contextmanager
def lock_wait(session: Session, milliseconds: int) -> Iterator[None]:
    """Within it, the session's SQLite connection waits at most ``milliseconds`` for another
    writer's lock (its busy timeout), then BUSY_SECONDS again; PostgreSQL's waits are bounded
    by its statement timeout already."""
    sqlite = session.get_bind().dialect.name == "sqlite"
    if sqlite:
        session.execute(text(f"PRAGMA busy_timeout={int(milliseconds)}"))
    try:
        yield
    finally:
        if sqlite:
            with contextlib.suppress(Exception):
                session.execute(text(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}"))


def is_locked(error: BaseException) -> bool:
    """Whether a database error is SQLite's "another writer holds the lock" (busy, not broken)."""
    return "database is locked" in str(error)


def build_engine(url: str, *, pool_size: int = 10, echo: bool = False, bounded: bool = False) -> Engine:
    """The engine of ``url``; ``bounded``: the web app's, which answers in bounded time (above)."""
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
    if not bounded:
        return create_engine(
            url, echo=echo, isolation_level="READ COMMITTED", pool_size=pool_size, max_overflow=pool_size,
            pool_timeout=10, pool_recycle=1800, pool_pre_ping=True,
        )
    engine = create_engine(
        url, echo=echo, isolation_level="READ COMMITTED", pool_size=pool_size, max_overflow=pool_size,
        pool_timeout=POOL_SECONDS, pool_recycle=1800, pool_pre_ping=True,
        connect_args={"connect_timeout": CONNECT_SECONDS,
                      "options": f"-c statement_timeout={STATEMENT_SECONDS * 1000}"},
    )

    @event.listens_for(engine, "do_connect")
    def _bounded_connect(_dialect, _record, cargs, cparams):
        return BoundedConnection.connect(*cargs, **cparams)

    return engine


@lru_cache
def _engine_for(url: str, pool_size: int, echo: bool, bounded: bool) -> Engine:
    return build_engine(url, pool_size=pool_size, echo=echo, bounded=bounded)


def get_engine(settings: Settings, *, bounded: bool = True) -> Engine:
    """The web app's engine (``bounded``: see above), or the command line's."""
    return _engine_for(settings.database_url, settings.db_pool_size, settings.log_sql, bounded)


def session_factory(settings: Settings, *, bounded: bool = True) -> sessionmaker[Session]:
    # what a route loaded stays loaded after a commit: its page is drawn from those objects
    return sessionmaker(bind=get_engine(settings, bounded=bounded), expire_on_commit=False)


# Whether a session's transaction has written: a flush sends its changes to the database
# before the commit (every service write flushes at once, to learn of a conflict there), so
# the session's own new/dirty sets no longer show them.
WROTE = "tretten.wrote"


@event.listens_for(Session, "after_flush")
def _wrote(session: Session, _context) -> None:
    session.info[WROTE] = True


@event.listens_for(Session, "do_orm_execute")
def _wrote_in_bulk(state: ORMExecuteState) -> None:
    """An UPDATE, DELETE or INSERT statement run through the session writes without a flush."""
    if state.is_update or state.is_delete or state.is_insert:
        state.session.info[WROTE] = True


@event.listens_for(Session, "after_commit")
@event.listens_for(Session, "after_rollback")
def _transaction_ended(session: Session) -> None:
    session.info.pop(WROTE, None)


class WritesPending(RuntimeError):
    """A search was started with changes of the request not yet written: a programming error
    (the request must search before it writes), never a player's."""


def release(session: Session) -> None:
    """End the session's transaction, which has only read, before a long search: its connection
    goes back to the pool and the search holds nothing another request could wait for. The
    session goes on with a new transaction at its next query; what it loaded stays loaded.
    Changes not yet committed are refused (``WritesPending``), flushed ones too: the commit
    here would store them, though the request may still be refused. A request that has written
    must not search either (on SQLite its facts would wait for its own write lock): each service
    keeps to its order, read, search, then write (tests/web/http/test_refusals.py)."""
    if session.new or session.dirty or session.deleted or session.info.get(WROTE):
        raise WritesPending("a search with changes not yet committed: read, search, then write")
    session.commit()  # of nothing: the transaction read only


@contextlib.contextmanager
def facts(session: Session) -> Iterator[Session]:
    """A short unit of work of its own, beside the request's, for facts found on the way (see
    the module's docstring): committed when the block ends. A fact is the same whoever finds
    it, so one stored meanwhile by another request or instance (a duplicate key) is as good
    as ours and is kept."""
    release(session)
    with Session(bind=session.get_bind(), expire_on_commit=False) as unit:
        try:
            yield unit
            unit.commit()
        except IntegrityError:
            unit.rollback()


@contextlib.contextmanager
def unit_of_work(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """A unit of work of its own, for work that no request waits for (a search in the solver's
    spare time, app.services.spare_time): a new session of ``sessions``, committed when the block
    ends, rolled back if it raised (the error goes on), closed either way. What the block calls
    may end the session's transaction on the way (``release`` before a search: the session goes
    on in a new one), which ``sessionmaker.begin()`` refuses; the commit here is of what is
    left."""
    with sessions() as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
