"""Replays: a stored game shown move by move, and the hook for post-game analysis.

Anyone with a game's link may watch it, so anyone may replay it: the frames run from the
deal (ply 0) to the game's cursor (the moves a redo tail holds were taken back, so they are
not part of the game).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from app.db.models import Game

from . import board
from .games import record_of


@dataclass(frozen=True)
class Frame:
    ply: int            # moves played so far in this frame
    total: int          # moves in the game
    position: object
    board: object       # app.services.board's PyramidBoard or GapsBoard, nothing selected
    move: str | None    # the move that led here (None at the deal)
    announcement: board.Announcement | None
    moves: tuple[str, ...]  # the game's moves, for the move list


def frame(game: Game, ply: int | None) -> Frame:
    record = record_of(game)
    total = record.cursor
    ply = total if ply is None else min(max(0, ply), total)
    at = record.at(ply)
    position = at.position
    moves = tuple(str(m) for m in record.moves[:total])
    announcement = None
    if ply > 0:
        announcement = board.describe(record.moves[ply - 1], record.at(ply - 1).position, position)
    return Frame(ply, total, position, board.board_for(position, None), moves[ply - 1] if ply else None,
                 announcement, moves)


# ---------------------------------------------------------------- post-game analysis (hook)

@dataclass(frozen=True)
class PlyNote:
    """What the analysis says about the position after a ply (all optional)."""

    winnable: bool | None = None   # could the game still be won from here?
    best: str | None = None        # a better move than the one played, in notation
    text: str | None = None        # a sentence for the player, already translated


@dataclass(frozen=True)
class Analysis:
    summary: str | None = None                      # e.g. "The deal was winnable until move 12."
    plies: dict[int, PlyNote] = field(default_factory=dict)


def analysis_for(session: Session, game: Game) -> Analysis | None:
    """HOOK for the post-game analysis: the replay page shows what this returns.

    The analysis feature provides ``app.services.analysis.replay_analysis(session, game)``
    returning an ``Analysis`` (or None when a game has none yet); until that module exists,
    replays say that there is no analysis for the game.
    """
    try:
        from app.services import analysis  # type: ignore[attr-defined]
    except ImportError:
        return None
    provider = getattr(analysis, "replay_analysis", None)
    return provider(session, game) if provider is not None else None
