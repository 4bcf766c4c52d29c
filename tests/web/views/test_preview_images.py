"""GET /preview/{language}/{preset}/{ref}.png: the deal as dealt, cached for good at its
versioned URL, refused in plain words, and never a cookie (preview bots fetch it)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from app.engine import PRESETS, deal_for_seed, format_deal
from app.settings import Settings
from app.web.views import previews

pytestmark = pytest.mark.sqlite_only  # what is drawn, not how it is stored


def _png(response) -> Image.Image:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "PNG"
    return image


@pytest.mark.parametrize("preset", ["pyramid", "giza", "double-pyramid", "gaps"])
def test_a_seeds_preview_is_a_1200_by_630_png_that_changes_with_the_deal(client, preset):
    first = client.get(previews.preview_path(preset, seed=123))
    other = client.get(previews.preview_path(preset, seed=124))
    assert _png(first).size == (1200, 630) and _png(other).size == (1200, 630)
    assert len(first.content) <= 100_000
    assert _png(first).convert("RGB").tobytes() != _png(other).convert("RGB").tobytes()
    assert first.headers["etag"] != other.headers["etag"]
    assert "set-cookie" not in first.headers


def test_an_imported_deal_is_named_by_its_token():
    deal = format_deal(deal_for_seed(PRESETS["pyramid"].game, 5))
    path = previews.preview_path("pyramid", deal_text=deal)
    assert path.startswith("/preview/en/pyramid/") and "/5.png" not in path


def test_the_token_url_shows_the_same_deal_as_its_seed(client):
    deal = format_deal(deal_for_seed(PRESETS["giza"].game, 5))
    by_token = client.get(previews.preview_path("giza", deal_text=deal, language="da"))
    by_seed = client.get(previews.preview_path("giza", seed=5, language="da"))
    assert by_token.content == by_seed.content


def test_the_versioned_url_is_cached_for_good_and_revalidates_by_etag(client):
    path = previews.preview_path("pyramid", seed=77, language="sv")
    response = client.get(path)
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    etag = response.headers["etag"]
    assert etag == '"' + path.rsplit("v=", 1)[1] + '"'
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.get(path, headers={"If-None-Match": 'W/"other", ' + etag}).status_code == 304
    assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200
    # an old or missing version: the current image, cached only for a while
    stale = client.get(path.split("?")[0] + "?v=0123456789abcdef")
    assert stale.content == response.content and stale.headers["cache-control"] == "public, max-age=3600"
    assert client.get(path.split("?")[0]).headers["cache-control"] == "public, max-age=3600"


def test_head_answers_like_get_without_the_body(client):
    path = previews.preview_path("gaps", seed=3)
    head = client.head(path)
    assert head.status_code == 200 and head.headers["content-type"] == "image/png" and head.content == b""


@pytest.mark.parametrize(("path", "status", "words"), [
    ("/preview/de/pyramid/1.png", 404, "unknown language"),
    ("/preview/en/no-such-game/1.png", 404, "unknown preset"),
    ("/preview/en/pyramid/abc.png", 422, "expected 52"),
    ("/preview/en/pyramid/99999999999999999999999.png", 422, "seed"),
    ("/preview/en/pyramid/" + "a" * 500 + ".png", 422, "too long"),
    ("/preview/en/pyramid/1%00.png", 422, "A–Z"),
])
def test_bad_addresses_are_refused_in_plain_words_without_a_cookie(client, path, status, words):
    response = client.get(path)
    assert response.status_code == status
    assert words in response.text
    assert response.headers["content-type"].startswith("text/plain")
    assert "set-cookie" not in response.headers


def test_the_public_url_setting(tmp_path):
    assert Settings(data_dir=tmp_path, public_url="https://tretten.example/").public_url == "https://tretten.example"
    assert Settings(data_dir=tmp_path).public_url == ""
    for bad in ("tretten.example", "ftp://tretten.example", "https://tretten.example/?a=1", "https://"):
        with pytest.raises(ValueError):
            Settings(data_dir=tmp_path, public_url=bad)
