"""A move sent again is answered once (issue 39): the page gives each change an id (``mid``);
sent again after its answer was lost, it is answered 200 with the board as stored and never
applied twice, while a tab that really is stale still gets 409."""

from __future__ import annotations

import re

from sqlalchemy import select

from app.db.models import Game, Player
from app.services.play import moves
from app.web.http.identity import PLAYER_COOKIE, unsign_player

from ..helpers import HX, board_state, csrf_of, start_seeded
from ..play import WIN_LINE, WIN_SEED


def post(client, game_id: str, html: str, **fields):
    """The board form posted as the page's queue posts it: the ply and version of ``html``."""
    state = board_state(html)
    data = {"csrf_token": csrf_of(html), "ply": state["ply"], "version": state["version"], **fields}
    return client.post(f"/games/{game_id}/act", data=data, headers=HX)


def stored(app, game_id: str) -> tuple[str, int, int, str | None]:
    with app.state.sessionmaker() as session:
        game = session.get(Game, game_id)
        return game.moves, game.cursor, game.version, game.last_mid


def cards(html: str) -> list[str]:
    return re.findall(r'data-loc="(\w+)"[^>]*data-card="(\w+)"', html)


def test_a_draw_sent_twice_is_stored_once_and_both_answers_are_the_board(app, client):
    game_id, page = start_seeded(client, "pyramid", 8)
    first = post(client, game_id, page, action="draw", mid="m-draw-1")
    again = post(client, game_id, page, action="draw", mid="m-draw-1")  # the same form: the answer was lost
    assert first.status_code == again.status_code == 200
    assert board_state(first.text) == board_state(again.text) and board_state(again.text)["ply"] == 1
    assert cards(first.text) == cards(again.text)
    assert 'data-error' not in again.text
    assert 'data-mid="m-draw-1"' in again.text  # the board says which change it holds last
    assert stored(app, game_id)[:2] == ("D", 1)


def test_a_pair_sent_twice_is_removed_once(app, client):
    game_id, page = start_seeded(client, "pyramid", 8)
    pair = next(m for m in moves.record_of(_game(app, game_id)).position.legal_moves() if str(m).count("P") == 2)
    a, b = str(pair).split("+")
    for _ in range(2):
        answer = post(client, game_id, page, target=b, sel=a, mid="pair")
        assert answer.status_code == 200 and board_state(answer.text)["ply"] == 1
    assert stored(app, game_id)[:2] == (str(pair), 1)


def test_a_stale_tab_with_another_mid_still_gets_409_and_changes_nothing(app, client):
    game_id, page = start_seeded(client, "pyramid", 8)
    assert post(client, game_id, page, action="draw", mid="tab-a").status_code == 200
    before = stored(app, game_id)
    refused = post(client, game_id, page, action="draw", mid="tab-b")  # made on the board before the draw
    assert refused.status_code == 409 and 'data-error="stale"' in refused.text
    assert stored(app, game_id) == before
    # without a mid (a page of an older release, a plain form) as before
    assert post(client, game_id, page, action="draw").status_code == 409
    assert stored(app, game_id) == before


def test_a_retry_after_another_change_is_a_stale_tab(app, client):
    game_id, page = start_seeded(client, "pyramid", 8)
    drawn = post(client, game_id, page, action="draw", mid="mine")
    assert post(client, game_id, drawn.text, action="draw", mid="other-tab").status_code == 200
    refused = post(client, game_id, page, action="draw", mid="mine")  # no longer the last change
    assert refused.status_code == 409
    assert stored(app, game_id)[:2] == ("D D", 2)


def test_undo_sent_twice_takes_back_one_move(app, client):
    game_id, page = start_seeded(client, "pyramid", 8)
    drawn = post(client, game_id, page, action="draw", mid="d1")
    drawn = post(client, game_id, drawn.text, action="draw", mid="d2")
    for _ in range(2):
        undone = post(client, game_id, drawn.text, action="undo", mid="u1")
        assert undone.status_code == 200 and board_state(undone.text)["ply"] == 1
    assert stored(app, game_id)[:2] == ("D D", 1)  # the redo tail is kept


def test_the_winning_move_sent_again_is_answered_with_the_won_board(app, client):
    game_id, page = start_seeded(client, "pyramid", WIN_SEED)
    with app.state.sessionmaker() as session:
        game = session.get(Game, game_id)
        moves.play_moves(session, game, game.player, WIN_LINE[:-1])
        session.commit()
    page = client.get(f"/games/{game_id}").text
    first, second = WIN_LINE[-1].split("+")
    for _ in range(2):
        won = post(client, game_id, page, target=second, sel=first, mid="last")
        assert won.status_code == 200 and board_state(won.text)["status"] == "won"
    assert stored(app, game_id)[1] == len(WIN_LINE)


def test_a_first_move_sent_twice_stores_one_game(app, client):
    url = "/play/pyramid/8"
    page = client.get(url)
    data = {"csrf_token": csrf_of(page.text), "action": "draw", "mid": "first"}
    first = client.post(url, data=data, headers=HX)
    again = client.post(url, data=data, headers=HX)
    assert first.status_code == again.status_code == 200
    assert first.headers["HX-Push-Url"] == again.headers["HX-Push-Url"]
    assert board_state(first.text) == board_state(again.text)
    player_id, _ = unsign_player(app.state.settings.secret_key, client.cookies.get(PLAYER_COOKIE))
    with app.state.sessionmaker() as session:
        games = session.scalars(select(Game).where(Game.player_id == player_id)).all()
        assert [(g.moves, g.last_mid, g.abandoned) for g in games] == [("D", "first", False)]
    # another tab's first move of the same deal (another mid) is told the game is in play
    raced = client.post(url, data={**data, "mid": "other"}, headers=HX)
    assert raced.status_code == 409 and 'data-error="raced"' in raced.text


def test_a_malformed_mid_is_refused_and_changes_nothing(app, client):
    game_id, page = start_seeded(client, "pyramid", 8)
    before = stored(app, game_id)
    for mid in ("x" * 33, "a b", "<script>", "é"):
        answer = post(client, game_id, page, action="draw", mid=mid)
        assert answer.status_code == 400, mid
    assert stored(app, game_id) == before


def test_an_api_move_forgets_the_pages_last_mid(app, client):
    """The API gives no mid: after its change, the page's old mid is no longer the last one."""
    game_id, page = start_seeded(client, "pyramid", 8)
    post(client, game_id, page, action="draw", mid="page")
    with app.state.sessionmaker() as session:
        game = session.get(Game, game_id)
        moves.play_move(session, game, session.get(Player, game.player_id), "D")
        session.commit()
    assert stored(app, game_id)[3] is None
    assert post(client, game_id, page, action="draw", mid="page").status_code == 409


def _game(app, game_id: str) -> Game:
    with app.state.sessionmaker() as session:
        game = session.get(Game, game_id)
        session.expunge(game)
        return game
