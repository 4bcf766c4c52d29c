"""Optimistic concurrency and limits: simultaneous moves never both land; floods get 429."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from app.db.models import Game, Player
from app.engine import GameRecord, get_game
from app.services.errors import ConflictError, RateLimitError
from app.services.play import games, moves
from app.services.play.games import record_of


def test_simultaneous_moves_on_one_ply_land_once(app):
    with TestClient(app) as setup:
        auth = {"Authorization": "Bearer " + setup.post("/api/players").json()["token"]}
        game = setup.post("/api/games", json={"preset": "pyramid", "seed": 8}, headers=auth).json()

    def post_draw(_):
        with TestClient(app) as client:
            return client.post(f"/api/games/{game['id']}/moves", json={"move": "D", "ply": 0}, headers=auth).status_code

    with ThreadPoolExecutor(max_workers=6) as pool:
        codes = sorted(pool.map(post_draw, range(6)))
    assert codes.count(200) == 1 and set(codes) <= {200, 409}, codes
    with TestClient(app) as client:
        stored = client.get(f"/api/games/{game['id']}", headers=auth).json()
    assert stored["moves"] == "D" and stored["cursor"] == 1
    replayed = GameRecord.from_text("pyramid", get_game("pyramid").parse_rules(stored["rules"]), stored["deal"], stored["moves"])
    assert replayed.position.to_json() == stored["position"]


def test_too_many_new_games_in_a_minute_is_refused(app):
    with app.state.sessionmaker() as session:
        player = Player()
        session.add(player)
        session.commit()
        limits = games.Limits(games_per_minute=3)
        for seed in range(3):
            games.start_game(session, player, "gaps", seed=seed, limits=limits)
        with pytest.raises(RateLimitError):
            games.start_game(session, player, "gaps", seed=9, limits=limits)


def _player_and_game(app, preset: str = "pyramid", seed: int = 8):
    with app.state.sessionmaker() as session:
        player = Player()
        session.add(player)
        session.commit()
        game = games.start_game(session, player, preset, seed=seed)
        session.commit()
        return player.id, game.id


def _first_move(game) -> str:
    return str(record_of(game).position.legal_moves()[0])


def _load(session, player_id: str, game_id: str) -> tuple[Player, Game]:
    return session.get(Player, player_id), session.get(Game, game_id)


def test_a_move_stores_the_game_state_and_the_next_version(app):
    player_id, game_id = _player_and_game(app)
    with app.state.sessionmaker() as session:
        player, game = _load(session, player_id, game_id)
        before = (game.version, game.updated_at)
        move = _first_move(game)
        moves.play_move(session, game, player, move)
        session.commit()
        assert (game.version, game.cursor, game.moves) == (before[0] + 1, 1, move)  # what the response shows
    with app.state.sessionmaker() as session:
        stored = session.get(Game, game_id)
        assert (stored.version, stored.cursor, stored.moves, stored.status) == (before[0] + 1, 1, move, "playing")
        assert stored.updated_at >= before[1] and stored.started_at is not None


def test_a_write_from_a_stale_read_is_refused_and_changes_nothing(app):
    player_id, game_id = _player_and_game(app)
    with app.state.sessionmaker() as first, app.state.sessionmaker() as second:
        player, game = _load(first, player_id, game_id)
        other_player, stale = _load(second, player_id, game_id)
        second.commit()  # ends its read; the object keeps what it read (expire_on_commit=False)
        moves.play_move(first, game, player, _first_move(game))
        first.commit()
        with pytest.raises(ConflictError):
            moves.play_move(second, stale, other_player, "D")
    with app.state.sessionmaker() as session:
        stored = session.get(Game, game_id)
        assert (stored.cursor, stored.version, stored.moves) == (1, game.version, game.moves)


def test_a_change_outside_the_game_state_is_stored_too(app):
    player_id, game_id = _player_and_game(app)
    with app.state.sessionmaker() as session:
        player, game = _load(session, player_id, game_id)
        game.scoring = "timed"  # no action changes it with a move; if one did, it would not be lost
        moves.play_move(session, game, player, _first_move(game))
        session.commit()
    with app.state.sessionmaker() as session:
        stored = session.get(Game, game_id)
        assert (stored.scoring, stored.cursor) == ("timed", 1)


def test_the_columns_a_move_leaves_alone_keep_what_earlier_actions_stored(app):
    # the first move starts the clock, the second changes only the move list, an undo counts
    player_id, game_id = _player_and_game(app)
    with app.state.sessionmaker() as session:
        player, game = _load(session, player_id, game_id)
        moves.play_move(session, game, player, _first_move(game))
        session.commit()
    with app.state.sessionmaker() as session:
        started_at = session.get(Game, game_id).started_at
        player, game = _load(session, player_id, game_id)
        second = _first_move(game)
        moves.play_move(session, game, player, second)
        session.commit()
    with app.state.sessionmaker() as session:
        stored = session.get(Game, game_id)
        assert (stored.cursor, stored.moves.split()[1], stored.started_at) == (2, second, started_at)
        player, game = _load(session, player_id, game_id)
        moves.undo(session, game, player)
        session.commit()
    with app.state.sessionmaker() as session:
        stored = session.get(Game, game_id)
        assert (stored.cursor, len(stored.moves.split()), stored.undo_count) == (1, 2, 1)
        assert stored.started_at == started_at and stored.version == 4
