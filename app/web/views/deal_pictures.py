"""The lobby's small picture of a game's deal: a few cards as they lie, drawn with text by
templates/_deal_picture.html (no image to fetch). Only a picture: the words beside it say what
the game is. By game, as its words are (app/web/views/preset_words.py)."""

from __future__ import annotations

from typing import NamedTuple

from app.engine import Card
from app.engine.cards import parse_card


class Mini(NamedTuple):
    card: Card | None  # None: a gap
    lit: bool = False  # what the first move is about: the two cards of a pair, the gap and its card


class Picture(NamedTuple):
    shape: str  # "pyramid": rows centred, each over the one above; "grid": rows from the left
    rows: tuple[tuple[Mini, ...], ...]


def _picture(shape: str, text: str) -> Picture:
    """Rows parted by "/", places by spaces: a card's code, "_" a gap, "*" before either lit."""
    def mini(code: str) -> Mini:
        lit, code = code.startswith("*"), code.removeprefix("*")
        return Mini(None if code == "_" else parse_card(code), lit)
    return Picture(shape, tuple(tuple(mini(code) for code in row.split()) for row in text.split("/")))


PICTURES = {
    "gaps": _picture("grid", "2H 3H 4H *_ 9C KD 6S / 2S 3S 7C QH _ 8D JC / 7D _ TS 4C *5H 9S 3D"),
    "pyramid": _picture("pyramid", "KS / 9H 4C / 2D JS 6H / *8C 3S QD *5D"),
}


def picture(game: str) -> Picture | None:
    """The game's picture (a game without one has none)."""
    return PICTURES.get(game)
