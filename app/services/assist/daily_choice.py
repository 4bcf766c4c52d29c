"""Choosing the day's deal: one seeded deal per preset per UTC day, proven winnable.

The rule (docs/daily-deal.md): for preset P on UTC day D, candidate k = 0, 1, 2, … is the seed
``text_seed("tretten-daily:D:P:k")`` (the first 8 bytes of the SHA-256 of that ASCII text, read
big-endian); the day's deal is the first candidate the solver proves winnable within
``NODE_BUDGET`` searched positions. A node budget, not a time budget, so every machine picks
the same seed. The choice is stored (table ``daily_deals``, read by app.services.play.daily) the
first time anyone asks, so it is computed once per day per preset and never changes afterwards,
even if the solver does.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import date

from sqlalchemy.orm import Session

from app.db.models import DailyDeal
from app.db.session import facts, release
from app.engine import GameRecord, get_game, get_preset
from app.engine.seeding import text_seed

from ..play.daily import utc_today
from . import searches, solver_cache

log = logging.getLogger("tretten.daily")

NODE_BUDGET = 20_000      # positions per candidate: a hard deal is skipped, not waited for
# positions in all, per day and preset: a deal whose candidates are proven winnable or not in a
# few hundred positions (the Pyramid family) tries many of them; one whose candidates each
# spend the whole budget (Gaps) tries a few dozen. One-pass "all cards" needs the most, up to
# about 30 seen.
DAY_NODES = 1_000_000
MAX_CANDIDATES = 200


def candidate_seed(day: date, preset: str, k: int) -> int:
    return text_seed(f"tretten-daily:{day.isoformat()}:{preset}:{k}")


@dataclass(frozen=True)
class Choice:
    seed: int
    candidate: int
    proven: bool
    moves: tuple[str, ...] = ()
    nodes: int = 0


def _solve(preset_slug: str, seed: int):
    preset = get_preset(preset_slug)
    position = GameRecord.new(preset.game, preset.rules, get_game(preset.game).deal(seed)).position
    try:
        return searches.solve(position, player_id=None, budget_nodes=NODE_BUDGET)
    except Exception as exc:  # a solver that cannot handle the game yet: undecided
        log.warning("solver failed on %s seed %s: %s", preset_slug, seed, exc)
        return None


def choose(day: date, preset_slug: str) -> Choice:
    """Apply the rule. Falls back, unproven, to the first candidate not proven unwinnable if
    none is proven winnable within ``DAY_NODES`` positions in all (a safety net: not seen with
    the current solver)."""
    fallback: Choice | None = None
    spent = 0
    for k in range(MAX_CANDIDATES):
        seed = candidate_seed(day, preset_slug, k)
        result = _solve(preset_slug, seed)
        if result is not None and result.winnable:
            return Choice(seed, k, True, tuple(result.moves), result.nodes)
        if fallback is None and (result is None or result.winnable is None):
            fallback = Choice(seed, k, False)
        spent += result.nodes if result is not None else NODE_BUDGET
        if spent >= DAY_NODES:
            break
    return fallback or Choice(candidate_seed(day, preset_slug, 0), 0, False)


_locks: dict[tuple[date, str], threading.Lock] = {}
_locks_guard = threading.Lock()


def daily_deal(session: Session, preset_slug: str, day: date | None = None) -> DailyDeal:
    """The stored daily deal of the day, chosen now if nobody asked for it before (a fact of
    its own, kept whatever becomes of the request that asked: app.db.session). Its par is
    searched apart (``ahead.prepare_days`` a day ahead, or the page's spare time): a Double
    Pyramid's takes seconds, and every request for the day's deal waited on it."""
    day = day or utc_today()
    row = session.get(DailyDeal, (day, preset_slug))
    if row is not None:
        return row
    with _locks_guard:
        lock = _locks.setdefault((day, preset_slug), threading.Lock())
    with lock:  # one search per instance; other instances may race, the primary key settles it
        release(session)
        row = session.get(DailyDeal, (day, preset_slug))
        if row is not None:
            return row
        choice = choose(day, preset_slug)
        with facts(session) as unit:
            unit.add(DailyDeal(day=day, preset=preset_slug, seed=choice.seed, candidate=choice.candidate,
                               proven=choice.proven))
        with facts(session) as unit:  # apart: a verdict kept already must not undo the day's choice
            if choice.proven:
                solver_cache.keep_deal_verdict(unit, preset_slug, choice.seed, winnable=True,
                                               moves=" ".join(choice.moves), nodes=choice.nodes)
        row = session.get(DailyDeal, (day, preset_slug))  # ours, or another instance's stored first
        assert row is not None
        return row
