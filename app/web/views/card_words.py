"""Cards in words and symbols, in the page's language: the corner indices, the suits' symbols,
the spoken names.

Beside the board's templates, it runs in the page's offline engine too (app/web/views/offline_engine.py),
so it needs only the engine and app.i18n's functions.
"""

from __future__ import annotations

from app import i18n
from app.engine import Card

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
# the indices each language's own decks print (docs/glossary.md): es/ess, knægt/knekt, dame/dam, konge/kung;
# the board's, the offline engine's and the link previews' (app/web/views/previews.py) alike
RANK_LABELS = {
    "en": {1: "A", 11: "J", 12: "Q", 13: "K"},
    "da": {1: "E", 11: "Kn", 12: "D", 13: "K"},
    "sv": {1: "E", 11: "Kn", 12: "D", 13: "K"},
}


def rank_label(card_or_rank: Card | int) -> str:
    """The corner index in the player's language: "D" for a Danish or Swedish queen."""
    rank = card_or_rank if isinstance(card_or_rank, int) else card_or_rank.rank
    return RANK_LABELS[i18n.LANGUAGE.get()].get(rank, str(rank))


def suit_symbol(card_or_suit: Card | str) -> str:
    suit = card_or_suit if isinstance(card_or_suit, str) else card_or_suit.suit
    return SUIT_SYMBOLS[suit]


def suit_name(suit: str) -> str:
    """A suit's name in the request's language."""
    _ = i18n.gettext
    return {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}[suit]


def card_name(card: Card) -> str:
    """The spoken name, in the request's language: "spar 7", "hjärter dam", "7 of spades"."""
    _ = i18n.gettext
    rank = {1: _("ace"), 11: _("jack"), 12: _("queen"), 13: _("king")}.get(card.rank, str(card.rank))
    return _("{rank} of {suit}").format(rank=rank, suit=suit_name(card.suit))


def card_symbol(card: Card) -> str:
    """The short written form: "7♥", "K♣"."""
    return rank_label(card) + SUIT_SYMBOLS[card.suit]
