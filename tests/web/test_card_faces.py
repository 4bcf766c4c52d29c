"""The card face macro (templates/_cards.html): what every card's markup holds. How it looks is
tests/browser/test_cards.py."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from app import i18n
from app.engine import Card
from app.settings import PROJECT_ROOT
from app.web.assets import asset_url, file_for
from app.web.templating import RANK_LABELS, environment


class _Tree(HTMLParser):
    """The markup as nested [tag, classes, children-or-text] lists."""

    def __init__(self) -> None:
        super().__init__()
        self.root: list = ["root", set(), []]
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = [tag, set((dict(attrs).get("class") or "").split()), [], dict(attrs)]
        self.stack[-1][2].append(node)
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
                # the figure: the symbol in the card's own hashed file, named by the card's code
                [fig] = _elements(art)
                assert art[1] == {"art", "court"} and fig[0] == "svg" and fig[1] == {"fig"}
                [use] = _elements(fig)
                code = Card(rank, suit).code
                assert use[0] == "use" and use[3]["href"] == f"{asset_url(f'cards/{code}.svg')}#{code}"
                assert "?v=" in use[3]["href"] and "missing" not in use[3]["href"]
                assert _text(fig) == ""


def test_a_seven_has_seven_pips():
    face = environment.get_template("_cards.html").module.face
    assert str(face(Card(7, "H"))).count('<span class="art n7">' + "<i></i>" * 7 + "</span>") == 1


def test_the_stylesheet_draws_every_suit_and_places_ten_pips():
    # each suit's shape is a mask in cards.css, and the last pip of a ten has a place
    from app.web.assets import file_for

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
    assert sorted(built) == sorted(f"{r}{s}.svg" for r in "JQK" for s in "CDHS")
    for name, text in built.items():
        assert text == file_for(f"cards/{name}").read_text(), f"rebuild {name}: node scripts/court_figures.mjs"


def test_each_court_figure_is_one_symbol_with_nothing_the_csp_refuses():
    sizes = []
    for rank in "JQK":
        for suit in "CDHS":
            code = rank + suit
            svg = file_for(f"cards/{code}.svg").read_text()
            assert re.findall(r'<symbol id="([JQK][CDHS])"', svg) == [code]
            assert "<script" not in svg and "style" not in svg
            assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing from elsewhere
            # the suit's own pips in the drawing: the card's colour, so the four-colour deck applies
            assert svg.count('fill="currentColor"') == 1
            sizes.append(len(gzip.compress(svg.encode())))
    # a board loads the figures it shows: a few KB each as sent
    assert max(sizes) < 10_000, sizes
