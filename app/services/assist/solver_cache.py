"""The solver's verdicts on positions, kept in the database (table ``position_verdicts``).

A position is named by its game, rules, deal and the moves played to reach it; the key is the
SHA-256 of that text, so every instance (and every game reaching the same position by the same
moves) reuses a verdict. The solver runs with a budget (nodes and seconds) and never hangs a
request: an undecided answer is kept too, and searched again only with a larger node budget.
Proven verdicts (won / not winnable) are facts and are never searched again.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass

from sqlalchemy import update
from sqlalchemy.orm import Session

from app.db.models import DealVerdict, Game, PositionVerdict, ShortestLine, utcnow
from app.db.session import facts, release
from app.engine import GameRecord, Status
from app.solver import PAR_POSITIONS

from ..errors import ServiceError
from . import searches

log = logging.getLogger("tretten.solver")

# Budgets per use. The Pyramid family is exact and fast (milliseconds for most positions);
# Double Pyramid and Gaps searches are the ones these budgets cut short.
STATUS_NODES, STATUS_SECONDS = 200_000, 1.5      # the "still winnable?" indicator, auto-finish
ANALYSIS_NODES, ANALYSIS_SECONDS = 200_000, 1.5  # each probe of the post-game analysis
SHORTEST_NODES = PAR_POSITIONS  # the proven shortest win of a deal, its par (kept per deal): a budget of
# positions, so the answer is the same on any machine and a search run out is final for that budget


@dataclass(frozen=True)
class Verdict:
    winnable: bool | None          # None: undecided within the budget (or no solver for it)
    moves: tuple[str, ...] = ()    # a winning continuation when winnable
    cached: bool = False           # read from the database rather than searched now
    best_move: str | None = None   # no win known: the move reaching the best score a hint found


def position_key(game: str, rules: dict, deal: str, played: str) -> str:
    text = "\n".join((game, json.dumps({str(k): str(v) for k, v in rules.items()}, sort_keys=True),
                      deal, " ".join(played.split())))
    return hashlib.sha256(text.encode()).hexdigest()


def key_of(record: GameRecord) -> str:
    return position_key(record.game, record.rules.to_options(), record.deal_text, record.played_text)


def cached(session: Session, record: GameRecord) -> Verdict | None:
    row = session.get(PositionVerdict, key_of(record))
    if row is None:
        return None
    return Verdict(row.winnable, tuple(row.moves.split()), True, row.best_move)


def keep_best_move(session: Session, record: GameRecord, move: str) -> None:
    """Keep the best-score move a hint found for the position (its verdict's row, which the
    hint's search for a win has just kept), so a hint asked there again is not searched again:
    a fact, kept in its own unit of work (app.db.session)."""
    key = key_of(record)
    with facts(session) as unit:
        unit.execute(update(PositionVerdict).where(PositionVerdict.key == key).values(best_move=move))
    row = session.get(PositionVerdict, key)
    if row is not None:
        session.expire(row)


def kept_verdict(session: Session, record: GameRecord, *, nodes: int = STATUS_NODES) -> Verdict | None:
    """What ``verdict`` answers without a search: a finished position's, or the one kept (an
    undecided one only if it was searched with at least ``nodes``); None when it would search."""
    position = record.position
    if position.status is Status.WON:
        return Verdict(True, ())
    if position.status is Status.LOST:
        return Verdict(False, ())
    row = session.get(PositionVerdict, key_of(record))
    if row is not None and (row.winnable is not None or row.budget >= nodes):
        return Verdict(row.winnable, tuple(row.moves.split()), True)
    return None


def verdict(session: Session, record: GameRecord, *, player_id: str | None, nodes: int = STATUS_NODES,
            seconds: float = STATUS_SECONDS) -> Verdict:
    """The verdict on the record's position at its cursor: from the cache, or searched now
    within the budget (for ``player_id``: app.services.assist.searches.admitted) and kept, a fact
    in its own unit of work (app.db.session: read, search, then write)."""
    found = kept_verdict(session, record, nodes=nodes)
    if found is not None:
        return found
    position = record.position
    key = key_of(record)
    row = session.get(PositionVerdict, key)
    release(session)
    try:
        result = searches.solve(position, player_id=player_id, budget_nodes=nodes, budget_seconds=seconds)
    except ServiceError:
        raise
    except Exception as exc:  # a solver failure shows as "unknown", never as an error page
        log.warning("solver failed on %s at ply %s: %s", record.game, record.cursor, exc)
        return Verdict(None, ())
    found = Verdict(result.winnable, tuple(result.moves) if result.winnable else ())
    # a time-limited "undecided" depends on the machine: keep it only as an answer for this
    # node budget, so a later, larger budget tries again
    values = {"winnable": found.winnable, "moves": " ".join(found.moves), "nodes": result.nodes, "budget": nodes,
              "solved_at": utcnow()}
    with facts(session) as unit:
        if row is None:
            unit.add(PositionVerdict(key=key, game=record.game, ply=record.cursor, **values))
        else:
            unit.execute(update(PositionVerdict).where(PositionVerdict.key == key).values(**values))
    if row is not None:
        session.expire(row)  # read again, as kept now, if this request asks once more
    return found


@dataclass(frozen=True)
class Shortest:
    winnable: bool | None
    moves: tuple[str, ...] = ()
    proven: bool = False          # no win is shorter than ``moves``
    lower_bound: int = 0          # every win needs at least this many moves


def kept_shortest(session: Session, record: GameRecord) -> tuple[str, ...]:
    """The shortest winning line known from the record's position (kept by a par search or a
    hint's), never searched here; () when none is kept."""
    row = session.get(ShortestLine, key_of(record))
    return tuple(row.moves.split()) if row is not None and row.winnable and row.moves else ()


def key_at(game: Game, ply: int) -> str:
    """``key_of`` a stored game's position after its first ``ply`` moves, from its row alone
    (its rules are stored as the engine's options, its deal canonical): no replay."""
    return position_key(game.game, game.rules, game.deal, " ".join(game.moves.split()[:ply]))


def cut_short(session: Session, key: str) -> bool:
    """Whether the shortest line kept from the position of ``key`` was cut short by a wait (a
    hint's), so that a search in full (``shortest`` without ``seconds``) may find a shorter one."""
    row = session.get(ShortestLine, key)
    return row is not None and not row.proven and row.nodes < SHORTEST_NODES


def shortest(session: Session, record: GameRecord, *, player_id: str | None,
             seconds: float | None = None) -> Shortest | None:
    """The shortest win from the record's position: kept, or searched now within its budget and
    kept (one search per position, for every player: a deal's is its par). ``seconds`` caps the
    search's time on top of its positions (a hint's wait): an answer it cuts short is kept, and
    searched again in full by the next that asks without a cap. None where the solver has no
    such search."""
    key = key_of(record)
    row = session.get(ShortestLine, key)
    # a proof is a fact; an answer cut short by the clock depends on the machine's load then, and
    # is searched again until one search has spent its whole node budget on it
    if row is not None and (row.proven or row.nodes >= SHORTEST_NODES or seconds is not None):
        return Shortest(row.winnable, tuple(row.moves.split()), row.proven, row.lower_bound)
    release(session)
    try:
        result = searches.shortest_win(record.position, player_id=player_id, budget_nodes=SHORTEST_NODES,
                                       budget_seconds=seconds)
    except ServiceError:
        raise
    except Exception as exc:  # a solver failure shows as "unknown", never as an error page
        log.warning("shortest-win search failed on %s: %s", record.game, exc)
        return None
    if result is None:
        return None
    found = Shortest(result.winnable, tuple(result.moves), result.proven, result.lower_bound)
    if row is not None and not result.proven:
        # a search in full after one cut short: the shorter of the two lines, the higher of the
        # two bounds (both hold), and the positions of the fuller search, so it is not searched again
        kept = tuple(row.moves.split()) if row.winnable and row.moves else ()
        if kept and not (result.winnable and result.moves and len(result.moves) < len(kept)):
            found = Shortest(True, kept, False, result.lower_bound)
        found = Shortest(found.winnable, found.moves, False, max(found.lower_bound, row.lower_bound or 0))
    values = {"winnable": found.winnable, "moves": " ".join(found.moves), "proven": found.proven,
              "lower_bound": found.lower_bound, "nodes": max(result.nodes, row.nodes if row is not None else 0),
              "solved_at": utcnow()}
    with facts(session) as unit:
        if row is None:
            unit.add(ShortestLine(key=key, game=record.game, **values))
        else:
            unit.execute(update(ShortestLine).where(ShortestLine.key == key, ShortestLine.proven.is_(False))
                         .values(**values))
    if row is not None:
        session.expire(row)
    return found


def keep_deal_verdict(unit: Session, preset_slug: str, seed: int, *, winnable: bool | None, moves: str,
                      nodes: int) -> None:
    """Keep a deal's verdict (its page's "winnable", and where winnable-only deals come from) in
    ``unit`` (``facts``). Winnable or not is a fact, kept once; "undecided" is the budget of one
    search, so a fact replaces it, and so does a search that spent more positions on it."""
    row = unit.get(DealVerdict, (preset_slug, seed))
    if row is None:
        unit.add(DealVerdict(preset=preset_slug, seed=seed, winnable=winnable, moves=moves, nodes=nodes,
                             solved_at=utcnow()))
    elif row.winnable is None and (winnable is not None or nodes > row.nodes):
        row.winnable, row.moves, row.nodes, row.solved_at = winnable, moves, nodes, utcnow()
