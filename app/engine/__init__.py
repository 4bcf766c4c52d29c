"""Tretten's rules engine: cards, deals, positions, legal moves, status and scores.

Pure Python, standard library only, no I/O. See ``docs/spec/notation.md`` for the
notation and ``docs/`` for the seeded deals and scores.
"""

from .actions import Action, ActionRefused
from .cards import DECK, RANKS, SUITS, Card, card, format_deal, full_deck, parse_card, parse_deal
from .errors import (
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    InvalidRulesError,
    NotationError,
)
from .gaps import REDEAL, Fill, GapsPosition, Redeal
from .history import GameRecord, trace
from .outcome import Status, Termination
from .presets import PRESETS, Preset, get_preset, presets_of
from .pyramid import DRAW, RECYCLE, Draw, PyramidPosition, Recycle, Remove
from .rules import GapsRules, PyramidRules
from .scoring import SCORING_SYSTEMS, Scoring, score
from .seeding import MAX_SEED, SplitMix64, shuffled
from .variants import GAMES, Move, Position, Rules, Variant, deal_for_seed, get_game

__all__ = [
    "DECK", "DRAW", "GAMES", "MAX_SEED", "PRESETS", "RANKS", "RECYCLE", "REDEAL", "SCORING_SYSTEMS", "SUITS",
    "Action", "ActionRefused", "Card", "Draw", "Fill", "GameRecord", "GapsPosition", "GapsRules",
    "IllegalMoveError", "InvalidDealError", "InvalidMoveError", "InvalidRulesError", "Move", "NotationError",
    "Position", "Preset", "PyramidPosition", "PyramidRules", "Recycle", "Redeal", "Remove", "Rules", "Scoring",
    "SplitMix64", "Status", "Termination", "Variant", "card", "deal_for_seed", "format_deal", "full_deck",
    "get_game", "get_preset", "parse_card", "parse_deal", "presets_of", "score", "shuffled", "trace",
]
