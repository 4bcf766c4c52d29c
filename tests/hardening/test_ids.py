"""Ids from the path are checked at the edge (app/web/http/deps.py): a malformed one, a NUL byte
included, is a 404 on every route that takes one, and never reaches the database (F2: PostgreSQL
refused the NUL with a 500)."""

from __future__ import annotations

import pytest

from ..web.helpers import csrf_of, start_seeded

BAD_IDS = ["%00", "abc%00def", "x" * 25, "a.b", "%E2%98%83", "a%20b", "%27%3B--"]
GETS = ["/games/{id}", "/g/{id}/replay", "/games/{id}/solver", "/games/{id}/analysis",
        "/api/games/{id}"]
POSTS = ["/games/{id}/act", "/games/{id}/hint", "/games/{id}/retry", "/games/{id}/autofinish",
         "/api/games/{id}/moves", "/api/games/{id}/undo", "/api/games/{id}/redo"]


@pytest.mark.parametrize("bad", BAD_IDS)
def test_a_malformed_game_id_is_404_everywhere(client, bad):
    _, html = start_seeded(client, "pyramid", 3)
    auth = {"Authorization": "Bearer " + client.post("/api/players").json()["token"]}
    for path in GETS:
        response = client.get(path.format(id=bad), headers=auth)
        assert response.status_code == 404, (path, response.status_code, response.text[:200])
    for path in POSTS:
        response = client.post(path.format(id=bad), data={"csrf_token": csrf_of(html), "retry_ply": "0"},
                               headers=auth if path.startswith("/api/") else {})
        assert response.status_code in (404, 422) and response.status_code < 500, (path, response.status_code)


@pytest.mark.parametrize("token", ["%00", "abc%00.def", "x.y", "a" * 30 + "." + "0" * 40])
def test_a_malformed_device_link_is_404(client, token):
    page = client.get("/profile").text
    assert client.get(f"/link/{token}").status_code == 404
    assert client.post(f"/link/{token}", data={"csrf_token": csrf_of(page)}).status_code in (403, 404)
