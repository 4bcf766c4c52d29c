"""The favicon, the home-screen icons and the web app manifest: linked from every page, served
with their content types, and cached for a year only under the hash of what they are now."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

pytestmark = pytest.mark.sqlite_only  # what is drawn, not how it is stored


def _linked(html: str) -> dict[str, str]:
    return {rel + (f" {kind}" if kind else ""): href for rel, href, kind in re.findall(
        r'<link rel="(icon|apple-touch-icon|manifest|stylesheet)" href="([^"]+)"(?:[^>]*type="([^"]+)")?', html)}


def test_pages_link_a_favicon_an_svg_icon_and_the_manifest(client):
    links = _linked(client.get("/").text)
    assert links["icon"].startswith("/static/icons/favicon.ico?v=")
    assert links["icon image/svg+xml"].startswith("/static/icons/icon.svg?v=")
    assert links["apple-touch-icon"].startswith("/static/icons/apple-touch-icon.png?v=")
    assert links["manifest"] == "/manifest.webmanifest"
    assert "data:," not in client.get("/").text
    for href, kind in ((links["icon"], "image/vnd.microsoft.icon"), (links["icon image/svg+xml"], "image/svg+xml"),
                       (links["apple-touch-icon"], "image/png")):
        response = client.get(href)
        assert response.status_code == 200, href
        assert response.headers["content-type"].startswith(kind), href
        assert response.headers["cache-control"] == "public, max-age=31536000, immutable", href
    ico = Image.open(io.BytesIO(client.get(links["icon"]).content))
    assert ico.format == "ICO" and {(16, 16), (32, 32), (48, 48)} <= set(ico.info["sizes"])
    assert client.get("/favicon.ico").headers["content-type"] == "image/vnd.microsoft.icon"


def test_the_manifest_names_the_app_and_its_hashed_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["name"] == "Tretten" and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    sizes = set()
    for icon in manifest["icons"]:
        assert "?v=" in icon["src"], icon
        image = client.get(icon["src"])
        assert image.status_code == 200
        assert image.headers["content-type"].startswith(icon["type"])
        assert image.headers["cache-control"].endswith("immutable")
        if icon["type"] == "image/png":
            width, height = Image.open(io.BytesIO(image.content)).size
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
    assert {192, 512} <= sizes


def test_only_the_current_hash_is_cached_for_a_year(client):
    css = _linked(client.get("/").text)["stylesheet"]  # the last stylesheet linked
    assert client.get(css).headers["cache-control"].endswith("immutable")
    path = css.partition("?")[0]
    for other in (f"{path}?v=000000000000", path, f"{path}?x=1"):
        assert client.get(other).headers["cache-control"] == "public, max-age=300", other


def test_the_manifest_speaks_the_visitors_language(client):
    """A browser asks for the manifest without cookies: its words follow Accept-Language."""
    for accept, lang, words in (("da-DK,da;q=0.9", "da", "Pyramide"), ("sv-SE", "sv", "Pyramiden"),
                                ("en-GB", "en", "Pyramid and Gaps")):
        response = client.get("/manifest.webmanifest", headers={"accept-language": accept})
        manifest = response.json()
        assert manifest["lang"] == lang and words in manifest["description"], manifest
        assert "Accept-Language" in response.headers["vary"]
