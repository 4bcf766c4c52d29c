"""Link preview images (app/web/views/previews.py): what they show, how they are named."""

from __future__ import annotations

import io
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops

from app.engine import PRESETS, GameRecord, deal_for_seed, format_deal, shuffled
from app.engine.cards import full_deck
from app.services.errors import BusyError, InputError, NotFoundError, RateLimitError
from app.services.play import games
from app.web.views import previews

FAMILIES = ["pyramid", "giza", "double-pyramid", "gaps", "gaps-danish"]


def _image(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def _deal(preset: str, seed: int) -> str:
    return format_deal(deal_for_seed(PRESETS[preset].game, seed))


def _share_near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 6) -> float:
    """The share of pixels within ``tolerance`` of ``colour`` in each channel."""
    near = sum(n for n, pixel in image.getcolors(image.width * image.height)
               if all(abs(a - b) <= tolerance for a, b in zip(pixel, colour)))
    return near / (image.width * image.height)


@pytest.mark.parametrize("preset", FAMILIES)
def test_a_preview_is_a_small_1200_by_630_png(preset):
    for seed in (0, 1, 2):
        png = previews.preview_png(preset, _deal(preset, seed))
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert Image.open(io.BytesIO(png)).format == "PNG"
        assert _image(png).size == (1200, 630)
        assert len(png) <= 100_000


@pytest.mark.parametrize("preset", FAMILIES)
def test_a_preview_changes_with_the_deal_and_is_the_same_for_the_same_deal(preset, monkeypatch):
    first = previews.preview_png(preset, _deal(preset, 7))
    monkeypatch.setattr(previews, "_cache", previews._Cache(previews.CACHED_PREVIEWS))  # drawn again
    again = previews.preview_png(preset, _deal(preset, 7))
    other = previews.preview_png(preset, _deal(preset, 8))
    assert first == again
    assert _image(first).tobytes() != _image(other).tobytes()


def test_the_same_deal_written_otherwise_is_the_same_preview():
    deal = _deal("pyramid", 3)
    assert previews.preview_png("pyramid", deal.lower().replace("T", "10")) == previews.preview_png("pyramid", deal)
    assert previews.preview_key("pyramid", "  " + deal.lower()) == previews.preview_key("pyramid", deal)


def test_a_second_call_is_served_from_the_cache():
    deal = _deal("giza", 11)
    first = previews.preview_png("giza", deal)
    assert previews.preview_png("giza", deal) is first


def test_the_cache_keeps_the_previews_drawn_last():
    cache = previews._Cache(2)
    cache.put("a", b"1")
    cache.put("b", b"2")
    assert cache.get("a") == b"1"  # a is now the newest
    cache.put("c", b"3")
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (b"1", None, b"3")


def test_a_preview_to_draw_is_let_in_first_and_a_cached_one_is_not_asked(monkeypatch):
    monkeypatch.setattr(previews, "_cache", previews._Cache(previews.CACHED_PREVIEWS))
    asked = []
    path = previews.preview_path("pyramid", seed=77)
    ref = path.split("/")[-1].split(".")[0]
    previews.preview_for_ref("pyramid", ref, "en", admit=lambda: asked.append(1))
    previews.preview_for_ref("pyramid", ref, "en", admit=lambda: asked.append(1))
    assert asked == [1]

    def refuse():
        raise RateLimitError("no", "rate_limited", retry_after=3)

    with pytest.raises(RateLimitError):
        previews.preview_for_ref("pyramid", "78", "en", admit=refuse)


def test_one_preview_is_drawn_at_a_time(monkeypatch):
    monkeypatch.setattr(previews, "_cache", previews._Cache(previews.CACHED_PREVIEWS))
    assert previews._drawing.acquire(blocking=False)  # another thread is drawing
    try:
        with pytest.raises(BusyError):
            previews.preview_for_ref("gaps", "5", "en")
    finally:
        previews._drawing.release()
    assert previews.preview_for_ref("gaps", "5", "en").png


def test_the_image_is_on_felt_with_the_header_band():
    image = _image(previews.preview_png("pyramid", _deal("pyramid", 5)))
    assert _share_near(image, previews.FELT) > 0.4
    assert _share_near(image.crop((0, 0, 1200, previews.HEADER)), previews.FELT_DARK) > 0.6
    assert _share_near(image, previews.PAPER) > 0.1  # the cards


def test_the_stock_is_a_card_back_where_there_is_one():
    stripes = previews.BACK[1]
    for preset in ("pyramid", "double-pyramid"):
        assert _share_near(_image(previews.preview_png(preset, _deal(preset, 1))), stripes) > 0.001
    assert _share_near(_image(previews.preview_png("giza", _deal("giza", 1))), stripes) == 0  # Giza has no stock


@pytest.mark.parametrize("preset", ["gaps", "gaps-danish"])
def test_gaps_shows_a_gap_where_each_ace_lay_and_the_danish_rule_the_starters(preset):
    for seed in (4, 5):
        deal = _deal(preset, seed).split()
        image = _image(previews.preview_png(preset, " ".join(deal)))
        danish = preset == "gaps-danish"
        w, h, starters, cells = previews.gaps_layout(danish)

        def colour_at(x, y):  # a card's top right (never ink: its index is left, its pip or figure lower) or a gap's
            return image.getpixel((x + w * 4 // 5, y + h // 6))

        for index, code in enumerate(deal):
            expected = previews.GAP_FILL if code[0] == "A" else previews.PAPER
            assert _near(colour_at(*cells[index // 13][index % 13]), expected), (index, code)
        assert len(starters) == (4 if danish else 0)
        for corner in starters:
            assert _near(colour_at(*corner), previews.STARTER_PAPER)
        if danish:  # row by row, the aces in the order they were dealt: red ink for a red suit
            suits = [code[1] for code in deal if code[0] == "A"]
            for (x, y), suit in zip(starters, suits):
                red = _share_near(image.crop((x, y, x + w, y + h)), previews.RED, 40)
                assert (red > 0.02) == (suit in "HD"), (suits, suit, red)
        else:
            assert _share_near(image, previews.STARTER_PAPER, 3) == 0


def _near(pixel, colour, tolerance: int = 6) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def test_the_name_and_the_indices_are_the_language_asked_for():
    deal = _deal("gaps", 2)
    english, danish = (_image(previews.preview_png("gaps", deal, language)) for language in ("en", "da"))
    header = (0, 0, 1200, previews.HEADER)
    assert english.crop(header).tobytes() != danish.crop(header).tobytes()
    # a number card is drawn alike; a queen's index is the Danish deck's D, not Q (docs/glossary.md)
    w, h, _, cells = previews.gaps_layout(False)
    grid = PRESETS["gaps"].variant.parse_deal(deal)
    position = GameRecord.new("gaps", PRESETS["gaps"].rules, grid).start.grid
    where = {c.rank if c else None: divmod(i, 13) for i, c in enumerate(position)}

    def index_of(image, rank):
        row, column = where[rank]
        x, y = cells[row][column]
        return image.crop((x, y, x + w * 2 // 5, y + h // 2))  # the index (a court's figure is right of it)

    for rank, same in ((7, True), (12, False), (11, False), (1 if 1 in where else 13, 1 not in where)):
        # each image has a palette of its own (the court figures' colours among it): a shade may
        # differ a little; another letter differs by far more
        difference = ImageChops.difference(index_of(english, rank), index_of(danish, rank)).getextrema()
        assert (max(high for _, high in difference) <= 40) == same, (rank, difference)


def test_the_previews_indices_are_the_apps():
    from app.web.views import card_words

    assert previews.RANK_LABELS is card_words.RANK_LABELS  # one table: a change to the board's is the preview's


# ---------------------------------------------------------------- names and URLs

def test_the_key_changes_with_the_deal_the_preset_the_language_and_the_drawing(monkeypatch):
    deal = _deal("pyramid", 9)
    key = previews.preview_key("pyramid", deal)
    assert key == previews.preview_key("pyramid", deal)
    assert len(key) == 16 and int(key, 16) >= 0
    assert key != previews.preview_key("pyramid", _deal("pyramid", 10))
    assert key != previews.preview_key("giza", deal)
    assert key != previews.preview_key("pyramid", deal, "da")
    monkeypatch.setattr(previews, "DRAWING_VERSION", previews.DRAWING_VERSION + 1)
    assert key != previews.preview_key("pyramid", deal)


@given(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from(["pyramid", "double-pyramid", "gaps"]))
def test_a_deal_token_is_one_letter_a_card_and_reads_back(seed, preset):
    copies = 2 if preset == "double-pyramid" else 1
    deal = format_deal(shuffled(full_deck(copies), seed))
    token = previews.deal_token(deal, preset)
    assert len(token) == 52 * copies and token.isascii() and token.isalpha()
    assert previews.deal_from_token(token, preset) == deal


@pytest.mark.parametrize("token", ["", "A", "A" * 52, "ABC!" + "D" * 48, "é" * 52])
def test_a_token_that_is_not_a_whole_deal_is_refused(token):
    with pytest.raises(InputError) as caught:
        previews.deal_from_token(token, "pyramid")
    assert caught.value.key == "bad_deal"


def _answer(path: str) -> previews.Preview:
    parts = urlsplit(path)
    _, root, language, preset, file = parts.path.split("/")
    assert root == "preview" and file.endswith(".png")
    preview = previews.preview_for_ref(preset, file.removesuffix(".png"), language)
    assert parse_qs(parts.query) == {"v": [preview.key]}
    return preview


def test_a_seeded_deal_is_named_by_its_seed():
    path = previews.preview_path("pyramid", seed=123, language="da")
    assert path.startswith("/preview/da/pyramid/123.png?v=")
    preview = _answer(path)
    assert preview.png == previews.preview_png("pyramid", _deal("pyramid", 123), "da")
    assert preview.key == previews.preview_key("pyramid", _deal("pyramid", 123), "da")


def test_every_seed_up_to_the_largest_has_a_preview():
    for seed in (0, 2**64 - 1):
        assert _answer(previews.preview_path("gaps", seed=seed)).png == previews.preview_png("gaps", _deal("gaps", seed))


def test_any_other_deal_is_named_by_its_token():
    deal = format_deal(shuffled(full_deck(2), 42))
    path = previews.preview_path("double-pyramid", deal_text=deal, language="sv")
    token = previews.deal_token(deal, "double-pyramid")
    assert path.startswith(f"/preview/sv/double-pyramid/{token}.png?v=")
    assert _answer(path).png == previews.preview_png("double-pyramid", deal, "sv")


def test_a_path_needs_a_seed_or_a_deal():
    with pytest.raises(ValueError):
        previews.preview_path("pyramid")


@pytest.mark.parametrize(("preset", "ref", "language", "error", "key"), [
    ("nope", "1", "en", NotFoundError, "unknown_preset"),
    ("pyramid", "1", "de", NotFoundError, "unknown_language"),
    ("pyramid", str(2**64), "en", InputError, "bad_seed"),
    ("pyramid", "١٢٣", "en", InputError, "bad_deal"),  # not ASCII digits: not a seed, not a token
    ("pyramid", "12a", "en", InputError, "bad_deal"),
    ("double-pyramid", previews.deal_token(_deal("pyramid", 1), "pyramid"), "en", InputError, "bad_deal"),
])
def test_a_bad_preview_url_is_a_clear_error(preset, ref, language, error, key):
    with pytest.raises(error) as caught:
        previews.preview_for_ref(preset, ref, language)
    assert caught.value.key == key


def test_a_previews_seed_is_checked_as_a_games_link_checks_it():
    """The checks are app.services.play.games's: its words for a bad seed, its length limit."""
    with pytest.raises(InputError) as link:
        games.parse_seed(str(2**64))
    with pytest.raises(InputError) as preview:
        previews.preview_for_ref("pyramid", str(2**64), "en")
    assert preview.value.message == link.value.message


def test_a_previews_deal_is_as_long_as_an_imported_deal_may_be(monkeypatch):
    deal = _deal("pyramid", 3)
    monkeypatch.setattr(games, "MAX_DEAL_TEXT", len(deal) - 1)
    with pytest.raises(InputError) as caught:
        previews.preview_png("pyramid", deal)
    assert caught.value.key == "bad_deal" and "too long" in caught.value.message


def test_a_former_name_of_a_preset_is_the_preset():
    assert previews.preview_for_ref("tuts-tomb", "31", "da") == previews.preview_for_ref("pyramid", "31", "da")
    deal = _deal("pyramid", 31)
    assert previews.preview_key("tuts-tomb", deal) == previews.preview_key("pyramid", deal)


def test_a_bad_deal_is_a_clear_error():
    with pytest.raises(InputError) as caught:
        previews.preview_png("pyramid", "AS KD")
    assert caught.value.key == "bad_deal" and "52" in caught.value.message
    with pytest.raises(InputError):
        previews.preview_png("gaps", "AS " * 400)


def test_previews_and_sharing_know_nothing_of_http_and_previews_nothing_of_the_database():
    from ...engine.test_purity import imported_modules

    web = Path(previews.__file__).parent
    http = ("fastapi", "starlette", "jinja2")
    for name in ("previews.py", "sharing.py"):
        assert not [m for m in imported_modules(web / name) if m.startswith(http)], name
    # a preview is drawn from the seed or deal alone: a bot fetching one stores nothing
    assert not [m for m in imported_modules(web / "previews.py") if m.startswith(("sqlalchemy", "app.db"))]


def test_a_court_card_shows_its_figure_and_a_number_card_its_suit():
    """As on the game's cards: an uncovered jack, queen or king shows its figure (the game's
    own, app/web/views/figures), in colours no pip has; a number card a large pip of its ink."""
    deal = _deal("gaps", 2)
    image = _image(previews.preview_png("gaps", deal)).convert("RGB")
    w, h, _, cells = previews.gaps_layout(False)
    for index, code in enumerate(deal.split()):
        x, y = cells[index // 13][index % 13]
        lower_right = image.crop((x + w // 2, y + h // 2, x + w, y + h))
        colours = {colour for _, colour in lower_right.getcolors(maxcolors=w * h)}
        blue = any(b > 120 and r < 100 for r, g, b in colours)  # the figures' blue; no suit is blue
        assert blue == (code[0] in "JQK"), code
