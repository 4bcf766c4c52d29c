"""Hints, winnable-only deals, "still winnable?", post-game analysis, "try again from here",
auto-finish and the odds page (Pyramid deals: the solver is exact and fast there)."""

from __future__ import annotations

import asyncio
import html
import json
import re
from pathlib import Path

import pytest
from sqlalchemy import delete, func, select

from app.db.models import DealVerdict, Game, PositionVerdict, ShortestLine, utcnow
from app.engine import PRESETS, GameRecord, deal_for_seed
from app.services import spare_time
from app.services.assist import first_deals, par, searches, solver_cache, winnable
from app.services.play import games as game_service
from app.services.play import moves
from app.services.play.games import record_of
from app.solver import SolveResult, solve

from ..helpers import HX, board_state, csrf_of, stored_game
from ..play import WIN_LINE, WIN_SEED, set_columns

VECTORS = Path(__file__).resolve().parents[2] / "vectors" / "solve.jsonl"


def _vector_deals(winnable: bool) -> list[str]:
    """The test vectors' Pyramid deals (tests/vectors)."""
    assert VECTORS.exists(), f"the test vectors are missing: {VECTORS}"
    rows = [json.loads(line) for line in VECTORS.read_text().splitlines() if line.strip()]
    return [r["deal"] for r in rows if r["game"] == "pyramid" and not r["options"] and r["winnable"] is winnable]


def _session(client):
    return client.app.state.sessionmaker()


def _game(client, game_id: str) -> Game:
    with _session(client) as session:
        game = session.get(Game, game_id)
        session.expunge(game)
        return game


def _open(client, url: str) -> tuple[str, str]:
    return stored_game(client, url)


def _seeded(client, seed: int = WIN_SEED, preset: str = "pyramid") -> tuple[str, str]:
    return _open(client, f"/play/{preset}/{seed}")


def _play(client, game_id: str, line: list[str]) -> None:
    """Store moves through the service, each its own action (a quick way to reach a position)."""
    with _session(client) as session:
        game = session.get(Game, game_id)
        moves.play_moves(session, game, game.player, line, action="test")
        session.commit()


def _page(client, game_id: str) -> str:
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200
    return response.text


def _post(client, path: str, html: str, htmx: bool = True, **fields):
    state = board_state(html)
    data = {"csrf_token": csrf_of(html), "ply": state["ply"], "version": state["version"], **fields}
    return client.post(path, data=data, headers=HX if htmx else {})


# ---------------------------------------------------------------- hints

def test_a_hint_is_a_legal_move_of_a_winning_line_and_is_counted(client):
    game_id, html = _seeded(client)
    assert 'data-action="hint"' in html and 'aria-keyshortcuts="h"' in html
    response = _post(client, f"/games/{game_id}/hint", html)
    assert response.status_code == 200
    move = re.search(r'data-hint="([^"]+)"', response.text).group(1)
    position = GameRecord.new("pyramid", PRESETS["pyramid"].rules, deal_for_seed("pyramid", WIN_SEED)).position
    assert move in {str(m) for m in position.legal_moves()}
    assert solve(position.apply(position.parse_move(move))).winnable is True  # still winnable after it
    assert 'id="announce" hx-swap-oob' in response.text and "Hint:" in response.text.split('id="announce"')[1]
    assert _game(client, game_id).hint_count == 1
    again = _post(client, f"/games/{game_id}/hint", response.text)
    assert re.search(r'data-hint="([^"]+)"', again.text).group(1) == move  # the same hint…
    assert _game(client, game_id).hint_count == 1  # …counted once for this position
    assert board_state(again.text)["ply"] == 0  # a hint plays nothing


def _hinted(page: str) -> set[str]:
    """The places the board marks as the hinted move's: data-loc, data-pos, or data-action."""
    found = set()
    for tag in re.findall(r"<(?:button|span)\b[^>]*>", page):
        if re.search(r'class="[^"]*\bhinted\b', tag):
            where = re.search(r'data-(loc|pos|action)="([^"]+)"', tag)
            found.add(f"{where.group(1)}:{where.group(2)}")
    return found


def test_a_hint_without_javascript_is_post_redirect_get_and_marks_its_cards(client):
    game_id, html = _seeded(client)
    response = _post(client, f"/games/{game_id}/hint", html, htmx=False)
    assert response.status_code == 303
    assert response.headers["location"] == f"/games/{game_id}#hint"  # the hint is in the flash, its words in view
    page = client.get(response.headers["location"])
    assert page.status_code == 200 and "data-hint=" in page.text and "<html" in page.text
    assert _game(client, game_id).hint_count == 1
    # the server's board marks the hinted cards (the page's script marks the same after a swap)
    note = re.search(r'data-hint-locs="([^"]+)"', page.text)
    assert note and _hinted(page.text) == {f"loc:{loc}" for loc in note.group(1).split()}
    # the flash goes with the page, but the game keeps its hint while it stands where it was given
    again = client.get(f"/games/{game_id}")
    assert re.search(r'data-hint-locs="([^"]+)"', again.text).group(1) == note.group(1)
    assert _game(client, game_id).hint_count == 1


@pytest.mark.parametrize("preset,seed", [("gaps", 3), ("pyramid", 5), ("pyramid", 3), ("giza", 4)])  # a Gaps move, a draw, the stock, a reserve
def test_every_kind_of_hint_is_marked_on_the_servers_board(client, preset, seed):
    game_id, html = _seeded(client, seed, preset)
    page = _post(client, f"/games/{game_id}/hint", html).text
    note = re.search(r"<p class=\"message hint-note\"[^>]*>", page).group(0)
    attrs = dict(re.findall(r'data-hint-(locs|card|pos|action)="([^"]+)"', note))
    want = {f"loc:{loc}" for loc in attrs.get("locs", "").split()}
    if "action" in attrs:
        want.add(f"action:{attrs['action']}")
    if "card" in attrs:  # a Gaps move: the card, found where it lies, and its gap if a second tap is needed
        at = re.search(rf'data-pos="([^"]+)" data-card="{attrs["card"]}"', page).group(1)
        want |= {f"pos:{at}"} | ({f"pos:{attrs['pos']}"} if "pos" in attrs else set())
    assert want and _hinted(page) == want, (attrs, _hinted(page))


def test_a_gaps_hint_to_a_rows_start_says_the_column_a_phone_shows(client):
    """On a phone the grid is turned, each row a column read downwards: the hint says both, and
    the page's style shows the one its layout draws (static/css/app.css)."""
    game_id, html = _seeded(client, 24, "gaps")  # its first hint: the 2 of hearts to row 2's start
    page = _post(client, f"/games/{game_id}/hint", html).text
    note = re.search(r'<p class="message hint-note"[^>]*>(.*?)</p>', page, re.S).group(1)
    assert ('<span class="row-words">2 of hearts to the start of row 2.</span>'
            '<span class="column-words">2 of hearts to the top of column 2.</span>') in note


def test_a_hints_search_cut_short_by_its_wait_is_done_in_full_in_spare_time(client, monkeypatch):
    """On a loaded machine a first hint's search stops at the hint's wait with a long line (here:
    always, the solver's first line of 99 moves for Relaxed seed 1). The solver's spare time then
    searches it in full, and the hints follow the shortest win from there: par, 43."""
    from app.db.models import ShortestLine
    from app.solver import ShortestWin

    real = solver_cache.searches.shortest_win

    def search(position, *, player_id, budget_nodes, budget_seconds=None):
        if budget_seconds is not None:
            return ShortestWin(True, solve(position, budget_nodes=200_000).moves, False, 0, 1_000)
        return real(position, player_id=player_id, budget_nodes=budget_nodes)

    monkeypatch.setattr(solver_cache.searches, "shortest_win", search)
    game_id, html_text = _seeded(client, 1, "relaxed")
    start = record_of(_game(client, game_id)).at(0)
    with _session(client) as session:
        session.execute(delete(ShortestLine).where(ShortestLine.key == solver_cache.key_of(start)))
        session.commit()
    first = _post(client, f"/games/{game_id}/hint", html_text).text
    assert "the next move of a win in 99 moves" in first
    searches.wait_for_spare_time()
    with _session(client) as session:
        row = session.get(ShortestLine, solver_cache.key_of(start))
        assert row.proven and len(row.moves.split()) == 43
    again = _post(client, f"/games/{game_id}/hint", first).text  # asked again where it was
    assert "the next move of a win in 43 moves" in again
    with _session(client) as session:
        session.execute(delete(ShortestLine).where(ShortestLine.key == solver_cache.key_of(start)))
        session.commit()  # the database outlives the test: the next test searches its own


def test_a_hinted_redeal_is_made_without_asking_first(client):
    """A redeal with fills still possible asks first (it skips them); the one a hint names does
    not: its button posts the confirmed redeal, and the player is not asked to doubt the hint."""
    seed = 27
    start = GameRecord.new("gaps", PRESETS["gaps"].rules, deal_for_seed("gaps", seed)).position
    line = solve(start, budget_nodes=200_000).moves
    before = line[:line.index("N")]  # the line's first redeal, with fills still possible
    game_id, _html = _seeded(client, seed, "gaps")
    _play(client, game_id, list(before))
    page = _page(client, game_id)
    assert len(record_of(_game(client, game_id)).position.legal_moves()) > 1
    assert 'value="redeal"' in re.search(r'<button[^>]*data-action="redeal"[^>]*>', page).group(0)
    asked = _post(client, f"/games/{game_id}/act", page, action="redeal").text
    assert 'data-action="confirm-redeal"' in asked and board_state(asked)["ply"] == len(before)
    page = _post(client, f"/games/{game_id}/hint", page).text
    assert 'data-hint="N"' in page
    button = re.search(r'<button[^>]*data-action="redeal"[^>]*>', page).group(0)
    assert 'value="confirm-redeal"' in button and "hinted" in button
    redealt = _post(client, f"/games/{game_id}/act", page, action="confirm-redeal").text
    assert board_state(redealt)["ply"] == len(before) + 1 and 'data-stat="round">2<' in redealt


def test_a_hint_on_a_lost_position_gives_the_best_score_move(client):
    deals = _vector_deals(False)
    game_id, html = _open(client, "/play/pyramid?deal=" + deals[0].replace(" ", "+"))
    response = _post(client, f"/games/{game_id}/hint", html)
    move = re.search(r'data-hint="([^"]+)"', response.text).group(1)
    record = GameRecord.from_text("pyramid", PRESETS["pyramid"].rules, deals[0])
    assert move in {str(m) for m in record.position.legal_moves()}
    assert "No win is possible from here" in response.text  # a proven loss says so


def test_a_stale_hint_is_refused_and_not_counted(client):
    game_id, html = _seeded(client)
    _play(client, game_id, [WIN_LINE[0]])
    response = _post(client, f"/games/{game_id}/hint", html)
    assert response.status_code == 409
    assert _game(client, game_id).hint_count == 0


# ---------------------------------------------------------------- winnable-only deals

def test_a_games_page_lists_the_deals_a_new_deal_offline_may_be_when_winnable_only(client):
    """The page has no solver offline: a player dealt winnable deals only is dealt one of those
    shipped proven that they have no game of (static/js/offline-play.js); a player dealt any
    deal, any seed. A board after a move does not list them again: the page keeps its own."""
    def listed(path: str = "/play/giza/7") -> list[int]:
        found = re.search(r'data-offline-seeds="([^"]*)"', client.get(path).text)
        return [int(seed) for seed in found.group(1).split()] if found else []

    shipped = list(first_deals.shipped("giza"))
    assert listed() == shipped and shipped
    page = client.get(f"/play/giza/{shipped[0]}").text
    king = {"csrf_token": csrf_of(page), "target": "P21"}
    moved = client.post(f"/play/giza/{shipped[0]}", data=king, headers=HX)
    assert moved.status_code == 200 and "data-offline-seeds" not in moved.text  # a board, not a page
    game_page = moved.headers["HX-Push-Url"]
    assert listed(game_page) == shipped[1:]  # not the deal they have a game of
    lobby = client.get("/").text
    client.post("/prefs/winnable-only", data={"csrf_token": csrf_of(lobby), "winnable_only": "", "next": "/"})
    assert listed() == [] and listed(game_page) == []


def test_a_new_deal_for_a_browser_without_our_cookie_is_one_proven_before_and_starts_no_search(client, monkeypatch):
    """A first visit by a link to a new deal, or a crawler that reads no robots.txt: its GET would
    take a solver slot from the players' hints. A returning browser's is searched (below)."""
    monkeypatch.setattr(winnable, "winnable_seed", lambda *args, **kwargs: pytest.fail("a search"))
    response = client.get("/play/giza")
    assert response.status_code == 303
    seed = int(response.headers["location"].rsplit("/", 1)[1])
    with client.app.state.sessionmaker() as session:
        assert winnable.proven(session, "giza", seed)


def test_winnable_only_deals_are_proven_winnable(client, monkeypatch):
    # a fixed random start: the search from it is then the same on every machine
    monkeypatch.setattr(game_service, "random_seed", lambda: 4000)
    lobby = client.get("/").text
    assert 'data-winnable-only="on"' in lobby  # a newcomer's deals can be won, said in the lobby
    response = client.post("/prefs/winnable-only", data={"csrf_token": csrf_of(lobby), "winnable_only": "", "next": "/"})
    assert response.status_code == 303  # turned off in one tap …
    lobby = client.get("/").text
    assert 'data-winnable-only="off"' in lobby
    response = client.post("/prefs/winnable-only", data={"csrf_token": csrf_of(lobby), "winnable_only": "on", "next": "/"})
    assert response.status_code == 303  # … and on again
    lobby = client.get("/").text
    assert 'data-winnable-only="on"' in lobby
    # its par is searched in the solver's spare time, never before a player's next search
    spare, in_spare_time = [], searches.in_spare_time
    monkeypatch.setattr(searches, "in_spare_time", lambda key, job: (spare.append(key), in_spare_time(key, job)))
    for preset in ("pyramid", "pyramid-classic"):
        response = client.get(f"/play/{preset}")  # the lobby's "New deal"
        assert response.status_code == 303
        seed = int(response.headers["location"].rsplit("/", 1)[1])
        position = GameRecord.new("pyramid", PRESETS[preset].rules, deal_for_seed("pyramid", seed)).position
        assert solve(position).winnable is True, (preset, seed)
        assert spare[-1] == f"par:{preset}:{seed}"
        searches.wait_for_spare_time()
        with client.app.state.sessionmaker() as session:  # its par, searched once the answer was sent
            assert par.known(session, par.start_of_deal(preset, seed)) is not None, (preset, seed)
    # the board's "new deal" follows the preference too, and its search (up to seconds) is never
    # run on the event loop, where it would hold up every other player's request
    on_the_loop = []
    search = winnable.first_winnable

    def spied(*args, **kwargs):
        on_the_loop.append(asyncio._get_running_loop() is not None)
        return search(*args, **kwargs)

    monkeypatch.setattr(winnable, "first_winnable", spied)
    game_id, html = _seeded(client, seed)
    response = _post(client, f"/games/{game_id}/act", html, htmx=False, action="new")
    seed = int(response.headers["location"].removeprefix("/play/pyramid/"))  # straight to the dealt seed
    position = GameRecord.new("pyramid", PRESETS["pyramid"].rules, deal_for_seed("pyramid", seed)).position
    assert solve(position).winnable is True
    assert on_the_loop == [False]


def test_a_winnable_only_deal_none_proven_in_time_is_one_proven_before(client, monkeypatch):
    client.get("/")  # a returning browser (its cookie): its new deals are searched
    searched = []
    monkeypatch.setattr(winnable, "first_winnable", lambda *args, **kwargs: searched.append(args) or (None, None, 1))
    monkeypatch.setattr(spare_time, "winnable_par", lambda *args: None)
    with client.app.state.sessionmaker() as session:  # nothing proven yet (other tests prove deals)
        session.execute(delete(DealVerdict).where(DealVerdict.preset == "gaps"))
        session.commit()
    # one of the deals shipped proven with the code (a fresh server's first Gaps deal), and the
    # deal's page says it can be won
    dealt = client.get("/play/gaps")
    assert dealt.status_code == 303 and searched  # searched, none proven in time
    assert int(dealt.headers["location"].removeprefix("/play/gaps/")) in first_deals.shipped("gaps")
    assert 'data-deal-proven="yes"' in client.get(dealt.headers["location"]).text
    with client.app.state.sessionmaker() as session:  # a deal an earlier search proved
        session.execute(delete(DealVerdict).where(DealVerdict.preset == "gaps"))
        session.add(DealVerdict(preset="gaps", seed=77, winnable=True, moves="", nodes=1, solved_at=utcnow()))
        session.commit()
    dealt = client.get("/play/gaps")
    assert dealt.headers["location"] == "/play/gaps/77"
    assert 'data-deal-proven="yes"' in client.get(dealt.headers["location"]).text


def test_a_winnable_only_deal_is_never_a_daily_deal_to_come(client, monkeypatch):
    """Tomorrow's daily deal is chosen, and its verdict kept, a day ahead: a new deal dealt from
    the kept verdicts must not be it (nor today's), or its player's game of it on the day would
    be a second game, never ranked."""
    from datetime import timedelta

    from app.db.models import DailyDeal
    from app.services.play import daily

    client.get("/")  # a returning browser (its cookie): its new deals are searched
    monkeypatch.setattr(winnable, "first_winnable", lambda *args, **kwargs: (None, None, 1))  # never in time
    monkeypatch.setattr(spare_time, "winnable_par", lambda *args: None)
    today = daily.utc_today()
    recent = (DailyDeal.preset == "gaps", DailyDeal.day >= today - timedelta(days=1))
    with client.app.state.sessionmaker() as session:
        kept = [(row.day, row.seed, row.candidate, row.proven) for row in session.scalars(select(DailyDeal).where(*recent))]
        session.execute(delete(DealVerdict).where(DealVerdict.preset == "gaps"))
        session.execute(delete(DailyDeal).where(*recent))
        for day, seed in ((today - timedelta(days=1), 31), (today, 32), (today + timedelta(days=1), 33)):
            session.add(DailyDeal(day=day, preset="gaps", seed=seed))
            session.add(DealVerdict(preset="gaps", seed=seed, winnable=True, moves="", nodes=1, solved_at=utcnow()))
        session.commit()
    try:
        dealt = {int(client.get("/play/gaps").headers["location"].removeprefix("/play/gaps/")) for _ in range(6)}
    finally:  # the days' own deals back, for the tests after this one
        with client.app.state.sessionmaker() as session:
            session.execute(delete(DailyDeal).where(*recent))
            session.add_all(DailyDeal(day=day, preset="gaps", seed=seed, candidate=candidate, proven=proven)
                            for day, seed, candidate, proven in kept)
            session.commit()
    assert 32 not in dealt and 33 not in dealt
    assert 31 in dealt  # a past day's deal is any deal now


def test_a_share_link_to_a_deal_not_checked_says_so_and_no_more(client):
    """A winnable-only player opening a friend's link: the page cannot know why the deal was
    dealt, so it says only that the solver has not checked it (not that it was dealt at random)."""
    with client.app.state.sessionmaker() as session:
        session.execute(delete(DealVerdict).where(DealVerdict.preset == "gaps", DealVerdict.seed == 4_242_424))
        session.commit()
    page = client.get("/play/gaps/4242424").text
    assert 'data-deal-proven="no"' in page
    assert "The solver has not checked this deal: it may not be winnable." in page
    assert "at random" not in page


def test_a_deal_whose_winning_line_is_kept_says_it_was_checked(client):
    """A deal's par kept (the end screen keeps it for a deal won) proves it winnable: the same
    deal played again said "may not be winnable" after its player had won it."""
    def start(seed):
        return GameRecord.new("pyramid", PRESETS["pyramid"].rules, deal_for_seed("pyramid", seed))

    seed = next(s for s in range(9_000_000, 9_000_200) if solve(start(s).position).winnable)
    key = solver_cache.key_of(start(seed))
    with client.app.state.sessionmaker() as session:
        session.execute(delete(DealVerdict).where(DealVerdict.preset == "pyramid", DealVerdict.seed == seed))
        session.execute(delete(ShortestLine).where(ShortestLine.key == key))
        session.execute(delete(PositionVerdict).where(PositionVerdict.key == key))
        session.commit()
    assert 'data-deal-proven="no"' in client.get(f"/play/pyramid/{seed}").text
    with client.app.state.sessionmaker() as session:
        assert par.prepare(session, "pyramid", seed).proven
        session.commit()
        assert session.get(DealVerdict, ("pyramid", seed)) is None  # the par's line alone
    assert 'data-deal-proven="yes"' in client.get(f"/play/pyramid/{seed}").text


# ---------------------------------------------------------------- "still winnable?"

def _indicator_on(client, html: str) -> None:
    response = client.post("/prefs", data={"csrf_token": csrf_of(html), "scoring": "simple",
                                           "winnable_indicator": "true", "next": "/"})
    assert response.status_code == 303


def test_the_indicator_is_off_by_default_and_loads_with_its_own_request(client, monkeypatch):
    game_id, html = _seeded(client)
    assert "/solver" not in html.split('id="board"')[1]  # off by default, and not near the end
    _indicator_on(client, html)
    html = _page(client, game_id)
    assert f'hx-get="/games/{game_id}/solver" hx-trigger="load"' in html
    assert f'href="/games/{game_id}/solver"' in html  # without JavaScript: a link
    # the move response carries only the placeholder, never the verdict
    calls = []
    real = searches.solve
    monkeypatch.setattr(searches, "solve", lambda *a, **k: calls.append(1) or real(*a, **k))
    from ..helpers import act

    first = WIN_LINE[0].split("+")
    response = act(client, game_id, html, target=first[0])
    response = act(client, game_id, response.text, target=first[1], sel=first[0])
    assert board_state(response.text)["ply"] == 1
    with _session(client) as session:  # searched by another test of this database: searched again
        session.execute(delete(PositionVerdict))
        session.commit()
    assert 'data-solver-status="pending"' in response.text and "data-winnable=" not in response.text
    assert calls == []
    status = client.get(f"/games/{game_id}/solver", headers=HX)
    assert status.status_code == 200 and 'data-winnable="yes"' in status.text and "<html" not in status.text
    assert len(calls) == 1
    record = record_of(_game(client, game_id))
    with _session(client) as session:
        row = session.get(PositionVerdict, solver_cache.key_of(record))
        assert row is not None and row.winnable is True and row.ply == 1
    again = client.get(f"/games/{game_id}/solver", headers=HX)  # cached: the solver is not asked
    assert 'data-winnable="yes"' in again.text and len(calls) == 1
    page = client.get(f"/games/{game_id}/solver")  # without JavaScript: the whole page with it
    assert "<html" in page.text and 'data-winnable="yes"' in page.text


def test_the_indicator_says_no_on_an_unwinnable_deal(client):
    deals = _vector_deals(False)
    game_id, html = _open(client, "/play/pyramid?deal=" + deals[1].replace(" ", "+"))
    _indicator_on(client, html)
    status = client.get(f"/games/{game_id}/solver", headers=HX)
    assert 'data-winnable="no"' in status.text and 'data-auto-finish="no"' in status.text


# ---------------------------------------------------------------- auto-finish

def _near_end(client) -> tuple[str, int]:
    """A won-able game of seed 250 played up to 6 moves before the end of the known win."""
    game_id, _ = _seeded(client)
    keep = len(WIN_LINE) - 6
    _play(client, game_id, list(WIN_LINE[:keep]))
    return game_id, keep


def test_auto_finish_plays_the_rest_and_the_win_is_final(client):
    game_id, keep = _near_end(client)
    html = _page(client, game_id)
    assert f'hx-get="/games/{game_id}/solver"' in html  # near the end the offer is looked up
    status = client.get(f"/games/{game_id}/solver", headers=HX)
    assert 'data-auto-finish="yes"' in status.text and 'data-action="auto-finish"' in status.text
    response = _post(client, f"/games/{game_id}/autofinish", html)
    assert response.status_code == 200
    state = board_state(response.text)
    assert state["status"] == "won"
    game = _game(client, game_id)
    assert game.auto_finished is True and game.cursor == state["ply"] > keep
    response = _post(client, f"/games/{game_id}/act", response.text, action="undo")
    assert response.status_code == 422 and 'data-error="won_final"' in response.text
    assert board_state(response.text)["status"] == "won" and _game(client, game_id).undo_count == 0


def test_auto_finish_is_only_offered_when_proven(client, monkeypatch):
    game_id, keep = _near_end(client)
    with _session(client) as session:  # forget what other tests proved about this position
        session.execute(delete(PositionVerdict))
        session.commit()
    monkeypatch.setattr(searches, "solve", lambda *a, **k: SolveResult(None, (), "budget", 10))
    status = client.get(f"/games/{game_id}/solver", headers=HX)
    assert 'data-auto-finish="no"' in status.text and "auto-finish" not in status.text.split("data-auto-finish")[1]
    response = _post(client, f"/games/{game_id}/autofinish", _page(client, game_id))
    assert response.status_code == 422 and 'data-error="no_auto_finish"' in response.text
    game = _game(client, game_id)
    assert game.cursor == keep and game.auto_finished is False
    with _session(client) as session:  # the stubbed solver's "undecided" is no fact: others ask anew
        session.execute(delete(PositionVerdict))
        session.commit()


# ---------------------------------------------------------------- post-game analysis

def _lost_game(client, after: int = 3, give_up: bool = True) -> tuple[str, int]:
    """Seed 250 played along the known win (at least ``after`` moves of it), then one move that
    loses it, then to the end: no moves left, then given up (its analysis waits for that)."""
    record = GameRecord.new("pyramid", PRESETS["pyramid"].rules, deal_for_seed("pyramid", WIN_SEED))
    played: list[str] = []
    for move in WIN_LINE:
        losing = next((m for m in record.position.legal_moves()
                       if str(m) != move and solve(record.play(m).position).winnable is False), None)
        if losing is not None and len(played) >= after:
            record = record.play(losing)
            played.append(str(losing))
            break
        record = record.play(move)
        played.append(move)
    fatal = len(played)
    while record.position.status == "playing":
        move = min(record.position.legal_moves(), key=str)
        record = record.play(move)
        played.append(str(move))
    assert record.position.status == "lost"
    game_id, _ = _seeded(client)
    _play(client, game_id, played)
    if give_up:
        assert _post(client, f"/games/{game_id}/act", _page(client, game_id), action="give-up").status_code == 200
    return game_id, fatal


def test_a_game_with_no_moves_left_shows_its_analysis_once_given_up_and_is_then_over(client):
    """Seen before, the analysis says which move lost the game, and undo takes the game back to
    it: the win that follows would have been made with the answer."""
    game_id, fatal = _lost_game(client, give_up=False)
    html = _page(client, game_id)
    assert 'data-phase="lost"' in html and 'value="give-up"' in html
    assert "Game over." not in html  # not over: it may be undone and played on
    assert "/analysis" not in html and 'data-action="undo" disabled' not in html
    assert 'data-analysis-kind="none"' in client.get(f"/games/{game_id}/analysis", headers=HX).text
    replay = client.get(f"/g/{game_id}/replay?ply={fatal}")
    assert replay.status_code == 200 and 'data-analysis="none"' in replay.text
    # a game in play is left by "New deal", not given up
    playing_id, playing = _seeded(client, 987_654)
    refused = _post(client, f"/games/{playing_id}/act", playing, action="give-up")
    assert refused.status_code == 422 and "Only a game with no moves left can be given up" in refused.text
    assert _game(client, playing_id).abandoned is False
    given_up = _post(client, f"/games/{game_id}/act", html, action="give-up", mid="gu1")
    assert given_up.status_code == 200 and 'data-phase="conceded"' in given_up.text
    assert "Game over." in given_up.text and 'value="give-up"' not in given_up.text
    assert f'hx-get="/games/{game_id}/analysis" hx-trigger="load"' in given_up.text
    assert 'data-analysis-kind="lost_at"' in client.get(f"/games/{game_id}/analysis", headers=HX).text
    after = _page(client, game_id)
    assert 'data-action="undo" disabled' in after
    undo = _post(client, f"/games/{game_id}/act", after, action="undo")
    assert undo.status_code == 422 and _game(client, game_id).cursor == record_of(_game(client, game_id)).cursor
    assert "This game was counted as lost" in undo.text
    # the page's give-up sent again after a lost answer is answered as stored, not refused
    again = _post(client, f"/games/{game_id}/act", html, action="give-up", mid="gu1")
    assert again.status_code == 200 and 'data-phase="conceded"' in again.text


def test_a_game_with_no_moves_left_is_over_once_another_game_of_its_preset_begins(client):
    """Left with no moves, a game played again (any deal of the preset, this one too) is over: it
    was undone into a game in play beside the new one, refused as a race in "another tab"."""
    game_id, _ = _lost_game(client, give_up=False)
    other, _ = _seeded(client, 987_654)
    _play(client, other, [_first_legal("pyramid", 987_654)])
    lost = _game(client, game_id)
    assert lost.abandoned is True
    page = _page(client, game_id)
    assert 'data-phase="conceded"' in page and 'value="give-up"' not in page
    undo = _post(client, f"/games/{game_id}/act", page, action="undo")
    assert undo.status_code == 422 and "counted as lost" in undo.text
    # this deal's own game, played again from the start, is over as well
    again, _ = _lost_game(client, give_up=False)
    retry, _ = _seeded(client, WIN_SEED)
    _play(client, retry, [WIN_LINE[0]])
    assert _game(client, again).abandoned is True and _game(client, retry).abandoned is False


def _first_legal(preset: str, seed: int) -> str:
    record = GameRecord.new(preset, PRESETS[preset].rules, deal_for_seed(preset, seed))
    return min(str(m) for m in record.position.legal_moves())


def test_analysis_finds_the_move_that_lost_the_deal(client):
    game_id, fatal = _lost_game(client)
    html = _page(client, game_id)
    assert f'hx-get="/games/{game_id}/analysis" hx-trigger="load"' in html
    response = client.get(f"/games/{game_id}/analysis", headers=HX)
    assert response.status_code == 200
    assert 'data-analysis-kind="lost_at"' in response.text
    ply = int(re.search(r'data-analysis-ply="(\d+)"', response.text).group(1))
    assert ply == fatal
    record = record_of(_game(client, game_id))
    assert solve(record.at(ply - 1).position).winnable is True    # winnable before that move
    assert solve(record.at(ply).position).winnable is False       # not after it
    assert 'class="fatal" data-fatal' in response.text
    assert f'href="/g/{game_id}/replay?ply={ply}"' in response.text  # the replay at the move that lost it
    # the replay page shows the same analysis through its hook
    replay = client.get(f"/g/{game_id}/replay?ply={ply}")
    assert 'data-analysis="yes"' in replay.text and "No longer winnable from here." in replay.text
    # two sentences, not run together ("…from here.This move…")
    assert "No longer winnable from here. This move lost the game." in " ".join(replay.text.split())
    # try again from here: a new game of the deal with the moves before the losing one, and
    # where they came from (a game played offline: its clock never counts, nor the retry's)
    set_columns(client.app, game_id, played_offline=True)
    response = client.post(f"/games/{game_id}/retry", data={"csrf_token": csrf_of(html), "retry_ply": ply - 1})
    assert response.status_code == 303
    new = _game(client, response.headers["location"].rsplit("/", 1)[1])
    assert new.id != game_id and new.seed == WIN_SEED and new.cursor == ply - 1 and new.status == "playing"
    assert new.played_offline
    assert new.moves.split() == record.played_text.split()[: ply - 1]


def test_try_again_from_here_says_it_replaces_the_game_in_play(client):
    """A retry is a new game of the preset: the player's other game of it in play counts as lost
    once it is made, so the end screen says so beside the button, as a new deal's page does."""
    game_id, _ = _lost_game(client)
    alone = client.get(f"/games/{game_id}/analysis", headers=HX).text
    assert 'data-action="retry"' in alone and "replacing-note" not in alone
    other, _ = _seeded(client, 9)
    _play(client, other, [_first_legal("pyramid", 9)])
    for page in (client.get(f"/games/{game_id}/analysis", headers=HX).text, client.get(f"/games/{game_id}/analysis").text):
        assert f'data-replacing="{other}"' in page and f'<a href="/games/{other}">Continue that game</a>' in page
        assert "counts as lost once you try again from here" in page


def test_a_deal_lost_by_its_first_move_is_said_in_words_not_as_move_0(client):
    """"could be won until move 1" and "the first 0 moves already played" read as a bug."""
    game_id, fatal = _lost_game(client, after=0)
    assert fatal == 1
    response = client.get(f"/games/{game_id}/analysis", headers=HX)
    assert 'data-analysis-ply="1"' in response.text
    assert "The deal could be won; after the first move it could not." in response.text
    assert "A new game of this deal, from its start." in response.text
    assert "until move" not in response.text and "first 0" not in response.text


def test_analysis_of_a_deal_lost_from_the_start_and_of_a_win(client, other_client):
    deals = _vector_deals(False)
    game_id, _ = _open(client, "/play/pyramid?deal=" + deals[2].replace(" ", "+"))
    record = GameRecord.from_text("pyramid", PRESETS["pyramid"].rules, deals[2])
    moves = []
    while record.position.status == "playing":
        move = min(record.position.legal_moves(), key=str)
        record = record.play(move)
        moves.append(str(move))
    _play(client, game_id, moves)
    assert _post(client, f"/games/{game_id}/act", _page(client, game_id), action="give-up").status_code == 200
    response = client.get(f"/games/{game_id}/analysis", headers=HX)
    assert 'data-analysis-kind="lost_from_start"' in response.text
    assert "could not be won from the start" in response.text

    won_id, _ = _seeded(client)
    _play(client, won_id, list(WIN_LINE))
    response = client.get(f"/games/{won_id}/analysis", headers=HX)
    assert 'data-analysis-kind="won"' in response.text and 'data-shortest-proven="true"' in response.text
    assert '<a href="/rules/pyramid#par" data-par-help>What is par?</a>' in response.text  # "Par 41 · you 44, +3"
    # one link to the replay on its owner's end panel ("Replay"), none again in the analysis;
    # a watcher, who has no end panel, finds it in the analysis
    assert f"/g/{won_id}/replay" not in response.text
    assert client.get(f"/games/{won_id}").text.count(f'href="/g/{won_id}/replay"') == 1
    watched = other_client.get(f"/games/{won_id}/analysis", headers=HX)
    assert watched.status_code == 200 and f'href="/g/{won_id}/replay"' in watched.text
    with _session(client) as session:  # the probes are cached per position
        assert session.scalar(select(func.count()).select_from(PositionVerdict)) > 0


def test_a_won_game_is_measured_against_the_proven_shortest_win(client, monkeypatch):
    from app.db.models import ShortestLine
    from app.solver import shortest_win

    won_id, _ = _seeded(client)
    _play(client, won_id, list(WIN_LINE))
    start = record_of(_game(client, won_id)).at(0)
    best = shortest_win(start.position)
    assert best.proven and len(best.moves) <= len(WIN_LINE)
    text = client.get(f"/games/{won_id}/analysis", headers=HX).text
    words = f"The shortest possible win needs {len(best.moves)} moves. You needed {len(WIN_LINE)}."
    assert words in text and f'data-shortest="{len(best.moves)}"' in text
    kept = select(ShortestLine).where(ShortestLine.key == solver_cache.key_of(start))
    with _session(client) as session:  # kept per deal, for every player
        assert session.scalar(kept).moves.split() == list(best.moves)
        session.execute(delete(ShortestLine).where(ShortestLine.key == solver_cache.key_of(start)))
        session.commit()
    # a budget too small to prove it: the words claim a known win, never the shortest
    monkeypatch.setattr(solver_cache, "SHORTEST_NODES", 1)
    text = client.get(f"/games/{won_id}/analysis", headers=HX).text
    assert 'data-shortest-proven="false"' in text and "The solver knows a win in" in text
    assert "shortest" not in re.sub(r"<[^>]+>", "", text).lower()
    with _session(client) as session:  # a best known line with the bound every win needs
        session.execute(delete(ShortestLine).where(ShortestLine.key == solver_cache.key_of(start)))
        session.add(ShortestLine(key=solver_cache.key_of(start), game=start.game, winnable=True,
                                 moves=" ".join(WIN_LINE), proven=False, lower_bound=len(best.moves) - 2, nodes=1))
        session.commit()
    text = client.get(f"/games/{won_id}/analysis", headers=HX).text
    assert (f"The solver knows a win in {len(WIN_LINE)} moves. It has proved that every win needs at least "
            f"{len(best.moves) - 2} moves. You needed {len(WIN_LINE)}.") in text
    with _session(client) as session:  # the database outlives the test: leave no unproven line
        session.execute(delete(ShortestLine).where(ShortestLine.key == solver_cache.key_of(start)))
        session.commit()


def test_no_analysis_while_a_game_is_played(client):
    game_id, _ = _seeded(client)
    response = client.get(f"/games/{game_id}/analysis", headers=HX)
    assert 'data-analysis-kind="none"' in response.text


# ---------------------------------------------------------------- odds page

@pytest.mark.parametrize("language, figures", [
    ("en", ["9.02\xa0%", "1 in 50", "sample: 100,000,000 deals", "85.815\xa0% ± 3.717\xa0%",
            "sample: 10,000 deals, over 6\xa0% of them undecided"]),
    ("da", ["9,02\xa0%", "1 ud af 50", "stikprøve: 100.000.000 kabaler", "85,815\xa0% ± 3,717\xa0%",
            "stikprøve: 10.000 kabaler, heraf over 6\xa0% uafklarede"]),
    ("sv", ["9,02\xa0%", "1 av 50", "stickprov: 100\xa0000\xa0000 givar", "85,815\xa0% ± 3,717\xa0%",
            "stickprov: 10\xa0000 givar, varav över 6\xa0% ej avgjorda"]),
])
def test_the_odds_page_writes_the_published_figures_as_the_language_does(client, language, figures):
    response = client.get("/odds", headers={"Accept-Language": language})
    assert response.status_code == 200
    assert f'<html lang="{language}" ' in response.text
    shown = html.unescape(response.text)  # a space before "%" is a no-break space (&nbsp;)
    for figure in figures:
        assert figure in shown, figure
    assert "solitairewinrates.com/Pyramid.html" in response.text
    assert 'href="/odds" aria-current="page"' in response.text
    assert response.text.count("<tr data-preset=") == len(PRESETS)
    assert "data-measured" in response.text


def test_odds_rows_with_undecided_deals_show_a_range_not_a_rate_over_decided_deals(client):
    import re

    from app.services.assist.odds import survey_rows
    from app.web.views.formatting import share_down, share_up

    # the committed survey has undecided deals (Double Pyramid, Danish Gaps: 5 s a deal)
    measured = next(r for r in survey_rows() if r["undecided"] > 0)
    low = share_down(measured["winnable"] / measured["deals"])
    high = share_up((measured["winnable"] + measured["undecided"]) / measured["deals"])
    page = html.unescape(client.get("/odds").text)
    row = re.search(rf'<tr data-preset="{measured["preset"]}">.*?</tr>', page, re.S).group(0)
    assert f"≥ {low}\xa0%" in row
    assert f"between {low} and {high}\xa0%, as the undecided deals turn out" in row
    assert "95\xa0% interval" not in row


def test_bounds_are_rounded_outwards_and_written_as_the_language_writes_them():
    from app import i18n
    from app.web.views.formatting import share, share_down, share_up

    i18n.set_language("en")
    # 9,996 of 10,000 deals won, 4 undecided: at least 99.9 %, at most 100.0 %
    assert (share_down(0.9996), share_up(0.9996)) == ("99.9", "100.0")
    assert (share_down(0.0931), share_up(0.0931)) == ("9.3", "9.4")
    assert (share_down(1.0), share_up(0.0)) == ("100.0", "0.0")
    assert share(0.06665) == "6.7"
    i18n.set_language("da")
    try:
        assert (share(0.0931), share_down(0.9996), share_up(0.9996)) == ("9,3", "99,9", "100,0")
    finally:
        i18n.set_language("en")


def test_the_end_screen_offers_the_analysis_in_words_that_fit_the_result(client):
    from ..play import api_player, lose, set_columns, win

    auth = api_player(client)
    won_page = client.get(f"/games/{win(client, auth)['id']}").text
    lost = lose(client, auth)["id"]
    assert "Show the analysis" not in client.get(f"/games/{lost}").text  # no moves left: not over yet
    set_columns(client.app, lost, abandoned=True)  # given up
    lost_page = client.get(f"/games/{lost}").text
    # without JavaScript the analysis is a link; its words must not call a win a loss
    assert "Show the analysis: how short can a win be?" in won_page
    assert "where was the game lost" not in won_page
    assert "Show the analysis: where was the game lost?" in lost_page


def test_a_hint_when_the_solver_is_busy_says_so_with_retry_after(client, monkeypatch):
    monkeypatch.setattr(searches, "_max_admitted", 0)  # every search slot taken
    game_id, html = _seeded(client, 987_654)
    response = _post(client, f"/games/{game_id}/hint", html)
    assert response.status_code == 429 and response.headers["retry-after"] == str(searches.RETRY_AFTER_SECONDS)
    # htmx: the board stays as it is, the live region says why
    assert response.headers["hx-reswap"] == "none" and 'id="announce" hx-swap-oob' in response.text
    assert "The solver is busy" in response.text and 'id="board"' not in response.text
    plain = _post(client, f"/games/{game_id}/hint", html, htmx=False)
    assert plain.status_code == 429 and "The solver is busy" in plain.text and "retry-after" in plain.headers
    assert _game(client, game_id).hint_count == 0


def test_a_hint_the_solver_cannot_take_is_refused_before_the_app_reads_anything(client, app, monkeypatch):
    """A crowd asking at one moment: each refusal is answered before the router, the form, the
    CSRF check and the database (app/web/http/solver_room.py), so the others' moves wait little."""
    from sqlalchemy import event

    from app.db.session import get_engine

    game_id, html = _seeded(client, 987_655)
    monkeypatch.setattr(searches, "_max_admitted", 0)  # every search slot taken
    statements: list[str] = []
    engine = get_engine(app.state.settings)

    def note(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        response = _post(client, f"/games/{game_id}/hint", html)
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert response.status_code == 429 and "The solver is busy" in response.text
    assert statements == []
    # so is the Hint of a deal ready to play (its first move still to come)
    event.listen(engine, "before_cursor_execute", note)
    try:
        draft = _post(client, "/play/pyramid/987656/hint", html)
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert draft.status_code == 429 and "The solver is busy" in draft.text
    assert statements == []
    # with room, the same request goes on to the route (which reads the game)
    monkeypatch.setattr(searches, "_max_admitted", 3)
    event.listen(engine, "before_cursor_execute", note)
    try:
        answered = _post(client, f"/games/{game_id}/hint", html)
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert answered.status_code == 200 and statements


def test_every_hint_route_is_one_the_solver_room_takes_before_the_router(app):
    """The room (app/web/http/solver_room.py) knows the hint routes by their paths, ahead of the
    router: a hint route it did not match would search without its player's slot."""
    from starlette.routing import Route

    from app.web.http.solver_room import HINT_PATH

    def routes(found):  # included routers hold their own (``original_router``)
        for route in found:
            inner = getattr(route, "original_router", None)
            yield from routes(inner.routes) if inner is not None else (route,)

    hints = [r for r in routes(app.routes) if isinstance(r, Route) and r.path.endswith("/hint") and "POST" in r.methods]
    assert len(hints) >= 3
    for route in hints:
        path = re.sub(r"\{[^}]+\}", "x1", route.path)
        assert HINT_PATH.fullmatch(path), route.path
    assert not HINT_PATH.fullmatch("/games/x1/act") and not HINT_PATH.fullmatch("/games/x1/solver")
