"""Cards and deals in the notation of ``docs/spec/notation.md``.

A card is two characters, rank then suit: ``A 2 … 9 T J Q K`` and ``C D H S``.
Input also accepts ``10`` for ``T`` and lower case; printing is always canonical.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .errors import InvalidDealError, NotationError

RANKS = "A23456789TJQK"
SUITS = "CDHS"


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. ``rank`` is 1 (ace) to 13 (king), which is also its Pyramid value."""

    rank: int
    suit: str

    @property
    def code(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __lt__(self, other: Card) -> bool:
        return (SUITS.index(self.suit), self.rank) < (SUITS.index(other.suit), other.rank)


# One shared object per card keeps comparisons cheap and parsing allocation-free.
_CARDS: dict[str, Card] = {r + s: Card(RANKS.index(r) + 1, s) for s in SUITS for r in RANKS}
DECK: tuple[Card, ...] = tuple(_CARDS[r + s] for s in SUITS for r in RANKS)


def card(rank: int, suit: str) -> Card:
    """The shared ``Card`` of that rank and suit."""
    return _CARDS[RANKS[rank - 1] + suit]


def parse_card(text: str) -> Card:
    """Parse one card code (``7h``, ``TS``, ``10d``); raise ``NotationError`` otherwise."""
    code = text.strip().upper()
    if code.startswith("10"):
        code = "T" + code[2:]
    found = _CARDS.get(code)
    if found is None:
        raise NotationError(f"{text.strip()!r} is not a card (rank A23456789TJQK, suit CDHS)")
    return found


def full_deck(copies: int = 1) -> tuple[Card, ...]:
    """The cards of ``copies`` standard 52-card decks in a fixed order (clubs A–K, diamonds, …)."""
    return DECK * copies


def parse_deal(text: str, copies: int = 1) -> tuple[Card, ...]:
    """Parse a deal: exactly ``52 * copies`` card codes, each card exactly ``copies`` times.

    The error names the first offending token and its position (counted from 0).
    """
    tokens = text.split()
    expected = 52 * copies
    seen: Counter[Card] = Counter()
    cards: list[Card] = []
    for position, token in enumerate(tokens):
        try:
            c = parse_card(token)
        except NotationError:
            raise InvalidDealError(f"token {position} {token!r} is not a card code",
                                   "not_a_card", number=position + 1, token=token) from None
        seen[c] += 1
        if seen[c] > copies:
            what = "a duplicate" if copies == 1 else f"more than {copies} copies of"
            raise InvalidDealError(f"token {position} {token!r} is {what} card {c.code}",
                                   "too_many_copies", number=position + 1, token=token, copies=copies)
        if position >= expected:
            raise InvalidDealError(
                f"token {position} {token!r} is one card too many: a deal has {expected} cards",
                "too_many_cards", number=position + 1, token=token, expected=expected,
            )
        cards.append(c)
    if len(cards) < expected:
        missing = [c.code for c in DECK for _ in range(copies - seen[c])]
        shown = f"{' '.join(missing[:5])}{' …' if len(missing) > 5 else ''}"
        raise InvalidDealError(
            f"the deal has {len(cards)} cards, expected {expected} (missing {shown})",
            "too_few_cards", count=len(cards), expected=expected, missing=shown,
        )
    return tuple(cards)


def format_deal(cards: tuple[Card, ...] | list[Card]) -> str:
    """Canonical deal text: card codes separated by single spaces."""
    return " ".join(c.code for c in cards)



def suits_renamed(cards: tuple[Card, ...] | list[Card]) -> str:
    """The cards with their suits renamed a, b, c, d in the order they first come: two runs of
    cards that differ only in the suits' names read the same."""
    names: dict[str, str] = {}
    for c in cards:
        if c.suit not in names:
            names[c.suit] = "abcd"[len(names)]
    return " ".join(RANKS[c.rank - 1] + names[c.suit] for c in cards)
