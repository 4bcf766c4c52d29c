"""The Gaps player who does not know the redeals (``bench/gaps_play.py``: the odds survey's
player, not the app's)."""

import random

import pytest
from gaps_play import _most_in_runs, fresh_redeal, play_deal

from app.engine import PRESETS, deal_for_seed, get_game

NODES = 2000  # small searches: these tests check the play, not its strength


def start(preset: str, seed: int):
    variant = get_game("gaps")
    return variant.new_position(deal_for_seed("gaps", seed), variant.parse_rules(PRESETS[preset].rules.to_options()))


@pytest.mark.parametrize("preset", ["gaps", "gaps-danish"])
def test_a_deal_is_played_to_its_end_and_again_alike(preset):
    for seed in range(2):
        result = play_deal(start(preset, seed), random.Random(seed), NODES)
        assert result == play_deal(start(preset, seed), random.Random(seed), NODES)
        assert 1 <= result.rounds <= 3
        if result.won:
            assert result.cards_in_runs == 48
        else:
            assert result.rounds == 3 and result.cards_in_runs < 48


def test_the_redeal_is_a_fresh_shuffle_that_keeps_the_correct_runs():
    position = _most_in_runs(start("gaps", 4), NODES)
    kept = position.correct_prefix_lengths()
    seeded = position.apply("N")
    fresh = [fresh_redeal(position, random.Random(k)) for k in range(3)]
    for after in fresh:
        assert after.round == 2 and after.correct_prefix_lengths() == kept
        assert sorted(map(str, filter(None, after.grid))) == sorted(map(str, filter(None, position.grid)))
    assert all(after.grid != seeded.grid for after in fresh)
    assert len({after.grid for after in fresh}) == 3


def test_the_round_is_played_to_the_most_cards_in_runs_it_finds():
    for seed in range(3):
        position = start("gaps-danish", seed)
        played = _most_in_runs(position, NODES)
        assert played.round == position.round and played.simple_score >= position.simple_score
    assert any(_most_in_runs(start("gaps", s), NODES).simple_score > start("gaps", s).simple_score for s in range(3))
