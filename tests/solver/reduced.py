"""Positions built for the solver tests: reduced Pyramid-family deals for the cross-checks
(one deal both as the exhaustive reference sees it, ``reference.Small``, and as the solver
does, ``PyramidProblem``), and a Gaps layout that is lost at once."""

from __future__ import annotations

import random
from dataclasses import replace

from app.engine import card, deal_for_seed, get_game
from app.engine.gaps import GapsPosition
from app.solver.pyramid_problem import PyramidProblem

from . import reference


def balanced(rng: random.Random, k: int) -> list[int]:
    """Card values in complementary pairs and kings, so that small deals are often winnable."""
    out: list[int] = []
    while len(out) < k:
        v = rng.randint(1, 13)
        out += [13] if v == 13 else [v, 13 - v]
    out = out[:k]
    rng.shuffle(out)
    return out


def case(rows: int, pyramids: int, layout: tuple, stock: tuple = (), reserves: tuple = (), *,
         passes: int | None = 1, goal: str, overlap: bool) -> tuple[reference.Small, PyramidProblem]:
    small = reference.Small(rows, pyramids, layout, stock, reserves, passes, goal, overlap)
    problem = PyramidProblem(values=layout, sequence=stock, reserves=reserves, passes=passes, goal=goal,
                             overlap=overlap, rows=rows, pyramids=pyramids)
    return small, problem


def walk(small: reference.Small, rng: random.Random, steps: int):
    """The reference position after up to ``steps`` random legal moves from the start."""
    pos = reference.start(small)
    for _ in range(steps):
        options = reference.moves(small, pos)
        if not options:
            break
        pos = reference.play(small, pos, rng.choice(options))
    return pos


def gaps_kings_first() -> GapsPosition:
    """One round, each row a king then a gap then eleven cards: every gap is dead, so lost."""
    variant = get_game("gaps")
    position = variant.new_position(deal_for_seed("gaps", 0), variant.parse_rules({"rounds": "1"}))
    rest = [card(rank, suit) for suit in "CDHS" for rank in range(2, 13)]
    grid = []
    for r, suit in enumerate("CDHS"):
        grid += [card(13, suit), None] + rest[11 * r: 11 * r + 11]
    return replace(position, grid=tuple(grid))
