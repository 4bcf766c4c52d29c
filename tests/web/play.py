"""Known deals and API helpers for the stats, deal, daily and replay tests."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from sqlalchemy import update

from app.db.models import Game

from .helpers import csrf_of

# Pyramid (one pass) seed 250 is won by this line (found by the solver, checked by the engine);
# seed 1 is proven unwinnable, so any play of it ends lost.
WIN_SEED = 250
WIN_LINE = ["P21+P24", "P23+P25", "P22+P26", "P16+P17", "P11+P27", "P15+P20", "P19+S", "D", "D", "D", "P10+S", "P6+P18", "P12+P14", "P7+P13", "P8", "D", "P4+S", "D", "P3+S", "D", "P9+S", "P1+S", "S", "P5+S", "P2", "P0+S"]
LOSE_SEED = 1


def api_player(client) -> dict:
    response = client.post("/api/players")
    assert response.status_code == 201
    return {"Authorization": f"Bearer {response.json()['token']}"}


def new_game(client, auth, preset: str, seed: int) -> dict:
    response = client.post("/api/games", json={"preset": preset, "seed": seed}, headers=auth)
    assert response.status_code == 201, response.text
    return response.json()


def move(client, auth, game: dict, text: str) -> dict:
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": text, "ply": game["cursor"]}, headers=auth)
    assert response.status_code == 200, response.text
    return response.json()


def play_line(client, auth, game: dict, line) -> dict:
    for text in line:
        game = move(client, auth, game, text)
    return game


def win(client, auth, preset: str = "pyramid", seed: int = WIN_SEED, *, by_hand: bool = False) -> dict:
    """A win through the API; ``by_hand``: stored as if played at the board at a person's pace
    (the API is the test's quick way to play: a program's game counts as nobody's own)."""
    game = play_line(client, auth, new_game(client, auth, preset, seed), WIN_LINE)
    assert game["status"] == "won"
    if by_hand:
        played_by_hand(client.app, game["id"])
    return game


def played_by_hand(app, game_id: str, seconds: int = 60) -> None:
    """A game stored through the API, made a person's game at the board: the statistics' clean
    wins, the daily streak and a deal's records count only those (app.services.stats.clean)."""
    set_columns(app, game_id, played_via="page", seconds=seconds)


def lose(client, auth, preset: str = "pyramid", seed: int = LOSE_SEED, *, give_up: bool = False) -> dict:
    """A game played to no moves left; ``give_up``: then given up, so it is over (its analysis
    and the deal's answers are shown to its player)."""
    game = new_game(client, auth, preset, seed)
    while game["status"] == "playing":
        legal = game["legal"]
        game = move(client, auth, game, "D" if "D" in legal else sorted(legal)[0])
    assert game["status"] == "lost"
    if give_up:
        response = client.post(f"/api/games/{game['id']}/give-up", json={"ply": game["ply"]}, headers=auth)
        assert response.status_code == 200, response.text
        game = response.json()
        assert game["phase"] == "conceded"
    return game


def first_move(client, auth, preset: str, seed: int) -> dict:
    game = new_game(client, auth, preset, seed)
    return move(client, auth, game, next(m for m in sorted(game["legal"]) if m != "N"))


def set_columns(app, game_id: str, **values) -> None:
    """Change a stored game directly (the clock, or counters no endpoint sets yet)."""
    with app.state.sessionmaker() as session:
        session.execute(update(Game).where(Game.id == game_id).values(**values))
        session.commit()


def days_ago(days: float) -> datetime:
    return datetime.now(UTC) - timedelta(days=days)


def browse_as(client, api_client, auth) -> None:
    """Make the browser client play as the API player, through the device link."""
    url = api_client.post("/api/players/me/device-link", headers=auth).json()["url"]
    path = urlsplit(url).path  # the link starts with the public URL, whichever host that is
    page = client.get(path)
    assert page.status_code == 200
    assert client.post(path, data={"csrf_token": csrf_of(page.text)}).status_code == 303


def stats_of(html: str) -> dict[str, dict[str, str]]:
    """{'total' or preset: {stat: text}} from the stats page's figure cards."""
    out = {}
    for name, body in re.findall(r'data-figures="([\w-]+)"(.*?)</(?:section|details)>', html, re.S):
        out[name] = {k: re.sub(r"<[^>]+>", "", v).strip() for k, v in re.findall(r'data-stat="([\w-]+)">(.*?)</dd>', body, re.S)}
    return out
