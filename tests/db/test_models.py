"""The stored types: a moment comes back aware and in UTC from either database
(app.db.models.Moment), so no service converts one. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from sqlalchemy import func, select

from app.db.models import Player


def test_a_moment_comes_back_aware_in_utc_from_a_column_and_from_an_aggregate(sessions):
    copenhagen = timezone(timedelta(hours=1))
    moment = datetime(2026, 12, 7, 9, 30, tzinfo=copenhagen)
    with sessions() as session:
        player = Player(created_at=moment)
        session.add(player)
        session.commit()
        player_id = player.id
    with sessions() as session:
        kept = session.get(Player, player_id).created_at
        assert kept.tzinfo is not None and kept == moment
        assert kept.astimezone(UTC) == datetime(2026, 12, 7, 8, 30, tzinfo=UTC)
        oldest = session.scalar(select(func.min(Player.created_at)))
        assert oldest.tzinfo is not None and oldest == moment
        # compared in SQL with a moment of another zone: the same instant, not the same wall clock
        just_before = datetime(2026, 12, 7, 10, 29, tzinfo=timezone(timedelta(hours=2)))
        assert session.scalar(select(func.count()).select_from(Player).where(Player.created_at > just_before)) == 1
        assert session.scalar(select(func.count()).select_from(Player).where(Player.created_at > moment)) == 0


def test_a_naive_moment_is_taken_as_utc(sessions):
    with sessions() as session:
        player = Player(created_at=datetime(2026, 12, 7, 8, 30))
        session.add(player)
        session.commit()
        player_id = player.id
    with sessions() as session:
        assert session.get(Player, player_id).created_at == datetime(2026, 12, 7, 8, 30, tzinfo=UTC)
