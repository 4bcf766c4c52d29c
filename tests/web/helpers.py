"""Small helpers for driving the HTML app like a browser would."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from fastapi.testclient import TestClient

from app.db.models import Player
from app.services.accounts import players
from app.services.play import games
from app.web.http.identity import PLAYER_COOKIE, sign_player, unsign_player

HX = {"HX-Request": "true"}


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([0-9a-f]+)"', html)
    assert match, "page has no CSRF token"
    return match.group(1)


def board_state(html: str) -> dict:
    match = re.search(r'id="board"[^>]*data-status="(\w+)" data-ply="(\d+)" data-version="(\d+)" data-game-id="([\w-]+)"', html)
    assert match, "no board in the response"
    status, ply, version, game_id = match.groups()
    selected = re.search(r'id="board"[^>]*data-selected="([^"]*)"', html)
    return {"status": status, "ply": int(ply), "version": int(version), "id": game_id,
            "selected": selected.group(1) if selected else ""}


def stored_game(client: TestClient, url: str) -> tuple[str, str]:
    """Open a deal's link (it shows the deal ready to play, storing nothing), then store its game
    at ply 0 for the client's player, as its first move would; returns (game id, game page html).
    Tests of what happens after the start use this; tests/web/routes/test_lifecycle.py plays the real
    first move."""
    opened = client.get(url)
    assert opened.status_code == 200, opened.text
    settings = client.app.state.settings
    player_id, _ = unsign_player(settings.secret_key, client.cookies.get(PLAYER_COOKIE))
    parts = urlsplit(url)
    path = parts.path.split("/")  # "", "play", preset[, seed]
    deal = parse_qs(parts.query).get("deal", [None])[0]
    with client.app.state.sessionmaker() as session:
        player = session.get(Player, player_id) or players.stored_visitor(session, player_id)
        jar = next(c for c in client.cookies.jar if c.name == PLAYER_COOKIE)  # as a first POST sets it:
        client.cookies.set(PLAYER_COOKIE, sign_player(settings.secret_key, player_id), domain=jar.domain, path=jar.path)
        game = games.start_game(session, player, path[2], seed=int(path[3]) if len(path) > 3 else None,
                                deal_text=deal)
        game_id = game.id
        session.commit()
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    return game_id, page.text


def start_seeded(client: TestClient, preset: str, seed: int) -> tuple[str, str]:
    """A seeded deal's game, stored at ply 0 (see stored_game)."""
    return stored_game(client, f"/play/{preset}/{seed}")


def first_move(client: TestClient, url: str, *, htmx: bool = True, **fields) -> tuple[str, "object"]:
    """Open a deal's link and post a first move to it; returns (the stored game's id, response)."""
    page = client.get(url)
    assert page.status_code == 200, page.text
    response = client.post(url, data={"csrf_token": csrf_of(page.text), **fields}, headers=HX if htmx else {})
    if htmx:
        assert response.status_code == 200, response.text
        return response.headers["HX-Push-Url"].rsplit("/", 1)[1], response
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1], response


def act(client: TestClient, game_id: str, html: str, *, htmx: bool = True, **fields) -> "object":
    state = board_state(html)
    data = {"csrf_token": csrf_of(html), "ply": state["ply"], "version": state["version"], **fields}
    return client.post(f"/games/{game_id}/act", data=data, headers=HX if htmx else {})


def board_fields(move: str) -> dict:
    """The board form's fields for one move in notation: a draw or turnover by its button, a
    king by a tap, a pair by selecting one card and tapping the other."""
    if move in ("D", "R"):
        return {"action": "draw" if move == "D" else "recycle"}
    first, _, second = move.partition("+")
    return {"sel": first, "target": second} if second else {"target": first}
