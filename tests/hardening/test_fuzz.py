"""Bad input, on SQLite and on PostgreSQL (which refuses some text SQLite stores, e.g. NUL).
Schemathesis generates requests from the app's own OpenAPI (valid and invalid ones): none may
get a 5xx, every error is JSON with a message, and every response is one the schema documents
(status, content type, headers, body). Malformed form posts and odd ids in the HTML
endpoints' paths get a 4xx page, never a traceback.

Bounded: EXAMPLES requests per operation and generation mode (>= 1,000 in all) per backend.
"""

from __future__ import annotations

import itertools
import json
import re
import time

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings as hypothesis_settings
from hypothesis import Phase
from hypothesis.errors import Unsatisfiable
from fastapi.testclient import TestClient
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.web.main import create_app

from ..web.helpers import HX, board_state, csrf_of, start_seeded

EXAMPLES = 80          # per operation and mode; small operations run out sooner: >= 1,000 in all
TIME_BUDGET = 240      # seconds; the test fails rather than running on (about 30 s on an idle machine)


def check_response(case, response, counts) -> None:
    counts[response.status_code // 100] += 1
    assert response.status_code < 500, f"{case.method} {case.formatted_path} -> {response.status_code}: {response.text[:300]}"
    if response.status_code >= 400:
        content_type = response.headers.get("content-type") or [""]
        assert content_type[0].startswith("application/json"), (case.path, response.headers)
        body = json.loads(response.text)
        assert isinstance(body.get("error"), str) and body["error"].strip(), (case.path, body)


CONFORMANCE = [status_code_conformance, content_type_conformance, response_headers_conformance,
               response_schema_conformance]


def test_schemathesis_finds_no_5xx_and_every_response_is_documented(settings):
    app = create_app(settings)
    with TestClient(app) as client:
        token = client.post("/api/players").json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        games = [client.post("/api/games", json={"preset": p, "seed": 7}, headers=auth).json()["id"]
                 for p in ("pyramid", "gaps", "giza", "double-pyramid")]
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.path for op in operations} >= {"/api/players", "/api/games", "/api/games/{game_id}/moves"}
    counts = {2: 0, 3: 0, 4: 0, 5: 0}
    sent = 0
    started = time.monotonic()
    rotation = itertools.count()

    for operation, mode in itertools.product(operations, list(schemathesis.GenerationMode)):
        @hypothesis_settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                             suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
        @given(case=operation.as_strategy(generation_mode=mode))
        def fuzz(case) -> None:
            nonlocal sent
            turn = next(rotation)
            # most requests carry a real token and name a real game, so they reach the game logic
            if turn % 4:
                case.headers = {**(case.headers or {}), **auth}
            if "game_id" in (case.path_parameters or {}) and turn % 3:
                case.path_parameters = {**case.path_parameters, "game_id": games[turn % len(games)]}
            response = case.call()
            sent += 1
            check_response(case, response, counts)
            case.validate_response(response, checks=CONFORMANCE)
            assert time.monotonic() - started < TIME_BUDGET, "schemathesis ran past its time budget"

        try:
            fuzz()
        except Unsatisfiable:
            assert mode == schemathesis.GenerationMode.NEGATIVE  # nothing to get wrong (no parameters)
    print(f"schemathesis: {sent} requests, by status class {counts}")
    assert sent >= 1000
    assert counts[5] == 0
    assert counts[2] > 50 and counts[4] > 200  # both accepted and refused requests were exercised


MALFORMED_ACT = [
    {"ply": "-1"}, {"ply": "1e309"}, {"ply": "9" * 40}, {"version": "x"}, {"action": "tap"}, {"target": "P"},
    {"target": "P0"}, {"target": "P-1"}, {"target": "G99"}, {"target": "1.99"}, {"target": "\x00"},
    {"target": "é" * 8}, {"sel": "S", "target": "S"}, {"action": "draw" * 6},
    {"action": ["draw", "undo"]}, {"target": "%ZZ"},
]


@pytest.mark.parametrize("fields", MALFORMED_ACT, ids=[str(i) for i in range(len(MALFORMED_ACT))])
@pytest.mark.parametrize("preset", ["pyramid", "gaps"])
def test_malformed_board_posts_are_4xx_pages_and_leave_the_game_alone(client, preset, fields):
    game_id, html = start_seeded(client, preset, 11)
    before = board_state(html)
    data = {"csrf_token": csrf_of(html), "ply": before["ply"], "version": before["version"], **fields}
    for headers in (HX, {}):
        response = client.post(f"/games/{game_id}/act", data=data, headers=headers)
        assert response.status_code < 500
        assert "Traceback" not in response.text
        if response.status_code >= 400:
            assert 'role="alert"' in response.text
    assert board_state(client.get(f"/games/{game_id}").text)["ply"] == before["ply"]


RAW_BODIES = [
    (b"csrf_token=%zz&&&==", "application/x-www-form-urlencoded"),
    (b"\xff\xfe\x00garbage", "application/x-www-form-urlencoded"),
    (b"--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb", "multipart/form-data; boundary=x"),
    (b"--x\r\n\r\n", "multipart/form-data"),
    (b'{"action": "draw"}', "application/json"),
    (b"<xml/>", "text/xml"),
    (b"", "application/x-www-form-urlencoded"),
]


@pytest.mark.parametrize("body, content_type", RAW_BODIES, ids=[str(i) for i in range(len(RAW_BODIES))])
def test_garbage_bodies_to_html_endpoints_are_4xx(client, body, content_type):
    game_id, html = start_seeded(client, "pyramid", 11)
    token = csrf_of(html)
    for path in (f"/games/{game_id}/act", "/games", "/prefs", "/prefs/language"):
        for headers in ({"X-CSRF-Token": token}, {}):
            response = client.post(path, content=body, headers={"content-type": content_type, **headers})
            if path == "/prefs" and headers:  # every field is optional there: a valid token may save defaults
                assert response.status_code in (303, 400), response.status_code
            else:
                assert 400 <= response.status_code < 500, (path, response.status_code)
            assert "Traceback" not in response.text
    assert board_state(client.get(f"/games/{game_id}").text)["ply"] == 0


@pytest.mark.parametrize("path", ["/games/x/act", "/play/pyramid/1", "/api/games/x/moves", "/prefs"])
@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_wrong_methods_are_405_never_5xx(client, path, method):
    response = client.request(method, path)
    assert response.status_code == 405
    if path.startswith("/api/"):
        assert response.json()["error"]


ODD_PATH_VALUES = ["%00", "a%00b", "%00.x", "x" * 300, "%C3%A9" * 12, "%FF%FE", "%0D%0A", "..%2F..", "-1", "1e309"]


def routes_with_path_parameters(app):
    from .test_security import all_routes

    return sorted({(path, method) for path, route in all_routes(app.routes) if "{" in path
                   for method in route.methods & {"GET", "POST"}})


@pytest.mark.parametrize("value", ODD_PATH_VALUES, ids=[str(i) for i in range(len(ODD_PATH_VALUES))])
def test_odd_ids_and_tokens_in_every_path_are_4xx_never_5xx(app, value):
    # a NUL byte, a huge or non-ASCII id, a CRLF… in each path parameter of each route, with a
    # valid CSRF token and bearer token, so that the request gets as far as the database
    routes = routes_with_path_parameters(app)
    assert {"/games/{game_id}", "/games/{game_id}/act", "/link/{token}", "/api/games/{game_id}/moves"} <= {
        path for path, _ in routes}
    failures = []
    with TestClient(app, follow_redirects=False, raise_server_exceptions=False) as client:
        _, html = start_seeded(client, "pyramid", 11)
        token = csrf_of(html)
        auth = {"Authorization": "Bearer " + client.post("/api/players").json()["token"]}
        for path, method in routes:
            url = re.sub(r"\{[^}]+\}", value, path)
            if method == "GET":
                response = client.get(url, headers=auth if path.startswith("/api/") else {})
            elif path.startswith("/api/"):
                response = client.post(url, json={"move": "D", "ply": 0}, headers=auth)
            else:
                response = client.post(url, data={"csrf_token": token, "action": "draw"}, headers=HX)
            if not 300 <= response.status_code < 500 or "Traceback" in response.text:
                failures.append(f"{method} {path}: {response.status_code}")
    assert failures == [], "\n".join(failures)
