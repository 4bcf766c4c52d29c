import pytest

from app.engine import GAMES, PRESETS, GameRecord, get_game, get_preset, presets_of, score
from app.engine.errors import InvalidRulesError
from app.engine.scoring import time_bonus

from .vectors import load

WIN = next(c for c in load("solve.jsonl") if c["winnable"] and c["game"] == "pyramid" and not c["options"])


def won_record() -> GameRecord:
    rules = get_game("pyramid").parse_rules(WIN["options"])
    return GameRecord.from_text("pyramid", rules, WIN["deal"], WIN["example_win"])


def test_simple_score_counts_pyramid_cards_removed():
    record = won_record()
    assert score(record, "simple") == 28
    assert score(record.at(0), "simple") == 0


def test_pair_score_is_five_per_removal_plus_every_row_bonus_when_cleared():
    record = won_record()
    removals = sum(1 for m in record.moves if str(m) not in ("D", "R"))
    assert score(record, "pairs") == 5 * removals + (25 + 50 + 75 + 100 + 150 + 250 + 500)


def test_row_bonus_arrives_when_the_bottom_row_is_cleared():
    record = won_record()
    for cursor in range(len(record.moves) + 1):
        at = record.at(cursor)
        position = at.position
        bottom_cleared = all(position.is_removed(i) for i in range(21, 28))
        removals = sum(1 for m in at.moves[:cursor] if str(m) not in ("D", "R"))
        assert (score(at, "pairs") - 5 * removals >= 25) == bottom_cleared


def test_timed_score_adds_a_falling_bonus_only_for_a_win():
    record = won_record()
    assert score(record, "timed", 60) - score(record, "pairs") == time_bonus(60) == 1666
    assert score(record, "timed", 10) > score(record, "timed", 60) > score(record, "timed", 900)
    unfinished = record.at(3)
    assert score(unfinished, "timed", 10) == score(unfinished, "pairs")
    with pytest.raises(ValueError):
        score(record, "golf")


def test_presets_have_their_slugs_and_rules():
    assert list(PRESETS) == [
        "pyramid", "pyramid-classic", "pyramid-3", "relaxed",
        "giza", "double-pyramid", "gaps", "gaps-danish",
    ]
    for preset in PRESETS.values():
        assert preset.rules == preset.variant.parse_rules(preset.rules.to_options())
    assert get_preset("tuts-tomb") is get_preset("pyramid")  # a former name: Pyramid under it
    assert get_preset("pyramid-classic").rules.goal == "all"
    assert get_preset("pyramid-3").rules.passes == 3
    relaxed = get_preset("relaxed").rules
    assert relaxed.passes is None and relaxed.overlap
    assert get_preset("giza").game == "giza" and get_preset("giza").rules.goal == "all"
    assert get_preset("double-pyramid").rules.passes == 3
    assert get_preset("gaps").rules.rounds == 3 and get_preset("gaps").rules.aces == "removed"
    assert get_preset("gaps-danish").rules.aces == "starters"
    with pytest.raises(InvalidRulesError):
        get_preset("solitaire")


def test_a_game_lists_its_presets_in_the_lobby_order():
    assert [p.slug for p in presets_of("pyramid")] == ["pyramid", "pyramid-classic", "pyramid-3", "relaxed"]
    assert [p.slug for p in presets_of("gaps")] == ["gaps", "gaps-danish"]
    assert sorted(p.slug for game in GAMES for p in presets_of(game)) == sorted(PRESETS)
    assert presets_of("solitaire") == []
