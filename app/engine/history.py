"""A game as a deal, its rules and a move list with a cursor: undo, redo and replays follow."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, format_deal
from .errors import IllegalMoveError, InvalidMoveError
from .variants import Move, Position, Rules, get_game


@dataclass(frozen=True)
class GameRecord:
    """``moves[:cursor]`` have been played; ``moves[cursor:]`` is the redo tail.

    Undo moves the cursor back, redo forward, and a new move after an undo drops the
    redo tail. One entry per player action, so one undo takes back one action.
    """

    game: str
    rules: Rules
    deal: tuple[Card, ...]
    moves: tuple[Move, ...] = ()
    cursor: int = 0
    _positions: list[Position] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def new(cls, game: str, rules: Rules, deal: tuple[Card, ...]) -> GameRecord:
        return cls(game, rules, deal)

    @classmethod
    def from_text(
        cls,
        game: str,
        rules: Rules,
        deal_text: str,
        moves_text: str = "",
        cursor: int | None = None,
    ) -> GameRecord:
        """Parse and replay a stored game; raises the engine's errors on bad text or moves.

        An illegal move's error says at which index (from 0) it stands.
        """
        variant = get_game(game)
        record = cls(game, rules, variant.parse_deal(deal_text))
        for index, token in enumerate(moves_text.split()):
            try:
                record = record.play(token)
            except (InvalidMoveError, IllegalMoveError) as exc:
                raise type(exc)(f"move {index} {token!r}: {exc}") from None
        if cursor is not None:
            if not 0 <= cursor <= len(record.moves):
                raise ValueError(f"cursor {cursor} is outside 0–{len(record.moves)}")
            record = record.at(cursor)
        return record

    @property
    def variant(self):
        return get_game(self.game)

    @property
    def deal_text(self) -> str:
        return format_deal(self.deal)

    @property
    def ply(self) -> int:
        return self.cursor

    @property
    def moves_text(self) -> str:
        """The whole move list (redo tail included), canonical."""
        return " ".join(map(str, self.moves))

    @property
    def played_text(self) -> str:
        """The moves up to the cursor, canonical."""
        return " ".join(map(str, self.moves[: self.cursor]))

    def positions(self) -> list[Position]:
        """Positions after 0, 1, … ``len(moves)`` moves, computed once per record."""
        if not self._positions:
            position = self.variant.new_position(self.deal, self.rules)
            self._positions.append(position)
            for move in self.moves:
                position = position.apply(move)  # stored moves are checked, never trusted
                self._positions.append(position)
        return self._positions

    @property
    def start(self) -> Position:
        return self.positions()[0]

    @property
    def position(self) -> Position:
        return self.positions()[self.cursor]

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < len(self.moves)

    def _with(self, moves: tuple[Move, ...], cursor: int, positions: list[Position]) -> GameRecord:
        return GameRecord(self.game, self.rules, self.deal, moves, cursor, positions)

    def play(self, move: Move | str) -> GameRecord:
        """Play ``move`` at the cursor (dropping any redo tail)."""
        position = self.position
        played: Move = position.parse_move(move) if isinstance(move, str) else move
        after = position.apply(played)
        kept = self.positions()[: self.cursor + 1]
        return self._with((*self.moves[:self.cursor], played), self.cursor + 1, [*kept, after])

    def at(self, cursor: int) -> GameRecord:
        return self._with(self.moves, cursor, self.positions())

    def undo(self) -> GameRecord:
        if not self.can_undo:
            raise IllegalMoveError("there is nothing to undo")
        return self.at(self.cursor - 1)

    def redo(self) -> GameRecord:
        if not self.can_redo:
            raise IllegalMoveError("there is nothing to redo")
        return self.at(self.cursor + 1)


def trace(position: Position) -> dict:
    """The replay trace's object of one position (``tretten replay --trace``, the contract other
    programs check us by): its status, its legal moves in notation, sorted, its simple score and
    the position's JSON."""
    return {
        "status": position.status,
        "legal": sorted(str(m) for m in position.legal_moves()),
        "score": position.simple_score,
        "position": position.to_json(),
    }
