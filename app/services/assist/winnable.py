"""Winnable-only deals: "new deal" gives the next seed the solver proves winnable.

How (docs/winnable-only.md): start from a random seed s (as any new deal does) and try s,
s+1, s+2, … in order; each candidate is dealt with the preset's rules and solved from the start
with a budget of ``CANDIDATE_NODES`` searched positions and ``CANDIDATE_SECONDS`` seconds. The
first candidate proven winnable is the deal. A proven-unwinnable or undecided candidate is
skipped, so the player only ever gets a proven deal; after ``MAX_SECONDS`` in all without one
(a Pyramid deal tries hundreds of candidates in that time, a Gaps deal about fifteen), a deal
proven before is dealt, or on a server that has proven none yet one of the deals shipped proven
with the code (app.services.assist.first_deals), rather than keep the player waiting. Each
verdict found is kept in ``deal_verdicts`` (the deal page shows it after the game) and the
winning line seeds the position cache, so a hint on the first move costs nothing.
"""

from __future__ import annotations

import logging
import secrets
import time

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from app.db.models import DailyDeal, DealVerdict, Game, Player, PositionVerdict, ShortestLine, utcnow
from app.db.session import facts, release
from app.engine import MAX_SEED, GameRecord, get_game, get_preset

from ..errors import ServiceError
from ..play import daily, games
from . import first_deals, par, searches, solver_cache

log = logging.getLogger("tretten.winnable")

CANDIDATE_NODES = 1_000      # positions per candidate: winnable deals are proven within a few hundred;
                             # a hard deal is skipped, not waited for
CANDIDATE_SECONDS = 0.1
# Pyramid family: one-pass "all cards" wins ~7 % of deals; Gaps: a candidate may spend its whole budget
MAX_SECONDS = 1.5            # in all, per new deal: a player waits for it
MAX_CANDIDATES = 500


def first_winnable(preset_slug: str, start: int, *, player_id: str | None = None, max_candidates: int | None = None,
                   candidate_nodes: int = CANDIDATE_NODES, candidate_seconds: float = CANDIDATE_SECONDS,
                   max_seconds: float = MAX_SECONDS):
    """(seed, SolveResult, candidates tried) of the first proven-winnable seed from ``start``;
    (None, None, tried) when none was found within the limits."""
    preset = get_preset(preset_slug)
    limit = max_candidates or MAX_CANDIDATES
    deadline = time.perf_counter() + max_seconds
    for k in range(limit):
        seed = (start + k) % (MAX_SEED + 1)
        position = GameRecord.new(preset.game, preset.rules, get_game(preset.game).deal(seed)).position
        try:
            result = searches.solve(position, player_id=player_id, budget_nodes=candidate_nodes,
                                   budget_seconds=candidate_seconds)
        except ServiceError:
            raise
        except Exception as exc:  # no solver for this game: give up, deal at random
            log.warning("solver failed on %s seed %s: %s", preset_slug, seed, exc)
            return None, None, k + 1
        if result.winnable:
            return seed, result, k + 1
        if time.perf_counter() >= deadline:
            break
    return None, None, k + 1


def winnable_seed(session: Session, preset_slug: str, start: int, player_id: str | None) -> int | None:
    """A proven-winnable seed for a new deal, searched from ``start`` (None: none found in
    time; deal at random). The verdicts found are kept as facts (app.db.session), before the
    request that asked changes anything."""
    release(session)
    seed, result, tried = first_winnable(preset_slug, start, player_id=player_id)
    if seed is None:
        log.info("no winnable %s deal within %d candidates from seed %d", preset_slug, tried, start)
        return None
    _keep(session, preset_slug, seed, result, CANDIDATE_NODES)
    return seed


def _keep(session: Session, preset_slug: str, seed: int, result, budget: int) -> None:
    """Keep a proven deal's verdict and winning line, for its page and its first hint."""
    preset = get_preset(preset_slug)
    record = GameRecord.new(preset.game, preset.rules, get_game(preset.game).deal(seed))
    key = solver_cache.key_of(record)
    with facts(session) as unit:
        solver_cache.keep_deal_verdict(unit, preset_slug, seed, winnable=True, moves=" ".join(result.moves),
                                       nodes=result.nodes)
        if unit.get(PositionVerdict, key) is None:
            unit.add(PositionVerdict(key=key, game=preset.game, ply=0, winnable=True, moves=" ".join(result.moves),
                                     nodes=result.nodes, budget=budget, solved_at=utcnow()))


def shipped_seed(session: Session, preset_slug: str, played: set[int]) -> int | None:
    """One of the preset's deals shipped proven (app.services.assist.first_deals) that is not in
    ``played``, at random, its verdict kept: searched again within the node budget that proves
    it on every machine (a tenth of a second), so its page and its first hint have the winning
    line."""
    seeds = [seed for seed in first_deals.shipped(preset_slug) if seed not in played]
    if not seeds:
        return None
    seed = seeds[secrets.randbelow(len(seeds))]
    kept = session.get(DealVerdict, (preset_slug, seed))
    if kept is not None and kept.winnable:
        return seed
    release(session)
    preset = get_preset(preset_slug)
    position = GameRecord.new(preset.game, preset.rules, get_game(preset.game).deal(seed)).position
    try:
        result = searches.solve(position, player_id=None, budget_nodes=first_deals.NODES)
    except ServiceError as exc:  # proven all the same (tests/services/assist/test_first_deals.py)
        log.info("shipped %s deal %s dealt without its line: %s", preset_slug, seed, exc)
        return seed
    if result.winnable:
        _keep(session, preset_slug, seed, result, first_deals.NODES)
    else:  # the solver or the deals changed since the list was made: scripts/first_deals.py
        log.warning("shipped %s deal %s is not proven within %d positions", preset_slug, seed, first_deals.NODES)
    return seed


def new_seed(session: Session, player: Player, preset_slug: str, *, search: bool = True) -> int:
    """The seed of a new deal: at random, or (the player's choice) one the solver proves winnable.
    When no candidate is proven in time (a Gaps deal, about one search in two; a busy or just
    started server), or the caller asks for no ``search``, a deal proven before is dealt (the
    verdicts kept: earlier new deals, the daily deals, deal pages), and with none kept yet (a
    fresh database) one of the deals shipped proven with the code. Of those, never one the
    player has a game of: "New deal" that deals the game in play again would be no new deal.
    Nor a daily deal of today or later: tomorrow's is chosen, and its verdict kept, a day ahead,
    and a player dealt it today would find their game of it on the day a second game, never
    ranked on its table. Only with none of them left is the deal unproven."""
    if player.winnable_only:
        found = winnable_seed(session, preset_slug, games.random_seed(), player.id) if search else None
        if found is None:
            played = _played(player, preset_slug)
            coming = select(DailyDeal.seed).where(DailyDeal.preset == preset_slug, DailyDeal.day >= daily.utc_today())
            found = session.scalar(select(DealVerdict.seed)
                                   .where(DealVerdict.preset == preset_slug, DealVerdict.winnable.is_(True),
                                          DealVerdict.seed.not_in(played), DealVerdict.seed.not_in(coming))
                                   .order_by(func.random()).limit(1))
            if found is None:
                found = shipped_seed(session, preset_slug, set(session.scalars(played)))
        if found is not None:
            return found
    return games.random_seed()


def offline_seeds(session: Session, player: Player, preset_slug: str) -> tuple[int, ...]:
    """For a new deal offline (the page has no solver), for a player dealt winnable deals only: the
    preset's deals shipped proven that the player has no game of (none for the others)."""
    if not player.winnable_only:
        return ()
    played = set(session.scalars(_played(player, preset_slug)))
    return tuple(seed for seed in first_deals.shipped(preset_slug) if seed not in played)


def _played(player: Player, preset_slug: str) -> Select[int | None]:
    """The seeds of the player's games of the preset: deals a new deal is not."""
    return select(Game.seed).where(Game.player_id == player.id, Game.preset == preset_slug, Game.seed.is_not(None))


def proven(session: Session, preset_slug: str, seed: int | None) -> bool:
    """Whether the solver has proven this seeded deal winnable (a deal page's verdict, the search
    of a winnable-only new deal, a deal shipped proven, or a winning line kept for its start: its
    par, or a hint's or an analysis's verdict there): what the page may promise a newcomer about
    it. A deal won once and played again is one the end screen gave a par."""
    if seed is None:
        return False
    if seed in first_deals.shipped(preset_slug):
        return True
    verdict = session.get(DealVerdict, (preset_slug, seed))
    if verdict is not None and verdict.winnable:
        return True
    key = solver_cache.key_of(par.start_of_deal(preset_slug, seed))
    kept = (session.get(ShortestLine, key), session.get(PositionVerdict, key))
    return any(row is not None and row.winnable for row in kept)
