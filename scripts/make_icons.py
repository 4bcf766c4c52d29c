"""Draws Tretten's icons (static/icons/): a playing card with a heart on green baize, as SVG
and, with Pillow, as the PNGs and the ICO that browsers and home screens ask for. Drawn here
rather than taken from anywhere; run again after changing the shapes:

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
FELT, PAPER, EDGE, RED = "#0e5a3a", "#fffdf7", "#0a4029", "#b3001b"

# the shapes on a 512 grid: the baize, the card on it, and a heart of two circles and a point
BAIZE_RADIUS = 96
CARD = (136, 70, 376, 442)
CARD_RADIUS = 30
LOBES = ((212, 222), (300, 222))
LOBE_R = 50
POINT = ((165, 240), (347, 240), (256, 356))

SVG = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
<rect width="512" height="512" rx="{BAIZE_RADIUS}" fill="{FELT}"/>
<rect x="{CARD[0]}" y="{CARD[1]}" width="{CARD[2] - CARD[0]}" height="{CARD[3] - CARD[1]}" rx="{CARD_RADIUS}" fill="{PAPER}" stroke="{EDGE}" stroke-width="6"/>
<g fill="{RED}">{"".join(f'<circle cx="{x}" cy="{y}" r="{LOBE_R}"/>' for x, y in LOBES)}<path d="M{POINT[0][0]} {POINT[0][1]}L{POINT[1][0]} {POINT[1][1]}L{POINT[2][0]} {POINT[2][1]}Z"/></g>
</svg>
"""


def draw(size: int, *, maskable: bool = False) -> Image.Image:
    """The icon at ``size`` px, drawn 4x larger and scaled down for smooth edges. A maskable
    icon (Android crops it to a circle or squircle) fills the square and keeps the card
    inside the middle 80 %."""
    big = size * 4
    k = big / 512
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if maskable:
        pen.rectangle((0, 0, big, big), fill=FELT)
        k *= .8
        shift = big * .1
    else:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=BAIZE_RADIUS * k, fill=FELT)
        shift = 0

    def at(x: float, y: float) -> tuple[float, float]:
        return x * k + shift, y * k + shift

    pen.rounded_rectangle((*at(CARD[0], CARD[1]), *at(CARD[2], CARD[3])), radius=CARD_RADIUS * k,
                          fill=PAPER, outline=EDGE, width=max(1, round(6 * k)))
    for x, y in LOBES:
        pen.ellipse((*at(x - LOBE_R, y - LOBE_R), *at(x + LOBE_R, y + LOBE_R)), fill=RED)
    pen.polygon([at(x, y) for x, y in POINT], fill=RED)
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon.svg").write_text(SVG)
    for size in (192, 512):
        draw(size).save(OUT / f"icon-{size}.png", optimize=True)
    draw(512, maskable=True).save(OUT / "icon-maskable-512.png", optimize=True)
    draw(180, maskable=True).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)
    draw(64).save(OUT / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])


if __name__ == "__main__":
    main()
