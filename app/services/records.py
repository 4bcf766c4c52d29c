"""A stored game as the engine's GameRecord, replayed from its text.

A game row stores the canonical deal, the whole move list (redo tail included) and the cursor;
the record is that text replayed by the engine, every stored move checked again (a row is
never trusted further than the rules allow).
"""

from __future__ import annotations

from app.db.models import Game
from app.engine import GameRecord, get_game


def replayed(game: str, rules: dict, deal: str, moves: str, cursor: int | None = None) -> GameRecord:
    """The record of a stored game; raises the engine's errors if the text does not replay."""
    return GameRecord.from_text(game, get_game(game).parse_rules(rules), deal, moves, cursor)


def record_of(game: Game) -> GameRecord:
    return replayed(game.game, game.rules, game.deal, game.moves, game.cursor)
