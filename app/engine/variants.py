"""The registry of games: one ``Variant`` per game name of the notation.

A variant carries its own types (position class, rules class, move parser) and what a tap on
its board means, so code outside the engine asks the variant rather than which family it
holds: ``variant.new_position``, ``variant.parse_move``, ``variant.tap``, ``variant.deal``.
``family`` names the layout ("pyramid" or "gaps") for whatever draws it (the web's board views
are keyed by it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from .cards import Card, format_deal, full_deck, parse_deal
from .errors import InvalidRulesError
from .gaps import GapsMove, GapsPosition, parse_gaps_move
from .gaps import deal_key as gaps_deal_key
from .position import Position
from .pyramid import PyramidMove, PyramidPosition, PyramidTable, parse_pyramid_move
from .pyramid import deal_key as pyramid_deal_key
from .rules import GapsRules, PyramidRules
from .seeding import check_seed, shuffled
from .taps import Tap, gaps_tap, pyramid_tap

Rules = PyramidRules | GapsRules
Move = PyramidMove | GapsMove


@dataclass(frozen=True)
class Variant:
    """A game: how its deals, rule options and moves are read, and its start position."""

    name: str
    family: str                                   # the layout: "pyramid" or "gaps"
    start: Callable[[Any, tuple[Card, ...]], Position]  # (rules, deal) -> the deal's start position
    rules_class: type[PyramidRules] | type[GapsRules]
    move_parser: Callable[[str], Move]
    tap_rule: Callable[[Any, str | None, str], Tap]  # (position, selection, place tapped): app.engine.taps
    # the deal as its play sees it (``deal_key``): what of the cards and their places its rules read
    play_key: Callable[[tuple[Card, ...]], str] = format_deal
    decks: int = 1
    # the Pyramid family's layout (pyramids, reserve piles), which its positions and moves
    # read; Gaps has none
    table: PyramidTable | None = None
    # how near the end a game is when an auto-finish offer gives little away: at most this
    # many cards left (or out of place)
    near_end_cards: int = 10
    # what the solver's shortest-win search (every game has one: its par) is worth beyond the
    # par: a hint follows it, cut at a hint's wait, where it finds a good line within a second
    # or two (the Pyramid family's; Gaps' comes out a few moves shorter, after seconds); and it
    # ends within seconds when searched in full (docs/par.md: two pyramids' mostly take their
    # whole budget)
    hint_shortest: bool = True
    quick_shortest: bool = True

    def near_end(self, position: Position) -> bool:
        """Few enough cards left (``near_end_cards``) that "still winnable, auto-finish?" is
        no great spoiler."""
        return position.cards_left <= self.near_end_cards

    def parse_rules(self, options: Mapping[str, object] | None = None) -> Rules:
        return self.rules_class.from_options(options or {}, self.name)

    def parse_deal(self, text: str) -> tuple[Card, ...]:
        return parse_deal(text, self.decks)

    def deal_key(self, deal: tuple[Card, ...]) -> str:
        """The deal up to what this game's rules ignore: two deals with the same key are one
        game to a player (a line found on one plays on the other, its cards renamed), so a
        player's first game of a deal is the first of its key (a clean win is a first game)."""
        return self.play_key(deal)

    def parse_move(self, text: str) -> Move:
        return self.move_parser(text)

    def tap(self, position: Position, selected: str | None, target: str) -> Tap:
        """What a tap on ``target`` means in ``position`` with ``selected`` selected: a move, or a
        new selection (``InvalidMoveError`` for a place the board does not have)."""
        return self.tap_rule(position, selected, target)

    def new_position(self, deal: tuple[Card, ...], rules: Rules) -> Position:
        return self.start(rules, deal)

    def deal(self, seed: int) -> tuple[Card, ...]:
        """The deal of ``seed`` (docs/seeded-deals.md): the ordered deck(s) shuffled by ``shuffled``."""
        return tuple(shuffled(full_deck(self.decks), check_seed(seed)))


def _pyramid_family(table: PyramidTable, **options: Any) -> Variant:
    """A game of the Pyramid family: its positions and moves read the table it is laid out on."""
    return Variant(table.game, "pyramid", partial(PyramidPosition.from_deal, table), PyramidRules,
                   partial(parse_pyramid_move, table=table), pyramid_tap, play_key=partial(pyramid_deal_key, table),
                   table=table, **options)


GAMES: dict[str, Variant] = {
    v.name: v
    for v in (
        _pyramid_family(PyramidTable("pyramid")),
        _pyramid_family(PyramidTable("giza", reserve_piles=8)),
        _pyramid_family(PyramidTable("double-pyramid", pyramids=2), decks=2, quick_shortest=False),
        Variant("gaps", "gaps", GapsPosition.from_deal, GapsRules, parse_gaps_move, gaps_tap,
                play_key=gaps_deal_key, near_end_cards=12, hint_shortest=False, quick_shortest=False),
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


def deal_for_seed(game: str, seed: int) -> tuple[Card, ...]:
    """The deal of ``seed`` for the game called ``game``."""
    return get_game(game).deal(seed)
