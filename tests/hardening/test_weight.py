"""Page weight (bench/weight.py measures the same): first load <= 100 KB gzip, a move fragment
<= 5 KB gzip; responses are compressed; static assets are content-hashed and cached for a year."""

from __future__ import annotations

import gzip
import re

from ..web.helpers import HX, csrf_of


def gzip_bytes(response) -> int:
    assert response.headers.get("content-encoding") == "gzip", response.request.url
    return len(gzip.compress(response.content, compresslevel=6))


def first_load(client, path: str) -> tuple[int, list[str]]:
    """The gzip bytes of a page and every file it names, each file once, as the browser fetches
    it: a figure's ``courts.svg?v=…#KH`` names a part of its file, the part after # is not sent.
    Of the icons, a browser loading the page fetches one favicon (Chromium the SVG one, a browser
    without SVG icons the ICO: the larger is counted) and no home-screen icon (apple-touch-icon:
    fetched when the page is added to a home screen)."""
    gz = {"Accept-Encoding": "gzip"}
    page = client.get(path, headers=gz)
    named = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)
    assets = list(dict.fromkeys(url.partition("#")[0] for url in named))
    assert len(assets) >= 3 and all(re.search(r"\?v=[0-9a-f]{12}$", url) for url in assets), assets
    favicons = re.findall(r'<link rel="icon" href="([^"]+)"', page.text)
    home_screen = re.findall(r'<link rel="apple-touch-icon" href="([^"]+)"', page.text)
    assert len(favicons) == 2 and len(home_screen) == 1, (favicons, home_screen)
    total, favicon = gzip_bytes(page), 0
    for url in assets:
        asset = client.get(url, headers=gz)
        assert asset.status_code == 200
        assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
        if url in favicons:  # compressed images already (or too small to gain): as they come
            favicon = max(favicon, len(asset.content))
        elif url not in home_screen:
            total += gzip_bytes(asset)
    return total + favicon, assets


def test_a_gaps_desktop_first_load_is_small(client):
    # every court card of the deck is on a Gaps board, and a desktop draws all twelve figures
    total, assets = first_load(client, "/play/gaps/42")
    figures = [url for url in assets if url.startswith("/static/cards/")]
    assert figures, assets
    assert total <= 100 * 1024, total


def test_first_load_and_move_fragment_are_small_compressed_and_cached(client):
    gz = {"Accept-Encoding": "gzip"}
    # a share link: the deal ready to play; this one shows nine court figures (two deals in a
    # hundred show more: bench/weight.py)
    total, assets = first_load(client, "/play/pyramid/424242")
    assert sum(url.startswith("/static/cards/") for url in assets) == 9  # its court figures: counted
    assert total <= 100 * 1024, total
    page = client.get("/play/pyramid/424242", headers=gz)
    first = client.post("/play/pyramid/424242", data={"action": "draw", "csrf_token": csrf_of(page.text)},
                        headers={**HX, **gz})  # the first move stores the game
    game_id = first.headers["HX-Push-Url"].rsplit("/", 1)[1]
    move = client.post(f"/games/{game_id}/act", data={"action": "draw", "csrf_token": csrf_of(page.text)},
                       headers={**HX, **gz})
    assert move.status_code == 200 and "<html" not in move.text
    assert gzip_bytes(move) <= 5 * 1024
    assert move.headers["cache-control"] == "no-store"


def test_our_styles_and_scripts_are_served_without_their_comments(client):
    from app.web.views.assets import asset_url, file_for

    for name in ("css/cards.css", "js/app.js"):
        source = file_for(name).read_text()
        served = client.get(asset_url(name)).text
        comment = r"/\*" if name.endswith(".css") else r"(?m)^\s*//"
        assert re.search(comment, source) and not re.search(comment, served)
        # every line of code is there: the served text is the source's lines, less comments
        code = [line.rstrip() for line in served.splitlines() if line.strip()]
        assert len(code) > 50 and all(line in source for line in code)
        assert len(served) < .9 * len(source)
    served = client.get(asset_url("js/app.js")).text
    assert "document.addEventListener(" in served and served.rstrip().endswith(("})();", "}"))
