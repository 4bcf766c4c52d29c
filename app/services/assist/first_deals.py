"""Deals shipped with the code, each proven winnable: what a winnable-only new deal falls back
to when its search proves none in time and the server has none proven before (a fresh database).

Without them a newcomer's first Gaps deal on a new server was dealt unproven about one time in
two (docs/winnable-only.md): the search of a Gaps deal often proves no candidate within its
limit, and a fresh database keeps no verdict to fall back to. The seeds are the first ones from
1 that ``app.solver.solve`` proves winnable within ``NODES`` searched positions, with no time
budget, so every machine proves them alike (tests/services/assist/test_first_deals.py checks
each; ``scripts/first_deals.py`` prints the list again after the solver or the deals change).
"""

from __future__ import annotations

NODES = 1_000  # a search of this many positions proves each seed below: quick, and the same everywhere

SEEDS: dict[str, tuple[int, ...]] = {
    "pyramid": (18, 21, 32, 40, 45, 48, 52, 73),
    "pyramid-classic": (18, 21, 32, 40, 45, 48, 52, 73),
    "pyramid-3": (1, 2, 5, 10, 11, 12, 13, 14),
    "relaxed": (1, 2, 4, 5, 6, 8, 10, 11),
    "giza": (1, 2, 5, 12, 13, 17, 18, 20),
    "double-pyramid": (1, 2, 3, 4, 5, 6, 7, 8),
    "gaps": (10, 11, 15, 21, 35, 40, 41, 46),
    "gaps-danish": (7, 11, 13, 15, 16, 18, 24, 28),
}


def shipped(preset_slug: str) -> tuple[int, ...]:
    """The preset's shipped proven seeds (none for a preset added since the list was made)."""
    return SEEDS.get(preset_slug, ())
