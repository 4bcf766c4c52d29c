"""Every board action on every preset, with JavaScript and without, on a stored game and on a deal
ready to play: an answer (200/303) or a clear refusal (4xx), never a 5xx (F1: a redeal on a
Pyramid board was a 500)."""

from __future__ import annotations

import pytest

from app.engine import PRESETS, get_game

from .conftest import BACKENDS

from ..web.helpers import HX, board_state, csrf_of, start_seeded

ACTIONS = ["", "draw", "recycle", "redeal", "undo", "redo", "new", "restart", "tap", "hint", "confirm-redeal",
           "confirm-new", "confirm-restart", "confirm-nothing", "fly"]
TARGETS = ["", "P27", "Q3", "S", "W", "G2", "1.0", "3.12", "9.9", "P99", "x"]


# every preset on SQLite; on PostgreSQL one preset of each family, a board with a stock and a
# grid (the rules and the board are the preset's, the transactions and the database's own
# refusals the backend's)
def _first_of_each_family() -> list[str]:
    first: dict[str, str] = {}
    for slug, preset in PRESETS.items():
        first.setdefault(get_game(preset.game).family, slug)
    return sorted(first.values())


CASES = [(backend, preset) for backend in BACKENDS if backend
         for preset in (sorted(PRESETS) if backend == "sqlite" else _first_of_each_family())]


@pytest.mark.parametrize(("settings", "preset"), CASES, indirect=["settings"])
def test_every_action_on_every_preset_is_answered_or_refused(client, preset):
    game_id, html = start_seeded(client, preset, 5)
    token = csrf_of(html)
    # random deals: a new player's winnable-only deals search for each "new" (and their par in
    # the background) and are tested with the solver's features; here only the answers count
    assert client.post("/prefs/winnable-only", data={"csrf_token": token, "winnable_only": ""}).status_code == 303
    for action in ACTIONS:
        for target in (TARGETS if action in ("", "tap") else [""]):
            for headers in (HX, {}):
                state = board_state(client.get(f"/games/{game_id}").text)
                fields = {"csrf_token": token, "action": action, "target": target, "ply": state["ply"],
                          "version": state["version"]}
                stored = client.post(f"/games/{game_id}/act", data=fields, headers=headers)
                assert stored.status_code in (200, 303) or 400 <= stored.status_code < 500, (action, target, stored.text)
                # (a hint is sent on to the deal's hint address: the answer there counts)
                ready = client.post(f"/play/{preset}/6", data=fields, headers=headers, follow_redirects=True)
                assert ready.status_code in (200, 303) or 400 <= ready.status_code < 500, (action, target, ready.text)
            if stored.status_code == 303 and "/play/" in stored.headers["location"]:
                game_id, html = start_seeded(client, preset, 5)  # a confirmed new deal left this game: a new one


def test_a_redeal_on_a_pyramid_board_is_refused_with_a_message(client):
    game_id, html = start_seeded(client, "pyramid", 5)
    state = board_state(html)
    response = client.post(f"/games/{game_id}/act", headers=HX, data={
        "csrf_token": csrf_of(html), "action": "redeal", "ply": state["ply"], "version": state["version"]})
    assert response.status_code == 422 and 'data-error="illegal_move"' in response.text  # no redeal in Pyramid
