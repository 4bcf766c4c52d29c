"""Tretten's rules engine: cards, deals, positions, legal moves, status and scores.

Pure Python, standard library only, no I/O. See ``shared/spec/notation.md`` for the
notation and ``docs/`` for the seeded deals and scores.
"""

from .cards import DECK, RANKS, SUITS, Card, card, format_deal, full_deck, parse_card, parse_deal
from .errors import (
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    InvalidRulesError,
    NotationError,
)
from .gaps import REDEAL, Fill, GapsPosition, Redeal
from .history import GameRecord
from .presets import PRESETS, Preset, get_preset
from .pyramid import DRAW, RECYCLE, Draw, PyramidPosition, Recycle, Remove
from .rules import GapsRules, PyramidRules
from .scoring import SCORING_SYSTEMS, score
from .seeding import MAX_SEED, SplitMix64, shuffled
from .variants import GAMES, Move, Position, Rules, Variant, deal_for_seed, get_game

__all__ = [
    "DECK", "RANKS", "SUITS", "Card", "card", "format_deal", "full_deck", "parse_card",
    "parse_deal", "IllegalMoveError", "InvalidDealError", "InvalidMoveError",
    "InvalidRulesError", "NotationError", "REDEAL", "Fill", "GapsPosition", "Redeal",
    "GameRecord", "PRESETS", "Preset", "get_preset", "DRAW", "RECYCLE", "Draw",
    "PyramidPosition", "Recycle", "Remove", "GapsRules", "PyramidRules", "SCORING_SYSTEMS",
    "score", "MAX_SEED", "SplitMix64", "deal_for_seed", "shuffled", "GAMES", "Move",
    "Position", "Rules", "Variant", "get_game",
]
