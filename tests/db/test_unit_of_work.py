"""A unit of work of its own, for work no request waits for (app.db.session.unit_of_work): what
the solver's spare time searches and keeps (app.services.spare_time). On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from app.db.models import Player
from app.db.session import release, unit_of_work
from app.services import spare_time


def stored(sessions, player_id: str) -> bool:
    with sessions() as session:
        return session.get(Player, player_id) is not None


def test_a_unit_of_work_is_committed_when_its_block_ends(sessions):
    with unit_of_work(sessions) as session:
        session.add(Player(id="kept"))
        session.flush()
        assert not stored(sessions, "kept")  # not before the block ends
    assert stored(sessions, "kept")


def test_a_unit_of_work_that_raised_is_rolled_back_and_its_error_goes_on(sessions):
    with pytest.raises(LookupError), unit_of_work(sessions) as session:
        session.add(Player(id="refused"))
        session.flush()
        raise LookupError("the job failed")
    assert not stored(sessions, "refused")


def test_a_unit_of_work_may_release_its_reads_before_a_search(sessions):
    """A spare-time job reads, ends its read transaction before its search (``release``), then
    writes: what it writes after is still committed when the block ends."""
    with unit_of_work(sessions) as session:
        assert session.get(Player, "after") is None
        release(session)
        session.add(Player(id="after"))
    assert stored(sessions, "after")


def test_a_spare_time_job_is_a_unit_of_work_of_its_own(sessions):
    job = spare_time._unit(sessions, lambda session: session.add(Player(id="spare")))
    assert not stored(sessions, "spare")  # nothing runs before the job does
    job()
    assert stored(sessions, "spare")
