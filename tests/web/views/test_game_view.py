"""The game page reads the game on the table from one value, ``table`` (an ``OnTable``): its
phase, status, end reason, record, time, undo and redo are not passed again beside it. Whether
the clock counts for a game is said once (``lifecycle.clock_counts``, ``OnTable.clock_counts``):
the score and the page's time both read it."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from app.db.models import Game
from app.engine import Scoring, scoring
from app.services.play import games, lifecycle
from app.services.play.games import OnTable, record_of
from app.web.views import game_view

from ..helpers import HX, act, board_fields, csrf_of, first_move
from ..play import WIN_LINE, WIN_SEED, api_player, browse_as, lose, set_columns

pytestmark = pytest.mark.sqlite_only

COPIES = ("phase", "status", "end_reason", "record", "stored", "elapsed", "timer_running", "can_undo", "can_redo")


def _timed(client) -> None:
    page = client.get(f"/play/pyramid/{WIN_SEED}").text
    assert client.post("/prefs", data={"csrf_token": csrf_of(page), "scoring": "timed"}).status_code in (200, 303)


def _row(app, game_id: str) -> Game:
    with app.state.sessionmaker() as session:
        game = session.get(Game, game_id)
        session.expunge(game)
        return game


@pytest.fixture
def contexts(monkeypatch):
    """The contexts render_game hands to game.html."""
    seen: list[dict] = []
    original = game_view.render

    def spy(request, name, context, **kw):
        seen.append(context)
        return original(request, name, context, **kw)

    monkeypatch.setattr(game_view, "render", spy)
    return seen


def test_the_page_is_given_the_game_on_the_table_once(client, contexts):
    game_id, _ = first_move(client, f"/play/pyramid/{WIN_SEED}", **board_fields(WIN_LINE[0]))
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    context = contexts[-1]
    assert isinstance(context["table"], OnTable)
    assert not set(COPIES) & context.keys()


def test_the_board_reads_its_state_from_the_table(client):
    game_id, _ = first_move(client, f"/play/pyramid/{WIN_SEED}", **board_fields(WIN_LINE[0]))
    html = client.get(f"/games/{game_id}").text
    board = re.search(r'<section id="board"[^>]*>', html).group(0)
    assert 'data-status="playing"' in board and 'data-ply="1"' in board and 'data-phase="playing"' in board
    assert '"cursor": 1' in board.replace("&#34;", '"')  # the page's engine gets the record's moves
    assert '<input type="hidden" name="ply" value="1">' in html
    assert 'data-stat="ply">1<' in html
    # a stored game: the menu's own buttons, undo open, redo greyed with its reason
    assert 'value="restart" class="button quiet"' in html
    assert re.search(r'data-action="undo" aria-keyshortcuts', html)
    assert re.search(r'data-action="redo" disabled data-why="[^"]+"', html)
    # the same again after an undo, from the board's answer
    undone = act(client, game_id, html, action="undo")
    assert undone.status_code == 200
    assert 'data-ply="0"' in undone.text and re.search(r'data-action="undo" disabled data-why="[^"]+"', undone.text)
    assert re.search(r'data-action="redo" aria-keyshortcuts', undone.text)


def test_a_won_game_shows_its_panel_end_reason_and_analysis_slot(client, other_client):
    game_id, answer = first_move(client, f"/play/pyramid/{WIN_SEED}", **board_fields(WIN_LINE[0]))
    html = answer.text
    for move in WIN_LINE[1:]:
        answer = act(client, game_id, html, **board_fields(move))
        assert answer.status_code == 200
        html = answer.text
    assert 'data-status="won"' in html and 'data-phase="won"' in html and "data-end-panel" in html
    page = client.get(f"/games/{game_id}").text
    assert 'data-banner="won"' in page and "Show the analysis: how short can a win be?" in page
    assert 'data-action="replay"' in page  # _end_actions.html
    assert re.search(r'data-action="undo" disabled data-why="[^"]+"', page)  # a win is final
    # a watcher sees the finished board, but no undo, redo or end actions
    watched = other_client.get(f"/games/{game_id}").text
    assert 'data-status="won"' in watched and 'data-action="undo"' not in watched
    assert 'data-action="replay"' not in watched


def test_a_game_with_no_moves_left_then_given_up_says_why_and_offers_its_analysis(client, other_client):
    auth = api_player(other_client)
    game = lose(other_client, auth)  # no moves left: it may still be undone
    browse_as(client, other_client, auth)
    html = client.get(f"/games/{game['id']}").text
    assert 'data-status="lost"' in html and 'data-phase="lost"' in html and 'data-banner="lost"' in html
    assert 'data-action="give-up"' in html and re.search(r'data-action="undo" aria-keyshortcuts', html)
    assert "Show the analysis" not in html  # not over yet
    assert act(client, game["id"], html, action="give-up").status_code == 200
    page = client.get(f"/games/{game['id']}").text
    assert 'data-phase="conceded"' in page and 'data-action="give-up"' not in page
    assert "Show the analysis: where was the game lost?" in page and 'data-action="replay"' in page


def test_a_timed_game_shows_its_running_clock(client, app):
    _timed(client)
    game_id, _ = first_move(client, f"/play/pyramid/{WIN_SEED}", **board_fields(WIN_LINE[0]))
    html = client.get(f"/games/{game_id}").text
    assert re.search(r'<span data-timer="\d+" data-running>\d+:\d\d</span>', html)
    assert "<span data-offline-time>" not in html
    game = _row(app, game_id)
    table = OnTable.of(game)
    assert table.timed and table.clock_counts and game.scoring == Scoring.TIMED
    # past an hour as the share text and /stats say it (formatting.duration), not "62:05"
    set_columns(app, game_id, started_at=datetime.now(UTC) - timedelta(seconds=3725))
    assert re.search(r'<span data-timer="37\d\d" data-running>1:02:\d\d</span>', client.get(f"/games/{game_id}").text)


def test_a_timed_game_played_offline_is_not_timed_and_scores_its_pairs(client, app):
    _timed(client)
    game_id, _ = first_move(client, f"/play/pyramid/{WIN_SEED}", **board_fields(WIN_LINE[0]))
    set_columns(app, game_id, played_offline=True)
    html = client.get(f"/games/{game_id}").text
    assert "<span data-offline-time>" in html and "data-timer=" not in html
    game = _row(app, game_id)
    assert not lifecycle.clock_counts(game) and not OnTable.of(game).clock_counts
    assert games.current_score(game) == scoring.score(record_of(game), Scoring.PAIRS)


def test_an_untimed_game_shows_no_clock(client):
    game_id, _ = first_move(client, f"/play/pyramid/{WIN_SEED}", **board_fields(WIN_LINE[0]))
    html = client.get(f"/games/{game_id}").text
    assert 'data-stat="time"' not in html


def test_the_solver_status_block_renders_with_its_own_small_context(client):
    game_id, _ = first_move(client, f"/play/pyramid/{WIN_SEED}", **board_fields(WIN_LINE[0]))
    answer = client.get(f"/games/{game_id}/solver", headers=HX)
    assert answer.status_code == 200
    assert 'id="solver-status"' in answer.text and 'id="board"' not in answer.text
