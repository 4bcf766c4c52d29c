"""The game on the table: one value for what every page, board and API answer reads of a game.

A stored game and a deal ready to play (a row not stored until its first move:
``games.pending``) are read the same way: their record (the deal and the moves, replayed by the
engine), their phase in the game's life (``lifecycle.Phase``: new, in play, won, no moves left,
counted as lost) and what follows from it — what the game counts as, why it ended, whether it
still takes moves, undo and redo.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.db.models import Game
from app.engine import GameRecord, Position, Status, Termination

from . import games, lifecycle
from .lifecycle import Abandonment, Phase


@dataclass(frozen=True)
class OnTable:
    game: Game
    record: GameRecord
    phase: Phase

    @classmethod
    def of(cls, game: Game, record: GameRecord | None = None, now: datetime | None = None) -> OnTable:
        """The game as it stands (``record``: its record when the caller has it already)."""
        return cls(game, record or games.record_of(game), lifecycle.phase_of(game, now))

    @property
    def stored(self) -> bool:
        """A stored game, not a deal ready to play."""
        return games.stored(self.game)

    @property
    def position(self) -> Position:
        return self.record.position

    @property
    def finished(self) -> bool:
        """Won, no moves left, or counted as lost: its result (and its analysis) can be shown."""
        return self.phase.finished

    @property
    def status(self) -> Status:
        """What the game counts as now: a game counted as lost is ``LOST`` whatever its position."""
        return self.phase.result

    @property
    def end_reason(self) -> Abandonment | Termination | None:
        """Why the game ended: replaced or left for a day (counted as lost), or the engine's reason."""
        if self.phase is Phase.ABANDONED:
            return lifecycle.abandonment(self.game)
        return self.position.end_reason

    @property
    def open(self) -> bool:
        """Still takes moves, undo, redo and the solver's help (``lifecycle.check``)."""
        return self.phase.open

    @property
    def can_undo(self) -> bool:
        return self.open and self.record.can_undo

    @property
    def can_redo(self) -> bool:
        return self.open and self.record.can_redo

    @property
    def elapsed(self) -> int:
        """Seconds from the first move to the end, or to now while it is played."""
        return games.elapsed_seconds(self.game)

    @property
    def timer_running(self) -> bool:
        return self.game.started_at is not None and self.game.finished_at is None
