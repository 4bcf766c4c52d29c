"""The odds page: Tretten's own survey (docs/survey/results.json) beside published figures.

The survey file is a list of the objects ``tretten survey GAME [options] --json`` prints, each
with a ``preset`` key (bench/survey_all.py writes it). Published figures are quoted below with
their source and sample size, for the same rules only; where none was found, the page says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from app.engine import PRESETS
from app.settings import PROJECT_ROOT

RESULTS = PROJECT_ROOT / "docs" / "survey" / "results.json"

SOLITAIRE_WIN_RATES = "https://solitairewinrates.com/Pyramid.html"
GAPS_TECHNICAL = "https://solitairewinrates.com/GapsTechnicalDetails.html"
KELLER_MASTEN = "http://solitairelaboratory.com/pyramidgiza.html"


@dataclass(frozen=True)
class Published:
    rate: float | None      # a fraction; None for a figure given only in words
    text: str               # the figure as the source gives it
    source: str             # who and where
    url: str
    sample: str             # its sample size, as the source gives it
    note_key: str = ""      # a remark (worded by the template): "same_rules", "lower_bound", "estimate"


# Figures for exactly these rules (or, marked, a bound that follows from them).
PUBLISHED: dict[str, list[Published]] = {
    "pyramid": [Published(0.0902, "9.02 %", "Solitaire Win Rates, “Pyramid” (pyramid only, one pass, no overlap discards)",
                          SOLITAIRE_WIN_RATES, "100,000,000", "same_rules")],
    "pyramid-classic": [
        Published(0.0680, "6.80 %", "Solitaire Win Rates, “Pyramid” (all cards, one pass, no overlap discards)",
                  SOLITAIRE_WIN_RATES, "100,000,000", "same_rules"),
        Published(0.02, "1 in 50", "Albert Morehead and Geoffrey Mott-Smith, quoted by Michael Keller and Mark Masten, "
                  "“Pyramid and Giza”, Solitaire Laboratory", KELLER_MASTEN, "—", "estimate"),
    ],
    "relaxed": [Published(0.8315, "83.15 %", "Solitaire Win Rates, “Pyramid” (pyramid only, unlimited passes, overlap discards)",
                          SOLITAIRE_WIN_RATES, "100,000,000", "same_rules")],
    "gaps": [Published(0.85815, "85.815 % ± 3.717 %", "Solvitaire (Ian Gent and Charles Blake), Gaps without redeals, "
                       "as cited by Solitaire Win Rates, “Gaps technical details”", GAPS_TECHNICAL, "10,000 (over 6 % inconclusive)",
                       "lower_bound")],
}


@dataclass(frozen=True)
class Row:
    preset: str
    name: str
    game: str
    options: dict
    measured: dict | None                 # the survey's object, or None if not surveyed yet
    published: list[Published] = field(default_factory=list)


@lru_cache(maxsize=4)
def _load(path: str, _mtime: float) -> tuple[dict, ...]:
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return ()
    return tuple(row for row in data if isinstance(row, dict))


def survey_rows(path: Path = RESULTS) -> tuple[dict, ...]:
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return ()
    return _load(str(path), mtime)


def _measured(slug: str, rows: tuple[dict, ...]) -> dict | None:
    preset = PRESETS[slug]
    for row in rows:
        if row.get("preset") == slug:
            return row
    for row in rows:  # the same rules surveyed under another preset (Tut's Tomb = Pyramid)
        options = {str(k): str(v) for k, v in (row.get("options") or {}).items()}
        if row.get("game") == preset.game and all(options.get(k) == str(v) for k, v in preset.options.items()) \
                and len(options) == len(preset.options):
            return row
    return None


def rows(language: str, path: Path = RESULTS) -> list[Row]:
    data = survey_rows(path)
    return [Row(slug, preset.name(language), preset.game, dict(preset.options), _measured(slug, data),
                PUBLISHED.get(slug, [])) for slug, preset in PRESETS.items()]


def survey_info(path: Path = RESULTS) -> dict:
    data = survey_rows(path)
    return {"deals": sorted({int(r.get("deals", 0)) for r in data}), "commands": [r.get("command") for r in data if r.get("command")]}
