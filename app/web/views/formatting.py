"""Numbers, durations and dates as the player's language writes them (Jinja filters)."""

from __future__ import annotations

import math
from datetime import date, datetime

from babel.dates import format_date, format_skeleton, format_time, get_datetime_format
from babel.numbers import format_decimal
from jinja2 import Environment

from app import i18n
from app.engine import Scoring, Status

LOCALES = {"da": "da_DK", "sv": "sv_SE", "en": "en_GB"}


def _locale() -> str:
    return LOCALES.get(i18n.current_language(), "en_GB")


def number(value) -> str:
    if value is None:
        return "–"
    return format_decimal(value, format="#,##0.#", locale=_locale())


def percent(value) -> str:
    return "–" if value is None else f"{number(value)}\u00a0%"  # a no-break space: "%" never starts a line


def share(fraction: float, decimals: int = 1) -> str:
    """A share as a percentage, one decimal unless told, in the player's language ("9,3" in
    Danish; "85,815" with three)."""
    return _fixed(fraction * 100, decimals)


def share_down(fraction: float) -> str:
    """Rounded down, for lower bounds: 9,996 of 10,000 is "99.9", not a "100.0" that the
    deals do not reach."""
    return _fixed(math.floor(fraction * 1000 + 1e-9) / 10, 1)


def share_up(fraction: float) -> str:
    """Rounded up, for upper bounds."""
    return _fixed(math.ceil(fraction * 1000 - 1e-9) / 10, 1)


def _fixed(value: float, decimals: int) -> str:
    return format_decimal(value, format="#,##0." + "0" * decimals if decimals else "#,##0", locale=_locale())


def duration(seconds) -> str:
    if seconds is None:
        return "–"
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def day(value: date | datetime, fmt: str = "medium") -> str:
    """A date with the month in words, never 01/12/2026 (the 1st of December or January the
    12th?): "2 Dec 2026", "2. dec. 2026", "2 dec. 2026"; a moment adds the time (UTC)."""
    if isinstance(value, datetime):
        locale = _locale()
        return (str(get_datetime_format("medium", locale=locale))
                .replace("{1}", format_date(value, format="medium", locale=locale))
                .replace("{0}", format_time(value, format="short", locale=locale, tzinfo=None)))
    return format_date(value, format=fmt, locale=_locale())


def short_day(value: date, language: str | None = None) -> str:
    """A chart's day: "2 Dec", "2. dec.", "2 dec." (a 2/12 reads as February in the US). A
    route's thread has no page language yet: it names it."""
    return format_skeleton("MMMd", value, locale=LOCALES.get(language, "en_GB") if language else _locale())


def scoring_name(system: str) -> str:
    _ = i18n.gettext
    names: dict[str, str] = {Scoring.SIMPLE: _("simple"), Scoring.PAIRS: _("row bonus"), Scoring.TIMED: _("timed")}
    return names.get(system, system)


def result_name(result: Status, of_deal: bool = False) -> str:
    """A game's result (``WON``: sv *vunnet*, ett spel), or with ``of_deal`` a deal's (sv *vunnen*, en giv)."""
    _ = i18n.gettext
    if of_deal:
        return {Status.WON: i18n.pgettext("a deal", "won"), Status.LOST: i18n.pgettext("a deal", "lost"),
                Status.PLAYING: _("in progress")}.get(result, result)
    return {Status.WON: _("won"), Status.LOST: _("lost"), Status.PLAYING: _("in progress")}.get(result, result)


def install(env: Environment) -> None:
    env.globals.setdefault("scoring_name", scoring_name)
    env.globals.setdefault("result_name", result_name)
    env.filters.setdefault("number", number)
    env.filters.setdefault("percent", percent)
    env.filters.setdefault("share", share)
    env.filters.setdefault("share_down", share_down)
    env.filters.setdefault("share_up", share_up)
    env.filters.setdefault("duration", duration)
    env.filters.setdefault("day", day)
