"""What a player must be able to trust (issue 25): a game counted as lost stays lost, one first
move makes one game, and odd input is refused at the edge without changing anything."""

from __future__ import annotations

import re
import threading

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from app.db.models import Game, Player, PositionVerdict, ShortestLine
from app.engine import GameRecord, get_game

from .helpers import HX, act, board_state, csrf_of, first_move
from .play import WIN_SEED, api_player, days_ago, move, new_game, set_columns, win


def _game(app, game_id: str) -> Game:
    with app.state.sessionmaker() as session:
        return session.get(Game, game_id)


def _games_of(app, player_id: str) -> list[Game]:
    with app.state.sessionmaker() as session:
        return list(session.scalars(select(Game).where(Game.player_id == player_id)))


def _player_count(app) -> int:
    with app.state.sessionmaker() as session:
        return session.scalar(select(func.count()).select_from(Player))


# ---------------------------------------------------------------- a lost game stays lost

def _idle_game(client, app, seed: int = WIN_SEED) -> tuple[str, str]:
    game_id, _ = first_move(client, f"/play/pyramid/{seed}", action="draw")
    set_columns(app, game_id, updated_at=days_ago(1.5))
    return game_id, client.get(f"/games/{game_id}").text


def test_a_hint_asked_again_at_the_deals_start_writes_nothing(client, app):
    """The first hint's search keeps the deal's shortest line: asked again, the hint comes from
    that line, and the game's row stays as the first hint left it (a tab's version with it)."""
    game_id, _ = first_move(client, "/play/pyramid/250", action="draw")
    page = client.get(f"/games/{game_id}").text
    assert act(client, game_id, page, action="undo").status_code == 200
    with app.state.sessionmaker() as session:  # what other tests proved: the first hint searches
        session.execute(delete(ShortestLine))
        session.execute(delete(PositionVerdict))
        session.commit()
    rows = []
    for _ in range(2):
        page = client.get(f"/games/{game_id}").text
        state = board_state(page)
        answer = client.post(f"/games/{game_id}/hint", headers=HX, data={
            "csrf_token": csrf_of(page), "ply": state["ply"], "version": state["version"]})
        assert answer.status_code == 200
        rows.append(_row(_game(app, game_id)))
    assert rows[0][0] == 1 and rows[0][3] == 0  # counted, its line kept from here (not yet the par line)
    assert rows[1] == rows[0]


def test_a_hint_on_a_game_left_for_a_day_is_refused_and_changes_nothing(client, app):
    game_id, page = _idle_game(client, app)
    before = _game(app, game_id)
    answer = client.post(f"/games/{game_id}/hint", data={"csrf_token": csrf_of(page)}, headers=HX)
    assert answer.status_code == 422 and "counted as lost" in answer.text
    after = _game(app, game_id)
    assert (after.hint_count, after.version, after.updated_at) == (before.hint_count, before.version, before.updated_at)
    assert 'data-phase="abandoned"' in client.get(f"/games/{game_id}").text


def test_settings_change_only_the_games_in_play(client, app):
    game_id, page = _idle_game(client, app)
    before = _game(app, game_id)
    for zen in ("on", ""):
        data = {"csrf_token": csrf_of(page), "scoring": "timed", **({"zen": zen} if zen else {})}
        assert client.post("/prefs", data=data).status_code == 303
    after = _game(app, game_id)
    assert (after.scoring, after.version, after.updated_at) == (before.scoring, before.version, before.updated_at)
    # and the game's remaining moves are refused: it stays lost
    refused = act(client, game_id, page, action="draw")
    assert refused.status_code == 422
    assert 'data-phase="abandoned"' in client.get(f"/games/{game_id}").text


def test_a_setting_followed_by_the_games_in_play_is_no_move_of_them(client, app):
    """The scoring a game in play follows changes with the player's, but the game's last change
    stays its last move: a settings page saved is not play that keeps an idle game alive."""
    game_id, _ = first_move(client, "/play/pyramid/86", action="draw")
    before = _game(app, game_id)
    answer = client.post("/prefs", data={"csrf_token": csrf_of(client.get("/").text), "scoring": "pairs"})
    assert answer.status_code == 303
    after = _game(app, game_id)
    assert (after.scoring, after.version, after.updated_at) == ("pairs", before.version, before.updated_at)


def test_settings_follow_into_a_game_in_play(client, app):
    game_id, _ = first_move(client, "/play/pyramid/83", action="draw")
    client.post("/prefs", data={"csrf_token": csrf_of(client.get("/").text), "scoring": "timed"})
    assert _game(app, game_id).scoring == "timed"


def test_a_replaced_game_serves_no_hint_and_its_count_stays(client, app):
    old_id, _ = first_move(client, "/play/pyramid/84", action="draw")
    old_page = client.get(f"/games/{old_id}").text
    first_move(client, "/play/pyramid/85", action="draw")
    answer = client.post(f"/games/{old_id}/hint", data={"csrf_token": csrf_of(old_page)}, headers=HX)
    assert answer.status_code == 422
    assert _game(app, old_id).hint_count == 0


def _row(game: Game) -> tuple:
    return game.hint_count, game.version, game.updated_at, game.line_ply, game.hinted_ply


def test_a_hint_asked_twice_for_one_position_counts_once(client, app):
    game_id, _ = first_move(client, f"/play/pyramid/{WIN_SEED}", action="draw")
    page = client.get(f"/games/{game_id}").text
    counted = None
    for _ in range(3):  # a double click, and once more
        answer = client.post(f"/games/{game_id}/hint", data={"csrf_token": csrf_of(page)}, headers=HX)
        assert answer.status_code == 200 and "data-hint=" in answer.text
        # asked again, the game is not written: another tab's next move is not made stale
        assert counted is None or _row(_game(app, game_id)) == counted
        counted = _row(_game(app, game_id))
    assert _game(app, game_id).hint_count == 1
    hinted = client.get(f"/games/{game_id}").text
    act(client, game_id, hinted, action="draw")  # another position: counted again
    page = client.get(f"/games/{game_id}").text
    client.post(f"/games/{game_id}/hint", data={"csrf_token": csrf_of(page)}, headers=HX)
    assert _game(app, game_id).hint_count == 2


def test_a_hint_stays_on_its_page_while_the_game_is_where_it_was_given(client, other_client, app):
    """A reload (or a language switch) once lost the hint and kept its count: "1 hint used" over
    a board that said nothing of it."""
    game_id, _ = first_move(client, f"/play/pyramid/{WIN_SEED}", action="draw")
    page = client.get(f"/games/{game_id}").text
    answer = client.post(f"/games/{game_id}/hint", data={"csrf_token": csrf_of(page)}, headers=HX)
    given = re.search(r'data-hint="([^"]+)"', answer.text).group(1)
    again = client.get(f"/games/{game_id}", headers={"Accept-Language": "da"}).text
    assert re.search(r'data-hint="([^"]+)"', again).group(1) == given and 'id="hint"' in again
    assert other_client.get(f"/games/{game_id}").status_code == 403  # a game in play is its player's only
    act(client, game_id, again, action="draw")  # the game moves on: the hint was for where it was
    assert 'data-hint=' not in client.get(f"/games/{game_id}").text
    assert _game(app, game_id).hint_count == 1 and _game(app, game_id).last_hint is None


@pytest.mark.parametrize("left", ["new deal", "a day idle"])
def test_a_kept_hint_is_not_shown_on_a_game_counted_as_lost(client, app, left):
    """A game left for a new deal, or for a day, takes no hint: the one it kept is not shown."""
    game_id, _ = first_move(client, f"/play/pyramid/{WIN_SEED}", action="draw")
    page = client.get(f"/games/{game_id}").text
    assert 'data-hint="' in client.post(f"/games/{game_id}/hint", data={"csrf_token": csrf_of(page)}, headers=HX).text
    if left == "new deal":
        act(client, game_id, client.get(f"/games/{game_id}").text, action="confirm-new")
    else:
        set_columns(app, game_id, updated_at=days_ago(2), started_at=days_ago(2))
    assert 'data-hint="' not in client.get(f"/games/{game_id}").text


def test_without_javascript_a_kept_hint_leaves_the_next_tap_its_selection_and_question(client, app):
    """The kept hint once took the page over: a first card's selection and New deal's question
    came back as the hint, so no pair could be made and no new deal asked for."""
    game_id, _ = first_move(client, f"/play/pyramid/{WIN_SEED}", htmx=False, action="draw")
    page = client.get(f"/games/{game_id}").text
    client.post(f"/games/{game_id}/hint", data={"csrf_token": csrf_of(page)}, follow_redirects=False)
    page = client.get(f"/games/{game_id}").text
    first, second = re.search(r'data-hint-locs="([^"]+)"', page).group(1).split()
    asked = client.get(act(client, game_id, page, htmx=False, action="new").headers["location"]).text
    assert 'value="confirm-new"' in asked
    shown = client.get(act(client, game_id, page, htmx=False, target=first).headers["location"]).text
    assert board_state(shown)["selected"] == first and 'data-hint="' not in shown
    # the page's form sends its selection with the next tap
    done = client.get(act(client, game_id, shown, htmx=False, sel=first, target=second).headers["location"]).text
    assert board_state(done)["ply"] == board_state(page)["ply"] + 1  # the second tap after the first: a pair


# ---------------------------------------------------------------- one first move, one game

def test_a_second_tab_first_move_of_the_same_deal_is_answered_with_the_first_game(client, app):
    url = "/play/pyramid/86"
    tab_one = client.get(url).text
    tab_two = client.get(url).text
    first = client.post(url, data={"csrf_token": csrf_of(tab_one), "action": "draw"}, headers=HX)
    assert first.status_code == 200
    game_id = first.headers["HX-Push-Url"].rsplit("/", 1)[1]
    second = client.post(url, data={"csrf_token": csrf_of(tab_two), "action": "draw"}, headers=HX)
    assert second.status_code == 409
    assert second.headers["HX-Push-Url"] == f"/games/{game_id}"
    assert board_state(second.text)["ply"] == 1  # the first tab's move, not a second draw
    games = _games_of(app, _game(app, game_id).player_id)
    assert [(g.id, g.abandoned) for g in games] == [(game_id, False)]


def test_racing_first_moves_store_one_game_and_no_phantom_loss(app):
    tabs = 6
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as opener:
        url = "/play/pyramid/87"
        page = opener.get(url).text
        jar = dict(opener.cookies)
    statuses: list[int] = []
    barrier = threading.Barrier(tabs)

    def tab() -> None:
        with TestClient(app, base_url="http://testserver", follow_redirects=False, cookies=jar) as c:
            barrier.wait()
            statuses.append(c.post(url, data={"csrf_token": csrf_of(page), "action": "draw"}, headers=HX).status_code)

    threads = [threading.Thread(target=tab) for _ in range(tabs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # every tab answered (a tab whose request raised appends nothing: the losers' reading of the
    # winner's game after their failed write once did)
    assert len(statuses) == tabs and sorted(set(statuses)) <= [200, 409] and 200 in statuses, statuses
    with app.state.sessionmaker() as session:
        player_id = session.scalar(select(Player.id).order_by(Player.created_at.desc()).limit(1))
    games = [g for g in _games_of(app, player_id) if g.preset == "pyramid"]
    assert len(games) == 1 and not games[0].abandoned and games[0].cursor == 1


def test_the_database_refuses_a_second_unfinished_game_of_a_preset(app):
    with app.state.sessionmaker() as session:
        player = Player()
        session.add(player)
        session.flush()
        variant = get_game("pyramid")
        for seed in (1, 2):
            session.add(Game(player_id=player.id, preset="pyramid", game="pyramid", rules={}, seed=seed,
                             deal=GameRecord.new("pyramid", variant.parse_rules({}), variant.deal(seed)).deal_text,
                             deal_key=variant.deal_key(variant.deal(seed)),
                             started_at=days_ago(0), status="playing"))
        with pytest.raises(IntegrityError):
            session.flush()
        session.rollback()


def test_the_later_first_move_of_two_api_games_replaces_the_earlier(client, app):
    auth = api_player(client)
    one, two = new_game(client, auth, "pyramid", 88), new_game(client, auth, "pyramid", 89)
    move(client, auth, one, "D")
    move(client, auth, two, "D")
    assert client.post(f"/api/games/{one['id']}/moves", json={"move": "D", "ply": 1}, headers=auth).status_code == 422
    unfinished = [g for g in _games_of(app, _game(app, one["id"]).player_id) if not g.abandoned and g.started_at]
    assert [g.id for g in unfinished] == [two["id"]]


# ---------------------------------------------------------------- input refused at the edge

def test_a_non_ascii_csrf_token_is_refused_not_a_server_error(client):
    client.get("/")
    answer = client.post("/prefs", headers={"X-CSRF-Token": "\xc3\xa9".encode("latin-1")})
    assert answer.status_code == 403


@pytest.mark.parametrize("target", ["/\n", "/\r\nX-Evil: 1", "/\t/evil.example", "//evil.example", "/a b",
                                    "https://evil.example/", "/\\evil.example", "/spil/æøå", "/€",
                                    "/🂡"])
@pytest.mark.parametrize("htmx", [True, False])
def test_an_odd_next_is_refused_and_changes_nothing(client, app, target, htmx):
    page = client.get("/").text
    answer = client.post("/prefs/language", data={"csrf_token": csrf_of(page), "language": "da", "next": target},
                         headers=HX if htmx else {})
    assert answer.status_code == 400 and "HX-Redirect" not in answer.headers and "location" not in answer.headers
    assert "tretten_lang" not in answer.headers.get("set-cookie", "") and '<html lang="en"' in client.get("/").text


def test_a_same_site_next_is_followed(client):
    page = client.get("/").text
    answer = client.post("/prefs/language", data={"csrf_token": csrf_of(page), "language": "sv",
                                                  "next": "/deal/pyramid/250?from=x%C3%A6"}, headers=HX)
    assert answer.status_code == 200 and answer.headers["HX-Redirect"] == "/deal/pyramid/250?from=x%C3%A6"


def test_a_refused_post_stores_no_visitor(client, app):
    page = client.get("/").text
    before = _player_count(app)
    answer = client.post("/play/no-such-preset/1", data={"csrf_token": csrf_of(page), "action": "draw"}, headers=HX)
    assert answer.status_code == 404
    assert _player_count(app) == before
    # the page's token still works: the browser is the same visitor
    assert client.post("/play/pyramid/90", data={"csrf_token": csrf_of(page), "action": "draw"},
                       headers=HX).status_code == 200
    assert _player_count(app) == before + 1


def test_head_is_answered_like_get_without_a_body(client):
    for path in ("/", "/rules/pyramid", "/play/pyramid/5", "/stats"):
        answer = client.head(path)
        assert answer.status_code == 200, path
        assert answer.content == b""


def test_the_deal_api_names_no_other_players_games(client, other_client):
    win(other_client, api_player(other_client), by_hand=True)  # a person's win: the deal's record
    summary = client.get(f"/api/deals/pyramid/{WIN_SEED}").json()
    assert summary["winners"] >= 1
    assert summary["fewest_moves"]["game"] is None


def test_previews_beyond_the_limit_are_refused_and_cached_ones_are_not(app, client, monkeypatch):
    from app.services.ratelimit import Arrivals
    from app.web.views import previews

    monkeypatch.setattr(previews, "_cache", previews._Cache(previews.CACHED_PREVIEWS))
    # by hand, not monkeypatch: its undo deletes what Starlette's State keeps, and the app (one
    # for the session) lost its limit on previews for every test after this one
    kept = app.state.new_previews
    app.state.new_previews = Arrivals(2, 0, message="too many", key="rate_limited")
    try:
        assert client.get("/preview/en/pyramid/1001.png").status_code == 200
        assert client.get("/preview/en/pyramid/1002.png").status_code == 200
        refused = client.get("/preview/en/pyramid/1003.png")
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert client.get("/preview/en/pyramid/1001.png").status_code == 200  # drawn already: served
    finally:
        app.state.new_previews = kept


@pytest.mark.parametrize("scoring", ["pairs", "timed", "simple"])
def test_a_game_in_play_that_follows_a_new_scoring_is_scored_by_it(client, app, scoring):
    game_id, _ = first_move(client, "/play/pyramid/250", target="P24", sel="P21")  # a pair: 2 cards, 5 points
    before = _game(app, game_id)
    assert (before.scoring, before.score) == ("simple", 2)
    answer = client.post("/prefs", data={"csrf_token": csrf_of(client.get("/").text), "scoring": scoring})
    assert answer.status_code == 303
    after = _game(app, game_id)
    assert (after.scoring, after.score) == (scoring, {"simple": 2, "pairs": 5, "timed": 5}[scoring])
    assert (after.version, after.updated_at) == (before.version, before.updated_at)


def test_a_move_that_races_a_new_scoring_is_scored_by_the_scoring_the_game_is_stored_with(app):
    """The move's request read the game before the player's new scoring was stored (the settings
    and the winning move sent together): its write lands after, and scores by the row's scoring
    as it is then, not by the one it read (a Pairs record of a Timed game's score)."""
    from app.services.accounts import players
    from app.services.play import games, moves
    from tests.web.play import WIN_LINE

    sessions = app.state.sessionmaker
    with sessions() as session:
        player = Player(scoring="timed")
        session.add(player)
        session.flush()
        game = games.start_game(session, player, "pyramid", seed=WIN_SEED)
        moves.play_moves(session, game, player, WIN_LINE[:-1])
        session.commit()
        game_id, player_id = game.id, player.id
    with sessions() as move_request:
        game, player = move_request.get(Game, game_id), move_request.get(Player, player_id)
        assert game.scoring == "timed"  # read by the move's request
        with sessions() as settings_request:
            players.update_preferences(settings_request, settings_request.get(Player, player_id), scoring="pairs")
            settings_request.commit()
        moves.play_move(move_request, game, player, WIN_LINE[-1], ply=game.cursor, version=game.version)
        move_request.commit()
        assert (game.scoring, game.score) == ("pairs", games.current_score(game, scoring="pairs"))
    stored = _game(app, game_id)
    assert stored.status == "won" and stored.scoring == "pairs"
    assert stored.score == games.current_score(stored, scoring="pairs") != games.current_score(stored, scoring="timed")
