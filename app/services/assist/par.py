"""A deal's par: its shortest win, the one number every page, share text and statistic uses.

Par is the proven shortest win from the deal (``solver_cache.shortest``: A*, kept per deal in
``shortest_lines`` and shared by every instance); a search whose budget runs out leaves the
shortest line it knows, said as "best known", never as par, with the bound every win reaches
where one is known. Gaps with redeals left is never proven (docs/par.md): its best known line is
the shortest of the lines its search found, with no bound.

``known`` reads what is kept and never searches (the share text, statistics and the daily
table use it); ``par_of`` searches when nothing is kept (the end screen's analysis, the deal
page once finished, the API). Daily deals get theirs when the deal is chosen (``prepare``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Game, PositionVerdict, ShortestLine
from app.engine import GameRecord, Status, deal_for_seed, get_game, get_preset
from app.solver import proves_shortest

from ..errors import ServiceError
from . import solver_cache

log = logging.getLogger("tretten.par")


@dataclass(frozen=True)
class Par:
    moves: int                  # the length of ``line``
    proven: bool                # no win is shorter: par; otherwise the best line known
    line: tuple[str, ...]       # a winning line from the deal, in notation (never shown as such)
    bound: int = 0              # every win needs at least this many moves (0: not known)

    def over(self, moves: int) -> int:
        """A win of ``moves`` against par: 0 at par, +3 three moves over, negative under a
        best known line."""
        return moves - self.moves

    def to_json(self) -> dict:
        """What the API says of it, the same fields for every game: ``par`` only when proven,
        ``best_known`` (the line's length) always, and ``lower_bound``, the moves every win
        needs, where a bound is known (a proven par is its own)."""
        return {"par": self.moves if self.proven else None, "par_proven": self.proven,
                "best_known": self.moves, "lower_bound": self.moves if self.proven else self.bound or None}


def to_json(found: Par | None) -> dict:
    """``Par.to_json``, with every field null when no win is known (not winnable, or not yet)."""
    if found is None:
        return {"par": None, "par_proven": False, "best_known": None, "lower_bound": None}
    return found.to_json()


def start_of_deal(preset_slug: str, seed: int) -> GameRecord:
    """The record of a seeded deal of a known preset before its first move."""
    preset = get_preset(preset_slug)
    return GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed))


def start_of_game(game: Game) -> GameRecord:
    """The record of a stored game's deal before its first move (no replay of its moves)."""
    return _start(game.game, game.rules, game.deal)


def _start(game: str, rules: dict, deal: str) -> GameRecord:
    return GameRecord.from_text(game, get_game(game).parse_rules(rules), deal, "")


def _from_rows(shortest: ShortestLine | None, verdict: PositionVerdict | None) -> Par | None:
    """What is kept: the shortest-win search's answer where it searches (a winning verdict kept
    by a hint is not yet that answer), the solver's winning line elsewhere."""
    if shortest is not None:
        if shortest.winnable and shortest.moves:
            line = tuple(shortest.moves.split())
            return Par(len(line), bool(shortest.proven), line, shortest.lower_bound or 0)
        if shortest.winnable is False:
            return None
    if verdict is not None and verdict.winnable and verdict.moves:
        line = tuple(verdict.moves.split())
        return Par(len(line), False, line)
    return None


def known(session: Session, start: GameRecord) -> Par | None:
    """The kept par (or best known line) of the deal of ``start``; None when none is kept."""
    key = solver_cache.key_of(start)
    if proves_shortest(start.position):
        return _from_rows(session.get(ShortestLine, key), None)
    return _from_rows(None, session.get(PositionVerdict, key))


def known_many(session: Session, starts: Iterable[GameRecord]) -> dict[str, Par]:
    """``known`` for many deals at once, by ``solver_cache.key_of`` of each start."""
    starts = list(starts)
    keys = sorted({solver_cache.key_of(s) for s in starts})
    searched = {solver_cache.key_of(s) for s in starts if proves_shortest(s.position)}
    out: dict[str, Par] = {}
    for chunk in (keys[i:i + 500] for i in range(0, len(keys), 500)):
        shortest = {r.key: r for r in session.scalars(select(ShortestLine).where(ShortestLine.key.in_(chunk)))}
        verdicts = {r.key: r for r in session.scalars(select(PositionVerdict).where(PositionVerdict.key.in_(chunk)))}
        for key in chunk:
            found = (_from_rows(shortest.get(key), None) if key in searched
                     else _from_rows(None, verdicts.get(key)))
            if found is not None:
                out[key] = found
    return out


def par_of(session: Session, start: GameRecord, *, player_id: str | None) -> Par | None:
    """The par of the deal of ``start``: kept, or searched now within the solver's budgets and
    kept. None when no win is known (not winnable, or undecided within the budget)."""
    best = solver_cache.shortest(session, start, player_id=player_id)
    if best is not None:
        if best.winnable and best.moves:
            return Par(len(best.moves), best.proven, tuple(best.moves), best.lower_bound)
        if best.winnable is False:
            return None
    found = solver_cache.verdict(session, start, player_id=player_id, nodes=solver_cache.ANALYSIS_NODES,
                                 seconds=solver_cache.ANALYSIS_SECONDS)
    if found.winnable and found.moves:
        return Par(len(found.moves), False, tuple(found.moves))
    return None


def prepare(session: Session, preset_slug: str, seed: int) -> Par | None:
    """Search and keep a deal's par ahead of its players (the daily deal); a search that fails
    leaves it to be searched on demand."""
    try:
        return par_of(session, start_of_deal(preset_slug, seed), player_id=None)
    except ServiceError as exc:  # the solver is busy: the first player to ask searches it
        log.info("par of %s seed %s left for later: %s", preset_slug, seed, exc)
        return None


@dataclass(frozen=True)
class ParFigures:
    """A player's wins against par (proven par only): how many could be measured, how many
    were at par, and the average number of moves over it."""

    measured: int = 0
    at_par: int = 0
    average_over: float | None = None


def figures(session: Session, player_id: str) -> ParFigures:
    """The statistics' par figures over the player's won games whose deal has a kept par."""
    rows = session.execute(
        select(Game.game, Game.rules, Game.deal, Game.cursor)
        .where(Game.player_id == player_id, Game.status == Status.WON)
    ).all()
    if not rows:
        return ParFigures()
    starts = [_start(game, rules, deal) for game, rules, deal, _ in rows]
    kept = known_many(session, starts)
    overs = []
    for start, (*_, moves) in zip(starts, rows, strict=True):
        found = kept.get(solver_cache.key_of(start))
        if found is not None and found.proven:
            overs.append(found.over(moves))
    if not overs:
        return ParFigures()
    return ParFigures(len(overs), sum(1 for o in overs if o <= 0), round(sum(overs) / len(overs), 1))
