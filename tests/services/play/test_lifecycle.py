"""A game's life in SQL and in Python (app.services.play.lifecycle): the statistics, deal pages and
daily tables filter with the SQL expressions, the pages and the API read ``phase_of``; the two
must say the same of every kind of row."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from app.db.models import Game
from app.engine import Status
from app.services.accounts import players
from app.services.play import games, lifecycle
from tests.databases import fresh_postgres, migrated_sessions, worker

NOW = datetime.now(UTC)
ROWS = [row for row in itertools.product(
    (Status.PLAYING, Status.WON, Status.LOST),   # the row's status
    (False, True),                               # abandoned
    (None, NOW - timedelta(hours=1), NOW - timedelta(days=2)),  # started_at (None: stored, not played)
    (timedelta(hours=1), timedelta(days=2)),     # how long ago its last change was
) if row[2] is not None or row[:2] == (Status.PLAYING, False)]  # a game not played has no result


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def stored_rows(request, tmp_path_factory):
    """One game per kind of row, in one database of each kind."""
    url = fresh_postgres(f"lifecycle_{worker()}") if request.param == "postgresql" else None
    sessions = migrated_sessions(tmp_path_factory.mktemp("lifecycle"), url)
    ids = {}
    with sessions() as session:
        for n, (status, abandoned, started, ago) in enumerate(ROWS):
            player = players.stored_visitor(session, f"life-{n}")  # one unfinished game per player and preset
            game = games.start_game(session, player, "pyramid", seed=n)
            game.status, game.abandoned, game.started_at, game.updated_at = status, abandoned, started, NOW - ago
            session.flush()
            ids[game.id] = (status, abandoned, started, ago)
        session.commit()
    return sessions, ids


def test_the_sql_expressions_say_what_phase_of_says_of_every_row(stored_rows):
    sessions, ids = stored_rows
    with sessions() as session:
        over = set(session.scalars(select(Game.id).where(lifecycle.over_expression(NOW))))
        in_play = set(session.scalars(select(Game.id).where(lifecycle.in_play_expression(NOW))))
        results = dict(session.execute(select(Game.id, lifecycle.result_expression(NOW))
                                       .where(Game.started_at.is_not(None))).all())
        for game in session.scalars(select(Game)):
            phase = lifecycle.phase_of(game, NOW)
            assert (game.id in over) is phase.over, (ids[game.id], phase)
            assert (game.id in in_play) is (phase in (lifecycle.Phase.NEW, lifecycle.Phase.PLAYING)), (ids[game.id], phase)
            if game.started_at is not None:
                assert results[game.id] == phase.result, (ids[game.id], phase)


def test_a_game_with_no_moves_left_is_open_until_given_up_replaced_or_left_a_day():
    game = Game(status=Status.LOST, abandoned=False, started_at=NOW, updated_at=NOW)
    assert lifecycle.phase_of(game, NOW) is lifecycle.Phase.LOST and not lifecycle.Phase.LOST.over
    assert lifecycle.Phase.LOST.open and lifecycle.Phase.LOST.result is Status.LOST
    game.abandoned = True
    assert lifecycle.phase_of(game, NOW) is lifecycle.Phase.CONCEDED
    game.abandoned = False
    assert lifecycle.phase_of(game, NOW + timedelta(days=1, seconds=1)) is lifecycle.Phase.CONCEDED
    conceded = lifecycle.Phase.CONCEDED
    assert conceded.over and not conceded.open and conceded.result is Status.LOST
    assert lifecycle.closed_reason(conceded) == "counted_lost"
