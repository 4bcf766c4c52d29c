"""Faults that answer cleanly (issue 40), in process: a 500, if one ever happens, says it closes
its connection; absolute links never follow a client's Host header."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from app.web.main import create_app

from ..helpers import HX


@pytest.fixture
def failing_app(settings: Settings):
    """The app with one route that fails as a bug would."""
    app = create_app(settings)

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    return app


@pytest.mark.parametrize("headers", [{}, HX, {"Accept": "application/json"}])
def test_an_unexpected_error_is_a_500_page_that_closes_its_connection(failing_app, headers):
    with TestClient(failing_app, raise_server_exceptions=False) as client:
        response = client.get("/boom", headers=headers)
    assert response.status_code == 500 and response.headers["connection"] == "close"
    assert "Something went wrong on our side" in response.text and "RuntimeError" not in response.text
    assert response.headers["x-content-type-options"] == "nosniff"


def _links(html: str) -> set[str]:
    return set(re.findall(r'(?:content|href)="(https?://[^"/]+)', html))


def test_absolute_links_never_follow_the_clients_host_header(client):
    page = client.get("/play/pyramid/250", headers={"Host": "evil.example"})
    assert page.status_code == 200
    links = _links(page.text)
    assert links and all("evil.example" not in link for link in links), links


def test_absolute_links_follow_a_trusted_proxys_host_or_public_url(settings):
    behind = settings.model_copy(update={"trusted_proxies": ["testclient"]})
    behind_links = _links_of(behind, {"Host": "tretten.example", "X-Forwarded-Proto": "https"})
    assert behind_links == {"https://tretten.example"}, behind_links
    public = settings.model_copy(update={"public_url": "https://kabale.example"})
    assert _links_of(public, {"Host": "evil.example"}) == {"https://kabale.example"}


def _links_of(settings: Settings, headers: dict) -> set[str]:
    with TestClient(create_app(settings)) as client:
        return _links(client.get("/play/pyramid/250", headers=headers).text)


def test_a_database_failure_says_whether_the_change_was_stored(client, monkeypatch):
    """A 503 "nothing was changed" is true only before the request's commit: a failure while its
    answer is drawn (a read after ``commit_now``) leaves the move stored, and says so."""
    from sqlalchemy.exc import OperationalError

    from app.web.routes import api

    from ..play import WIN_LINE, WIN_SEED, api_player, new_game

    auth = api_player(client)
    game = new_game(client, auth, "pyramid", WIN_SEED)

    def down(*_args, **_kwargs):
        raise OperationalError("SELECT 1", {}, Exception("connection lost"))

    monkeypatch.setattr(api, "game_json", down)
    after = client.post(f"/api/games/{game['id']}/moves", json={"move": WIN_LINE[0], "ply": 0}, headers=auth)
    assert after.status_code == 503 and "after the change was stored" in after.json()["error"]
    monkeypatch.undo()
    assert client.get(f"/api/games/{game['id']}", headers=auth).json()["cursor"] == 1  # stored, as said
    monkeypatch.setattr(api.games, "get_game_row", down)
    before = client.post(f"/api/games/{game['id']}/moves", json={"move": WIN_LINE[1], "ply": 1}, headers=auth)
    assert before.status_code == 503 and "nothing was changed" in before.json()["error"]
    monkeypatch.undo()
    assert client.get(f"/api/games/{game['id']}", headers=auth).json()["cursor"] == 1
