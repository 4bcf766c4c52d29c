"""The shared vectors from an independent implementation, replayed move by move."""

import pytest

from app.engine import trace
from app.engine import GameRecord, get_game

from .vectors import load

REPLAYS = load("replay.jsonl")


@pytest.mark.parametrize("case", REPLAYS, ids=lambda c: f"{c['game']}-{c['deal'][:8]}")
def test_trace_matches_the_independent_implementation(case):
    variant = get_game(case["game"])
    record = GameRecord.new(variant.name, variant.parse_rules(case["options"]), variant.parse_deal(case["deal"]))
    traced = [trace(record.position)]
    for token in case["moves"].split():
        record = record.play(token)
        traced.append(trace(record.position))
    for step, (ours, theirs) in enumerate(zip(traced, case["trace"], strict=True)):
        assert ours == theirs, f"step {step} differs"
