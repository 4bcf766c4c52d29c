"""Link preview images: a deal as it is dealt, drawn as a 1200×630 PNG for ``og:image``.

Drawn with Pillow from shapes, Pillow's bundled scalable font (a fresh server may have no
system fonts) and the court figures of the game's cards as PNGs (``app/web/views/figures``), so an
image is the same on every server. Pillow draws shapes without
antialiasing: the shapes (a blank card, the suits, the back, a gap) and the ranks are drawn
once per size, the shapes at ``SUPERSAMPLE`` times and scaled down, and a preview then only
pastes them into a palette PNG.

Addressing. A preview is named by what it shows: ``/preview/{language}/{preset}/{ref}.png``
where ``ref`` is a seed (digits) or, for any other deal, its token (one letter a card, see
``deal_token``). ``?v={preview_key}`` hashes ``DRAWING_VERSION`` and the content, so the URL of
a page changes whenever the drawing does and a response to the current key may be cached for
good. ``preview_path`` writes that URL; ``preview_for_ref`` answers it.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, singledispatch
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from app.engine import DECK, PRESETS, Card, GameRecord, Position, deal_for_seed, format_deal
from app.engine.gaps import COLUMNS as GAPS_COLUMNS
from app.engine.gaps import GapsPosition
from app.engine.pyramid import PYRAMID_SIZE, ROWS, PyramidPosition, row_indices
from app.i18n import LANGUAGES
from app.services.errors import BusyError, InputError, NotFoundError
from app.services.play.games import get_preset_or_error, parse_deal_text, parse_seed
from app.web.views.card_words import RANK_LABELS
from app.web.views.preset_words import preset_name

DRAWING_VERSION = 3  # raise whenever the drawing changes: every preview URL changes with it
WIDTH, HEIGHT = 1200, 630
SUPERSAMPLE = 3
FIGURES = Path(__file__).resolve().parent / "figures"
CACHED_PREVIEWS = 256    # 25–50 KB each
PALETTE_COLOURS = 128

FELT = (14, 90, 58)          # the app's --felt
FELT_DARK = (10, 64, 41)     # --felt-dark
PAPER = (255, 253, 247)      # --paper
STARTER_PAPER = (242, 239, 228)
INK = (27, 27, 27)           # --ink
RED = (179, 0, 27)           # --red
EDGE = (85, 85, 85)
BACK = ((35, 71, 122), (45, 90, 153))  # the stock's stripes, as in the app
WHITE = (255, 255, 255)
MUTED = (215, 232, 221)      # --muted
GAP_FILL = (10, 68, 44)      # rgba(0,0,0,.25) over the felt
GAP_EDGE = (194, 214, 206)   # rgba(255,255,255,.75) over the felt

HEADER = 92          # the band with the game's name
BOARD_TOP = HEADER + 18
BOARD_BOTTOM = HEIGHT - 22
SIDE = 40


# ---------------------------------------------------------------- addressing

def preview_key(preset_slug: str, deal_text: str, language: str = "en") -> str:
    """A hash of the drawing version, the preset, the canonical deal and the language."""
    return _key(*_checked(preset_slug, deal_text, language), language)


def _key(preset_slug: str, deal: str, language: str) -> str:
    text = f"tretten-preview:{DRAWING_VERSION}:{preset_slug}:{language}:{deal}"
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


# One letter per card of DECK (clubs A–K, diamonds, hearts, spades): 52 letters, 52 cards.
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_LETTER_OF = {c: _LETTERS[i] for i, c in enumerate(DECK)}
_CARD_OF = {letter: c for c, letter in _LETTER_OF.items()}


def deal_token(deal_text: str, preset_slug: str) -> str:
    """The deal as one letter a card (52 letters, 104 for Double Pyramid): a URL-safe name
    that can never be mistaken for a seed (a seed is digits)."""
    deal = _checked(preset_slug, deal_text, "en")[1]
    return "".join(_LETTER_OF[_CODES[code]] for code in deal.split())


def deal_from_token(token: str, preset_slug: str) -> str:
    """The canonical deal text of a token; ``InputError`` if it is not a whole deal."""
    try:
        codes = " ".join(_CARD_OF[letter].code for letter in token)
    except KeyError:
        raise InputError("a preview names a deal by letters A–Z and a–z", "bad_deal") from None
    return _checked(preset_slug, codes, "en")[1]


def preview_path(preset_slug: str, *, seed: int | None = None, deal_text: str | None = None,
                 language: str = "en") -> str:
    """The root-relative URL of a deal's preview: by its seed when it has one, else its token."""
    if seed is not None:
        deal_text = format_deal(deal_for_seed(get_preset_or_error(preset_slug).game, seed))
        ref = str(seed)
    elif deal_text is not None:
        ref = deal_token(deal_text, preset_slug)
    else:
        raise ValueError("a preview needs a seed or a deal")
    return f"/preview/{language}/{preset_slug}/{ref}.png?v={preview_key(preset_slug, deal_text, language)}"


@dataclass(frozen=True)
class Preview:
    png: bytes
    key: str  # the current ``v`` of its URL (and a fine ETag)


def preview_for_ref(preset_slug: str, ref: str, language: str,
                    admit: Callable[[], None] | None = None) -> Preview:
    """What ``/preview/{language}/{preset}/{ref}.png`` shows. ``NotFoundError`` for an unknown
    preset or language, ``InputError`` for a ref that is neither a seed nor a deal token.

    A preview in the cache costs nothing; one to draw is first let in by ``admit`` (the
    caller's rate limit: it raises RateLimitError), then drawn by one thread at a time
    (BusyError while another is drawing): a flood of new previews cannot take the CPU from
    the players' moves."""
    if ref.isascii() and ref.isdigit():
        deal_text = format_deal(deal_for_seed(get_preset_or_error(preset_slug).game, parse_seed(ref)))
    else:
        deal_text = deal_from_token(ref, preset_slug)
    preset, deal = _checked(preset_slug, deal_text, language)
    key = _key(preset, deal, language)
    png = _cache.get(key)
    if png is None:
        if admit is not None:
            admit()
        png = _drawn(preset, deal, language, key)
    return Preview(png, key)


_CODES = {c.code: c for c in DECK}


def _checked(preset_slug: str, deal_text: str, language: str) -> tuple[str, str]:
    """(the preset's own slug, a former name's too, and the canonical deal text); the service
    errors on bad input, as a game's link gets them (the same checks: app.services.play.games)."""
    preset = get_preset_or_error(preset_slug)
    if language not in LANGUAGES:
        raise NotFoundError(f"unknown language {language!r}", "unknown_language", language=language)
    return preset.slug, format_deal(parse_deal_text(preset, deal_text))


# ---------------------------------------------------------------- the image

def preview_png(preset_slug: str, deal_text: str, language: str = "en") -> bytes:
    """The deal as dealt, 1200×630 PNG: the preset's name, "Tretten" and the start position.

    Kept in a bounded in-process cache, keyed by the canonical deal.
    """
    preset, deal = _checked(preset_slug, deal_text, language)
    key = _key(preset, deal, language)
    return _cache.get(key) or _drawn(preset, deal, language, key)


class _Cache:
    """The previews drawn last, by key (a bounded LRU that can be asked without drawing)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            png = self._items.get(key)
            if png is not None:
                self._items.move_to_end(key)
            return png

    def put(self, key: str, png: bytes) -> None:
        with self._lock:
            self._items[key] = png
            while len(self._items) > self.size:
                self._items.popitem(last=False)


_cache = _Cache(CACHED_PREVIEWS)
_drawing = threading.BoundedSemaphore(1)


def _drawn(preset_slug: str, deal_text: str, language: str, key: str) -> bytes:
    if not _drawing.acquire(blocking=False):
        raise BusyError("another preview is being drawn", "solver_busy", retry_after=1)
    try:
        png = _draw(preset_slug, deal_text, language)
    finally:
        _drawing.release()
    _cache.put(key, png)
    return png


def _draw(preset_slug: str, deal_text: str, language: str) -> bytes:
    preset = PRESETS[preset_slug]
    position = GameRecord.new(preset.game, preset.rules, preset.variant.parse_deal(deal_text)).start
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    _header(image, preset_name(preset_slug, language))
    labels = RANK_LABELS[language]  # a Danish preview's queen is a D, as on the Danish player's board
    _layout(position, image, labels)
    out = io.BytesIO()
    # felt, paper, the inks and their antialiased edges fit a palette of 128 colours: a third
    # of the bytes of full colour, and quantizing and encoding it beats encoding full colour
    image.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE).save(out, "PNG", compress_level=6)
    return out.getvalue()


def _header(image: Image.Image, name: str) -> None:
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER), fill=FELT_DARK)
    font = _font(46)
    draw.text((SIDE, HEADER // 2), name, font=font, fill=WHITE, anchor="lm", stroke_width=1, stroke_fill=WHITE)
    draw.text((WIDTH - SIDE, HEADER // 2), "Tretten", font=_font(40), fill=MUTED, anchor="rm")


def _pyramid_size(w: int) -> tuple[int, int, int]:
    """Card height, gap between cards of a row and the step from row to row, for width ``w``."""
    h = round(w * 1.4)
    return h, max(4, round(w * 0.08)), round(h * 0.48)


def _draw_pyramid(image: Image.Image, cards: tuple[Card, ...], x: int, y: int, w: int, labels: dict) -> None:
    h, gap, step = _pyramid_size(w)
    for r in range(ROWS):
        left = x + (ROWS - 1 - r) * (w + gap) // 2
        for c, i in enumerate(row_indices(r)):
            _paste_card(image, cards[i], left + c * (w + gap), y + r * step, w, h, labels, pip=r == ROWS - 1)


def _pyramid_extent(w: int) -> tuple[int, int]:
    h, gap, step = _pyramid_size(w)
    return ROWS * w + (ROWS - 1) * gap, h + (ROWS - 1) * step


def _fit(width_in_cards: float, height_in_cards: float) -> int:
    """The largest card width whose layout fits the board area."""
    return int(min((WIDTH - 2 * SIDE) / width_in_cards, (BOARD_BOTTOM - BOARD_TOP) / height_in_cards))


@singledispatch
def _layout(position: Position, image: Image.Image, labels: dict) -> None:
    """The start position drawn on the image: each kind of position registers its own."""
    raise TypeError(f"no preview for {type(position).__name__}")


@_layout.register
def _pyramid_family(position: PyramidPosition, image: Image.Image, labels: dict) -> None:
    if position.table.has_stock:
        _pyramids(image, position, labels)
    else:
        _giza(image, position, labels)


def _pyramids(image: Image.Image, position, labels: dict) -> None:
    """Pyramid: the pyramid with the stock beside it, face down. Double Pyramid: the two
    pyramids side by side with the stock in the space between their apexes."""
    double = position.table.pyramids > 1
    # a pyramid is 7.48 card widths wide and 5.43 high (rows overlap as in the app)
    w = _fit(2 * 7.48 + 0.6, 5.43) if double else _fit(7.48 + 0.5 + 1, 5.43)
    h = round(w * 1.4)
    pw, ph = _pyramid_extent(w)
    between = round(w * (0.6 if double else 0.5))
    total = 2 * pw + between if double else pw + between + w
    x = (WIDTH - total) // 2
    y = BOARD_TOP + (BOARD_BOTTOM - BOARD_TOP - ph) // 2
    _draw_pyramid(image, position.layout[:PYRAMID_SIZE], x, y, w, labels)
    if double:
        _draw_pyramid(image, position.layout[PYRAMID_SIZE:], x + pw + between, y, w, labels)
        _stock(image, len(position.stock), (WIDTH - w) // 2, y, w)
    else:
        _stock(image, len(position.stock), x + pw + between, y + ph - h, w)


def _giza(image: Image.Image, position, labels: dict) -> None:
    """Giza: the pyramid and its eight face-up reserves of three, fanned as in the app."""
    w = _fit(7.48 + 0.7 + 4 * 1.15, 5.43)
    h = round(w * 1.4)
    pw, ph = _pyramid_extent(w)
    fan = round(h * 0.43)
    column = round(w * 1.15)
    pile_h = h + 2 * fan
    total = pw + round(w * 0.7) + 3 * column + w
    x = (WIDTH - total) // 2
    y = BOARD_TOP + (BOARD_BOTTOM - BOARD_TOP - ph) // 2
    _draw_pyramid(image, position.layout, x, y, w, labels)
    rx = x + pw + round(w * 0.7)
    row_gap = ph - 2 * pile_h
    for k, pile in enumerate(position.reserves):
        px = rx + (k % 4) * column
        py = y + (k // 4) * (pile_h + row_gap)
        for i, c in enumerate(pile):
            _paste_card(image, c, px, py + i * fan, w, h, labels, pip=i == len(pile) - 1)


@_layout.register
def _gaps(position: GapsPosition, image: Image.Image, labels: dict) -> None:
    """Gaps: four rows of thirteen with a gap where each ace lay; under the Danish house rule
    the aces stand before the rows as their starters."""
    w, h, starter_at, cell_at = gaps_layout(bool(position.starters))
    for r in range(4):
        if position.starters:
            sx, sy = starter_at[r]
            _paste_card(image, _CODES["A" + position.starters[r]], sx, sy, w, h, labels, starter=True)
        for c in range(GAPS_COLUMNS):
            x, y = cell_at[r][c]
            found = position.grid[r * GAPS_COLUMNS + c]
            if found is None:
                _paste(image, _gap_sprite(w, h), x, y)
            else:
                _paste_card(image, found, x, y, w, h, labels)


def gaps_layout(with_starters: bool):
    """Card width and height, the top left corner of each row's starter (if any) and of each
    cell of the grid, rows first."""
    columns = GAPS_COLUMNS + (1.25 if with_starters else 0)
    w = _fit(columns * 1.07, 4 * 1.4 + 3 * 0.12)
    h = round(w * 1.4)
    gap_x, gap_y = round(w * 0.07), round(h * 0.09)
    x0 = (WIDTH - (int(columns * (w + gap_x)) - gap_x)) // 2
    y0 = BOARD_TOP + (BOARD_BOTTOM - BOARD_TOP - (4 * h + 3 * gap_y)) // 2
    first = x0 + (round(1.25 * (w + gap_x)) if with_starters else 0)
    rows = [y0 + r * (h + gap_y) for r in range(4)]
    starters = [(x0, y) for y in rows] if with_starters else []
    cells = [[(first + c * (w + gap_x), y) for c in range(GAPS_COLUMNS)] for y in rows]
    return w, h, starters, cells


# ---------------------------------------------------------------- sprites

def _paste(image: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    image.paste(sprite, (x, y), sprite)


def _paste_card(image: Image.Image, c: Card, x: int, y: int, w: int, h: int, labels: dict, *,
                pip: bool = True, starter: bool = False) -> None:
    """A card face: rank and suit in the top left corner and, unless the card is covered (as
    in the app, where a covered card's pip would peek out between the cards on it), a large
    suit bottom right. Drawn in place rather than kept per card: 52 cards at each size would
    hold tens of megabytes for a millisecond or two a preview."""
    shadow = _shadow(w, h)
    image.paste((0, 0, 0), (x - 2, y, x - 2 + shadow.width, y + shadow.height), shadow)
    _paste(image, _blank(w, h, starter), x, y)
    colour = RED if c.suit in "HD" else INK
    label = labels.get(c.rank, str(c.rank))
    rank_size = round(w * 0.36)
    centre_x = x + round(w * (0.2 if len(label) == 1 else 0.25))
    top = y + round(w * 0.05)
    mask, (dx, dy) = _rank_mask(label, rank_size)
    image.paste(colour, (centre_x + dx, top + dy), mask)
    small = round(w * 0.24)
    image.paste(colour, (centre_x - small // 2, top + round(rank_size * 0.95)), _suit_mask(c.suit, small))
    if pip and c.rank > 10:  # a court card shows its figure, as the game's cards do
        figure = _figure(c.code, round(w * 0.51))
        margin = round(w * 0.07)
        _paste(image, figure, x + w - figure.width - margin, y + h - figure.height - margin)
    elif pip:
        large = round(w * 0.46)
        margin = round(w * 0.1)
        image.paste(colour, (x + w - large - margin, y + h - large - margin), _suit_mask(c.suit, large))


def _stock(image: Image.Image, count: int, x: int, y: int, w: int) -> None:
    h = round(w * 1.4)
    shadow = _shadow(w, h)
    image.paste((0, 0, 0), (x - 2, y, x - 2 + shadow.width, y + shadow.height), shadow)
    _paste(image, _back(w, h), x, y)
    draw = ImageDraw.Draw(image)
    centre, font = (x + w // 2, y + h // 2), _font(round(w * 0.42))
    draw.text(centre, str(count), font=font, fill=WHITE, anchor="mm", stroke_width=4, stroke_fill=BACK[0])
    draw.text(centre, str(count), font=font, fill=WHITE, anchor="mm", stroke_width=1, stroke_fill=WHITE)


@lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)
    # with a size, Pillow's bundled FreeType font (the bitmap ImageFont only without FreeType)
    assert isinstance(font, ImageFont.FreeTypeFont), "Pillow without FreeType cannot draw the previews"
    return font


@lru_cache(maxsize=64)
def _figure(code: str, width: int) -> Image.Image:
    """A court card's figure ``width`` px wide (app/web/views/figures: the game's own figures, drawn
    by scripts/preview_figures.py, since Pillow reads no SVG)."""
    figure = Image.open(FIGURES / f"{code}.png").convert("RGBA")
    return figure.resize((width, round(width * figure.height / figure.width)), Image.Resampling.LANCZOS)


def _rounded_mask(w: int, h: int, radius: int) -> Image.Image:
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=255)
    return mask


@lru_cache(maxsize=16)
def _shadow(w: int, h: int) -> Image.Image:
    """A soft shadow a little below the card: an alpha mask to paste black through."""
    pad = 4
    mask = Image.new("L", (w + 2 * pad, h + 2 * pad + 2), 0)
    ImageDraw.Draw(mask).rounded_rectangle((pad, pad + 3, pad + w, pad + h + 2), radius=_radius(w), fill=110)
    blurred = mask.filter(ImageFilter.GaussianBlur(2))
    return blurred.crop((pad - 2, pad, pad - 2 + w + 4, pad + h + 4))


@lru_cache(maxsize=128)
def _rank_mask(label: str, size: int) -> tuple[Image.Image, tuple[int, int]]:
    """A rank in bold (the bundled font drawn with a stroke) as an alpha mask, and where its
    top left lies from the middle of its top edge."""
    font = _font(size)
    # whole pixels for a FreeType font, though Pillow types the box with floats
    left, top, right, bottom = (int(v) for v in font.getbbox(label, anchor="mt", stroke_width=1))
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), label, font=font, fill=255, anchor="mt", stroke_width=1, stroke_fill=255)
    return mask, (left, top)


@lru_cache(maxsize=16)
def _blank(w: int, h: int, starter: bool) -> Image.Image:
    s = SUPERSAMPLE
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=_radius(w) * s,
                                          fill=STARTER_PAPER if starter else PAPER, outline=EDGE, width=s)
    return big.resize((w, h), Image.Resampling.LANCZOS)


def _radius(w: int) -> int:
    return max(3, w // 14)


@lru_cache(maxsize=64)
def _suit_mask(suit: str, size: int) -> Image.Image:
    """The suit symbol as shapes (the same on every server), as an alpha mask."""
    s = SUPERSAMPLE * 2
    big = Image.new("L", (size * s, size * s), 0)
    draw = ImageDraw.Draw(big)
    side = size * s

    def pt(u: float, v: float) -> tuple[float, float]:
        return u * side, v * side

    def circle(u: float, v: float, r: float) -> None:
        draw.ellipse((*pt(u - r, v - r), *pt(u + r, v + r)), fill=255)

    if suit == "D":
        draw.polygon([pt(0.5, 0.0), pt(0.88, 0.5), pt(0.5, 1.0), pt(0.12, 0.5)], fill=255)
    elif suit == "H":
        circle(0.27, 0.3, 0.25)
        circle(0.73, 0.3, 0.25)
        draw.polygon([pt(0.03, 0.38), pt(0.5, 0.97), pt(0.97, 0.38), pt(0.5, 0.3)], fill=255)
    elif suit == "S":
        circle(0.27, 0.6, 0.23)
        circle(0.73, 0.6, 0.23)
        draw.polygon([pt(0.05, 0.54), pt(0.5, 0.0), pt(0.95, 0.54), pt(0.5, 0.75)], fill=255)
        draw.polygon([pt(0.5, 0.6), pt(0.3, 1.0), pt(0.7, 1.0)], fill=255)
    else:  # clubs
        circle(0.5, 0.27, 0.22)
        circle(0.26, 0.6, 0.22)
        circle(0.74, 0.6, 0.22)
        circle(0.5, 0.55, 0.12)
        draw.polygon([pt(0.5, 0.5), pt(0.3, 1.0), pt(0.7, 1.0)], fill=255)
    return big.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def _back(w: int, h: int) -> Image.Image:
    """The stock: a card back in the app's blue stripes with a white edge."""
    s = SUPERSAMPLE
    stripes = Image.new("RGBA", (w * s, h * s), BACK[0] + (255,))
    draw = ImageDraw.Draw(stripes)
    step = 12 * s
    for k in range(-h * s, w * s, step):
        draw.polygon([(k, 0), (k + step // 2, 0), (k + step // 2 + h * s, h * s), (k + h * s, h * s)], fill=BACK[1])
    radius = _radius(w) * s
    mask = _rounded_mask(w * s, h * s, radius)
    card = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    card.paste(stripes, (0, 0), mask)
    ImageDraw.Draw(card).rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=radius, outline=WHITE, width=2 * s)
    return card.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def _gap_sprite(w: int, h: int) -> Image.Image:
    """An empty cell: dark, with a dashed white edge, as the app draws a gap."""
    s = SUPERSAMPLE
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    radius = _radius(w) * s
    draw.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=radius, fill=GAP_FILL)
    dash, line = 7 * s, 2 * s
    for x in range(radius, w * s - radius, 2 * dash):
        end = min(x + dash, w * s - radius)
        draw.rectangle((x, 0, end, line), fill=GAP_EDGE)
        draw.rectangle((x, h * s - 1 - line, end, h * s - 1), fill=GAP_EDGE)
    for y in range(radius, h * s - radius, 2 * dash):
        end = min(y + dash, h * s - radius)
        draw.rectangle((0, y, line, end), fill=GAP_EDGE)
        draw.rectangle((w * s - 1 - line, y, w * s - 1, end), fill=GAP_EDGE)
    return big.resize((w, h), Image.Resampling.LANCZOS)
