"""The scoring systems are one vocabulary, ``Scoring``: a StrEnum, so a member is the word it
replaces (the stored ``scoring`` columns, the settings form and the API keep their words)."""

import json

import pytest

from app.engine import SCORING_SYSTEMS, GameRecord, Scoring, get_preset, score


def _record(moves: int = 0) -> GameRecord:
    preset = get_preset("pyramid")
    record = GameRecord.new(preset.game, preset.rules, preset.variant.deal(250))
    for _ in range(moves):
        record = record.play(min(str(m) for m in record.position.legal_moves() if str(m) not in ("D", "R")))
    return record


def test_each_member_is_its_stored_word():
    assert [str(s) for s in Scoring] == ["simple", "pairs", "timed"]
    assert Scoring.TIMED == "timed" and f"{Scoring.PAIRS}" == "pairs"
    assert Scoring("timed") is Scoring.TIMED
    assert json.dumps({"scoring": Scoring.SIMPLE}) == '{"scoring": "simple"}'


def test_the_systems_are_the_members_and_the_words_are_found_among_them():
    assert tuple(Scoring) == SCORING_SYSTEMS
    assert all(word in SCORING_SYSTEMS for word in ("simple", "pairs", "timed"))
    assert "golf" not in SCORING_SYSTEMS
    assert {Scoring.PAIRS: "row bonus"}.get("pairs") == "row bonus"  # a word finds its member's entry


def test_a_member_and_its_word_score_alike():
    record = _record(1)
    for member in Scoring:
        assert score(record, member, 60) == score(record, str(member), 60)
    assert score(record) == score(record, Scoring.SIMPLE)
    # not won: no time bonus, so a timed score is its pairs
    assert score(record, Scoring.TIMED, 10) == score(record, Scoring.PAIRS) > 0


def test_an_unknown_system_is_refused_naming_the_known_words():
    with pytest.raises(ValueError, match="simple, pairs, timed"):
        score(_record(), "golf")
