"""The odds page: Tretten's own survey (docs/survey/results.json) beside published figures.

The survey file is a list of the objects ``tretten survey GAME [options] --json`` prints, each
with a ``preset`` key (bench/survey_all.py writes it). A preset may also have a figure for a
player who does not know what the solver knows (``docs/survey/gaps-player.json``, written by
bench/gaps_player.py: Gaps played round by round without knowing the redeals). Published
figures are quoted below with their source and sample size, for the same rules only; where
none was found, the page says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from app.engine import PRESETS
from app.settings import PROJECT_ROOT

RESULTS = PROJECT_ROOT / "docs" / "survey" / "results.json"
# A strong player who does not know how the redeals fall (bench/gaps_player.py), per preset
PLAYER_RESULTS = PROJECT_ROOT / "docs" / "survey" / "gaps-player.json"

SOLITAIRE_WIN_RATES = "https://solitairewinrates.com/Pyramid.html"
GAPS_TECHNICAL = "https://solitairewinrates.com/GapsTechnicalDetails.html"
KELLER_MASTEN = "http://solitairelaboratory.com/pyramidgiza.html"


@dataclass(frozen=True)
class Source:
    """Who published a figure and where, as they name themselves: the template joins the
    authors with the player's "and" and marks the title and site as English."""

    authors: tuple[str, ...] = ()
    title: str = ""
    site: str = ""


@dataclass(frozen=True)
class Published:
    """One published figure as numbers and parts: the template formats the numbers in the
    player's language ("9,02 %", "1 ud af 50", "100.000.000") and words the keys."""

    source: Source
    url: str
    rules_key: str                  # the rules the figure is for, worded by the template
    rate: float | None = None       # the share of deals won, a fraction
    decimals: int = 2               # as many decimals as the source gives
    margin: float | None = None     # the source's ± around the rate, a fraction
    one_in: int | None = None       # a figure given as odds: 1 deal in `one_in`
    sample: int | None = None       # deals in the sample; None when the source gives none
    undecided_over: float | None = None  # the share of the sample the source left undecided ("over 6 %")
    cited_by: Source | None = None  # where the figure is quoted, when not at its source
    note_key: str = ""              # a remark worded by the template: "lower_bound", "estimate"


SWR_PYRAMID = Source(title="Pyramid", site="Solitaire Win Rates")

# Figures for exactly these rules (or, marked, a bound that follows from them).
PUBLISHED: dict[str, list[Published]] = {
    "pyramid": [Published(SWR_PYRAMID, SOLITAIRE_WIN_RATES, "pyramid_one_pass",
                          rate=0.0902, sample=100_000_000)],
    "pyramid-classic": [
        Published(SWR_PYRAMID, SOLITAIRE_WIN_RATES, "all_one_pass_no_overlap",
                  rate=0.0680, sample=100_000_000),
        Published(Source(authors=("Albert Morehead", "Geoffrey Mott-Smith")), KELLER_MASTEN,
                  "all_one_pass", one_in=50, note_key="estimate",
                  cited_by=Source(("Michael Keller", "Mark Masten"), "Pyramid and Giza", "Solitaire Laboratory")),
    ],
    "relaxed": [Published(SWR_PYRAMID, SOLITAIRE_WIN_RATES, "pyramid_unlimited_overlap",
                          rate=0.8315, sample=100_000_000)],
    "gaps": [Published(Source(("Ian Gent", "Charles Blake"), "Solvitaire"), GAPS_TECHNICAL, "gaps_no_redeals",
                       rate=0.85815, decimals=3, margin=0.03717, sample=10_000, undecided_over=0.06,
                       cited_by=Source(title="Gaps technical details", site="Solitaire Win Rates"),
                       note_key="lower_bound")],
}


@dataclass(frozen=True)
class Row:
    preset: str
    game: str
    options: dict
    measured: dict | None                 # the survey's object, or None if not surveyed yet
    published: list[Published] = field(default_factory=list)
    player: dict | None = None            # a player without the solver's knowledge, where measured


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
    return next((row for row in rows if row.get("preset") == slug), None)


def rows(path: Path = RESULTS, player_path: Path = PLAYER_RESULTS) -> list[Row]:
    data = survey_rows(path)
    players = survey_rows(player_path)
    return [Row(slug, preset.game, dict(preset.options), _measured(slug, data), PUBLISHED.get(slug, []),
                _measured(slug, players))
            for slug, preset in PRESETS.items()]


def survey_info(path: Path = RESULTS) -> dict:
    data = survey_rows(path)
    return {"deals": sorted({int(r.get("deals", 0)) for r in data}),
            "commands": [r.get("command") for r in data if r.get("command")]}
