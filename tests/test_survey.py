"""``tretten survey``: win rates with an honest interval and undecided deals counted apart."""

import json

import pytest

from app.cli import main
from app.survey import DealResult, SurveyReport, wilson


def test_wilson_interval_matches_known_values():
    rate, low, high = wilson(10, 100)
    assert rate == 0.1
    assert low == pytest.approx(0.0552, abs=1e-4) and high == pytest.approx(0.1744, abs=1e-4)
    assert wilson(0, 0) == (0.0, 0.0, 1.0)
    assert wilson(5, 5)[2] == 1.0


def test_undecided_deals_are_not_counted_as_wins_or_losses():
    report = SurveyReport("gaps", {}, 0, [
        DealResult(0, True, 0.1), DealResult(1, None, 5.0), DealResult(2, False, 0.2), DealResult(3, True, 0.3),
    ])
    summary = report.as_dict()
    assert (summary["deals"], summary["decided"], summary["undecided"], summary["winnable"]) == (4, 3, 1, 2)
    assert summary["win_rate"] == pytest.approx(2 / 3, abs=1e-5)
    assert summary["seeds"] == [0, 3]


def test_survey_command_solves_seeded_deals_and_prints_json(capsys):
    assert main(["survey", "giza", "--goal", "all", "--deals", "6", "--seed", "10", "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == summary["decided"] == 6 and summary["undecided"] == 0
    assert summary["seeds"] == [10, 15] and summary["options"]["goal"] == "all"
    assert 0 <= summary["winnable"] <= 6 and summary["ci95"][0] <= summary["win_rate"] <= summary["ci95"][1]


def test_survey_refuses_bad_counts(capsys):
    assert main(["survey", "pyramid", "--deals", "0"]) == 2
    assert "at least 1" in json.loads(capsys.readouterr().out)["error"]
