"""A strong Gaps player who does not know how the redeals will fall.

The survey's perfect-information figure (``tretten survey gaps``) comes from a solver that
sees every redeal, since the redeal shuffle follows from the deal. A player sees only the
board. ``play_deal`` plays as such a player would at best, one round at a time:

- it looks for a win within the round (``GapsCore.solve`` with the round as the last one);
  if it finds one, it plays it;
- otherwise, before a redeal, it plays the line that leaves the most cards in the rows'
  correct runs (those are the cards a redeal keeps) among the positions it reached, and
  then redeals;
- the redeal is the engine's, but with a fresh shuffle: the position's shuffle key is
  replaced by one drawn from ``rng``, so the player's search could not have known it.

It never looks past the current round, so it cannot use knowledge of a shuffle. A round
whose search runs out of nodes is played with what the search found (a last round then
counts as lost: the player did not find a win). Pure: no I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from app.engine import GapsPosition, Status
from app.solver.gaps import COLUMNS, ROWS, SUITS, GapsCore, card_code, fill_text
from app.solver.result import Budget, BudgetExceeded


@dataclass(frozen=True)
class PlayerResult:
    """How a deal went: ``won``; the round it was won or lost in; whether a search ran out of
    nodes in the last round (a win may have existed that the player missed)."""

    won: bool
    rounds: int
    cards_in_runs: int
    last_round_undecided: bool


def _core(position: GapsPosition, nodes: int, prune: bool) -> GapsCore:
    starters = tuple(SUITS.index(s) for s in (position.starters or ()))
    return GapsCore(ROWS, COLUMNS, starters, Budget(nodes, None), prune)


def _play(position: GapsPosition, line: list) -> GapsPosition:
    """``position`` after the fills ``line`` ((card, to) pairs from the search)."""
    for card, to in line:
        position = position.apply(fill_text(card, to))
    return position


def _round_win(position: GapsPosition, nodes: int) -> list | None:
    """A line that wins within this round, ``[]`` when proven none, ``None`` when undecided."""
    core = _core(position, nodes, prune=True)
    grid = [card_code(c) for c in position.grid]
    try:
        won, line = core.solve(grid, position.round)
    except BudgetExceeded:
        return None
    return line if won else []


def _most_in_runs(position: GapsPosition, nodes: int) -> GapsPosition:
    """The position with the most cards in correct runs that the search reached within the
    round (the start itself if nothing beats it): a line to a dead end, cut where it peaks."""
    core = _core(position, nodes, prune=False)
    grid = [card_code(c) for c in position.grid]
    try:
        won, line = core.solve(grid, position.round)
        if won:
            return _play(position, line)
    except BudgetExceeded:
        pass
    best = here = position
    for card, to in core.best_line:
        here = here.apply(fill_text(card, to))
        if here.simple_score > best.simple_score:
            best = here
    return best


def play_deal(position: GapsPosition, rng: random.Random, nodes: int = 100_000) -> PlayerResult:
    """Play a Gaps deal to its end as a player who sees only the board (module docstring);
    ``nodes`` bounds each search (one for a win in the round, one for the most cards kept)."""
    while True:
        line = _round_win(position, nodes)
        if line:
            won = _play(position, line)  # the engine replays every fill: an illegal one raises
            if won.status is not Status.WON:
                raise AssertionError(f"the solver's line does not win: {line}")
            return PlayerResult(True, position.round, won.simple_score, False)
        if not position.can_redeal():
            return PlayerResult(False, position.round, position.simple_score, line is None)
        position = fresh_redeal(_most_in_runs(position, nodes), rng)


def fresh_redeal(position: GapsPosition, rng: random.Random) -> GapsPosition:
    """The engine's redeal (``N``) under a shuffle key drawn from ``rng`` instead of the deal's,
    so that no search from the position could have known how it falls."""
    return replace(position, deal=f"{position.deal} player {rng.getrandbits(64):016x}").apply("N")
