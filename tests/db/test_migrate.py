"""Data migrations: what they do to rows stored before them, on both backends."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest
from alembic import command
from sqlalchemy import select, text

from app.db.migrate import alembic_config, upgrade_to_head
from app.db.models import DailyDeal, DealVerdict, Game
from app.db.session import get_engine, session_factory
from app.engine import deal_for_seed, format_deal, get_game
from app.settings import Settings

from ..databases import fresh_postgres, worker


@pytest.fixture(params=["sqlite", "postgresql"])
def settings_before_0004(request, tmp_path) -> Settings:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}" if request.param == "sqlite" else fresh_postgres(f"tretten_migrate_{worker()}")
    settings = Settings(data_dir=tmp_path, database_url=url, secret_key="test-secret-of-at-least-32-characters")
    command.upgrade(alembic_config(settings), "0003")
    yield settings
    get_engine(settings).dispose()


def test_tuts_tomb_rows_become_pyramid_rows(settings_before_0004):
    settings = settings_before_0004
    day = date(2026, 12, 1)
    # rows as the schema of 0003 stores them (the models describe the newest schema)
    with get_engine(settings).begin() as connection:
        now = datetime(2026, 12, 1, tzinfo=timezone.utc)
        connection.execute(text("INSERT INTO players (id, scoring, zen, four_colour, created_at) "
                                "VALUES ('p1', 'simple', false, false, :now)"), {"now": now})
        for game_id, preset in (("g1", "tuts-tomb"), ("g2", "relaxed")):
            connection.execute(text(
                "INSERT INTO games (id, player_id, preset, game, rules, deal, seed, moves, cursor, status, scoring, "
                "score, undo_count, hint_count, created_at, updated_at, version) VALUES (:id, 'p1', :preset, "
                "'pyramid', '{}', :deal, '7', '', 0, 'playing', 'simple', 0, 0, 0, :now, :now, 1)"),
                {"id": game_id, "preset": preset, "now": now, "deal": format_deal(deal_for_seed("pyramid", 7))})
        for preset, seed, winnable, line in (("tuts-tomb", 7, True, "P1"),  # Pyramid has one: dropped
                                             ("pyramid", 7, True, "P2"),
                                             ("tuts-tomb", 8, False, "")):    # Pyramid has none: kept
            connection.execute(text("INSERT INTO deal_verdicts (preset, seed, winnable, moves, nodes, solved_at) "
                                    "VALUES (:preset, :seed, :winnable, :moves, 0, :now)"),
                               {"preset": preset, "seed": str(seed), "winnable": winnable, "moves": line, "now": now})
        for preset, seed in (("tuts-tomb", 5), ("pyramid", 6)):
            connection.execute(text("INSERT INTO daily_deals (day, preset, seed, candidate, proven, created_at) "
                                    "VALUES (:day, :preset, :seed, 0, true, :now)"),
                               {"day": day, "preset": preset, "seed": str(seed), "now": now})
    upgrade_to_head(settings)
    with session_factory(settings)() as session:
        assert sorted(session.scalars(select(Game.preset))) == ["pyramid", "relaxed"]
        verdicts = {(v.preset, v.seed): v.moves for v in session.scalars(select(DealVerdict))}
        assert verdicts == {("pyramid", 7): "P2", ("pyramid", 8): ""}
        assert [(d.preset, d.seed) for d in session.scalars(select(DailyDeal))] == [("pyramid", 6)]


@pytest.fixture(params=["sqlite", "postgresql"])
def settings_before_deal_key(request, tmp_path) -> Settings:
    url = (f"sqlite:///{tmp_path / 'old.sqlite3'}" if request.param == "sqlite"
           else fresh_postgres(f"tretten_migrate_key_{worker()}"))
    settings = Settings(data_dir=tmp_path, database_url=url, secret_key="test-secret-of-at-least-32-characters")
    command.upgrade(alembic_config(settings), "honest_0001")
    yield settings
    get_engine(settings).dispose()


def test_stored_games_get_their_deal_key(settings_before_deal_key):
    """Games stored before the key get the one their game's rules give (Pyramid: the ranks;
    Gaps: the suits renamed), so a first game played before the upgrade still comes first."""
    settings = settings_before_deal_key
    now = datetime(2026, 12, 1, tzinfo=timezone.utc)
    deals = {"g1": ("pyramid", "pyramid"), "g2": ("gaps", "gaps"), "g3": ("double-pyramid", "double-pyramid")}
    with get_engine(settings).begin() as connection:
        connection.execute(text("INSERT INTO players (id, scoring, zen, four_colour, created_at) "
                                "VALUES ('p1', 'simple', false, false, :now)"), {"now": now})
        for game_id, (preset, game) in deals.items():
            connection.execute(text(
                "INSERT INTO games (id, player_id, preset, game, rules, deal, seed, moves, cursor, status, scoring, "
                "score, undo_count, hint_count, created_at, updated_at, version) VALUES (:id, 'p1', :preset, "
                ":game, '{}', :deal, '7', '', 0, 'playing', 'simple', 0, 0, 0, :now, :now, 1)"),
                {"id": game_id, "preset": preset, "game": game, "now": now,
                 "deal": format_deal(deal_for_seed(game, 7))})
    upgrade_to_head(settings)
    with session_factory(settings)() as session:
        keys = {g.id: g.deal_key for g in session.scalars(select(Game))}
    for game_id, (_, game) in deals.items():
        assert keys[game_id] == get_game(game).deal_key(deal_for_seed(game, 7))
    assert len(set(keys.values())) == 3
