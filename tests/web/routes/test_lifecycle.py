"""A game's life (app/services/play/lifecycle.py, docs/lifecycle.md): what a GET, a first move, a win,
"no moves left", New deal, Restart and a day's idleness do to a result."""

from __future__ import annotations

import html
import re

import pytest
from sqlalchemy import func, literal_column, select

from app.db.models import Game, Player
from app.engine import PRESETS, GameRecord, Status, deal_for_seed
from app.engine.cards import format_deal

from ..helpers import HX, act, board_state, csrf_of, first_move, start_seeded
from ..play import LOSE_SEED, WIN_LINE, WIN_SEED, api_player, days_ago, lose, move, new_game, set_columns, win


def rows(app) -> tuple[int, int]:
    with app.state.sessionmaker() as session:
        return session.scalar(select(func.count()).select_from(Player)), session.scalar(select(func.count()).select_from(Game))


def test_a_get_stores_nothing_and_a_preview_bot_leaves_nothing(app, client):
    before = rows(app)
    for path in ("/play/pyramid/77", "/play/gaps/77", "/play/pyramid", "/daily/pyramid", "/",
                 "/play/pyramid?deal=" + "+".join(c.code for c in deal_for_seed("pyramid", 5)),
                 "/deal/pyramid/77", "/stats", "/profile", "/odds", "/rules/gaps"):
        response = client.get(path, headers={"User-Agent": "facebookexternalhit/1.1"}, follow_redirects=True)
        assert response.status_code == 200, path
    assert rows(app) == before


def test_a_share_link_from_another_site_changes_nothing_of_a_game_in_play(client):
    game_id, _ = first_move(client, "/play/pyramid/61", action="draw")
    page = client.get("/play/pyramid/62", headers={"Referer": "https://elsewhere.example/", "Sec-Fetch-Site": "cross-site"})
    assert page.status_code == 200 and f'data-replacing="{game_id}"' in page.text  # it says what would happen
    assert 'data-phase="playing"' in client.get(f"/games/{game_id}").text
    assert f'href="/games/{game_id}"' in client.get("/").text  # the lobby lists it to continue


def test_the_first_move_of_another_deal_replaces_the_game_in_play(client):
    old, _ = first_move(client, "/play/pyramid/61", action="draw")
    new, response = first_move(client, "/play/pyramid/62", action="draw")
    assert new != old and board_state(response.text)["ply"] == 1
    page = client.get(f"/games/{old}").text
    assert 'data-phase="abandoned"' in page and 'data-banner="lost"' in page
    assert "It counts as lost: a new deal" in page and "Counted as lost" not in page  # said once
    refused = act(client, old, page, action="draw")
    assert refused.status_code == 422 and 'data-error="counted_lost"' in refused.text
    assert f'href="/games/{old}"' not in client.get("/").text
    assert f'href="/games/{new}"' in client.get("/").text
    # another variant's game is untouched
    gaps, _ = first_move(client, "/play/pyramid-3/5", action="draw")
    first_move(client, "/play/pyramid/63", action="draw")
    assert 'data-phase="playing"' in client.get(f"/games/{gaps}").text


def test_a_selection_on_a_deal_ready_to_play_stores_nothing(app, client):
    first_move(client, "/play/pyramid/61", action="draw")  # the player is stored
    before = rows(app)
    page = client.get("/play/pyramid/250").text  # a deal whose row 6 has pairs: P21 needs a partner
    selected = client.post("/play/pyramid/250", data={"csrf_token": csrf_of(page), "target": "P21"}, headers=HX)
    assert selected.status_code == 200 and 'data-selected="P21"' in selected.text and "HX-Push-Url" not in selected.headers
    assert rows(app) == before
    plain = client.post("/play/pyramid/250", data={"csrf_token": csrf_of(page), "target": "P21"})
    assert plain.status_code == 303 and plain.headers["location"] == "/play/pyramid/250"
    assert 'data-selected="P21"' in client.get(plain.headers["location"]).text  # the selection's flash
    assert rows(app) == before


@pytest.mark.parametrize("htmx", [True, False])
def test_a_new_visitors_taps_that_store_no_game_store_no_player_either(app, client, htmx):
    """A first visit's selection, or a tap on a covered card (answered with why, the page as it
    was), stores no game: nor its visitor, who is stored with the first move."""
    before = rows(app)
    page = client.get("/play/pyramid/250").text
    for target in ("P21", "P0"):  # a selection; the top card, covered
        answer = client.post("/play/pyramid/250", data={"csrf_token": csrf_of(page), "target": target},
                             headers=HX if htmx else {})
        assert answer.status_code == (200 if htmx else 303)
        assert rows(app) == before, target
    moved = client.post("/play/pyramid/250", data={"csrf_token": csrf_of(page), "action": "draw"}, headers=HX)
    assert moved.status_code == 200 and "HX-Push-Url" in moved.headers
    assert rows(app) == (before[0] + 1, before[1] + 1)


@pytest.mark.parametrize(("path", "data", "status"), [
    ("/profile/delete", {}, 303),  # not confirmed
    ("/profile/name", {"display_name": "   "}, 303),
    ("/prefs/winnable-only", {"winnable_only": "on"}, 303),  # as it was
    ("/profile/daily-table", {"on_daily_table": "on"}, 303),
    ("/profile/log-out-others", {}, 303),  # a visitor has no other device
    ("/profile/device-link/revoke", {}, 303),  # nor a link
    ("/play/pyramid/250", {"action": "hint"}, 307),  # an older page's Hint: sent on to its address
])
def test_a_new_visitors_post_that_changes_nothing_stores_no_player(app, client, path, data, status):
    before = rows(app)
    answer = client.post(path, data={"csrf_token": csrf_of(client.get("/").text), **data}, follow_redirects=False)
    assert answer.status_code == status
    assert rows(app) == before
    named = client.post("/profile/name", data={"csrf_token": csrf_of(client.get("/").text), "display_name": "Ada"})
    assert named.status_code == 303 and rows(app) == (before[0] + 1, before[1])  # a setting of theirs: stored


@pytest.mark.parametrize("htmx", [True, False])
def test_new_deal_and_restart_on_a_game_in_play_ask_first(client, htmx):
    for action in ("new", "restart"):
        game_id, response = first_move(client, "/play/pyramid/71", action="draw")
        html = client.get(f"/games/{game_id}").text
        asked = act(client, game_id, html, htmx=htmx, action=action)
        if htmx:
            assert asked.status_code == 200 and f'data-action="confirm-{action}"' in asked.text
            assert "counts as lost" in asked.text
        else:
            assert asked.status_code == 303 and asked.headers["location"] == f"/games/{game_id}"
            shown = client.get(asked.headers["location"]).text
            assert f'data-action="confirm-{action}"' in shown and "counts as lost" in shown
        assert 'data-phase="playing"' in client.get(f"/games/{game_id}").text  # asking changes nothing
        confirmed = act(client, game_id, html, htmx=htmx, action=f"confirm-{action}")
        if htmx:  # the next deal's board in place of this one, its link pushed to the address bar
            pushed = confirmed.headers["HX-Push-Url"]
            assert pushed.startswith("/play/pyramid/") if action == "new" else pushed == "/play/pyramid/71"
            assert 'data-ply="0"' in confirmed.text and 'data-game-id=""' in confirmed.text
        else:
            location = confirmed.headers["location"]
            assert location.startswith("/play/pyramid/") if action == "new" else location == "/play/pyramid/71"
        assert 'data-phase="abandoned"' in client.get(f"/games/{game_id}").text


def test_a_win_is_final(client):
    auth = api_player(client)
    game = win(client, auth)
    for action in ("undo", "redo"):
        refused = client.post(f"/api/games/{game['id']}/{action}", json={"ply": game["cursor"]}, headers=auth)
        assert refused.status_code == 422 and "final" in refused.json()["error"]
    assert client.get(f"/api/games/{game['id']}", headers=auth).json()["status"] == "won"


def test_a_won_game_has_no_undo_and_offers_replay_analysis_and_the_deal_again(client):
    game_id, html = start_seeded(client, "pyramid", WIN_SEED)
    for text in WIN_LINE:
        state = board_state(html)
        first, *rest = text.split("+")
        if text == "D":
            html = act(client, game_id, html, action="draw").text
        else:
            html = act(client, game_id, html, target=first).text
            if rest:
                html = act(client, game_id, html, target=rest[0], sel=first).text
        assert board_state(html)["ply"] == state["ply"] + 1, text
    assert board_state(html)["status"] == "won"
    assert re.search(r'data-action="undo" disabled', html) and re.search(r'data-action="redo" disabled', html)
    # a press kept while the winning move was on its way says why the button is greyed (app.js)
    assert 'data-action="undo" disabled data-why="This game is won, and a win is final: it cannot be undone."' in html
    for action, href in (("new", "/play/pyramid"), ("restart", f"/play/pyramid/{WIN_SEED}"),
                         ("replay", f"/g/{game_id}/replay")):
        assert f'href="{href}" class="button' in html and f'data-action="{action}"' in html
    assert 'id="analysis"' in html
    refused = act(client, game_id, html, action="undo")
    assert refused.status_code == 422 and 'data-error="won_final"' in refused.text


def test_a_games_status_is_stored_as_its_word_and_read_back_as_the_engines_status(client, app):
    auth = api_player(client)
    won, lost = win(client, auth), lose(client, auth, seed=LOSE_SEED)
    with app.state.sessionmaker() as session:
        stored = dict(session.execute(select(Game.id, literal_column("games.status"))).all())  # the column's own text
        assert [(type(stored[g["id"]]), stored[g["id"]]) for g in (won, lost)] == [(str, "won"), (str, "lost")]
        assert session.get(Game, won["id"]).status is Status.WON
        assert session.get(Game, lost["id"]).status is Status.LOST


def test_a_game_with_no_moves_left_may_be_undone_and_counts_as_it_ends(client):
    auth = api_player(client)
    game = lose(client, auth, seed=LOSE_SEED)
    undone = client.post(f"/api/games/{game['id']}/undo", json={"ply": game["cursor"]}, headers=auth)
    assert undone.status_code == 200 and undone.json()["status"] == "playing"
    figures = client.get("/api/players/me/stats", headers=auth).json()["total"]
    assert (figures["lost"], figures["in_progress"]) == (0, 1)


def test_a_game_left_for_a_day_opens_as_counted_lost(client, app):
    game_id, _ = first_move(client, "/play/pyramid/81", action="draw")
    set_columns(app, game_id, updated_at=days_ago(1.01))
    page = client.get(f"/games/{game_id}").text
    assert 'data-phase="abandoned"' in page and "left unfinished for a day" in page
    # undo is greyed for that, not for want of a move (the refusal an undo would get)
    assert 'data-why="This game was counted as lost and cannot be played on."' in html.unescape(page)
    assert f'href="/games/{game_id}"' not in client.get("/").text
    assert client.get("/play/pyramid/81").status_code == 200  # its link shows the deal ready to play again


def test_the_api_stores_a_game_before_its_first_move_and_that_move_replaces(client):
    auth = api_player(client)
    first = move(client, auth, new_game(client, auth, "pyramid", 90), "D")
    second = new_game(client, auth, "pyramid", 91)
    assert client.get(f"/api/games/{first['id']}", headers=auth).status_code == 200
    assert move(client, auth, first, "D")["cursor"] == 2  # the second game has no move yet: nothing replaced
    move(client, auth, second, "D")
    refused = client.post(f"/api/games/{first['id']}/moves", json={"move": "D", "ply": 2}, headers=auth)
    assert refused.status_code == 422


def test_a_hint_on_a_deal_ready_to_play_stores_the_game_unplayed(client):
    game_id, _ = first_move(client, "/play/pyramid/61", action="draw")
    page = client.get(f"/play/pyramid/{WIN_SEED}").text
    assert f'hx-post="/play/pyramid/{WIN_SEED}/hint"' in page  # the board's Hint
    hinted = client.post(f"/play/pyramid/{WIN_SEED}/hint", data={"csrf_token": csrf_of(page)}, headers=HX)
    assert hinted.status_code == 200 and "data-hint=" in hinted.text
    new_id = hinted.headers["HX-Push-Url"].rsplit("/", 1)[1]
    assert board_state(hinted.text)["ply"] == 0
    assert 'data-phase="playing"' in client.get(f"/games/{game_id}").text  # not replaced by a hint
    assert 'data-hint-count="1"' in client.get(f"/games/{new_id}").text


def test_the_hint_of_a_page_from_before_its_own_address_is_sent_on_to_it(client):
    """A page of the last release (kept by the service worker until the player takes the new
    one) posts its Hint as the board form's action: it is sent on (307: the same POST) to the
    deal's hint, for a seeded deal and for an imported one."""
    page = client.get(f"/play/pyramid/{WIN_SEED}").text
    data = {"csrf_token": csrf_of(page), "action": "hint"}
    sent_on = client.post(f"/play/pyramid/{WIN_SEED}", data=data, headers=HX, follow_redirects=False)
    assert sent_on.status_code == 307 and sent_on.headers["location"] == f"/play/pyramid/{WIN_SEED}/hint"
    hinted = client.post(f"/play/pyramid/{WIN_SEED}", data=data, headers=HX, follow_redirects=True)
    assert hinted.status_code == 200 and "data-hint=" in hinted.text and board_state(hinted.text)["ply"] == 0
    deal = format_deal(deal_for_seed("pyramid", WIN_SEED))
    imported = client.get("/play/pyramid", params={"deal": deal})
    assert imported.status_code == 200
    hint_url = re.search(r'hx-post="(/play/pyramid/hint\?deal=[^"]+)"', imported.text).group(1)
    old = client.post("/play/pyramid", params={"deal": deal},
                      data={"csrf_token": csrf_of(imported.text), "action": "hint"},
                      headers=HX, follow_redirects=False)
    assert old.status_code == 307 and old.headers["location"].startswith("/play/pyramid/hint?deal=")
    answer = client.post(html.unescape(hint_url), data={"csrf_token": csrf_of(imported.text)}, headers=HX)
    assert answer.status_code == 200 and "data-hint=" in answer.text
