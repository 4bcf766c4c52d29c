"""Data migrations: what they do to rows stored before them, on both backends."""

from __future__ import annotations

from datetime import date

import pytest
from alembic import command
from sqlalchemy import select

from app.db.migrate import alembic_config, upgrade_to_head
from app.db.models import DailyDeal, DealVerdict, Game, Player
from app.db.session import get_engine, session_factory
from app.settings import Settings

from ..databases import fresh_postgres, worker


@pytest.fixture(params=["sqlite", "postgresql"])
def settings_before_0004(request, tmp_path) -> Settings:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}" if request.param == "sqlite" else fresh_postgres(f"tretten_migrate_{worker()}")
    settings = Settings(data_dir=tmp_path, database_url=url, secret_key="test-secret")
    command.upgrade(alembic_config(settings), "0003")
    yield settings
    get_engine(settings).dispose()


def test_tuts_tomb_rows_become_pyramid_rows(settings_before_0004):
    settings = settings_before_0004
    day = date(2026, 12, 1)
    with session_factory(settings)() as session:
        player = Player()
        session.add(player)
        session.flush()
        rules = {"passes": "1", "goal": "pyramid"}
        session.add_all([
            Game(player_id=player.id, preset="tuts-tomb", game="pyramid", rules=rules, deal="", seed=7),
            Game(player_id=player.id, preset="relaxed", game="pyramid", rules=rules, deal="", seed=7),
            DealVerdict(preset="tuts-tomb", seed=7, winnable=True, moves="P1"),  # Pyramid has one: dropped
            DealVerdict(preset="pyramid", seed=7, winnable=True, moves="P2"),
            DealVerdict(preset="tuts-tomb", seed=8, winnable=False),           # Pyramid has none: kept
            DailyDeal(day=day, preset="tuts-tomb", seed=5),
            DailyDeal(day=day, preset="pyramid", seed=6),
        ])
        session.commit()
    upgrade_to_head(settings)
    with session_factory(settings)() as session:
        assert sorted(session.scalars(select(Game.preset))) == ["pyramid", "relaxed"]
        verdicts = {(v.preset, v.seed): v.moves for v in session.scalars(select(DealVerdict))}
        assert verdicts == {("pyramid", 7): "P2", ("pyramid", 8): ""}
        assert [(d.preset, d.seed) for d in session.scalars(select(DailyDeal))] == [("pyramid", 6)]
