"""The steps a group of moves is shown in (app.web.views.boards.motion_steps)."""

from __future__ import annotations

from app.engine import GameRecord, deal_for_seed, get_preset
from app.web.views.boards import motion_steps


def record(preset: str, seed: int, line: str) -> GameRecord:
    p = get_preset(preset)
    rec = GameRecord.new(p.game, p.rules, deal_for_seed(p.game, seed))
    for text in line.split():
        rec = rec.play(text)
    return rec


def test_each_card_a_group_took_has_the_step_that_took_it():
    rec = record("pyramid", 250, "P21+P24 P23+P25 P22+P26 D")
    steps = dict(pair.split(":") for pair in motion_steps(rec, 1).split())
    position = rec.positions()
    assert {code for code, step in steps.items() if step == "1"} == {
        position[1].card_at(loc).code for loc in ("P23", "P25")}
    assert {code for code, step in steps.items() if step == "2"} == {
        position[2].card_at(loc).code for loc in ("P22", "P26")}
    assert [code for code, step in steps.items() if step == "3"] == [rec.position.waste[0].code]  # drawn
    assert "P21" not in steps and motion_steps(rec, rec.cursor) == ""


def test_a_gaps_card_moved_twice_keeps_its_last_step():
    p = get_preset("gaps")
    rec = GameRecord.new(p.game, p.rules, deal_for_seed(p.game, 21))
    first = next(m for m in rec.position.legal_moves() if str(m) != "N")
    rec = rec.play(first)
    again = next((m for m in rec.position.legal_moves() if str(m) != "N" and m.card == first.card), None)
    other = next(m for m in rec.position.legal_moves() if str(m) != "N" and m.card != first.card)
    rec = rec.play(again or other)
    steps = dict(pair.split(":") for pair in motion_steps(rec, 0).split())
    assert steps[first.card.code] == ("2" if again else "1")
