"""The registry of games: one ``Variant`` per game name of the notation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Union

from .cards import Card, parse_deal
from .errors import InvalidRulesError
from .gaps import GapsMove, GapsPosition, parse_gaps_move
from .pyramid import PyramidMove, PyramidPosition, parse_pyramid_move
from .rules import GapsRules, PyramidRules

Rules = Union[PyramidRules, GapsRules]
Position = Union[PyramidPosition, GapsPosition]
Move = Union[PyramidMove, GapsMove]


@dataclass(frozen=True)
class Variant:
    """A game: how its deals, rule options and moves are read, and its start position."""

    name: str
    family: str  # "pyramid" or "gaps"
    decks: int = 1

    @property
    def deal_size(self) -> int:
        return 52 * self.decks

    def parse_rules(self, options: Mapping[str, object] | None = None) -> Rules:
        rules_class = GapsRules if self.family == "gaps" else PyramidRules
        return rules_class.from_options(options or {}, self.name)

    def default_rules(self) -> Rules:
        return self.parse_rules({})

    def parse_deal(self, text: str) -> tuple[Card, ...]:
        return parse_deal(text, self.decks)

    def parse_move(self, text: str) -> Move:
        if self.family == "gaps":
            return parse_gaps_move(text)
        return parse_pyramid_move(text, self.name)

    def new_position(self, deal: tuple[Card, ...], rules: Rules) -> Position:
        if self.family == "gaps":
            return GapsPosition.from_deal(rules, deal)
        return PyramidPosition.from_deal(self.name, rules, deal)


GAMES: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("pyramid", "pyramid"),
        Variant("giza", "pyramid"),
        Variant("double-pyramid", "pyramid", decks=2),
        Variant("gaps", "gaps"),
    )
}


def get_game(name: str) -> Variant:
    """The variant called ``name``; ``InvalidRulesError`` names the known ones otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise InvalidRulesError(
            f"unknown game {name!r}: choose {', '.join(GAMES)}"
        ) from None
