"""The two ways work steps outside a request's unit of work (app.db.session): ``release`` before
a search, ``facts`` for what a search found. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from sqlalchemy import delete, update

from app.db.models import Player, PositionVerdict
from app.db.session import WritesPending, facts, release


def verdict(key: str) -> PositionVerdict:
    return PositionVerdict(key=key, game="pyramid", ply=0, winnable=True, moves="D", nodes=1, budget=1)


def test_a_search_may_not_start_with_changes_not_yet_written(sessions):
    with sessions() as session:
        session.add(Player())
        with pytest.raises(WritesPending):
            release(session)
        session.rollback()
        session.get(Player, "nobody")  # a read only
        release(session)


def test_a_search_may_not_start_after_a_flushed_write_which_it_would_commit(sessions):
    """Every service write flushes at once: the session's pending sets are empty then, and the
    commit before the search stored the change of a request that might yet be refused."""
    with sessions() as session:
        session.add(Player(id="flushed"))
        session.flush()
        with pytest.raises(WritesPending):
            release(session)
        session.rollback()  # refused: nothing of it stays
        release(session)  # a new transaction, nothing written in it
    with sessions() as session:
        assert session.get(Player, "flushed") is None
        session.add(Player(id="kept"))
        session.commit()
        release(session)  # committed: a new transaction that has written nothing


@pytest.mark.parametrize("statement", [update(Player).where(Player.id == "bulk").values(zen=True),
                                       delete(Player).where(Player.id == "bulk")])
def test_a_search_may_not_start_after_a_statement_that_writes_without_a_flush(sessions, statement):
    """An UPDATE or DELETE run through the session writes at once, no flush between."""
    with sessions() as session:
        session.add(Player(id="bulk"))
        session.commit()
        session.execute(statement.execution_options(synchronize_session=False))
        with pytest.raises(WritesPending):
            release(session)
        session.rollback()
        release(session)
    with sessions() as session:
        assert session.get(Player, "bulk") is not None and not session.get(Player, "bulk").zen


def test_a_fact_is_kept_whatever_becomes_of_the_request(sessions):
    with sessions() as session:
        session.get(Player, "nobody")
        with facts(session) as unit:
            unit.add(verdict("a" * 64))
        session.add(Player(id="refused"))
        session.flush()
        session.rollback()  # the request is refused: its own change goes
    with sessions() as session:
        assert session.get(PositionVerdict, "a" * 64) is not None
        assert session.get(Player, "refused") is None


def test_a_fact_stored_first_by_another_request_is_as_good(sessions):
    with sessions() as session:
        with facts(session) as unit:
            unit.add(verdict("b" * 64))
        with facts(session) as unit:  # the same fact again: no error, the first one stays
            unit.add(verdict("b" * 64))
        assert session.get(PositionVerdict, "b" * 64).moves == "D"


def test_facts_are_written_only_after_the_request_has_stopped_reading(sessions):
    with sessions() as session:
        session.add(Player())
        with pytest.raises(WritesPending), facts(session):
            pass
