"""One source of rules (docs/architecture.md, "Offline"): the app's engine run by Pyodide in the
page's worker answers what the server's engine answers. Random games, 2,004 of the Pyramid family
(334 per preset) and 2,000 of Gaps (1,000 per preset; issue 38: at least 2,000 a family), are
played in the page, which sends back each game's moves and the digest of every position on the
way (status, sorted legal moves, score, position: the replay trace's ``describe``); the server's
Python replays the same moves and must reach the same digests at every ply. Then the
repository's vectors, traced in the page.

The page plays in batches, all asked for at once; each batch is checked here while the worker
plays the next, so the two interpreters work side by side."""

from __future__ import annotations

import json

import pytest

from app.engine import PRESETS, get_preset
from app.web.views.offline_engine import digest

from ..engine.vectors import load

pytestmark = pytest.mark.slow

BATCH = 100
PLAN = [(slug, 334) for slug, p in PRESETS.items() if p.game != "gaps"] + \
       [(slug, 1000) for slug, p in PRESETS.items() if p.game == "gaps"]


def batches():
    for index, (slug, count) in enumerate(PLAN):
        first = 1 + index * 100_000
        for start in range(0, count, BATCH):
            yield {"preset": slug, "first_seed": first + start, "count": min(BATCH, count - start)}


def engine_on(page, server):
    """The player turns offline play on in the settings; the engine is ready when it says so."""
    page.goto(f"{server}/play/pyramid/1")
    page.locator("details.settings summary").click()
    page.locator("[data-offline-toggle]").check()
    page.wait_for_function("() => document.querySelector('[data-offline-state]').dataset.offlineState === 'ready'",
                           timeout=120_000)


def replay(preset: str, game: dict) -> list[str]:
    chosen = get_preset(preset)
    position = chosen.variant.new_position(chosen.variant.deal(game["seed"]), chosen.rules)
    digests = [digest(position)]
    for token in game["moves"]:
        position = position.apply(position.parse_move(token))
        digests.append(digest(position))
    return digests


def test_the_page_and_the_server_play_by_the_same_rules(new_page, server):
    page = new_page(service_workers="allow")
    engine_on(page, server)
    assert page.locator("[data-offline-state]").inner_text().startswith("Ready")
    asked = list(batches())
    page.evaluate("""asked => { window.rulesRuns = {};
        asked.forEach((batch, i) => TrettenEngine.call('random_games', batch)
          .then(games => { window.rulesRuns[i] = games; }, e => { window.rulesRuns[i] = String(e); })); }""", asked)
    games = {"pyramid": 0, "gaps": 0}
    plies = 0
    for i, batch in enumerate(asked):
        page.wait_for_function("i => window.rulesRuns[i] !== undefined", arg=i, timeout=120_000)
        played = page.evaluate("i => { const r = window.rulesRuns[i]; delete window.rulesRuns[i]; return r; }", i)
        assert isinstance(played, list), played
        assert [g["seed"] for g in played] == list(range(batch["first_seed"], batch["first_seed"] + batch["count"]))
        for game in played:
            assert replay(batch["preset"], game) == game["digests"], (batch["preset"], game["seed"])
            plies += len(game["moves"])
        games["gaps" if PRESETS[batch["preset"]].game == "gaps" else "pyramid"] += len(played)
    assert games == {"pyramid": 2004, "gaps": 2000} and plies > 100_000

    cases = load("replay.jsonl")
    traces = page.evaluate("cases => TrettenEngine.call('traces', {cases})", cases)
    assert len(traces) == len(cases) >= 30
    for case, trace in zip(cases, traces, strict=True):
        assert trace == json.loads(json.dumps(case["trace"])), case["deal"][:20]
    assert not page.js_errors
