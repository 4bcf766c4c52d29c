"""Page weight (bench/weight.py measures the same): first load <= 100 KB gzip, a move fragment
<= 5 KB gzip; responses are compressed; static assets are content-hashed and cached for a year."""

from __future__ import annotations

import gzip
import re

from ..web.helpers import HX, csrf_of


def gzip_bytes(response) -> int:
    assert response.headers.get("content-encoding") == "gzip", response.request.url
    return len(gzip.compress(response.content, compresslevel=6))


def test_first_load_and_move_fragment_are_small_compressed_and_cached(client):
    gz = {"Accept-Encoding": "gzip"}
    page = client.get("/play/pyramid/42", headers=gz)  # a share link: the deal ready to play
    # each file once, as the browser fetches it: a court figure's <use href="…svg?v=…#KH"> names
    # a symbol in its file, the part after # is not sent
    assets = list(dict.fromkeys(url.partition("#")[0] for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)))
    assert len(assets) >= 3 and all(re.search(r"\?v=[0-9a-f]{12}$", url) for url in assets), assets
    assert any(url.startswith("/static/cards/") for url in assets)  # this deal shows court cards: counted
    total = gzip_bytes(page)
    for url in assets:
        asset = client.get(url, headers=gz)
        assert asset.status_code == 200
        assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
        # icons are compressed images already (or too small to gain): counted as they come
        total += len(asset.content) if url.startswith("/static/icons/") else gzip_bytes(asset)
    assert total <= 100 * 1024, total
    first = client.post("/play/pyramid/42", data={"action": "draw", "csrf_token": csrf_of(page.text)},
                        headers={**HX, **gz})  # the first move stores the game
    game_id = first.headers["HX-Push-Url"].rsplit("/", 1)[1]
    move = client.post(f"/games/{game_id}/act", data={"action": "draw", "csrf_token": csrf_of(page.text)},
                       headers={**HX, **gz})
    assert move.status_code == 200 and "<html" not in move.text
    assert gzip_bytes(move) <= 5 * 1024
    assert move.headers["cache-control"] == "no-store"
