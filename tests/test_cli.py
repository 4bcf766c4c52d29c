"""The ``tretten`` command line, as other programs call it."""

import json
import subprocess
import sys

import pytest

from app.cli import main
from app.engine import GameRecord, deal_for_seed, format_deal, get_game, get_preset

from .engine.vectors import cli_options, load


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


@pytest.mark.parametrize("case", load("replay.jsonl")[::5], ids=lambda c: c["game"])
def test_replay_trace_prints_the_vector(capsys, case):
    status, lines, _ = run(
        capsys, "replay", case["game"], *cli_options(case["options"]),
        "--deal", case["deal"], "--moves", case["moves"], "--trace",
    )
    assert status == 0 and lines == case["trace"]


def test_replay_without_trace_prints_the_last_position(capsys):
    case = load("replay.jsonl")[0]
    status, lines, _ = run(capsys, "replay", "pyramid", "--deal", case["deal"], "--moves", case["moves"])
    assert status == 0 and lines == case["trace"][-1:]


def test_an_illegal_move_ends_the_trace_with_error_and_index(capsys):
    deal = format_deal(deal_for_seed("pyramid", 1))
    status, lines, err = run(capsys, "replay", "pyramid", "--deal", deal, "--moves", "D P0 D", "--trace")
    assert status == 2
    assert len(lines) == 3 and lines[-1]["at"] == 1 and "P0" in lines[-1]["error"]
    assert "P0" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["replay", "pyramid", "--deal", "AS 2S"], "expected 52"),
        (["replay", "nope", "--deal", "AS"], "unknown game"),
        (["replay", "gaps", "--passes", "2", "--deal", "AS"], "--passes"),
        (["replay", "gaps", "--rounds", "7", "--deal", "AS"], "--rounds"),
        (["deal", "pyramid", "--seed", "x"], "seed"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_prints_one_error_and_exits_2(capsys, argv, fragment):
    status, lines, err = run(capsys, *argv)
    assert status == 2 and len(lines) == 1 and fragment in lines[0]["error"]
    assert len(err.strip().splitlines()) == 1


def test_deal_prints_the_seeded_deal(capsys):
    assert main(["deal", "double-pyramid", "--seed", "7"]) == 0
    assert capsys.readouterr().out.split() == [c.code for c in deal_for_seed("double-pyramid", 7)]


def test_console_script_is_installed_and_exits_2_on_bad_input():
    ok = subprocess.run([sys.executable, "-m", "app.cli", "deal", "gaps", "--seed", "1"], capture_output=True, text=True)
    assert ok.returncode == 0 and len(ok.stdout.split()) == 52
    bad = subprocess.run([sys.executable, "-m", "app.cli", "replay", "gaps", "--deal", "2C"], capture_output=True, text=True)
    assert bad.returncode == 2 and "error" in json.loads(bad.stdout) and "Traceback" not in bad.stderr


SOLVES = load("solve.jsonl")


@pytest.mark.parametrize("case", SOLVES[::6], ids=lambda c: f"{c['game']}-{c['winnable']}")
def test_solve_prints_the_verdict_and_a_line_that_replays_to_won(capsys, case):
    options = cli_options(case["options"])
    status, lines, _ = run(capsys, "solve", case["game"], *options, "--deal", case["deal"])
    assert status == 0 and lines[0]["winnable"] == case["winnable"]
    if case["winnable"]:
        status, replayed, _ = run(capsys, "replay", case["game"], *options, "--deal", case["deal"], "--moves", lines[0]["moves"])
        assert status == 0 and replayed[-1]["status"] == "won"
    else:
        assert lines[0] == {"winnable": False}


def test_solve_after_moves_and_an_honest_unknown_when_the_budget_runs_out(capsys):
    case = next(c for c in SOLVES if c["winnable"])
    first = case["example_win"].split()[0]
    status, lines, _ = run(capsys, "solve", case["game"], *cli_options(case["options"]), "--deal", case["deal"], "--moves", first)
    assert status == 0 and lines[0]["winnable"] is True
    gaps = format_deal(deal_for_seed("gaps", 1))  # not decided within a millisecond
    status, lines, _ = run(capsys, "solve", "gaps", "--rounds", "1", "--deal", gaps, "--budget", "0.001")
    assert status == 0 and lines == [{"winnable": None, "reason": "budget"}]


def test_solve_reports_a_bad_move_like_replay(capsys):
    deal = format_deal(deal_for_seed("pyramid", 1))
    status, lines, _ = run(capsys, "solve", "pyramid", "--deal", deal, "--moves", "D Q3")
    assert status == 2 and lines[-1]["at"] == 1


def test_solve_shortest_prints_the_proven_shortest_line(capsys):
    from app.solver import shortest_win

    preset = get_preset("pyramid-3")
    deal = format_deal(deal_for_seed("pyramid", 21))
    status, (out,), _ = run(capsys, "solve", "pyramid", "--passes", "3", "--deal", deal, "--shortest")
    best = shortest_win(preset.variant.new_position(deal_for_seed("pyramid", 21), preset.rules))
    assert status == 0 and out == {"winnable": True, "moves": " ".join(best.moves), "length": len(best.moves),
                                   "proven": True}
    record = GameRecord.from_text("pyramid", get_game("pyramid").parse_rules({"passes": "3"}), deal)
    for move in out["moves"].split():
        record = record.play(move)
    assert record.position.status == "won"


def test_solve_shortest_on_gaps_is_a_line_never_proven_and_bad_input_exits_2(capsys):
    deal = format_deal(deal_for_seed("gaps", 3))
    status, (out,), _ = run(capsys, "solve", "gaps", "--deal", deal, "--shortest", "--budget", "5")
    assert status == 0 and out["proven"] is False
    assert out["winnable"] is None or out["length"] == len(out["moves"].split())
    status, (out,), _ = run(capsys, "solve", "pyramid", "--deal", "xx", "--shortest")
    assert status == 2 and "error" in out
