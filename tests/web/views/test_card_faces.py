"""The card face macro (templates/_cards.html): what every card's markup holds. How it looks is
tests/browser/test_cards.py."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest

from app import i18n
from app.engine import Card
from app.engine.cards import parse_card
from app.settings import PROJECT_ROOT
from app.web.views.assets import asset_url, file_for
from app.web.views.templating import RANK_LABELS, environment


class _Tree(HTMLParser):
    """The markup as nested [tag, classes, children-or-text] lists."""

    def __init__(self) -> None:
        super().__init__()
        self.root: list = ["root", set(), []]
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = [tag, set((dict(attrs).get("class") or "").split()), [], dict(attrs)]
        self.stack[-1][2].append(node)
        if tag != "img":  # a void element: no end tag to wait for
            self.stack.append(node)

    def handle_endtag(self, tag):
        assert self.stack[-1][0] == tag, (tag, self.stack[-1][0])
        self.stack.pop()

    def handle_data(self, data):
        self.stack[-1][2].append(data)


def _text(node) -> str:
    return "".join(child if isinstance(child, str) else _text(child) for child in node[2])


def _elements(node) -> list:
    return [child for child in node[2] if not isinstance(child, str)]


@pytest.fixture
def in_language(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language(i18n.DEFAULT_LANGUAGE)


@pytest.mark.parametrize("in_language", i18n.LANGUAGES, indirect=True)
def test_every_face_has_both_corners_and_its_middle(in_language):
    face = environment.get_template("_cards.html").module.face
    for suit in "CDHS":
        for rank in range(1, 14):
            tree = _Tree()
            tree.feed(str(face(Card(rank, suit))))
            [outer] = _elements(tree.root)
            assert outer[1] == {"face"} and outer[3].get("aria-hidden") == "true"  # the button names the card
            top, end, art = _elements(outer)
            label = RANK_LABELS[in_language].get(rank, str(rank))
            for corner, classes in ((top, {"idx"}), (end, {"idx", "end"})):
                assert corner[1] == classes
                rank_el, suit_el = _elements(corner)
                # the rank drawn by cards.css from data-r: no text, so it is not part of the name
                assert rank_el[1] == {"r"} and rank_el[3].get("data-r") == label and _text(rank_el) == ""
                assert suit_el[0] == "i" and not _elements(suit_el)  # the suit's shape, drawn by cards.css
            pips = [child for child in _elements(art) if child[0] == "i"]
            if rank == 1:
                assert art[1] == {"art", "ace"} and len(pips) == 1
            elif rank <= 10:
                assert art[1] == {"art", f"n{rank}"} and len(pips) == rank
            else:
                # the figure: the card's own hashed file, an image with no words of its own, loaded
                # at once (a board is drawn anew after each move: a lazy one would wait for layout)
                [fig] = _elements(art)
                assert art[1] == {"art", "court"} and fig[0] == "img" and fig[1] == {"fig"}
                code = Card(rank, suit).code
                assert fig[3]["src"] == asset_url(f"cards/{code}.svg") and "missing" not in fig[3]["src"]
                assert fig[3]["alt"] == "" and "loading" not in fig[3]


def test_a_seven_has_seven_pips():
    face = environment.get_template("_cards.html").module.face
    assert str(face(Card(7, "H"))).count('<span class="art n7">' + "<i></i>" * 7 + "</span>") == 1


def test_the_stylesheet_draws_every_suit_and_places_ten_pips():
    # each suit's shape is a mask in cards.css, and the last pip of a ten has a place
    from app.web.views.assets import file_for

    css = file_for("css/cards.css").read_text()
    for suit in "CDHS":
        assert f'.suit-{suit} {{ --suit: url("data:image/svg+xml,' in css
    assert ".n10 > i:nth-child(10)" in css


def test_the_court_figures_are_built_from_the_pinned_deck():
    # static/cards/*.svg are scripts/court_figures.mjs's output from the package in package.json
    # (npm ci installs it): a changed package or script means rebuilding the files
    node = shutil.which("node")
    assert node, "node is needed to check static/cards/ against its package"
    assert (PROJECT_ROOT / "node_modules" / "@letele" / "playing-cards").is_dir(), "run npm ci"
    built = json.loads(subprocess.run([node, str(PROJECT_ROOT / "scripts" / "court_figures.mjs"), "--stdout"],
                                      capture_output=True, text=True, check=True, timeout=60).stdout)
    assert sorted(built) == sorted([f"{r}{s}.svg" for r in "JQK" for s in "CDHS"]
                                   + [f"{r}{s}-4.svg" for r in "JQK" for s in "CD"] + ["courts.svg", "courts-4.svg"])
    for name, text in built.items():
        assert text == file_for(f"cards/{name}").read_text(), f"rebuild {name}: node scripts/court_figures.mjs"


def test_the_four_colour_deck_has_its_own_diamond_and_club_figures():
    face = environment.get_template("_cards.html").make_module({"player": SimpleNamespace(four_colour=True)}).face
    for code, four in (("KD", True), ("QC", True), ("JH", False), ("KS", False)):
        src = re.search(r'<img class="fig" src="([^"]+)"', str(face(parse_card(code)))).group(1)
        assert src == asset_url(f"cards/{code}{'-4' if four else ''}.svg"), src
        # a Gaps cell: a view of the four-colour deck's sheet of all twelve
        src = re.search(r'<img class="fig" src="([^"]+)"', str(face(parse_card(code), True))).group(1)
        assert src == asset_url("cards/courts-4.svg") + "#" + code, src


def test_the_sheet_of_all_twelve_is_the_twelve_figures_each_in_its_view():
    for sheet, four in (("courts.svg", False), ("courts-4.svg", True)):
        svg = file_for(f"cards/{sheet}").read_text()
        assert "<script" not in svg and "style" not in svg  # nothing the CSP refuses
        views = re.findall(r'<view id="([JQK][CDHS])" viewBox="([-\d. ]+)" preserveAspectRatio="none"/>', svg)
        assert sorted(code for code, _ in views) == sorted(r + s for r in "JQK" for s in "CDHS")
        for i, (code, box) in enumerate(views):
            x, y, width, height = map(float, box.split())
            assert (y, width, height) == (-130.4, 164.8, 260.8) and abs(x - (-82.4 + 200 * i)) < 1e-9, (sheet, code)
            # its layers are the figure file's, moved into its view
            alone = file_for(f"cards/{code}{'-4' if four and code[1] in 'CD' else ''}.svg").read_text()
            layers = alone.split("</defs>", 1)[1].removesuffix("</svg>\n")
            viewport = f'<svg x="{x:g}" y="-130.4" width="164.8" height="260.8" viewBox="-82.4 -130.4 164.8 260.8"'
            assert f'{viewport} overflow="visible">{layers}</svg>' in svg, (sheet, code)


def _theme_colours() -> dict[str, str]:
    light = file_for("css/theme.css").read_text().split("@media")[0]  # the light set comes first
    return {name: value.lower() for name, value in re.findall(r"--(red|ink|blue|green):\s*(#[0-9a-fA-F]{6})", light)}


def test_each_court_figure_is_one_drawing_in_its_suits_colour_with_nothing_the_csp_refuses():
    theme = _theme_colours()
    colour = {"H": theme["red"], "D": theme["red"], "S": theme["ink"], "C": theme["ink"]}
    four = {"D": theme["blue"], "C": theme["green"]}
    sizes = []
    for rank in "JQK":
        for suit in "CDHS":
            for name, ink in ((rank + suit, colour[suit]), *(((rank + suit + "-4", four[suit]),) if suit in four else ())):
                svg = file_for(f"cards/{name}.svg").read_text()
                assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox=') and 'preserveAspectRatio="none"' in svg
                assert "<script" not in svg and "style" not in svg
                assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing from elsewhere
                # the suit's own pips in the drawing: the deck's colour for that suit
                assert re.findall(r'fill="(#[0-9a-f]{6})"', svg) == [ink], name
                sizes.append(len(gzip.compress(svg.encode())))
    # a board loads the figures it shows: a few KB each as sent
    assert len(sizes) == 18 and max(sizes) < 10_000, sizes
