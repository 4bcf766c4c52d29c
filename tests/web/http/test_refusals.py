"""A refused request changes nothing (issue 39): every row of every table is as it was.

Each refusal a player or a script can meet is provoked on a real game, and the whole database
is compared before and after the refused request: a stale tab, an illegal or unknown action,
nothing to undo or redo, a won game, a busy solver (a hint, "New deal" with winnable deals only,
a hint on a deal not yet stored), "New deal" and "Restart" while another tab moves, another
player's game, a forged request, and the API's refusals. SQLite in the fast tier, PostgreSQL too
in the whole suite (tests/web/conftest.py).
"""

from __future__ import annotations

import pytest
from sqlalchemy import MetaData, select, update

from app.db.models import Game, Player
from app.services.assist import searches
from app.services.play import games, lifecycle

from ..helpers import HX, board_state, csrf_of, start_seeded
from ..play import WIN_LINE, WIN_SEED, api_player, move, new_game

PYRAMID_SEED = 4242


def snapshot(app) -> dict[str, list[tuple]]:
    """Every row of every table, in a stable order."""
    metadata = MetaData()
    with app.state.sessionmaker() as session:
        metadata.reflect(bind=session.get_bind())
        return {name: sorted((tuple(map(repr, row)) for row in session.execute(select(table))))
                for name, table in metadata.tables.items()}


def refused(app, send, status: int):
    """``send()``'s answer, checked to be the refusal ``status`` and to have changed no row.
    What earlier requests left to the solver's spare time (a par kept for a deal) is done
    first: it is theirs, and it writes when it is done."""
    searches.wait_for_spare_time()
    before = snapshot(app)
    response = send()
    assert response.status_code == status, (response.status_code, response.text[:400])
    assert snapshot(app) == before, "a refused request changed the database"
    return response


def act(client, game_id: str, page: str, htmx: bool = True, **fields):
    state = board_state(page)
    data = {"csrf_token": csrf_of(page), "ply": state["ply"], "version": state["version"], **fields}
    return client.post(f"/games/{game_id}/act", data=data, headers=HX if htmx else {})


def played_once(client, preset: str = "pyramid", seed: int = PYRAMID_SEED) -> tuple[str, str]:
    """A game in play after one move (a draw): its id and its page."""
    game_id, page = start_seeded(client, preset, seed)
    after = act(client, game_id, page, action="draw")
    assert after.status_code == 200, after.text[:300]
    return game_id, after.text


def row(app, game_id: str) -> Game:
    with app.state.sessionmaker() as session:
        game = session.get(Game, game_id)
        session.expunge(game)
        return game


@pytest.mark.parametrize("htmx", [True, False])
def test_a_stale_tab_is_refused_and_changes_nothing(client, app, htmx):
    game_id, first = played_once(client)
    act(client, game_id, first, action="draw")  # another tab moved on
    refused(app, lambda: act(client, game_id, first, htmx=htmx, action="draw"), 409)


@pytest.mark.parametrize("fields, status", [
    ({"action": "bogus"}, 422),             # no such action
    ({"action": "redo"}, 422),              # nothing to redo
    ({"action": "tap", "target": "Z99"}, 422),  # no such place
])
def test_a_board_action_that_cannot_be_done_changes_nothing(client, app, fields, status):
    game_id, page = played_once(client)
    refused(app, lambda: act(client, game_id, page, **fields), status)


def test_undo_with_nothing_to_undo_changes_nothing(client, app):
    game_id, page = start_seeded(client, "pyramid", PYRAMID_SEED)
    refused(app, lambda: act(client, game_id, page, action="undo"), 422)


def test_a_move_on_a_won_game_changes_nothing(client, app):
    auth = api_player(client)
    game = new_game(client, auth, "pyramid", WIN_SEED)
    for text in WIN_LINE:
        game = move(client, auth, game, text)
    refused(app, lambda: client.post(f"/api/games/{game['id']}/undo", json={"ply": game["cursor"]},
                                     headers=auth), 422)
    refused(app, lambda: client.post(f"/api/games/{game['id']}/moves", json={"move": "D", "ply": game["cursor"]},
                                     headers=auth), 422)


def test_a_hint_refused_by_a_busy_solver_changes_nothing(client, app, monkeypatch):
    game_id, page = played_once(client)
    monkeypatch.setattr(searches, "_max_admitted", 0)  # every search slot taken
    state = board_state(page)
    data = {"csrf_token": csrf_of(page), "ply": state["ply"], "version": state["version"]}
    refused(app, lambda: client.post(f"/games/{game_id}/hint", data=data, headers=HX), 429)


def test_a_hint_on_a_deal_not_yet_stored_refused_by_a_busy_solver_stores_nothing(client, app, monkeypatch):
    page = client.get(f"/play/pyramid/{PYRAMID_SEED}")
    client.post("/prefs", data={"csrf_token": csrf_of(page.text), "scoring": "simple"})  # the player is stored
    page = client.get(f"/play/pyramid/{PYRAMID_SEED}")
    monkeypatch.setattr(searches, "_max_admitted", 0)
    data = {"csrf_token": csrf_of(page.text)}
    answer = refused(app, lambda: client.post(f"/play/pyramid/{PYRAMID_SEED}/hint", data=data, headers=HX), 429)
    assert 'data-error="solver_busy"' in answer.text  # the reason; the page keeps the deal it shows


def test_new_deal_with_winnable_deals_only_refused_by_a_busy_solver_keeps_the_game_in_play(client, app, monkeypatch):
    game_id, page = played_once(client)
    with app.state.sessionmaker() as session:
        player_id = session.get(Game, game_id).player_id
        session.execute(update(Player).where(Player.id == player_id).values(winnable_only=True))
        session.commit()
    before = row(app, game_id)
    monkeypatch.setattr(searches, "_max_admitted", 0)
    refused(app, lambda: act(client, game_id, page, action="confirm-new"), 429)
    after = row(app, game_id)
    assert (after.version, after.abandoned) == (before.version, False)
    with app.state.sessionmaker() as session:
        assert lifecycle.phase_of(session.get(Game, game_id)) is lifecycle.Phase.PLAYING


@pytest.mark.parametrize("action", ["confirm-new", "confirm-restart"])
def test_new_deal_or_restart_while_another_tab_moves_is_a_conflict_not_an_error(client, app, monkeypatch, action):
    """The other tab's move lands between this request's read of the game and its write."""
    game_id, page = played_once(client)
    real_check_owner = lifecycle.check_owner

    def another_tab_moves(game, player):
        real_check_owner(game, player)
        with app.state.sessionmaker() as other:
            other.execute(update(Game).where(Game.id == game_id).values(version=Game.version + 1))
            other.commit()

    monkeypatch.setattr(lifecycle, "check_owner", another_tab_moves)
    before = row(app, game_id)
    answer = act(client, game_id, page, action=action)
    assert answer.status_code == 409, answer.text[:300]
    assert 'id="board"' in answer.text and board_state(answer.text)["version"] == before.version + 1
    after = row(app, game_id)
    assert (after.abandoned, after.cursor, after.moves) == (False, before.cursor, before.moves)


def test_another_players_game_and_a_forged_request_change_nothing(client, other_client, app):
    game_id, page = played_once(client)
    theirs = other_client.get(f"/games/{game_id}")
    state = board_state(page)
    refused(app, lambda: other_client.post(f"/games/{game_id}/act", headers=HX, data={
        "csrf_token": csrf_of(theirs.text), "ply": state["ply"], "version": state["version"], "action": "draw"}), 403)
    refused(app, lambda: client.post(f"/games/{game_id}/act", headers=HX, data={
        "csrf_token": "0" * 64, "ply": state["ply"], "version": state["version"], "action": "draw"}), 403)


def test_a_visitors_refused_first_post_stores_no_player(client, app):
    page = client.get(f"/play/pyramid/{PYRAMID_SEED}")
    data = {"csrf_token": csrf_of(page.text), "action": "bogus"}
    refused(app, lambda: client.post(f"/play/pyramid/{PYRAMID_SEED}", data=data, headers=HX), 422)


def test_retry_from_a_point_the_game_never_had_changes_nothing(client, app):
    auth = api_player(client)
    game = new_game(client, auth, "pyramid", WIN_SEED)
    game = move(client, auth, game, WIN_LINE[0])
    with app.state.sessionmaker() as session:  # finished: counted as lost, so it has an analysis
        session.execute(update(Game).where(Game.id == game["id"]).values(abandoned=True))
        session.commit()
    from ..play import browse_as

    browse_as(client, client, auth)
    page = client.get(f"/games/{game['id']}")
    refused(app, lambda: client.post(f"/games/{game['id']}/retry",
                                     data={"csrf_token": csrf_of(page.text), "retry_ply": 7}), 422)


def test_retry_of_a_game_still_in_play_changes_nothing(client, app):
    """"Try again from here" is the analysis's, of a game that is over: on a game in play it
    would count that game lost without asking (a new game of the preset replaces it)."""
    auth = api_player(client)
    game = new_game(client, auth, "pyramid", WIN_SEED)
    for token in WIN_LINE[:2]:
        game = move(client, auth, game, token)
    from ..play import browse_as

    browse_as(client, client, auth)
    page = client.get(f"/games/{game['id']}")
    answer = refused(app, lambda: client.post(f"/games/{game['id']}/retry",
                                              data={"csrf_token": csrf_of(page.text), "retry_ply": 1}), 422)
    assert "This game is still being played: you can try again from a point in it once it is over." in answer.text


def test_the_apis_refusals_change_nothing(client, app):
    auth = api_player(client)
    game = move(client, auth, new_game(client, auth, "pyramid", PYRAMID_SEED), "D")
    url = f"/api/games/{game['id']}"
    refused(app, lambda: client.post(f"{url}/moves", json={"move": "D", "ply": 0}, headers=auth), 409)
    refused(app, lambda: client.post(f"{url}/moves", json={"move": "P0", "ply": 1}, headers=auth), 422)
    refused(app, lambda: client.post(f"{url}/moves", json={"move": "??", "ply": 1}, headers=auth), 422)
    refused(app, lambda: client.post(f"{url}/redo", json={"ply": 1}, headers=auth), 422)
    refused(app, lambda: client.post("/api/games", json={"preset": "nope", "seed": 1}, headers=auth), 404)
    stranger = api_player(client)
    refused(app, lambda: client.post(f"{url}/undo", json={"ply": 1}, headers=stranger), 403)


def test_new_deals_seed_comes_before_the_old_game_changes(app):
    """The order itself: a refused seed search finds the old game untouched in the session."""
    from app.services.errors import BusyError
    from app.services.play import moves

    with app.state.sessionmaker() as session:
        player = Player(winnable_only=True)
        session.add(player)
        session.flush()
        game = games.start_game(session, player, "pyramid", seed=PYRAMID_SEED)
        moves.play_move(session, game, player, "D")
        session.commit()

        def busy(*_args, **_kwargs):
            assert not game.abandoned and not session.dirty
            raise BusyError("busy", "solver_busy", retry_after=1)

        with pytest.raises(BusyError):
            moves.perform(session, game, player, "confirm-new", next_seed=busy)
        assert not game.abandoned
