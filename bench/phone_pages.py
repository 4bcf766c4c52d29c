"""A phone's pages, measured in Debian's Chromium at 390x844 (issue 37): the statistics page after
14 games in 7 presets (its height in screens, target <= 3), and the Gaps board (each row one
column: its cells' sizes, target >= 44 px, and the foot of the board and its buttons, target
<= 844 px, with the page not scrolled).

  .venv/bin/python bench/phone_pages.py [--base-url URL]

Starts a server of this checkout on a temporary SQLite unless --base-url names one (bench/browser.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from app.engine import PRESETS
from bench.browser import chromium_and_server
from tests.web.play import api_player, first_move

LANGUAGES = {"da": "da-DK", "sv": "sv-SE", "en": "en-GB"}
WIDTH, HEIGHT = 390, 844


def stats_height(browser, base: str, locale: str) -> float:
    """The statistics page's height in screens, for a player with 14 games in 7 presets (the
    first of each seed-11 game counted as lost once the seed-12 game of its preset began)."""
    api = httpx.Client(base_url=base)
    auth = api_player(api)
    for seed in (11, 12):
        for preset in list(PRESETS)[:7]:
            first_move(api, auth, preset, seed)
    link = urlsplit(api.post("/api/players/me/device-link", headers=auth).json()["url"]).path
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale=locale)
    page = context.new_page()
    page.goto(base + link)
    page.click('main form button[type="submit"]')
    page.wait_for_load_state()
    page.goto(f"{base}/stats")
    height = page.evaluate("document.documentElement.scrollHeight")
    context.close()
    return height / HEIGHT


def gaps_board(browser, base: str, locale: str, preset: str) -> dict:
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale=locale,
                                  has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"{base}/play/{preset}/3")
    page.wait_for_function("() => document.getAnimations().length === 0")
    found = page.evaluate("""() => {
        const boxes = sel => [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect());
        const cells = boxes('#board [data-pos]');
        const buttons = boxes('#board .controls .button, #board .game-menu .button');
        const columns = [...document.querySelectorAll('#board .grow')].map(row =>
            new Set([...row.querySelectorAll('[data-pos]')].map(e => Math.round(e.getBoundingClientRect().x))).size);
        return {width: Math.min(...cells.map(c => c.width)), height: Math.min(...cells.map(c => c.height)),
                board: Math.max(...cells.map(c => c.bottom)), buttons: Math.max(...buttons.map(b => b.bottom)),
                columns, scrolled: scrollY};
    }""")
    context.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default="")
    args = parser.parse_args()
    with chromium_and_server(args.base_url) as (browser, base):
        for language, locale in LANGUAGES.items():
            screens = stats_height(browser, base, locale)
            print(f"stats page, 14 games in 7 presets, {language}: {screens:.2f} screens of {HEIGHT} px")
        for preset in ("gaps", "gaps-danish"):
            for language in ("da", "sv"):
                g = gaps_board(browser, base, LANGUAGES[language], preset)
                one_column = all(n == 1 for n in g["columns"])
                print(f"{preset} {language}: cells {g['width']:.0f}x{g['height']:.0f} px, "
                      f"each row one column: {one_column}, foot of the board {g['board']:.0f} px, "
                      f"of its buttons {g['buttons']:.0f} px, scrolled {g['scrolled']} px")


if __name__ == "__main__":
    main()
