"""Draws the court figures for the link previews (app/web/views/figures/*.png) from the game's own
figures (static/cards/*.svg, built by scripts/court_figures.mjs), in Debian's Chromium through
Playwright: Pillow, which draws the previews, reads no SVG. Run again after the figures change:

    .venv/bin/python scripts/preview_figures.py
"""

from __future__ import annotations

import shutil
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "static" / "cards"
OUT = ROOT / "app" / "web" / "figures"
WIDTH = 120  # px; a preview's court card shows its figure at about 50 px wide
HEIGHT = round(WIDTH * 260.8 / 164.8)  # the figures' own proportions (their viewBox)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                             args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        for svg in sorted(CARDS.glob("[JQK][CDHS].svg")):  # the standard deck's twelve (not -4)
            page.set_content(f'<body style="margin:0;background:transparent">'
                             f'<img src="data:image/svg+xml;base64,{_base64(svg)}" '
                             f'style="display:block;width:{WIDTH}px;height:{HEIGHT}px"></body>')
            page.wait_for_function("() => document.images[0].complete")
            out = OUT / f"{svg.stem}.png"
            page.screenshot(path=str(out), omit_background=True)
            # a palette of 96 colours: a tenth of the bytes, no difference at a preview's size
            Image.open(out).quantize(96, method=Image.Quantize.FASTOCTREE).save(out, optimize=True)
        browser.close()


def _base64(path: Path) -> str:
    import base64
    return base64.b64encode(path.read_bytes()).decode()


if __name__ == "__main__":
    main()
