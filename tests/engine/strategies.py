"""Shared hypothesis strategies: every game with every rule option."""

from hypothesis import strategies as st

from app.engine import MAX_SEED, GameRecord, deal_for_seed, get_game

CONFIGS = [
    ("pyramid", {}),
    ("pyramid", {"passes": "2"}),
    ("pyramid", {"passes": "3", "goal": "all"}),
    ("pyramid", {"passes": "unlimited"}),
    ("pyramid", {"passes": "unlimited", "overlap": "true"}),
    ("pyramid", {"overlap": "true", "goal": "all"}),
    ("giza", {}),
    ("giza", {"goal": "all", "overlap": "true"}),
    ("double-pyramid", {"passes": "3"}),
    ("double-pyramid", {"goal": "all", "overlap": "true"}),
    ("gaps", {}),
    ("gaps", {"rounds": "1"}),
    ("gaps", {"rounds": "unlimited", "aces": "starters"}),
    ("gaps", {"aces": "starters", "rounds": "4"}),
]

seeds = st.integers(min_value=0, max_value=MAX_SEED)


def new_record(config, seed) -> GameRecord:
    game, options = config
    variant = get_game(game)
    return GameRecord.new(game, variant.parse_rules(options), deal_for_seed(game, seed))
