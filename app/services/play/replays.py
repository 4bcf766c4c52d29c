"""Replays: a stored game shown move by move.

Anyone with a game's link may watch it, so anyone may replay it: the frames run from the
deal (ply 0) to the game's cursor (the moves a redo tail holds were taken back, so they are
not part of the game).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.db.models import Game
from app.engine import Position
from app.engine.announcements import Announcement, said_moves

from .games import record_of


@dataclass(frozen=True)
class Frame:
    ply: int            # moves played so far in this frame
    total: int          # moves in the game
    position: Position
    move: str | None    # the move that led here, in notation (a page hook; None at the deal)
    announcement: Announcement | None  # that move in words
    moves: tuple[Announcement, ...]    # the game's moves in words, for the move list


def frame(game: Game, ply: int | None) -> Frame:
    record = record_of(game)
    total = record.cursor
    ply = total if ply is None else min(max(0, ply), total)
    said = said_moves(record)
    position = record.positions()[ply]
    return Frame(ply, total, position,
                 str(record.moves[ply - 1]) if ply else None, said[ply - 1] if ply else None, said)
