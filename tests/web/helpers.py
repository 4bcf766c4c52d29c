"""Small helpers for driving the HTML app like a browser would."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

HX = {"HX-Request": "true"}


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([0-9a-f]+)"', html)
    assert match, "page has no CSRF token"
    return match.group(1)


def board_state(html: str) -> dict:
    match = re.search(r'id="board"[^>]*data-status="(\w+)" data-ply="(\d+)" data-version="(\d+)" data-game-id="([\w-]+)"', html)
    assert match, "no board in the response"
    status, ply, version, game_id = match.groups()
    return {"status": status, "ply": int(ply), "version": int(version), "id": game_id}


def start_seeded(client: TestClient, preset: str, seed: int) -> tuple[str, str]:
    """Open the share link; returns (game id, page html)."""
    response = client.get(f"/play/{preset}/{seed}")
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    page = client.get(location)
    assert page.status_code == 200
    return location.rsplit("/", 1)[1], page.text


def act(client: TestClient, game_id: str, html: str, *, htmx: bool = True, **fields) -> "object":
    state = board_state(html)
    data = {"csrf_token": csrf_of(html), "ply": state["ply"], "version": state["version"], **fields}
    return client.post(f"/games/{game_id}/act", data=data, headers=HX if htmx else {})
