"""Deal pages and their API: players and winners, best results with names, the solver's
verdict only after the viewer finished the deal, and the share link after a game."""

from __future__ import annotations

import re
from datetime import timedelta

from app.db.models import DealVerdict
from app.services.assist import searches
from app.services.stats import deals

from ..helpers import csrf_of
from ..play import WIN_LINE, WIN_SEED, api_player, browse_as, days_ago, first_move, new_game, play_line, set_columns, win

SEED = WIN_SEED


def test_deal_page_counts_players_and_names_the_best_escaped(client, other_client, app):
    seed = 9_000_250  # a deal nobody else in this database plays
    assert seed != SEED
    auth = api_player(client)
    # the winner (named, with markup that must be shown as text) and a player who only started
    winner = win(client, auth, seed=SEED)
    starter = api_player(client)
    first_move(client, starter, "pyramid", SEED)
    browse_as(other_client, client, auth)
    page = other_client.get("/profile")
    other_client.post("/profile/name", data={"csrf_token": csrf_of(page.text), "display_name": "<b>Kim</b> & co"})
    # the earliest of the wins in 26 moves, whichever other tests of this database won it too
    finished = days_ago(3650)
    set_columns(app, winner["id"], seconds=95, started_at=finished - timedelta(seconds=95), finished_at=finished,
                played_via="page")  # as if played at the board: a program's win is no record
    before = client.get(f"/deal/pyramid/{SEED}").text  # a stranger's view
    players = int(re.search(r'data-stat="players">(\d+)', before).group(1))
    winners = int(re.search(r'data-stat="winners">(\d+)', before).group(1))
    assert players >= 2 and winners >= 1
    assert "&lt;b&gt;Kim&lt;/b&gt; &amp; co" in before and "<b>Kim</b>" not in before
    assert re.search(rf'data-stat="fewest-moves">{len(WIN_LINE)} <span class="who">', before)
    # nobody else here plays this seed: its page is empty, and says so
    empty = client.get(f"/deal/pyramid/{seed}").text
    assert re.search(r'data-stat="players">0<', empty) and 'data-action="play-deal"' in empty
    assert f'href="/play/pyramid/{seed}"' in empty


def test_anonymous_without_a_display_name(client):
    auth = api_player(client)
    win(client, auth, preset="pyramid-3", by_hand=True)
    html = client.get(f"/deal/pyramid-3/{SEED}").text
    assert '<span class="who">Anonymous</span>' in html  # the name the daily table gives too


def test_verdict_only_after_the_viewer_finished_the_deal(client, other_client):
    auth = api_player(client)
    browse_as(other_client, client, auth)
    hidden = other_client.get(f"/deal/tuts-tomb/{SEED}")
    assert 'data-verdict="hidden"' in hidden.text and "no spoilers" in hidden.text
    assert client.get(f"/api/deals/tuts-tomb/{SEED}", headers=auth).json()["verdict"] is None
    game = play_line(client, auth, new_game(client, auth, "tuts-tomb", SEED), WIN_LINE[:1])
    assert 'data-verdict="hidden"' in other_client.get(f"/deal/tuts-tomb/{SEED}").text  # playing is not finished
    game = play_line(client, auth, game, WIN_LINE[1:])
    assert game["status"] == "won"
    searches.wait_for_spare_time()  # what the first looks left to the solver's spare time is kept now
    shown = other_client.get(f"/deal/tuts-tomb/{SEED}").text
    assert 'data-verdict="winnable"' in shown
    # the winning line in card symbols, one move an item, never the notation it is stored in
    line = re.search(r'<ol class="moves-line" data-moves="([^"]+)">(.*?)</ol>', shown, re.S)
    items = [re.sub(r"<[^>]+>", "", i) for i in re.findall(r"<li>(.*?)</li>", line.group(2))]  # each card in its suit's span
    assert len(items) == len(line.group(1).split()) > 0
    assert all(re.fullmatch(r"(?:[A2-9JQK]|10)[♠♥♦♣](?: \+ (?:[A2-9JQK]|10)[♠♥♦♣])?|Draw|Turn over", i) for i in items), items
    api = client.get(f"/api/deals/tuts-tomb/{SEED}", headers=auth).json()
    assert api["verdict"]["winnable"] is True and len(api["verdict"]["moves"].split()) > 0
    assert api["you"] == "won" and api["winners"] >= 1
    # without a token (or for someone who has not finished it) there is no verdict
    assert client.get(f"/api/deals/tuts-tomb/{SEED}").json()["verdict"] is None


def test_a_kept_winning_line_outweighs_an_undecided_verdict(client, app):
    """An "undecided" verdict (the budget of one search) beside the deal's par line said "the
    solver ran out of time" under "Par 26": the line says the deal is winnable."""
    auth = api_player(client)
    with app.state.sessionmaker() as session:
        session.merge(DealVerdict(preset="pyramid", seed=SEED, winnable=None, moves="", nodes=deals.VERDICT_NODES))
        session.commit()
    assert win(client, auth)["status"] == "won"
    client.get(f"/api/deals/pyramid/{SEED}", headers=auth)  # its par searched in spare time
    searches.wait_for_spare_time()
    api = client.get(f"/api/deals/pyramid/{SEED}", headers=auth).json()
    assert api["par"] and api["verdict"]["winnable"] is True


def test_the_winning_line_waits_while_a_game_with_no_moves_left_may_be_undone(client, other_client):
    """Seen, it would win the game undone after it; given up, the game is over and it is shown."""
    from ..play import LOSE_SEED, lose

    auth = api_player(client)
    browse_as(other_client, client, auth)
    game = lose(client, auth, seed=SEED)
    assert game["phase"] == "lost" and game["legal"] == []
    assert 'data-verdict="hidden"' in other_client.get(f"/deal/pyramid/{SEED}").text
    assert client.get(f"/api/deals/pyramid/{SEED}", headers=auth).json()["verdict"] is None
    # a game in play cannot be given up (New deal leaves it), and a stale ply is a 409
    playing = new_game(client, auth, "pyramid", LOSE_SEED)
    refused = client.post(f"/api/games/{playing['id']}/give-up", headers=auth)
    assert refused.status_code == 422 and "no moves left" in refused.json()["error"]
    stale = client.post(f"/api/games/{game['id']}/give-up", json={"ply": game["ply"] - 1}, headers=auth)
    assert stale.status_code == 409 and stale.json()["game"]["phase"] == "lost"
    given = client.post(f"/api/games/{game['id']}/give-up", json={"ply": game["ply"]}, headers=auth).json()
    assert given["phase"] == "conceded" and given["status"] == "lost"
    undo = client.post(f"/api/games/{game['id']}/undo", headers=auth)
    assert undo.status_code == 422
    searches.wait_for_spare_time()
    other_client.get(f"/deal/pyramid/{SEED}")
    searches.wait_for_spare_time()
    assert 'data-verdict="winnable"' in other_client.get(f"/deal/pyramid/{SEED}").text
    assert client.get(f"/api/deals/pyramid/{SEED}", headers=auth).json()["verdict"]["winnable"] is True


def test_an_unwinnable_deal_is_called_so_after_losing(client, other_client):
    from ..play import lose

    auth = api_player(client)
    lose(client, auth, preset="pyramid", seed=1, give_up=True)
    browse_as(other_client, client, auth)
    other_client.get("/deal/pyramid/1")  # the first look leaves the search to the solver's spare time
    searches.wait_for_spare_time()
    assert 'data-verdict="unwinnable"' in other_client.get("/deal/pyramid/1").text


def test_api_deal_json_and_errors(client):
    auth = api_player(client)
    win(client, auth, preset="relaxed", by_hand=True)
    body = client.get(f"/api/deals/relaxed/{SEED}", headers=auth).json()
    assert body["preset"] == "relaxed" and body["seed"] == SEED
    assert body["fewest_moves"]["value"] == len(WIN_LINE) and body["fewest_moves"]["name"] is None
    assert body["best_scores"]["simple"]["value"] == 28
    assert client.get("/api/deals/chess/1").status_code == 404
    assert client.get("/api/deals/pyramid/-3").status_code == 422
    assert client.get(f"/api/deals/pyramid/{2**64}").status_code == 422
    assert client.get("/deal/pyramid/abc").status_code == 422


def test_share_link_leads_to_the_deal_page_after_the_game(client):
    auth = api_player(client)
    game = play_line(client, auth, new_game(client, auth, "pyramid", SEED), WIN_LINE[:2])
    browse_as(client, client, auth)  # the player's own game in play (another's shows no board)
    during = client.get(f"/games/{game['id']}").text
    assert f'href="http://testserver/play/pyramid/{SEED}" data-share-url' in during
    play_line(client, auth, game, WIN_LINE[2:])
    after = client.get(f"/games/{game['id']}").text
    assert f'href="http://testserver/deal/pyramid/{SEED}" data-share-url' in after


def test_tuts_tomb_links_open_pyramid(client, app):
    """Tut's Tomb had Pyramid's rules under another name: its old links open Pyramid."""
    assert 'data-preset="tuts-tomb"' not in client.get("/").text
    opened = client.get("/play/tuts-tomb/4242")  # the deal ready to play, as Pyramid
    assert opened.status_code == 200 and 'class="board family-pyramid pyramids-1 with-stock"' in opened.text
    assert 'action="/play/pyramid/4242"' in opened.text
    daily_game = client.get("/daily/tuts-tomb").headers["location"]
    assert client.get("/daily/pyramid").headers["location"] == daily_game
    deal = client.get("/deal/tuts-tomb/4242")
    assert deal.status_code == 200 and 'href="/play/pyramid/4242"' in deal.text


def test_a_deals_records_are_wins_by_the_players_alone(client, app):
    """A win that followed the hints (they lead along the par line), a program's, or a second
    game of the cards would hold "Fewest moves" against anyone who plays it."""
    auth = api_player(client)
    hinted = win(client, auth, preset="pyramid-3", by_hand=True)
    set_columns(app, hinted["id"], hint_count=len(WIN_LINE))
    program = api_player(client)
    win(client, program, preset="pyramid-3")
    for viewer in (auth, program):
        body = client.get(f"/api/deals/pyramid-3/{SEED}", headers=viewer).json()
        assert body["winners"] >= 2
        assert body["fewest_moves"] is None or body["fewest_moves"]["game"] not in (hinted["id"],)
        assert body["best_time"] is None or body["best_time"]["game"] != hinted["id"]
    alone = api_player(client)
    own = win(client, alone, preset="pyramid-3", by_hand=True)
    set_columns(app, own["id"], finished_at=days_ago(7000))  # the earliest of its moves
    body = client.get(f"/api/deals/pyramid-3/{SEED}", headers=alone).json()
    assert body["fewest_moves"]["game"] == own["id"]


def test_a_deal_page_with_wins_says_what_its_records_count(client):
    """"Won by 1" beside "Fewest moves –" (a program's win, not a record) says why."""
    page = client.get(f"/deal/relaxed/{SEED + 12345}").text
    assert "data-records-note" not in page  # nobody has won it: nothing to explain
    win(client, api_player(client), preset="relaxed")
    page = client.get(f"/deal/relaxed/{SEED}").text
    assert "data-records-note" in page and "The records count wins played alone at the board" in page
