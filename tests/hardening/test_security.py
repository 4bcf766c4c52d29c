"""Security: CSRF on every browser POST, bearer tokens for the API, owners only, headers,
cookies, inert payloads, and the limits on body size, move-list length and new games."""

from __future__ import annotations

import logging
import re
from html.parser import HTMLParser

import pytest
from fastapi.routing import APIRoute

from app.web.http.deps import require_csrf

from ..web.helpers import HX, board_state, csrf_of, start_seeded

XSS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "javascript:alert(1)", "'><svg onload=alert(1)>"]


def api_auth(client) -> dict:
    return {"Authorization": "Bearer " + client.post("/api/players").json()["token"]}


# ------------------------------------------------------------------ CSRF

def all_routes(routes, prefix: str = ""):
    """(full path, APIRoute) for every route, also inside included routers (FastAPI nests them)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield prefix + route.path, route
        elif hasattr(route, "original_router"):
            yield from all_routes(route.original_router.routes, prefix + route.include_context.prefix)


def browser_post_routes(app) -> list[tuple[str, APIRoute]]:
    return [(path, r) for path, r in all_routes(app.routes) if "POST" in r.methods and not path.startswith("/api/")]


def test_every_browser_post_route_requires_the_csrf_token(app):
    routes = browser_post_routes(app)
    assert {path for path, _ in routes} >= {"/play/{preset}/{seed}", "/games/{game_id}/act", "/prefs", "/prefs/language"}
    for path, route in routes:
        calls = [d.call for d in route.dependant.dependencies]
        assert require_csrf in calls, f"{path} has no CSRF check"


@pytest.mark.parametrize("token", [None, "", "0" * 64, "not-hex"])
def test_every_browser_post_without_the_right_token_is_403_and_changes_nothing(app, client, token):
    game_id, html = start_seeded(client, "pyramid", 3)
    state = board_state(html)
    bodies = {
        "/play/{preset}/{seed}": {"action": "draw"},
        "/games/{game_id}/act": {"action": "draw", "ply": state["ply"], "version": state["version"]},
        "/prefs": {"scoring": "timed", "zen": "on"},
        "/prefs/language": {"language": "sv"},
    }
    for route_path, _ in browser_post_routes(app):
        data = dict(bodies.get(route_path, {}))
        if token is not None:
            data["csrf_token"] = token
        path = route_path.replace("{game_id}", game_id).replace("{preset}", "pyramid").replace("{seed}", "3")
        for headers in ({}, HX):
            response = client.post(path, data=data, headers=headers)
            assert response.status_code == 403, (route_path, response.status_code)
            assert "reload" in response.text.lower()
        if token:  # a wrong token in the htmx header is refused too
            assert client.post(path, data=data, headers={**HX, "X-CSRF-Token": token}).status_code == 403
    page = client.get(f"/games/{game_id}").text
    assert board_state(page)["ply"] == 0
    assert 'lang="en"' in page


def test_a_token_from_another_players_page_is_refused(client, other_client):
    game_id, html = start_seeded(client, "pyramid", 3)
    _, other_html = start_seeded(other_client, "pyramid", 3)
    state = board_state(html)
    response = client.post(f"/games/{game_id}/act", data={"action": "draw", "ply": 0, "version": state["version"],
                                                          "csrf_token": csrf_of(other_html)})
    assert response.status_code == 403


def test_a_deleted_players_cookie_and_token_are_refused_before_the_form_is_read(client, other_client):
    """The CSRF check needs no database (the token is an HMAC of the cookie's player id); the
    player's existence is confirmed after it. A deleted player's still-valid cookie and token
    are refused with 403, even with a malformed form, and the browser gets a new player."""
    game_id, html = start_seeded(other_client, "pyramid", 3)
    _, mine = start_seeded(client, "pyramid", 3)
    cookie, token = client.cookies.get("tretten_player"), csrf_of(mine)
    assert client.post("/profile/delete", data={"csrf_token": token, "confirm": "yes"}).status_code == 303
    client.cookies.set("tretten_player", cookie)  # the deleted player's cookie, kept
    state = board_state(html)
    for data in ({"action": "draw", "ply": state["ply"], "version": state["version"]}, {"action": "draw", "ply": "-1"}):
        response = client.post(f"/games/{game_id}/act", data={**data, "csrf_token": token}, headers=HX)
        assert response.status_code == 403 and "reload" in response.text.lower()
        assert "tretten_player=" in response.headers["set-cookie"]  # a new player for this browser
        client.cookies.set("tretten_player", cookie)
    assert client.post("/prefs", data={"csrf_token": token, "zen": "on"}).status_code == 403
    assert board_state(other_client.get(f"/games/{game_id}").text)["ply"] == 0


def test_a_bad_form_with_the_right_token_is_400_and_a_bad_body_too(client):
    game_id, html = start_seeded(client, "pyramid", 3)
    token = csrf_of(html)
    assert client.post(f"/games/{game_id}/act", data={"csrf_token": token, "ply": "-1"}, headers=HX).status_code == 400
    assert client.post(f"/games/{game_id}/act", data={"csrf_token": token, "action": "x" * 30}).status_code == 400
    broken = client.post(f"/games/{game_id}/act", content=b"--x\r\nbroken", headers={
        **HX, "X-CSRF-Token": token, "Content-Type": "multipart/form-data"})  # no boundary: unreadable
    assert broken.status_code == 400
    assert client.post(f"/games/{'x' * 30}/act", data={"csrf_token": token, "action": "draw"}).status_code == 404
    assert board_state(client.get(f"/games/{game_id}").text)["ply"] == 0


# ------------------------------------------------------------------ API auth and owners

def test_the_api_takes_bearer_tokens_not_cookies(client):
    client.get("/")  # the browser cookie is set
    assert client.cookies.get("tretten_player")
    assert client.post("/api/games", json={"preset": "pyramid"}).status_code == 401
    created = client.post("/api/players")
    assert "set-cookie" not in created.headers
    auth = {"Authorization": "Bearer " + created.json()["token"]}
    response = client.post("/api/games", json={"preset": "pyramid", "seed": 1}, headers=auth)
    assert response.status_code == 201 and "set-cookie" not in response.headers
    for bad in ("Bearer", "Basic abc", "Bearer " + "x" * 500, "bearer  "):
        assert client.get(f"/api/games/{response.json()['id']}", headers={"Authorization": bad}).status_code == 401


def test_another_players_game_is_403_on_every_change(client, other_client):
    owner, stranger = api_auth(client), api_auth(client)
    game = client.post("/api/games", json={"preset": "pyramid", "seed": 12}, headers=owner).json()
    client.post(f"/api/games/{game['id']}/moves", json={"move": "D", "ply": 0}, headers=owner)
    for path, body in (("moves", {"move": "D", "ply": 1}), ("undo", {"ply": 1}), ("redo", None)):
        response = client.post(f"/api/games/{game['id']}/{path}", json=body, headers=stranger)
        assert response.status_code == 403 and response.json()["error"], path
    game_id, html = start_seeded(client, "pyramid", 12)
    watched = other_client.get(f"/games/{game_id}").text
    for action in ("draw", "undo", "redo", "new", "restart"):
        response = other_client.post(f"/games/{game_id}/act", data={"action": action, "csrf_token": csrf_of(watched)},
                                     headers=HX)
        assert response.status_code == 403, action
    assert board_state(client.get(f"/games/{game_id}").text)["ply"] == 0
    assert client.get(f"/api/games/{game['id']}", headers=owner).json()["cursor"] == 1


# ------------------------------------------------------------------ headers and cookies

class ScriptAudit(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inline_scripts = 0
        self.handlers: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        if tag == "script":
            self._in_script = "src" not in names
        self.handlers += [f"{tag}.{name}" for name, _ in attrs if name.startswith("on")]
        self.handlers += [f"{tag}.{name}" for name, value in attrs if value and value.strip().lower().startswith("javascript:")]

    def handle_endtag(self, tag):
        self._in_script = False if tag == "script" else self._in_script

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.inline_scripts += 1


def test_security_headers_on_every_kind_of_response(client):
    game_id, _ = start_seeded(client, "gaps", 2)
    auth = api_auth(client)
    responses = {
        "lobby": client.get("/"),
        "game": client.get(f"/games/{game_id}"),
        "fragment": client.get(f"/games/{game_id}", headers=HX),
        "rules": client.get("/rules/gaps"),
        "404 page": client.get("/nope"),
        "api": client.get("/api/games/nope", headers=auth),
        "openapi": client.get("/api/openapi.json"),
        "static": client.get("/static/css/app.css"),
        "413": client.post("/api/players", content=b"x" * 70000),
        "healthz": client.get("/healthz"),
    }
    for name, response in responses.items():
        csp = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp, name
        assert "frame-ancestors 'none'" in csp, name
        assert response.headers["x-content-type-options"] == "nosniff", name
        assert response.headers["referrer-policy"] in ("same-origin", "strict-origin-when-cross-origin", "no-referrer"), name


def test_a_500_carries_the_security_headers_and_is_logged_as_500(settings):
    from fastapi.testclient import TestClient

    from app.web.main import create_app
    from app.web.http.middleware import SECURITY_HEADERS

    app = create_app(settings)

    def boom() -> None:
        raise RuntimeError("a bug in a route")

    app.add_api_route("/boom", boom)
    app.add_api_route("/api/boom", boom)
    logged = []
    handler = logging.Handler()
    handler.emit = logged.append
    logging.getLogger("tretten.request").addHandler(handler)
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            page, api = client.get("/boom"), client.get("/api/boom")
    finally:
        logging.getLogger("tretten.request").removeHandler(handler)
    for response in (page, api):
        assert response.status_code == 500
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, (response.request.url, name)
    assert 'role="alert"' in page.text and "Something went wrong" in page.text and "Traceback" not in page.text
    assert api.json() == {"error": "internal error: the request was not completed"}
    requests = [r.fields for r in logged if r.getMessage() == "request"]
    assert [(line["path"], line["status"]) for line in requests] == [("/boom", 500), ("/api/boom", 500)]


@pytest.mark.parametrize("path", ["/", "/play/pyramid/5", "/play/gaps/5", "/play/giza/5", "/rules/pyramid", "/nope"])
def test_pages_have_no_inline_script_or_event_handlers(client, path):
    response = client.get(path, follow_redirects=True)
    audit = ScriptAudit()
    audit.feed(response.text)
    assert audit.inline_scripts == 0 and audit.handlers == [], (path, audit.handlers)


@pytest.mark.parametrize("secure", [False, True])
def test_cookies_are_httponly_samesite_lax_and_secure_when_asked(make_client, secure):
    # a Secure cookie only comes back over https, as behind a TLS proxy
    client = make_client(base_url="https://testserver" if secure else "http://testserver", secure_cookies=secure)
    first = client.get("/")
    player = [c for c in first.headers.get_list("set-cookie") if c.startswith("tretten_player=")]
    assert len(player) == 1
    page = first.text
    language = client.post("/prefs/language", data={"language": "da", "csrf_token": csrf_of(page)})
    cookies = player + [c for c in language.headers.get_list("set-cookie") if c.startswith("tretten_lang=")]
    assert len(cookies) == 2
    for cookie in cookies:
        flags = [part.strip().lower() for part in cookie.split(";")]
        assert "httponly" in flags and "samesite=lax" in flags, cookie
        assert ("secure" in flags) == secure, cookie


def test_a_forged_player_cookie_is_a_new_player(client, other_client):
    game_id, _ = start_seeded(client, "pyramid", 3)
    signed = client.cookies.get("tretten_player")
    forged = signed[:-2] + ("AA" if not signed.endswith("AA") else "BB")
    other_client.cookies.set("tretten_player", forged)
    page = other_client.get(f"/games/{game_id}")
    assert page.status_code == 403 and 'id="board"' not in page.text  # not the owner: a game in play is theirs
    assert any(c.startswith("tretten_player=") for c in page.headers.get_list("set-cookie"))


# ------------------------------------------------------------------ inert payloads

@pytest.mark.parametrize("payload", XSS)
def test_payloads_in_imported_deals_and_query_parameters_are_rendered_inert(client, payload):
    start_seeded(client, "pyramid", 1)
    urls = [
        f"/play/pyramid?deal={payload}",
        f"/play/gaps?deal=AS+{payload}+KD",
        f"/play?preset=pyramid&deal={payload}",
        f"/play?preset=pyramid&seed={payload}",
        f"/play/pyramid/{payload}",
        f"/play/{payload}/3",
        f"/rules/{payload}",
        f"/games/{payload}",
    ]
    game_id, _ = start_seeded(client, "pyramid", 1)
    urls += [f"/games/{game_id}?sel={payload}", f"/games/{game_id}?note={payload}&confirm={payload}"]
    for url in urls:
        response = client.get(url, follow_redirects=True)
        assert response.status_code < 500, url
        assert_inert(response.text, payload, url)
        for hop in response.history:
            assert not hop.headers["location"].lower().startswith(("javascript:", "//", "http:", "https:")), url


def assert_inert(html: str, payload: str, where: str) -> None:
    """No markup of the payload survives: its < and quotes are escaped, no URL attribute runs script."""
    if "<" in payload or '"' in payload or "'" in payload:
        assert payload not in html, where
    assert not re.search(r"<(script|img|svg)[^>]*(onerror|onload|alert)", html, re.I), where
    assert not re.search(r"""(href|src|action|formaction)\s*=\s*["']?\s*javascript:""", html, re.I), where


@pytest.mark.parametrize("payload", XSS)
def test_payloads_posted_through_forms_and_the_api_come_back_inert(client, payload):
    game_id, html = start_seeded(client, "pyramid", 1)
    state = board_state(html)
    token = csrf_of(html)
    for data in ({"target": payload[:8]}, {"sel": payload[:8], "target": "P1"}, {"action": payload[:20]}):
        response = client.post(f"/games/{game_id}/act", headers=HX,
                               data={"csrf_token": token, "ply": state["ply"], "version": state["version"], **data})
        assert response.status_code < 500
        for value in data.values():
            assert_inert(response.text, value, str(data))
    moved = client.post("/prefs/language", data={"language": "en", "csrf_token": token, "next": payload})
    assert moved.status_code == 400 and "location" not in moved.headers  # an odd next is refused
    assert_inert(moved.text, payload, "next")
    auth = api_auth(client)
    response = client.post("/api/games", json={"preset": "pyramid", "deal": payload}, headers=auth)
    assert response.status_code == 422 and response.headers["content-type"].startswith("application/json")


def get_pages_without_parameters(app) -> list[str]:
    return [path for path, route in all_routes(app.routes)
            if "GET" in route.methods and "{" not in path and not path.startswith(("/api/", "/bench"))]


@pytest.mark.parametrize("payload", XSS)
def test_display_names_are_rendered_inert_wherever_they_appear(app, client, payload):
    """A display name holding a payload, shown on every parameterless page and the game page."""
    from app.db.models import Player
    from app.web.http.identity import unsign_player

    if not hasattr(Player, "display_name"):
        pytest.fail("Player.display_name is gone: update this test")
    game_id, _ = start_seeded(client, "pyramid", 8)
    player_id, _ = unsign_player(app.state.settings.secret_key, client.cookies.get("tretten_player"))
    with app.state.sessionmaker() as session:
        session.get(Player, player_id).display_name = payload[:40]
        session.commit()
    for path in get_pages_without_parameters(app) + [f"/games/{game_id}"]:
        response = client.get(path, follow_redirects=True)
        assert response.status_code < 500, path
        assert_inert(response.text, payload[:40], path)


# ------------------------------------------------------------------ limits

def test_request_bodies_over_the_limit_are_413(client):
    game_id, html = start_seeded(client, "pyramid", 1)
    big = "x" * 70_000
    api = client.post("/api/players", content=big, headers={"content-type": "application/json"})
    assert api.status_code == 413 and api.json()["error"] == "request body too large"
    form = client.post(f"/games/{game_id}/act", data={"csrf_token": csrf_of(html), "target": big}, headers=HX)
    assert form.status_code == 413

    def chunks():
        for _ in range(20):
            yield b"y" * 8192

    chunked = client.post(f"/games/{game_id}/act", content=chunks(),
                          headers={"content-type": "application/x-www-form-urlencoded", **HX})
    assert chunked.status_code == 413
    assert board_state(client.get(f"/games/{game_id}").text)["ply"] == 0


def test_the_move_list_has_a_length_limit(make_client):
    client = make_client(max_moves=6)
    auth = api_auth(client)
    game = client.post("/api/games", json={"preset": "relaxed", "seed": 3}, headers=auth).json()
    for ply in range(6):
        move = "D" if "D" in game["legal"] else "R"
        game = client.post(f"/api/games/{game['id']}/moves", json={"move": move, "ply": ply}, headers=auth).json()
    assert game["cursor"] == 6
    refused = client.post(f"/api/games/{game['id']}/moves", json={"move": game["legal"][0], "ply": 6}, headers=auth)
    assert refused.status_code == 422 and "longest move list" in refused.json()["error"]


def test_too_many_new_games_per_minute_is_429_with_a_message(make_client):
    client = make_client(games_per_minute=3)
    auth = api_auth(client)
    codes = [client.post("/api/games", json={"preset": "gaps", "seed": s}, headers=auth).status_code for s in range(4)]
    assert codes == [201, 201, 201, 429]
    refused = client.post("/api/games", json={"preset": "gaps"}, headers=auth)
    assert refused.status_code == 429 and "too many new games" in refused.json()["error"]
    assert 1 <= int(refused.headers["retry-after"]) <= 60  # when the first of the three leaves the minute
    # a browser's games start with their first moves (app.services.play.moves.first_move)
    page = client.get("/play/pyramid/1").text
    for seed in range(3):
        client.post(f"/play/pyramid/{seed}", data={"action": "draw", "csrf_token": csrf_of(page)})
    html = client.post("/play/pyramid/9", data={"action": "draw", "csrf_token": csrf_of(page)})
    assert html.status_code == 429 and "Too many new games" in html.text and 'role="alert"' in html.text
    assert 1 <= int(html.headers["retry-after"]) <= 60
