"""Playing through the HTML endpoints: taps, undo/redo, errors, other players, no-JS posts."""

from __future__ import annotations

import re

import pytest

from app.engine import GameRecord, deal_for_seed, get_preset
from app.web.views.templating import card_name

from ..helpers import HX, act, board_fields, board_state, csrf_of, start_seeded
from ..play import WIN_LINE, WIN_SEED


def engine_record(preset: str, seed: int) -> GameRecord:
    p = get_preset(preset)
    return GameRecord.new(p.game, p.rules, deal_for_seed(p.game, seed))


def first_pair(preset: str, seed_range=range(200)):
    """A seed whose start position has a pair of two pyramid cards, and that removal."""
    for seed in seed_range:
        for move in engine_record(preset, seed).position.legal_moves():
            locations = getattr(move, "locations", ())
            if len(locations) == 2 and all(loc.startswith("P") for loc in locations):
                return seed, move
    raise AssertionError("no seed with an opening pair")


def test_tapping_two_partners_removes_the_pair(client):
    seed, move = first_pair("pyramid")
    a, b = move.locations
    game_id, html = start_seeded(client, "pyramid", seed)
    selected = act(client, game_id, html, target=a)
    assert selected.status_code == 200
    assert 'data-selected="%s"' % a in selected.text
    assert re.search(rf'data-loc="{b}"[^>]*', selected.text) and "partner" in selected.text
    played = act(client, game_id, selected.text, target=b, sel=a)
    state = board_state(played.text)
    assert played.status_code == 200 and state["ply"] == 1
    assert f'data-loc="{a}" data-removed' in played.text and f'data-loc="{b}" data-removed' in played.text
    # the aria-live announcement rides along, naming both cards
    spoken = re.search(r'<div id="announce" hx-swap-oob="innerHTML">(.*?)</div>', played.text, re.S).group(1)
    removed = engine_record("pyramid", seed).position
    names = [card_name(removed.card_at(loc)) for loc in (a, b)]
    assert spoken.strip().startswith("Removed") and all(name in spoken for name in names), spoken


def test_reload_shows_the_same_position(client):
    seed, move = first_pair("pyramid")
    game_id, html = start_seeded(client, "pyramid", seed)
    played = act(client, game_id, html, target=move.locations[0])
    played = act(client, game_id, played.text, target=move.locations[1], sel=move.locations[0])
    reloaded = client.get(f"/games/{game_id}")
    assert board_state(reloaded.text)["ply"] == 1
    for loc in move.locations:
        assert f'data-loc="{loc}" data-removed' in reloaded.text


def test_undo_and_redo_step_one_action(client):
    game_id, html = start_seeded(client, "pyramid", 1)
    drawn = act(client, game_id, html, action="draw")
    assert board_state(drawn.text)["ply"] == 1
    undone = act(client, game_id, drawn.text, action="undo")
    assert board_state(undone.text)["ply"] == 0
    redone = act(client, game_id, undone.text, action="redo")
    assert board_state(redone.text)["ply"] == 1
    nothing = act(client, game_id, redone.text, action="redo")
    assert nothing.status_code == 422 and "nothing to redo" in nothing.text.lower()


@pytest.mark.parametrize("fields", [{"action": "recycle"}, {"target": "P99"}, {"target": "XYZ"}, {"action": "fly"}])
def test_illegal_or_malformed_action_is_4xx_with_message_and_game_unchanged(client, fields):
    game_id, html = start_seeded(client, "pyramid", 2)
    before = board_state(html)
    response = act(client, game_id, html, **fields)
    assert 400 <= response.status_code < 500
    assert 'role="alert"' in response.text
    after = board_state(client.get(f"/games/{game_id}").text)
    assert after == before


def test_malformed_form_is_400_not_a_traceback(client):
    game_id, html = start_seeded(client, "pyramid", 2)
    response = client.post(f"/games/{game_id}/act", data={"csrf_token": csrf_of(html), "ply": "many"})
    assert response.status_code == 400 and "Traceback" not in response.text


def test_stale_ply_is_409_with_the_current_board(client):
    game_id, html = start_seeded(client, "pyramid", 4)
    act(client, game_id, html, action="draw")  # another tab moves on
    stale = act(client, game_id, html, action="draw")
    assert stale.status_code == 409
    assert "another tab" in stale.text
    assert board_state(stale.text)["ply"] == 1


def test_missing_or_wrong_csrf_token_is_403(client):
    game_id, html = start_seeded(client, "pyramid", 4)
    state = board_state(html)
    response = client.post(f"/games/{game_id}/act", data={"action": "draw", "ply": state["ply"]}, headers=HX)
    assert response.status_code == 403
    response = client.post(f"/games/{game_id}/act", data={"action": "draw", "csrf_token": "0" * 64})
    assert response.status_code == 403
    header = client.post(f"/games/{game_id}/act", data={"action": "draw"}, headers={**HX, "X-CSRF-Token": csrf_of(html)})
    assert header.status_code == 200  # htmx sends the token as a header


def test_another_players_game_in_play_shows_no_board_and_takes_no_move(client, other_client):
    game_id, html = start_seeded(client, "pyramid", 6)
    watched = other_client.get(f"/games/{game_id}")
    assert watched.status_code == 403 and 'id="board"' not in watched.text and "once it is finished" in watched.text
    lobby = other_client.get("/").text
    response = other_client.post(f"/games/{game_id}/act", data={"csrf_token": csrf_of(lobby), "action": "draw"},
                                 headers=HX)
    assert response.status_code == 403
    assert board_state(client.get(f"/games/{game_id}").text)["ply"] == 0


def test_without_javascript_a_post_redirects_back_to_the_game(client):
    seed, move = first_pair("pyramid")
    game_id, html = start_seeded(client, "pyramid", seed)
    selected = act(client, game_id, html, htmx=False, target=move.locations[0])
    assert selected.status_code == 303
    assert selected.headers["location"] == f"/games/{game_id}"
    page = client.get(selected.headers["location"])
    assert board_state(page.text)["selected"] == move.locations[0]  # the selection came in the flash
    played = act(client, game_id, page.text, htmx=False, target=move.locations[1], sel=move.locations[0])
    assert played.status_code == 303 and played.headers["location"] == f"/games/{game_id}"
    assert board_state(client.get(f"/games/{game_id}").text)["ply"] == 1


def test_new_deal_and_restart_lead_to_a_deal_ready_to_play(client):
    # a game with no move yet has nothing to lose: no question (one in play asks: test_lifecycle)
    game_id, html = start_seeded(client, "pyramid", 12)
    restarted = act(client, game_id, html, action="restart")  # htmx: the deal's board in place, its link in the address bar
    assert restarted.headers.get("HX-Push-Url") == "/play/pyramid/12" and "HX-Redirect" not in restarted.headers
    assert 'id="board"' in restarted.text and 'data-ply="0"' in restarted.text and 'data-game-id=""' in restarted.text
    dealt = act(client, game_id, html, action="new")
    assert dealt.headers["HX-Push-Url"].startswith("/play/pyramid/") and 'data-ply="0"' in dealt.text
    assert f'data-seed="{dealt.headers["HX-Push-Url"].rsplit("/", 1)[1]}"' in dealt.text
    new = act(client, game_id, html, htmx=False, action="new")
    assert new.status_code == 303 and re.fullmatch(r"/play/pyramid/\d+", new.headers["location"])


def test_gaps_fill_by_tapping_a_card_and_an_early_redeal_asks_first(client):
    game_id, html = start_seeded(client, "gaps", 21)
    record = engine_record("gaps", 21)
    fill = next(m for m in record.position.legal_moves() if str(m) != "N" and len(record.position.moves_of_card(m.card)) == 1)
    played = act(client, game_id, html, target=next(
        f"{i // 13}.{i % 13}" for i, c in enumerate(record.position.grid) if c == fill.card))
    assert board_state(played.text)["ply"] == 1
    asked = act(client, game_id, played.text, action="redeal")
    assert asked.status_code == 200 and 'data-action="confirm-redeal"' in asked.text
    assert board_state(asked.text)["ply"] == 1
    redealt = act(client, game_id, asked.text, action="confirm-redeal")
    assert board_state(redealt.text)["ply"] == 2
    assert 'data-stat="round">2<' in redealt.text


def test_gaps_dead_gap_is_marked(client):
    for seed in range(50):
        record = engine_record("gaps", seed)
        dead = [(r, c) for r, c in record.position.gap_positions() if record.position.is_dead_gap(r, c)]
        if dead:
            _, html = start_seeded(client, "gaps", seed)
            r, c = dead[0]
            assert re.search(rf'data-pos="{r}\.{c}" data-gap="dead"', html)
            return
    raise AssertionError("no dead gap in the first 50 seeds")


def test_preferences_zen_hides_the_score(client):
    game_id, html = start_seeded(client, "pyramid", 3)
    assert 'data-stat="score"' in html
    client.post("/prefs", data={"csrf_token": csrf_of(html), "scoring": "timed", "zen": "true", "next": "/"})
    page = client.get(f"/games/{game_id}").text
    assert 'data-stat="score"' not in page
    client.post("/prefs", data={"csrf_token": csrf_of(html), "scoring": "timed", "next": "/"})
    page = client.get(f"/games/{game_id}").text
    assert 'data-stat="score"' in page and 'data-stat="time"' in page


def test_preferences_choose_the_theme_and_the_animations(client):
    game_id, html = start_seeded(client, "pyramid", 3)
    assert '<html lang="en" data-theme="auto">' in html  # the device decides, and cards move
    client.post("/prefs", data={"csrf_token": csrf_of(html), "theme": "dark", "next": "/"})
    page = client.get(f"/games/{game_id}").text
    assert '<html lang="en" data-theme="dark" data-animations="off">' in page
    assert '<meta name="color-scheme" content="dark">' in page
    # an unknown theme is refused with a reason, and changes nothing (the animations neither)
    refused = client.post("/prefs", data={"csrf_token": csrf_of(html), "theme": "purple", "animations": "true", "next": "/"})
    assert refused.status_code == 422 and "The request could not be understood." in refused.text
    page = client.get(f"/games/{game_id}").text
    assert '<html lang="en" data-theme="dark" data-animations="off">' in page


@pytest.mark.parametrize("field,value", [("scoring", "bogus"), ("language", "fr")])
def test_an_unknown_setting_is_refused_and_changes_nothing(client, field, value):
    game_id, html = start_seeded(client, "pyramid", 3)
    path = "/prefs/language" if field == "language" else "/prefs"
    refused = client.post(path, data={"csrf_token": csrf_of(html), field: value, "zen": "true", "next": "/"})
    assert refused.status_code == 422
    page = client.get(f"/games/{game_id}").text
    assert '<html lang="en"' in page and 'data-stat="score"' in page  # not zen, still English
    assert "tretten_lang" not in refused.headers.get("set-cookie", "")


def play_through_the_board(client, game_id: str, html: str, moves) -> str:
    """Play moves (notation) through the board form, as taps; the last response's HTML."""
    for move in moves:
        html = act(client, game_id, html, **board_fields(move)).text
    return html


def test_the_share_link_leads_to_the_deal_page_once_the_game_ends(client):
    game_id, html = start_seeded(client, "pyramid", WIN_SEED)
    share_oob = re.compile(r'<p class="share" id="share" hx-swap-oob="true">.*?href="([^"]+)"', re.S)
    for move in WIN_LINE[:-1]:
        html = play_through_the_board(client, game_id, html, [move])
        assert share_oob.search(html).group(1) == f"http://testserver/play/pyramid/{WIN_SEED}", move
    html = play_through_the_board(client, game_id, html, WIN_LINE[-1:])
    assert board_state(html)["status"] == "won"
    assert share_oob.search(html).group(1) == f"http://testserver/deal/pyramid/{WIN_SEED}"


def test_a_won_pyramid_keeps_its_table_under_the_end_panel_with_its_removed_pile(client):
    game_id, html = start_seeded(client, "pyramid", WIN_SEED)
    html = play_through_the_board(client, game_id, html, WIN_LINE[:-1])
    assert re.search(r'<div class="tableau">', html)  # while playing, the places stay
    html = play_through_the_board(client, game_id, html, WIN_LINE[-1:])
    assert board_state(html)["status"] == "won"
    # the board keeps its place (the panel lies over it); the pyramid's 28 cards wait, unseen,
    # in one pile for the win's cascade
    assert re.search(r'<div class="tableau">', html) and 'data-banner="won"' in html
    pile = re.search(r'<div class="win-pile" data-cascade aria-hidden="true">(.*?)</div>\n', html, re.S)
    assert pile and pile.group(1).count('class="card ') == 28


def test_a_tap_on_a_card_in_its_rows_correct_run_selects_it_and_says_so(client, app):
    # a Gaps deal with a 2 dealt into column 0 (a correct run of one) that could jump to another gap there
    from app.engine import GameRecord, deal_for_seed, get_preset

    preset = get_preset("gaps")
    for seed in range(200):
        position = GameRecord.new("gaps", preset.rules, deal_for_seed("gaps", seed)).position
        runs = position.correct_prefix_lengths()
        placed = [(r, position.grid[r * 13]) for r in range(4) if runs[r] and position.moves_of_card(position.grid[r * 13])]
        if placed:
            break
    row, two = placed[0]
    game_id, html = start_seeded(client, "gaps", seed)
    tapped = act(client, game_id, html, target=f"{row}.0")
    assert board_state(tapped.text)["ply"] == 0  # not moved
    assert f'data-selected="{two.code}"' in tapped.text and 'data-note="in_place"' in tapped.text
    gap = position.moves_of_card(two)[0]
    moved = act(client, game_id, tapped.text, target=f"{gap.row}.{gap.col}", sel=two.code)
    assert board_state(moved.text)["ply"] == 1  # the gap tapped next moves it


def test_the_stock_used_up_with_no_turnover_left_is_said_where_draw_was(client):
    # seed 0 of one pass: the whole stock drawn, pairs are still left on the table
    game_id, html = start_seeded(client, "pyramid", 0)
    assert 'data-action="draw"' in html and "Stock used up" not in html
    for _ in range(24):
        html = act(client, game_id, html, action="draw").text
    assert board_state(html)["ply"] == 24 and 'data-status="playing"' in html
    assert 'data-action="draw"' not in html and 'data-action="recycle"' not in html
    assert re.search(r'<span class="pile-done" data-stock-done>Stock used up</span>', html)
    # in the player's language
    assert "Trækbunken er brugt op</span>" in client.get(f"/games/{game_id}", headers={"Accept-Language": "da"}).text
