"""Replays: every ply of a stored game, as a page or the frame alone, with the analysis hook."""

from __future__ import annotations

import re

from app.engine import GameRecord, deal_for_seed, get_preset

from ..helpers import HX
from app.services.assist import searches

from ..play import WIN_LINE, WIN_SEED, api_player, browse_as, lose, new_game, play_line, win


def cards_shown(html: str) -> list[tuple[str, str]]:
    return re.findall(r'data-card="(\w\w)" data-loc="(P\d+)"', html)


def expected_cards(ply: int) -> list[tuple[str, str]]:
    preset = get_preset("pyramid")
    record = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, WIN_SEED))
    for text in WIN_LINE[:ply]:
        record = record.play(text)
    position = record.position
    return [(position.layout[i].code, f"P{i}") for i in range(28) if not position.is_removed(i)]


def test_each_ply_shows_the_position_after_that_many_moves(client, other_client):
    game = win(client, api_player(client))
    for ply in (0, 1, 7, len(WIN_LINE)):
        page = other_client.get(f"/g/{game['id']}/replay?ply={ply}")  # anyone with the link may watch
        assert page.status_code == 200
        assert f'data-ply="{ply}" data-total="{len(WIN_LINE)}"' in page.text
        assert cards_shown(page.text) == expected_cards(ply)
    last = other_client.get(f"/g/{game['id']}/replay?ply={len(WIN_LINE)}").text
    assert 'data-banner="won"' in last
    assert re.search(r'data-replay-move="P0\+S"', last)
    start = other_client.get(f"/g/{game['id']}/replay").text  # no ply: the deal, where a replay starts
    assert 'data-ply="0"' in start and 'data-banner="won"' not in start


def test_page_or_frame_and_clamped_plies(client):
    game = win(client, api_player(client))
    page = client.get(f"/g/{game['id']}/replay?ply=3")
    frame = client.get(f"/g/{game['id']}/replay?ply=3", headers=HX)
    assert page.text.lstrip().startswith("<!doctype html>")
    assert frame.text.lstrip().startswith('<section id="replay"') and "<html" not in frame.text
    restore = client.get(f"/g/{game['id']}/replay?ply=3", headers={**HX, "HX-History-Restore-Request": "true"})
    assert restore.text.lstrip().startswith("<!doctype html>")  # the back button gets a whole page
    beyond = client.get(f"/g/{game['id']}/replay?ply=999", headers=HX).text
    assert f'data-ply="{len(WIN_LINE)}"' in beyond
    assert client.get(f"/g/{game['id']}/replay?ply=-1").status_code == 400
    assert client.get("/g/nope/replay").status_code == 404


def test_controls_are_links_and_a_form_that_work_without_script(client):
    game = win(client, api_player(client))
    html = client.get(f"/g/{game['id']}/replay?ply=5").text
    for name, ply in (("first", 0), ("prev", 4), ("next", 6), ("last", len(WIN_LINE))):
        assert re.search(rf'href="/g/{game["id"]}/replay\?ply={ply}"[^>]*data-replay="{name}"', html)
    assert re.search(r'<form class="scrub" method="get" action="/g/[\w-]+/replay"', html)
    assert re.search(r'type="range" name="ply" min="0" max="%d" value="5"' % len(WIN_LINE), html)
    first = client.get(f"/g/{game['id']}/replay?ply=0").text
    assert '<span class="button" aria-disabled="true" data-replay="prev">' in first


def test_a_game_in_progress_replays_its_played_moves_only(client):
    auth = api_player(client)
    game = play_line(client, auth, new_game(client, auth, "pyramid", WIN_SEED), WIN_LINE[:4])
    client.post(f"/api/games/{game['id']}/undo", headers=auth)  # the redo tail is not part of the game
    assert client.get(f"/g/{game['id']}/replay").status_code == 403  # another player's game in play
    browse_as(client, client, auth)
    html = client.get(f"/g/{game['id']}/replay?ply=9").text
    assert 'data-ply="3" data-total="3"' in html


def test_replay_shows_the_post_game_analysis(client):
    game = win(client, api_player(client))  # a program's game: the page's visitor is not its player
    client.get(f"/g/{game['id']}/replay")
    searches.wait_for_spare_time()  # the analysis searched in spare time
    html = client.get(f"/g/{game['id']}/replay?ply=2").text
    # a won game's replay says how short a win the solver knows, and at each move that it was winnable
    assert 'data-analysis="yes"' in html and "The shortest possible win needs" in html
    assert 'data-analysis-ply="2"' in html and "Still winnable here." in html
    # its last frame says "Won." once: the end banner's (the analysis says the shortest win)
    last = client.get(f"/g/{game['id']}/replay?ply={len(WIN_LINE)}").text
    assert 'data-banner="won"' in last and last.count("Won.") == 1, re.findall(r"[^>]{0,40}Won\.", last)




def test_a_replay_opened_while_the_solver_has_no_room_shows_what_is_kept(client):
    """The replay of a lost game asks for its analysis, a search; with every slot of the solver
    taken (another player's hints, or the end screen's own analysis of this game under way) the
    replay is still shown, with what is kept, and the analysis comes once there is room."""
    game = lose(client, api_player(client), give_up=True)  # a program's game: the page's visitor is not its player
    client.get("/")  # a browser that comes back (its cookie): what it misses is searched for its next look
    with searches.admitted("a"), searches.admitted("b"), searches.admitted("c"):
        busy = client.get(f"/g/{game['id']}/replay?ply=1")
    assert busy.status_code == 200
    assert 'data-analysis="none"' in busy.text and "No post-game analysis for this game yet." in busy.text
    searches.wait_for_spare_time()
    later = client.get(f"/g/{game['id']}/replay?ply=1")
    assert later.status_code == 200 and 'data-analysis="yes"' in later.text


def test_someone_elses_replay_and_analysis_search_nothing_for_them(client, other_client, monkeypatch):
    """A visitor without a cookie is a new player at each request, so a search of theirs would pass
    the one-search-a-player rule every time: a replay or end screen of another player's game shows
    what is kept, and what is not is searched in spare time, for the next look."""
    game = lose(other_client, api_player(other_client), seed=4_242, give_up=True)  # a deal no other test searched
    searches.wait_for_spare_time()  # what the game's own requests left there
    asked = []
    real = searches.solve
    monkeypatch.setattr(searches, "solve", lambda *args, **kwargs: asked.append(kwargs.get("player_id")) or real(*args, **kwargs))
    for path in (f"/g/{game['id']}/replay?ply=1", f"/games/{game['id']}/analysis"):
        client.cookies.clear()  # a crawler: no cookie of ours, and nothing asked for later either
        page = client.get(path, headers=HX if "analysis" in path else {})
        assert page.status_code == 200 and "No post-game analysis for this game yet." in page.text, path
    searches.wait_for_spare_time()
    assert asked == []
    client.get("/")  # a browser that comes back (its cookie)
    with searches.admitted("a"), searches.admitted("b"), searches.admitted("c"):  # spare time waits
        for path in (f"/g/{game['id']}/replay?ply=1", f"/games/{game['id']}/analysis"):
            page = client.get(path, headers=HX if "analysis" in path else {})
            assert page.status_code == 200 and asked == [], path
            assert "No post-game analysis for this game yet." in page.text, path
    searches.wait_for_spare_time()
    assert asked and set(asked) == {None}  # searched once, in spare time, as no player
    for path in (f"/g/{game['id']}/replay?ply=1", f"/games/{game['id']}/analysis"):
        assert 'data-analysis="yes"' in client.get(path).text or 'data-analysis-kind="lost' in client.get(path, headers=HX).text
