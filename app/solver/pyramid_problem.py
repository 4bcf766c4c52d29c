"""The Pyramid-family searches' view of a position: card values in a packed layout, the
stock and waste as one sequence, and the engine's location numbers for moves.

Every Pyramid search (``pyramid``, ``pyramid_last``, ``pyramid_multi``, ``shortest``) reads
its position and writes its moves through this module, so none of them imports another
for a constant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

KING = 13
STOCK, WASTE, RESERVE = 100, 101, 200
DRAW, RECYCLE = ("D",), ("R",)


@dataclass(frozen=True)
class PyramidProblem:
    """A Pyramid-family position in the solver's terms (card values only; suits never matter).

    ``values``: value (1–13) of each layout position, ``pyramids`` pyramids of ``rows`` rows
    one after the other; ``removed``: bit mask of the layout cards already gone.
    ``sequence``: the stock and waste as one sequence in drawing order (waste bottom … waste
    top, stock top … stock bottom); ``pointer``: index of the stock top in it (the waste
    length). ``reserves``: Giza's piles, bottom … top. ``passes``: ``None`` = unlimited.
    """

    values: tuple[int, ...]
    removed: int = 0
    sequence: tuple[int, ...] = ()
    pointer: int = 0
    pass_number: int = 1
    passes: int | None = 1
    goal: str = "pyramid"
    overlap: bool = False
    reserves: tuple[tuple[int, ...], ...] = ()
    rows: int = 7
    pyramids: int = 1
    size: int = field(init=False)

    def __post_init__(self) -> None:
        size = self.rows * (self.rows + 1) // 2
        object.__setattr__(self, "size", size)
        if len(self.values) != size * self.pyramids:
            raise ValueError(f"{len(self.values)} layout values for {self.pyramids} pyramid(s)"
                             f" of {self.rows} rows")
        if self.reserves and self.sequence:
            raise ValueError("a position has either a stock or reserves, not both")

    def location_text(self, loc: int) -> str:
        if loc < STOCK:
            return f"P{loc}" if loc < self.size else f"Q{loc - self.size}"
        if loc == STOCK:
            return "S"
        if loc == WASTE:
            return "W"
        return f"G{loc - RESERVE}"

    def move_text(self, move: tuple) -> str:
        if move is DRAW or move is RECYCLE:
            return move[0]
        return "+".join(self.location_text(loc) for loc in sorted(move))


class ShapeFacts(NamedTuple):
    """What a layout shape offers the searches (``PyramidSearch._expinfo``). With an open king
    only ``kings`` and ``king_moves`` are filled in (the rest empty): the king goes first
    (``PyramidSearch.without_kings``)."""

    kings: int  # the open kings (bit mask)
    king_moves: tuple[tuple[int], ...]
    need: dict[int, list[int]]  # partner value -> the open cards that need it
    pairs: tuple[tuple[int, tuple[int, int], int], ...]  # (bits, move, value group), most-opening first
    values: int  # bit ``v`` for every value left in the layout
    counts: list[int]  # the cards left of each value
    reach: list[int]  # per value, the cards left that could pair with a layout card left


def geometry(rows: int, pyramids: int):
    """Per layout position: the mask of the (up to two) cards covering it, those cards,
    and the mask of every card under it (transitively covering it)."""
    size = rows * (rows + 1) // 2
    covers: list[int] = []
    kids: list[tuple[int, ...]] = []
    for base in range(0, size * pyramids, size):
        for r in range(rows):
            for c in range(r + 1):
                if r + 1 < rows:
                    j = base + (r + 1) * (r + 2) // 2 + c
                    covers.append((1 << j) | (1 << (j + 1)))
                    kids.append((j, j + 1))
                else:
                    covers.append(0)
                    kids.append(())
    under = [0] * len(covers)
    for i in reversed(range(len(covers))):
        m = covers[i]
        for j in kids[i]:
            m |= under[j]
        under[i] = m
    return covers, kids, under


def problem_of(position) -> PyramidProblem:
    """The solver's view of an engine Pyramid-family position (``app.engine.PyramidPosition``).

    Giza is the variant with reserves (the engine gives it eight piles, empty or not); the
    number of pyramids is the table's (Double Pyramid's two)."""
    layout = position.layout
    waste = tuple(c.rank for c in position.waste)
    stock = tuple(c.rank for c in position.stock)
    rules = position.rules
    return PyramidProblem(
        values=tuple(c.rank for c in layout),
        removed=position.removed,
        sequence=waste[::-1] + stock,
        pointer=len(waste),
        pass_number=position.pass_number,
        passes=rules.passes,
        goal=rules.goal,
        overlap=bool(rules.overlap),
        reserves=tuple(tuple(c.rank for c in pile) for pile in position.reserves),
        pyramids=position.table.pyramids,
    )
