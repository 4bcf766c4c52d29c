"""Page weight: first load of a game page (gzip: HTML + CSS + htmx + our JS + the court figures it
shows) for a Pyramid deal (424242: nine court figures, as many as two deals in a hundred show)
and for Gaps (all twelve figures), and one move fragment, then a move on the boards with the
most cards (Double Pyramid: 56, Gaps: 52); then the first loads of Pyramid deals 1-200.

Run: .venv/bin/python bench/weight.py   (targets: first load <= 100 KB, move fragment <= 5 KB)
"""

from __future__ import annotations

import gzip
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient  # noqa: E402

from app.db.migrate import upgrade_to_head  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.web.main import create_app  # noqa: E402


def wire_bytes(response) -> int:
    # TestClient decodes gzip; re-compress the body the way the server did to count wire bytes
    body = response.content
    return len(gzip.compress(body, compresslevel=9)) if response.headers.get("content-encoding") == "gzip" else len(body)


def load_sizes(client, page) -> dict[str, int]:
    """The page and each file it names, once (a figure's courts.svg#KH is its file), as a browser
    loading it fetches them: one favicon (Chromium the SVG one, a browser without SVG icons the
    ICO: the larger is counted, as "icon"), no home-screen icon (apple-touch-icon: fetched when
    the page is added to a home screen)."""
    favicons = re.findall(r'<link rel="icon" href="([^"]+)"', page.text)
    home_screen = re.findall(r'<link rel="apple-touch-icon" href="([^"]+)"', page.text)
    urls = dict.fromkeys(url.partition("#")[0] for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text))
    sizes = {"html": wire_bytes(page), "icon": max(wire_bytes(client.get(url)) for url in favicons)}
    return sizes | {url.split("?")[0]: wire_bytes(client.get(url)) for url in urls
                    if url not in favicons and url not in home_screen}


def first_move(client, page: str, token: str, action: str = "", target: str = ""):
    """A deal ready to play posts its first move to its own share link (the form's action)."""
    url = re.search(r'<form method="post" action="([^"]+)"', page).group(1)
    fields = {"csrf_token": token, **({"action": action} if action else {}), **({"target": target} if target else {})}
    response = client.post(url, data=fields, headers={"HX-Request": "true"})
    assert response.status_code == 200, (url, response.status_code)
    return response


def main() -> None:
    data = Path(tempfile.mkdtemp())
    settings = Settings(data_dir=data, database_url=f"sqlite:///{data / 'weight.sqlite3'}", secret_key="weight-secret-of-at-least-32-characters")
    upgrade_to_head(settings)
    client = TestClient(create_app(settings), headers={"Accept-Encoding": "gzip"})
    page = client.get("/play/pyramid/424242")
    sizes = load_sizes(client, page)
    token = re.search(r'name="csrf_token" value="(\w+)"', page.text).group(1)
    move = first_move(client, page.text, token, "draw")
    act = re.search(r'hx-post="(/games/[^"]+/act)"', move.text).group(1)  # the game is stored now
    move = client.post(act, data={"action": "draw", "csrf_token": token}, headers={"HX-Request": "true"})
    for name, size in sizes.items():
        print(f"{name:40s} {size:7d} B")
    print(f"{'first load (gzip)':40s} {sum(sizes.values()):7d} B")
    print(f"{'move fragment (gzip)':40s} {wire_bytes(move):7d} B  (raw {len(move.content)} B)")
    # Gaps shows every court card on a desktop: its first load carries all twelve figures
    gaps = client.get("/play/gaps/42")
    gaps_sizes = load_sizes(client, gaps)
    figures = sum(size for url, size in gaps_sizes.items() if url.startswith("/static/cards/"))
    print(f"{'gaps first load (gzip)':40s} {sum(gaps_sizes.values()):7d} B  (court figures {figures} B)")
    for path, target in (("/play/double-pyramid/42", {"action": "draw"}), ("/play/gaps/42", None)):
        page = client.get(path)
        token = re.search(r'name="csrf_token" value="(\w+)"', page.text).group(1)
        fields = target or {"target": re.search(r'name="target" value="([^"]+)"[^>]*class="[^"]*playable', page.text).group(1)}
        move = first_move(client, page.text, token, **fields)
        label = f"{path.split('/')[2]} first move fragment (gzip)"
        print(f"{label:40s} {wire_bytes(move):7d} B  (raw {len(move.content)} B)")
    # every deal loads the same page and files but the court figures it shows
    fixed = sum(size for url, size in sizes.items() if not url.startswith("/static/cards/"))
    figure_bytes = {name: wire_bytes(client.get(f"/static/cards/{name}")) for name in
                    {f"{rank}{suit}.svg" for rank in "JQK" for suit in "CDHS"}}
    loads = sorted(fixed + sum(figure_bytes[url.split("?")[0].removeprefix("/static/cards/")] for url in set(re.findall(r'src="(/static/cards/[^"]+)"', client.get(f"/play/pyramid/{seed}").text)))
                   for seed in range(1, 201))
    print(f"{'pyramid deals 1-200, first load':40s} median {loads[100]} B, 98th percentile {loads[195]} B, most {loads[-1]} B")


if __name__ == "__main__":
    main()
