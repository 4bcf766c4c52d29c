"""Display names, the device link (make, use, revoke), deleting a profile, and CSRF on each."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from app.db.models import Player

from ..helpers import csrf_of
from ..play import api_player, browse_as, win


def players_count(client) -> int:
    with client.app.state.sessionmaker() as session:
        return session.scalar(select(func.count()).select_from(Player))


def post(client, path: str, **data):
    token = csrf_of(client.get("/profile").text)
    return client.post(path, data={"csrf_token": token, **data})


def test_display_name_is_any_text_shown_escaped_and_trimmed(client):
    assert post(client, "/profile/name", display_name="  <script>alert(1)</script>\n  Ærø  ").status_code == 303
    html = client.get("/profile").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Ærø" in html and "<script>alert" not in html
    post(client, "/profile/name", display_name="x" * 100)
    assert 'value="' + "x" * 40 + '"' in client.get("/profile").text
    post(client, "/profile/name", display_name="   ")
    assert "Playing anonymously." in client.get("/stats").text


def test_device_link_moves_the_profile_and_can_be_revoked(client, other_client):
    post(client, "/profile/name", display_name="Sigrid")
    assert 'data-device-link' not in client.get("/profile").text
    assert post(client, "/profile/device-link").status_code == 303
    link = re.search(r'value="http://testserver(/link/[^"]+)" aria-label', client.get("/profile").text).group(1)
    # opening the link only asks; it changes nothing until confirmed
    ask = other_client.get(link)
    assert ask.status_code == 200 and "Sigrid" in ask.text and 'data-action="use-profile"' in ask.text
    assert "Playing anonymously." in other_client.get("/stats").text
    players = players_count(client)
    used = other_client.post(link, data={"csrf_token": csrf_of(ask.text)})
    assert used.status_code == 303 and "tretten_player=" in used.headers["set-cookie"]
    assert "Playing as Sigrid." in other_client.get("/stats").text
    assert players_count(client) == players  # the other device's first visit left no player of its own
    # a new link revokes the old one; revoking leaves none
    post(client, "/profile/device-link")
    assert other_client.get(link).status_code == 404
    newer = re.search(r'value="http://testserver(/link/[^"]+)" aria-label', client.get("/profile").text).group(1)
    assert newer != link and other_client.get(newer).status_code == 200
    post(client, "/profile/device-link/revoke")
    assert other_client.get(newer).status_code == 404
    assert "unknown or has been revoked" in other_client.get(newer).text
    assert other_client.get("/link/forged.0000").status_code == 404


def test_delete_profile_and_games(client, other_client):
    auth = api_player(client)
    game = win(client, auth)
    browse_as(other_client, client, auth)
    assert other_client.get(f"/games/{game['id']}").status_code == 200
    assert post(other_client, "/profile/delete").headers["location"] == "/profile#delete"  # not confirmed
    assert client.get(f"/api/games/{game['id']}", headers=auth).status_code == 200
    deleted = post(other_client, "/profile/delete", confirm="yes")
    assert deleted.status_code == 303 and "Max-Age=0" in deleted.headers["set-cookie"]
    assert client.get(f"/games/{game['id']}").status_code == 404
    assert client.get("/api/players/me/stats", headers=auth).status_code == 401


def test_every_profile_post_needs_the_csrf_token(client):
    client.get("/profile")
    for path in ("/profile/name", "/profile/device-link", "/profile/device-link/revoke", "/profile/delete"):
        assert client.post(path, data={"display_name": "x", "confirm": "yes"}).status_code == 403


def test_profile_page_in_swedish(client):
    html = client.get("/profile", headers={"Accept-Language": "sv"}).text
    assert "Använd den här profilen på en annan enhet" in html and "Radera profilen" in html


def _linked(client, other_client) -> None:
    """other_client opens client's device link and plays as that profile."""
    post(client, "/profile/name", display_name="Sigrid")
    post(client, "/profile/device-link")
    link = re.search(r'value="http://testserver(/link/[^"]+)" aria-label', client.get("/profile").text).group(1)
    ask = other_client.get(link)
    assert other_client.post(link, data={"csrf_token": csrf_of(ask.text)}).status_code == 303
    assert "Playing as Sigrid." in other_client.get("/stats").text


def test_revoking_the_device_link_logs_out_the_devices_that_used_it(client, other_client):
    _linked(client, other_client)
    stale_page = other_client.get("/profile").text
    assert post(client, "/profile/device-link/revoke").status_code == 303
    assert "Playing anonymously." in other_client.get("/stats").text  # logged out: a visitor again
    refused = other_client.post("/profile/name", data={"csrf_token": csrf_of(stale_page), "display_name": "X"})
    assert refused.status_code == 403  # its old pages post nothing
    assert "Playing as Sigrid." in client.get("/stats").text  # this device goes on


def test_log_out_other_devices(client, other_client):
    _linked(client, other_client)
    response = post(client, "/profile/log-out-others")
    assert response.status_code == 303 and "tretten_player=" in response.headers["set-cookie"]
    assert "Playing anonymously." in other_client.get("/stats").text
    assert "Playing as Sigrid." in client.get("/stats").text
    assert 'data-logged-out' in client.get(response.headers["location"]).text
