"""A deal's verdict (app.services.stats.deals.verdict): winnable or not is a fact, kept once;
"undecided" is the budget of one search, so the clock's cut is searched again, and a fact found
since (a winnable-only deal's line, a daily deal's choice) replaces it."""

from __future__ import annotations

import pytest

from app.db.models import DealVerdict
from app.services.assist import searches, solver_cache
from app.services.stats import deals
from tests.databases import migrated_sessions

SEED = 18  # a Pyramid deal the solver proves winnable at once (app.services.assist.first_deals)


@pytest.fixture
def sessions(tmp_path):
    return migrated_sessions(tmp_path)


def _undecided(sessions, nodes: int) -> None:
    with sessions() as session:
        session.add(DealVerdict(preset="pyramid", seed=SEED, winnable=None, moves="", nodes=nodes))
        session.commit()


def test_an_undecided_verdict_cut_short_by_the_clock_is_searched_again(sessions):
    _undecided(sessions, nodes=1_000)
    with sessions() as session:
        found = deals.verdict(session, "pyramid", SEED, None)
        assert found is not None and found.winnable is True and found.moves
    with sessions() as session:
        assert session.get(DealVerdict, ("pyramid", SEED)).winnable is True


def test_an_undecided_verdict_of_a_whole_budget_is_kept(sessions, monkeypatch):
    _undecided(sessions, nodes=deals.VERDICT_NODES)
    monkeypatch.setattr(searches, "solve", lambda *_, **__: pytest.fail("searched again"))
    with sessions() as session:
        assert deals.verdict(session, "pyramid", SEED, None).winnable is None


def test_a_fact_replaces_undecided_and_nothing_replaces_a_fact(sessions):
    _undecided(sessions, nodes=deals.VERDICT_NODES)
    with sessions() as session:
        with solver_cache.facts(session) as unit:
            solver_cache.keep_deal_verdict(unit, "pyramid", SEED, winnable=True, moves="K1", nodes=10)
        with solver_cache.facts(session) as unit:
            solver_cache.keep_deal_verdict(unit, "pyramid", SEED, winnable=None, moves="", nodes=10**9)
        with solver_cache.facts(session) as unit:
            solver_cache.keep_deal_verdict(unit, "pyramid", SEED, winnable=False, moves="", nodes=10**9)
    with sessions() as session:
        row = session.get(DealVerdict, ("pyramid", SEED))
        assert (row.winnable, row.moves, row.nodes) == (True, "K1", 10)
