"""The named rule sets the lobby offers: a game plus rule options, known by a slug. Their names,
summaries and what a player may expect of them are words, in the catalogs (app/web/views/preset_words.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InvalidRulesError
from .variants import Rules, Variant, get_game


@dataclass(frozen=True)
class Preset:
    slug: str
    game: str
    options: dict[str, str] = field(hash=False)

    @property
    def variant(self) -> Variant:
        return get_game(self.game)

    @property
    def rules(self) -> Rules:
        return self.variant.parse_rules(self.options)


PRESETS: dict[str, Preset] = {
    p.slug: p
    for p in (
        Preset("pyramid", "pyramid", {"passes": "1", "goal": "pyramid"}),
        Preset("pyramid-classic", "pyramid", {"passes": "1", "goal": "all"}),
        Preset("pyramid-3", "pyramid", {"passes": "3", "goal": "pyramid"}),
        Preset("relaxed", "pyramid", {"passes": "unlimited", "goal": "pyramid", "overlap": "true"}),
        Preset("giza", "giza", {"goal": "all"}),
        Preset("double-pyramid", "double-pyramid", {"passes": "3", "goal": "pyramid"}),
        Preset("gaps", "gaps", {"rounds": "3", "aces": "removed"}),
        Preset("gaps-danish", "gaps", {"rounds": "3", "aces": "starters"}),
    )
}


# Other names of a preset: a link with one (a share link, a daily deal, an API call) opens the
# preset itself. Tretten once listed Tut's Tomb beside Pyramid with exactly Pyramid's rules;
# Microsoft's Tut's Tomb draws three cards at a time and pairs the waste only with the pyramid
# (Solitaire Laboratory, docs/glossary.md), rules this engine does not play.
ALIASES: dict[str, str] = {"tuts-tomb": "pyramid"}


def presets_of(game: str) -> list[Preset]:
    """The presets that play the game called ``game``, in the lobby's order."""
    return [p for p in PRESETS.values() if p.game == game]


def get_preset(slug: str) -> Preset:
    try:
        return PRESETS[ALIASES.get(slug, slug)]
    except KeyError:
        raise InvalidRulesError(
            f"unknown preset {slug!r}: choose {', '.join(PRESETS)}"
        ) from None
