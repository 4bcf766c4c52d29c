"""The shared dependencies: the browser's player is read, and its read ended, before the route."""

from __future__ import annotations

from starlette.requests import Request

from app.services.accounts import players
from app.web.http import identity
from app.web.http.deps import get_api_player, get_browser_player


def _request(app, cookie: str | None, method: str = "GET") -> Request:
    headers = [(b"cookie", f"{identity.PLAYER_COOKIE}={cookie}".encode())] if cookie else []
    return Request({"type": "http", "method": method, "path": "/", "headers": headers, "query_string": b"",
                    "app": app, "state": {}})


def test_the_player_is_read_and_the_connection_given_back_before_the_route(app, settings):
    with app.state.sessionmaker() as session:
        stored = players.stored_visitor(session, "deps-player-1")
        session.commit()
        generation = stored.session_generation
    cookie = identity.sign_player(settings.secret_key, "deps-player-1", generation)
    with app.state.sessionmaker() as session:
        player = get_browser_player(_request(app, cookie), session, settings)
        # a sync route waits for a thread of its own: it must not hold a connection meanwhile
        assert not session.in_transaction()
        assert (player.id, player.session_generation, player.zen) == ("deps-player-1", generation, False)
        assert not session.in_transaction()  # what was read stays loaded: no second read


def test_the_api_player_is_read_and_the_connection_given_back_before_the_route(app):
    with app.state.sessionmaker() as session:
        stored, token = players.create_api_player(session)
        session.commit()
        stored_id = stored.id
    with app.state.sessionmaker() as session:
        player = get_api_player(session, authorization=f"Bearer {token}")
        assert not session.in_transaction()
        assert player.id == stored_id


def test_a_request_that_may_search_waits_in_the_solvers_threads(client, monkeypatch):
    """A new deal proven winnable searches (up to a second and a half): in the THREADS that serve
    every move, four of them at once held every move back. Taps and share links stay there."""
    from app.web.http import deps

    from ..helpers import act, first_move
    from ..play import api_player

    searched = []
    real = deps.in_solver_thread
    monkeypatch.setattr(deps, "in_solver_thread", lambda request, work: searched.append(request.url.path) or real(request, work))
    assert client.get("/play/pyramid-3", follow_redirects=False).status_code == 303
    assert searched == []  # no cookie of ours: dealt a deal proven before, no search
    client.get("/")  # a returning browser (its cookie): its new deals are proven winnable
    assert client.get("/play/pyramid-3/5").status_code == 200 and searched == []
    game_id, _ = first_move(client, "/play/pyramid-3/5", action="draw")
    assert searched == []  # a first move, a share link: no search
    page = client.get(f"/games/{game_id}").text
    assert act(client, game_id, page, action="draw").status_code == 200 and searched == []
    assert client.get("/play/pyramid-3", follow_redirects=False).status_code == 303
    assert searched == ["/play/pyramid-3"]
    page = client.get(f"/games/{game_id}").text
    assert act(client, game_id, page, action="confirm-new").status_code == 200
    assert searched[-1] == f"/games/{game_id}/act"
    auth = api_player(client)  # a program's player keeps plain random deals: no search
    assert client.post("/api/games", json={"preset": "pyramid"}, headers=auth).status_code == 201
    assert searched[-1] != "/api/games"
