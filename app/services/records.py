"""A stored game as the engine's GameRecord, replayed from its text and kept.

A game row stores the canonical deal, the whole move list (redo tail included) and the cursor.
Replaying that text is a pure function, cached by the text itself: a stale entry can never be
served, and losing the cache (a restart, another instance) costs only a replay. Each move list
is replayed from the one before it (one move shorter), which the previous request left in the
cache, so a move costs one ``apply`` rather than a replay of the whole game.
"""

from __future__ import annotations

from functools import lru_cache

from app.db.models import Game
from app.engine import GameRecord, get_game

# A cold cache replays prefix by prefix through _replayed; this many moves at most per
# recursion, so a game of thousands of moves never nears Python's recursion limit.
_STEP = 200


def rules_key(options: dict) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((str(k), str(v)) for k, v in options.items()))


@lru_cache(maxsize=4096)
def _replayed(game: str, rules: tuple[tuple[str, str], ...], deal: str, moves: str) -> GameRecord:
    """The record of ``moves`` played from the deal, its cursor after the last move."""
    if not moves:
        variant = get_game(game)
        return GameRecord.from_text(game, variant.parse_rules(dict(rules)), deal)
    before, _, last = moves.rpartition(" ")
    return _replayed(game, rules, deal, before).play(last)


def replayed(game: str, rules: dict, deal: str, moves: str, cursor: int | None = None) -> GameRecord:
    """The record of a stored game; raises the engine's errors if the text does not replay."""
    key = rules_key(rules)
    tokens = moves.split()
    for end in range(_STEP, len(tokens), _STEP):  # a cold cache: warm it a step at a time
        _replayed(game, key, deal, " ".join(tokens[:end]))
    record = _replayed(game, key, deal, " ".join(tokens))
    return record if cursor is None or cursor == record.cursor else record.at(cursor)


def record_of(game: Game) -> GameRecord:
    return replayed(game.game, game.rules, game.deal, game.moves, game.cursor)
