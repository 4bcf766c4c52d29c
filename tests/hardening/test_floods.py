"""Floods from cookie-less clients: new players and games are limited per client address and
in total (429 with Retry-After), and X-Forwarded-For counts only through a trusted proxy.

A browser's player is stored by its first POST and a game by its first move
(app/services/play/lifecycle.py), so a flood is GET a share link, then POST its first move."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from app.web.main import create_app

from ..web.helpers import csrf_of

UNLIMITED = {"new_players_per_address": 0, "new_players_total": 0, "new_games_per_address": 0, "new_games_total": 0}


@pytest.fixture
def app_with(settings):
    def make(**changes):
        app = create_app(Settings(**{**settings.model_dump(), **UNLIMITED, **changes}))
        # the clock stands still: no token comes back while a slow machine runs the flood
        app.state.new_players.clock = app.state.new_games.clock = lambda: 1000.0
        return app
    return make


def browser(app, address: str) -> TestClient:
    return TestClient(app, base_url="http://testserver", follow_redirects=False, client=(address, 40000))


def first_visits(client: TestClient, count: int, headers: dict | None = None) -> list:
    """`count` new visitors' first moves, each without a cookie: each stores a player and a game.
    The GETs before them store nothing, and are never refused."""
    responses = []
    for seed in range(count):
        client.cookies.clear()
        page = client.get(f"/play/pyramid/{seed}", headers=headers or {})
        assert page.status_code == 200
        responses.append(client.post(f"/play/pyramid/{seed}", headers=headers or {},
                                     data={"action": "draw", "csrf_token": csrf_of(page.text)}))
    return responses


def test_a_cookieless_flood_from_one_address_is_429_with_retry_after_and_others_still_get_in(app_with):
    app = app_with(new_players_per_address=20)
    with browser(app, "203.0.113.7") as flood, browser(app, "198.51.100.2") as other:
        responses = first_visits(flood, 100)
        assert [r.status_code for r in responses] == [303] * 20 + [429] * 80
        refused = responses[-1]
        assert 1 <= int(refused.headers["retry-after"]) <= 3  # 20 a minute: one every 3 s
        assert 'role="alert"' in refused.text and "Too many new players" in refused.text
        assert "set-cookie" not in refused.headers  # no player was made for it
        assert [r.status_code for r in first_visits(other, 5)] == [303] * 5
        danish = first_visits(flood, 1, {"Accept-Language": "da"})[0]
        assert danish.status_code == 429 and "Der kommer for mange nye spillere" in danish.text


def test_the_api_counts_new_players_and_new_games_per_address(app_with):
    app = app_with(new_players_per_address=3, new_games_per_address=4)
    with browser(app, "203.0.113.8") as client:
        made = [client.post("/api/players") for _ in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        assert int(made[-1].headers["retry-after"]) >= 1 and "too many new players" in made[-1].json()["error"]
        tokens = [r.json()["token"] for r in made[:3]]
        # three players, one address: four new games between them
        codes = [client.post("/api/games", json={"preset": "gaps", "seed": i},
                             headers={"Authorization": f"Bearer {tokens[i % 3]}"}).status_code for i in range(6)]
        assert codes == [201] * 4 + [429] * 2
        refused = client.post("/api/games", json={"preset": "gaps"}, headers={"Authorization": f"Bearer {tokens[0]}"})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert "too many new games" in refused.json()["error"]


def test_a_players_first_moves_on_new_deals_are_counted_per_address_too(app_with):
    app = app_with(new_games_per_address=2)
    with browser(app, "203.0.113.9") as client:
        codes = []
        for seed in range(3):  # one player, three deals: each first move stores a game
            page = client.get(f"/play/pyramid/{seed}")
            refused = client.post(f"/play/pyramid/{seed}", data={"action": "draw", "csrf_token": csrf_of(page.text)},
                                  headers={"HX-Request": "true"})
            codes.append(refused.status_code)
        assert codes == [200, 200, 429]
        assert int(refused.headers["retry-after"]) >= 1
        assert 'id="board"' in refused.text and "Too many new games" in refused.text  # the deal as it was


def test_the_total_limit_holds_across_addresses(app_with):
    app = app_with(new_players_total=30)
    codes = []
    for index in range(40):
        with browser(app, f"192.0.2.{index}") as client:
            codes.append(first_visits(client, 1)[0].status_code)
    assert codes == [303] * 30 + [429] * 10


def test_x_forwarded_for_is_ignored_without_a_trusted_proxy(app_with):
    app = app_with(new_players_per_address=10)
    with browser(app, "10.0.0.5") as client:
        codes = [r.status_code for r in first_visits(client, 15)]
        forged = []
        for index in range(5):  # a new "client" each time: still the peer's address
            forged += [r.status_code for r in first_visits(client, 1, {"X-Forwarded-For": f"198.51.100.{index}"})]
    assert codes == [303] * 10 + [429] * 5 and forged == [429] * 5


def test_x_forwarded_for_is_honoured_from_a_trusted_proxy_right_most_untrusted_hop(app_with):
    app = app_with(new_players_per_address=5, trusted_proxies=["10.0.0.0/8"])
    with browser(app, "10.0.0.5") as proxy:
        # clients behind the proxy each get their own count
        for index in range(10):
            assert [r.status_code for r in first_visits(proxy, 5, {"X-Forwarded-For": f"198.51.100.{index}"})] == [303] * 5
        # the client may send X-Forwarded-For itself: what it wrote is left of what the proxies saw
        spoofed = []
        for index in range(7):
            chain = f"203.0.113.{index}, 198.51.100.77, 10.1.2.3"  # forged, the real client, an inner proxy
            spoofed += [r.status_code for r in first_visits(proxy, 1, {"X-Forwarded-For": chain})]
        assert spoofed == [303] * 5 + [429] * 2
        # a request from the proxy itself, without the header, is the proxy's
        assert [r.status_code for r in first_visits(proxy, 6)] == [303] * 5 + [429]
        token = proxy.post("/api/players", headers={"X-Forwarded-For": "198.51.100.200"}).json()["token"]
        link = proxy.post("/api/players/me/device-link", headers={
            "Authorization": f"Bearer {token}", "X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.200"})
        assert link.json()["url"].startswith("https://testserver/link/")  # the scheme the proxy was asked in
    with browser(app, "203.0.113.50") as direct:  # not a trusted peer: its headers count for nothing
        token = direct.post("/api/players").json()["token"]
        link = direct.post("/api/players/me/device-link", headers={
            "Authorization": f"Bearer {token}", "X-Forwarded-Proto": "https"})
        assert link.json()["url"].startswith("http://testserver/link/")
        assert [r.status_code for r in first_visits(direct, 5, {"X-Forwarded-For": "198.51.100.1"})][-1] == 429
