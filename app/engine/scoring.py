"""Scores, computed from a game's history. The clock is passed in; the engine never reads it.

- ``simple``: cards removed from the pyramid(s); Gaps: cards in the rows' correct
  prefixes (at most 48).
- ``pairs``: 5 points per pair or king removed, plus a bonus for each pyramid row
  cleared: 25, 50, 75, 100, 150, 250, 500 from the bottom row up to the apex (per
  pyramid in Double Pyramid). Gaps: 5 points per card in a correct prefix, plus 100
  per finished row.
- ``timed``: ``pairs`` plus, for a won game only, a time bonus of
  ``100000 // max(seconds, 30)`` that falls as the seconds grow (3333 at 30 s or less,
  833 at two minutes, 111 at a quarter of an hour).
"""

from __future__ import annotations

from enum import StrEnum

from .history import GameRecord
from .outcome import Status


class Scoring(StrEnum):
    """A scoring system (see the module docstring). Like ``Status``, a member is its own text:
    the players' and games' ``scoring`` columns, the settings form and the API keep the words."""

    SIMPLE = "simple"
    PAIRS = "pairs"
    TIMED = "timed"


SCORING_SYSTEMS = tuple(Scoring)


def pair_score(record: GameRecord) -> int:
    """``pairs``: each position says what its moves earned (``pair_points``)."""
    return record.position.pair_points(record.moves[: record.cursor])


def time_bonus(elapsed_seconds: int) -> int:
    return 100000 // max(int(elapsed_seconds), 30)


def score(record: GameRecord, system: str = Scoring.SIMPLE, elapsed_seconds: int = 0) -> int:
    """The score of ``record`` at its cursor under ``system`` (a ``Scoring``, or its text; see
    the module docstring)."""
    if system == Scoring.SIMPLE:
        return record.position.simple_score
    if system == Scoring.PAIRS:
        return pair_score(record)
    if system == Scoring.TIMED:
        won = record.position.status is Status.WON
        return pair_score(record) + (time_bonus(elapsed_seconds) if won else 0)
    raise ValueError(f"unknown scoring system {system!r}: choose {', '.join(SCORING_SYSTEMS)}")
