"""What a solver run answers."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SolveResult:
    """``winnable``: ``True`` (proven, ``moves`` is a complete winning continuation),
    ``False`` (proven: no continuation wins) or ``None`` (undecided, see ``reason``).

    ``moves`` are canonical notation tokens; ``nodes`` counts the positions searched.
    """

    winnable: bool | None
    moves: tuple[str, ...] = ()
    reason: str | None = None
    nodes: int = 0

    def to_json(self) -> dict:
        """The object ``tretten solve`` prints."""
        if self.winnable is None:
            return {"winnable": None, "reason": self.reason or "budget"}
        if self.winnable:
            return {"winnable": True, "moves": " ".join(self.moves)}
        return {"winnable": False}


class BudgetExceeded(Exception):
    """Raised inside a search when its node or time budget runs out."""


class Budget:
    """A node and time allowance, checked by the searches every ``CHECK_EVERY`` nodes."""

    CHECK_EVERY = 512

    __slots__ = ("clock", "deadline", "max_nodes")

    def __init__(self, nodes: int | None, seconds: float | None, clock=None) -> None:
        import time

        self.clock = clock or time.perf_counter
        self.max_nodes = nodes
        self.deadline = None if seconds is None else self.clock() + seconds

    def spent(self, nodes: int) -> bool:
        """Whether ``nodes`` nodes, or the time since it was made, use it up."""
        return (self.max_nodes is not None and nodes >= self.max_nodes) or \
            (self.deadline is not None and self.clock() >= self.deadline)

    def check(self, nodes: int) -> None:
        if self.spent(nodes):
            raise BudgetExceeded
