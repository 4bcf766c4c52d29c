"""A clean win's one rule (app.services.stats.clean), in Python for the daily table and in SQL for
the statistics, the streak and a deal's records: the two say the same of every kind of game."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
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
            why = clean.unranked(game, first=first, alone=_alone(game, rows))
            # ranked, or clean but played offline (the statistics count it as the player's own)
            assert (game.id in clean_ids) is (why in (None, clean.Unranked.OFFLINE)), (KINDS[game.seed], first, why)
            # by the player alone: the same, undos allowed
            undone = SimpleNamespace(**{name: getattr(game, name) for name in (
                "hint_count", "auto_finished", "winnable_shown", "played_via", "played_offline", "seconds", "cursor")},
                undo_count=0)
            alone = clean.unranked(undone, first=first, alone=_alone(game, rows)) in (None, clean.Unranked.OFFLINE)
            assert (game.id in unaided_ids) is alone, (KINDS[game.seed], first, why)
        assert len(clean_ids) == 4 and len(unaided_ids) == 8  # by hand: timed, or offline (any time); undone or not


def _alone(game, rows) -> bool:
    """No other game of the player's cards was stored while ``game`` was played, to its end or,
    with none, its last change (read in Python)."""
    end = game.finished_at or game.updated_at
    return not any(other.id != game.id and other.player_id == game.player_id and other.deal_key == game.deal_key
                   and game.created_at <= other.created_at < end for other in rows)


def test_a_game_of_the_same_cards_opened_while_a_game_is_played_makes_it_no_win_by_the_player_alone(stored):
    """The day's game in play, the same cards dealt by a sibling preset: the day's win is not
    the player's alone (that game's hints, and its line once over, are this one's too); a game
    of them opened after the win is over changes nothing."""
    with stored() as session:
        player = players.stored_visitor(session, "beside-player")
        limits = games.Limits(games_per_minute=10**6)
        played = []
        # the first is won while the second is open, or before it was opened; or the second is
        # opened at the very moment the first was (not alone), or of its end (alone)
        for n, (sibling, gap) in enumerate((("pyramid-3", 1), ("relaxed", -1), ("pyramid-3", None), ("relaxed", 0))):
            seed = 1000 + n
            game = games.start_game(session, player, "pyramid", seed=seed, limits=limits)
            game.status, game.cursor, game.seconds, game.started_at = Status.WON, MOVES, 60, game.created_at
            session.flush()
            beside = games.start_game(session, player, sibling, seed=seed, limits=limits)
            if gap is None:
                beside.created_at = game.created_at
            game.finished_at = beside.created_at + timedelta(seconds=gap or 1)
            if gap == 0:
                game.finished_at = beside.created_at
            session.flush()
            played.append(game)
        # counted lost with no end (replaced: its last change is when it was), a game of its cards
        # begun a week later changes nothing
        left = games.start_game(session, player, "pyramid", seed=1010, limits=limits)
        left.status, left.cursor, left.seconds, left.started_at = Status.PLAYING, 3, 60, left.created_at
        left.abandoned, left.played_offline = True, True
        session.flush()
        later = games.start_game(session, player, "pyramid-3", seed=1010, limits=limits)
        later.created_at = left.updated_at + timedelta(days=7)
        session.flush()
        session.commit()
        rows = session.scalars(select(Game).where(Game.player_id == player.id)).all()
        unaided_ids = set(session.scalars(select(Game.id).where(clean.unaided_expression(Game))))
        assert left.finished_at is None and _alone(left, rows) and left.id in unaided_ids
        for game, alone in zip(played, (False, True, False, True), strict=True):
            assert _alone(game, rows) is alone
            assert (game.id in clean.alone_games(session, [player.id], game.seed, "pyramid")) is alone
            assert clean.unranked(game, first=True, alone=alone) == (None if alone else clean.Unranked.ALONGSIDE)
            assert (game.id in unaided_ids) is alone
