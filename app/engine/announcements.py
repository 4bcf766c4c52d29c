"""A move in words: what it did, for the live region, the replay, hints and the analysis.

An ``Announcement`` names the kind of move and the cards it took or moved; the templates word
it. Each move type says what it did here, beside the engine's types, so nothing outside the
engine asks which game a move is of.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from .cards import Card
from .gaps import COLUMNS, Fill, GapsPosition, Redeal
from .history import GameRecord
from .pyramid import PYRAMID_SIZE, STOCK, WASTE, Draw, PyramidPosition, Recycle
from .variants import Move, Position, get_game


@dataclass(frozen=True)
class Announcement:
    """What a move did, for the live region, the replay and hints (the templates word it)."""

    kind: str                      # remove, draw, recycle, fill, redeal, undo, autofinish; no_pair (a tap)
    cards: tuple[Card, ...] = ()
    row: int | None = None
    col: int | None = None
    round: int | None = None
    count: int = 0                 # autofinish: moves played
    undone: Announcement | None = None  # undo: the move taken back (its last, for a group)
    # fill: the card the gap lay after (None at a row's start): a place said so reads the same
    # however the grid is laid out (a phone turns each row into a column)
    after: Card | None = None
    # remove, where a card lies twice (two decks): where each card came from, one key a card
    # ("pyramid-1", "pyramid-2", "stock", "waste"), so that a list of moves says which of the two
    places: tuple[str, ...] = ()
    # draw: the card it turned up. The stock's top card lies face up (Tretten's rule), so a draw
    # puts it onto the waste (``cards``) and the news is the card under it (None: none left)
    turned: Card | None = None


def describe(move: Move, before: Position, after: Position) -> Announcement:
    """The announcement of ``move``, played from ``before`` to ``after``."""
    # a move is of its position's game: each cast only names that position's type for the checker
    if isinstance(move, Draw):
        drawn = cast(PyramidPosition, after)
        return Announcement("draw", cards=(drawn.waste[0],), turned=drawn.stock[0] if drawn.stock else None)
    if isinstance(move, Recycle):
        return Announcement("recycle")
    if isinstance(move, Redeal):
        return Announcement("redeal", round=cast(GapsPosition, after).round)
    if isinstance(move, Fill):
        grid = cast(GapsPosition, before).grid
        after_card = grid[move.row * COLUMNS + move.col - 1] if move.col else None
        return Announcement("fill", cards=(move.card,), row=move.row, col=move.col, after=after_card)
    position = cast(PyramidPosition, before)
    cards = tuple(c for c in (position.card_at(loc) for loc in move.locs) if c is not None)
    places = tuple(_place(loc) for loc in move.locs) if get_game(position.game).decks > 1 else ()
    return Announcement("remove", cards=cards, places=places)


def _place(loc: int) -> str:
    """Where a card of a removal lay, as ``Announcement.places`` names it."""
    if loc == STOCK:
        return "stock"
    if loc == WASTE:
        return "waste"
    return "pyramid-1" if loc < PYRAMID_SIZE else "pyramid-2"


def said_moves(record: GameRecord, start: int = 0) -> tuple[Announcement, ...]:
    """The record's moves from ply ``start`` to its cursor, each in words (``describe``)."""
    positions = record.positions()
    return tuple(describe(record.moves[k], positions[k], positions[k + 1]) for k in range(start, record.cursor))
