"""A clean win's one rule (app.services.stats.clean), in Python for the daily table and in SQL for
the statistics, the streak and a deal's records: the two say the same of every kind of game."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from sqlalchemy import select

from app.db.models import Game
from app.engine import Status
from app.services.accounts import players
from app.services.play import games
from app.services.stats import clean
from tests.databases import fresh_postgres, migrated_sessions, worker

NOW = datetime.now(UTC)
MOVES = 26
KINDS = list(itertools.product(
    (0, 1),                       # hints
    (0, 1),                       # undos
    (False, True),                # auto-finished
    (False, True),                # "still winnable?" shown
    ("page", "api"),              # played via
    (False, True),                # played offline
    (None, 2, 60),                # seconds (None: no time; 2: faster than a person)
))


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def stored(request, tmp_path_factory):
    """One won game of each kind, each its player's first game of its cards, and a second game
    of the same cards after each."""
    url = fresh_postgres(f"clean_{worker()}") if request.param == "postgresql" else None
    sessions = migrated_sessions(tmp_path_factory.mktemp("clean"), url)
    with sessions() as session:
        player = players.stored_visitor(session, "clean-player")
        for n, (hints, undos, auto, shown, via, offline, seconds) in enumerate(KINDS):
            for again in (False, True):
                game = games.start_game(session, player, "pyramid", seed=n, limits=games.Limits(games_per_minute=10**6))
                game.status, game.cursor, game.started_at, game.finished_at = Status.WON, MOVES, NOW, NOW
                game.hint_count, game.undo_count, game.auto_finished, game.winnable_shown = hints, undos, auto, shown
                game.played_via, game.played_offline, game.seconds = via, offline, seconds
                session.flush()
        session.commit()
    return sessions


def test_the_sql_rule_says_what_the_tables_rule_says_of_every_kind_of_game(stored):
    with stored() as session:
        clean_ids = set(session.scalars(select(Game.id).where(clean.clean_expression(Game))))
        unaided_ids = set(session.scalars(select(Game.id).where(clean.unaided_expression(Game))))
        firsts = clean.first_games(session, ["clean-player"], 0, "pyramid")
        assert len(firsts) == 1  # of seed 0's two games, the first
        rows = session.scalars(select(Game).order_by(Game.created_at, Game.id)).all()
        seen: set[int] = set()
        for game in rows:
            first = game.seed not in seen
            seen.add(game.seed)
            why = clean.unranked(game, first=first)
            # ranked, or clean but played offline (the statistics count it as the player's own)
            assert (game.id in clean_ids) is (why in (None, clean.Unranked.OFFLINE)), (KINDS[game.seed], first, why)
            # by the player alone: the same, undos allowed
            undone = SimpleNamespace(**{name: getattr(game, name) for name in (
                "hint_count", "auto_finished", "winnable_shown", "played_via", "played_offline", "seconds", "cursor")},
                undo_count=0)
            alone = clean.unranked(undone, first=first) in (None, clean.Unranked.OFFLINE)
            assert (game.id in unaided_ids) is alone, (KINDS[game.seed], first, why)
        assert len(clean_ids) == 4 and len(unaided_ids) == 8  # by hand: timed, or offline (any time); undone or not
