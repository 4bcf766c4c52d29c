"""Par computed ahead (app/services/assist/ahead.py): the daily deals of today and tomorrow are
chosen with their par kept before anyone plays them, and a winnable-only deal's par is kept
once it is dealt."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from app.db.models import DailyDeal, Player
from app.engine import PRESETS
from app.services.assist import ahead, par, winnable

DAY = date(2026, 12, 6)


def test_the_daily_deals_of_today_and_tomorrow_are_chosen_with_their_par(sessions, monkeypatch):
    monkeypatch.setattr(ahead, "PRESETS", {slug: PRESETS[slug] for slug in ("pyramid-3", "gaps")})
    with sessions() as session:
        assert ahead.prepare_days(session, DAY) == 4
    with sessions() as session:
        for day in (DAY, DAY + timedelta(days=1)):
            for slug in ("pyramid-3", "gaps"):
                row = session.get(DailyDeal, (day, slug))
                assert row is not None and row.proven, (day, slug)
                assert par.known(session, par.start_of_deal(slug, row.seed)) is not None, (day, slug)
        assert session.get(DailyDeal, (DAY + timedelta(days=2), "gaps")) is None


def test_a_winnable_only_deal_gets_its_par_and_an_unproven_one_is_not_searched(sessions, monkeypatch):
    with sessions() as session:
        player = Player(winnable_only=True)
        session.add(player)
        session.commit()
        seed = winnable.new_seed(session, player, "pyramid-3")
        found = ahead.prepare_winnable(session, "pyramid-3", seed)
        assert found is not None and found == par.known(session, par.start_of_deal("pyramid-3", seed))
        monkeypatch.setattr(par, "prepare", lambda *_: pytest.fail("an unproven deal's par is not searched"))
        assert ahead.prepare_winnable(session, "pyramid-3", seed + 1) is None
