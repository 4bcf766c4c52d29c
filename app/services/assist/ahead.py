"""Par computed ahead, where players meet it: every daily deal of today and tomorrow chosen with
its par kept before anyone plays it, and a winnable-only deal's par searched once it is dealt.

A deal's par kept (``par.known``) is what the end screen, the daily table and the hints use: a
player who follows every hint from the start of such a deal wins in par (the hints follow the
kept par line while the game is on it: app.services.assist.assist). The searches are the app's
own (``player_id`` None): they take no player's search slot, and what they find is kept as facts
(app.db.session), so whichever instance finds a par first serves every other.
"""

from __future__ import annotations

import logging
from datetime import date, timedelta

from sqlalchemy.orm import Session

from app.db.models import DealVerdict
from app.engine import PRESETS

from ..play.daily import utc_today
from . import daily_choice, par

log = logging.getLogger("tretten.ahead")

DAYS_AHEAD = 1  # today's daily deals, and tomorrow's


def prepare_deal(session: Session, preset_slug: str, seed: int) -> par.Par | None:
    """The deal's par, kept: read when it is kept already, else searched now and kept."""
    start = par.start_of_deal(preset_slug, seed)
    return par.known(session, start) or par.prepare(session, preset_slug, seed)


def prepare_winnable(session: Session, preset_slug: str, seed: int) -> par.Par | None:
    """A winnable-only new deal's par, kept: searched only for a seed the solver has proven
    winnable (a new deal falls back to an unproven one when none is found in time)."""
    verdict = session.get(DealVerdict, (preset_slug, seed))
    if verdict is None or not verdict.winnable:
        return None
    return prepare_deal(session, preset_slug, seed)


def prepare_days(session: Session, today: date | None = None) -> int:
    """Choose the daily deal of every preset for today and the days ahead, each with its par
    kept; the number of deals whose par is kept."""
    today = today or utc_today()
    kept = 0
    for offset in range(DAYS_AHEAD + 1):
        for slug in PRESETS:
            row = daily_choice.daily_deal(session, slug, today + timedelta(days=offset))
            if prepare_deal(session, slug, row.seed) is not None:
                kept += 1
    return kept
