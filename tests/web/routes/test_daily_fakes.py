"""The daily table's five fakes (issue 40), each tried as an attacker would, on SQLite and
PostgreSQL: none of them ranks as a clean win. Beside them the one honest way: a person's first
game of the day's deal, at the board, unaided, at a person's pace, ranks.

The server times a game from its first move to its last; a test plays in milliseconds, so a
person's pace is the server's clock moved on by a few seconds a move (``clock``)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from app.db.models import Game
from app.engine import card, deal_for_seed, format_deal, get_preset
from app.services.assist import daily_choice
from app.services.assist import par as par_service
from app.services.play import daily, moves
from app.services.stats import leaderboard

from ..helpers import HX, act, board_fields, board_state, csrf_of
from ..play import api_player, new_game, play_line


class Clock:
    """The server's clock for stored moves: from ``now`` on, ``pace`` seconds later each time it is read."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)
        self.pace = 0.0

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=self.pace)
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    found = Clock()
    monkeypatch.setattr(moves, "utcnow", found)
    return found


def _today(client) -> tuple[int, list[str]]:
    """Today's Pyramid deal and its par line."""
    seed = client.get("/api/daily/pyramid").json()["seed"]
    with client.app.state.sessionmaker() as session:
        found = par_service.known(session, par_service.start_of_deal("pyramid", seed))
    assert found is not None and found.proven
    return seed, list(found.line)


def _at_board(client, url: str, line, html: str | None = None, game_id: str | None = None) -> tuple[str, str]:
    """Play ``line`` at the board as the page posts it: from a deal ready to play (``url``), or
    on a stored game (``game_id`` and its page). Returns (game id, the last board)."""
    if game_id is None:
        page = client.get(url).text
        first = client.post(url, data={"csrf_token": csrf_of(page), **board_fields(line[0])}, headers=HX)
        assert first.status_code == 200, first.text
        game_id, html, line = first.headers["HX-Push-Url"].rsplit("/", 1)[1], first.text, line[1:]
    assert html is not None
    for move in line:
        answer = act(client, game_id, html, **board_fields(move))
        assert answer.status_code == 200, answer.text
        html = answer.text
    return game_id, html


def _mine(client, day=None, preset: str = "pyramid", viewer: str | None = None):
    """The viewer's row of the day's table (None: not on it)."""
    with client.app.state.sessionmaker() as session:
        table = leaderboard.table(session, preset, day or daily.utc_today(), viewer or _player_id(client),
                                  choose=False)
    return table.mine


def _player_id(client) -> str:
    from app.web.http.identity import PLAYER_COOKIE, unsign_player

    return unsign_player(client.app.state.settings.secret_key, client.cookies.get(PLAYER_COOKIE))[0]


def _game(client, game_id: str) -> Game:
    with client.app.state.sessionmaker() as session:
        return session.get(Game, game_id)


def test_a_persons_first_game_at_the_board_ranks(client, clock):
    seed, line = _today(client)
    clock.pace = 3.0
    game_id, html = _at_board(client, f"/play/pyramid/{seed}", line)
    assert board_state(html)["status"] == "won"
    mine = _mine(client)
    assert mine is not None and mine.clean and mine.rank is not None and mine.game_id == game_id


def test_fake_1_try_again_from_here_keeps_the_hints_the_undos_and_the_clock(client, clock):
    """Follow every hint to a win, then "try again from here" one move before the end and play
    the last move: the retry has the game's hints and its clock, and is not the first game."""
    seed, line = _today(client)
    clock.pace = 3.0
    game_id, html = _at_board(client, f"/play/pyramid/{seed}", line[:1])
    while board_state(html)["status"] == "playing":
        hinted = client.post(f"/games/{game_id}/hint", data={"csrf_token": csrf_of(html)}, headers=HX)
        hint = re.search(r'data-hint="([^"]+)"', hinted.text).group(1)
        _, html = _at_board(client, "", [hint], html=hinted.text, game_id=game_id)
    won = _game(client, game_id)
    assert won.status == "won" and won.hint_count > 0
    retried = client.post(f"/games/{game_id}/retry", data={"csrf_token": csrf_of(html), "retry_ply": won.cursor - 1})
    assert retried.status_code == 303
    new_id = retried.headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/games/{new_id}").text
    last = won.moves.split()[won.cursor - 1]
    _, html = _at_board(client, "", [last], html=page, game_id=new_id)
    again = _game(client, new_id)
    assert again.status == "won" and again.hint_count == won.hint_count
    assert again.started_at.replace(tzinfo=UTC) == won.started_at.replace(tzinfo=UTC)  # the clock goes on
    mine = _mine(client)
    assert mine is not None and mine.rank is None and not mine.clean


def test_fake_1_try_again_from_a_game_in_play_is_refused_and_its_undos_stay(client, clock):
    """"Try again from here" asked of the day's game in play, to leave an undo behind in a new
    game from the point before it: refused (it is the analysis's, of a game that is over), and
    the game goes on with its undo counted."""
    seed, line = _today(client)
    clock.pace = 3.0
    game_id, html = _at_board(client, f"/play/pyramid/{seed}", line[:3])
    html = act(client, game_id, html, action="undo").text
    game_id, html = _at_board(client, "", line[2:5], html=html, game_id=game_id)
    retried = client.post(f"/games/{game_id}/retry", data={"csrf_token": csrf_of(html), "retry_ply": 4})
    assert retried.status_code == 422 and not _game(client, game_id).abandoned
    _at_board(client, "", line[5:], html=client.get(f"/games/{game_id}").text, game_id=game_id)
    game = _game(client, game_id)
    assert game.status == "won" and game.undo_count == 1
    mine = _mine(client)
    assert mine is not None and mine.rank is None and mine.why == "assisted"


def test_fake_2_lose_once_read_the_line_and_win_again(client, clock):
    """Restart (confirmed: the game counts as lost), read the winning line on the deal page, and
    play it in a new game at a person's pace: not the player's first game of the deal."""
    seed, line = _today(client)
    clock.pace = 3.0
    game_id, html = _at_board(client, f"/play/pyramid/{seed}", line[:2])
    restarted = act(client, game_id, html, action="confirm-restart")
    assert restarted.status_code == 200 and _game(client, game_id).abandoned
    deal_page = client.get(f"/deal/pyramid/{seed}").text
    assert 'data-verdict' in deal_page or "winning line" in deal_page.lower()  # the line is theirs to read now
    second_id, html = _at_board(client, f"/play/pyramid/{seed}", line)
    assert second_id != game_id and board_state(html)["status"] == "won"
    mine = _mine(client)
    assert mine is not None and mine.rank is None and mine.why == "again"


def _won_yesterday(client, clock) -> tuple:
    """Yesterday's Relaxed deal won along its par line at 22:00 by ``client``'s player, at a
    person's pace: (yesterday, seed, line, the winning game's id)."""
    yesterday = daily.utc_today() - timedelta(days=1)
    with client.app.state.sessionmaker() as session:
        seed = daily_choice.daily_deal(session, "relaxed", yesterday).seed
        line = list(par_service.par_of(session, par_service.start_of_deal("relaxed", seed), player_id=None).line)
    clock.pace = 3.0
    clock.now = datetime.combine(yesterday, datetime.min.time(), tzinfo=UTC) + timedelta(hours=22)
    winner_id, html = _at_board(client, f"/play/relaxed/{seed}", line)
    assert board_state(html)["status"] == "won"
    return yesterday, seed, line, winner_id


def test_fake_2_a_past_days_table_is_final_at_midnight_and_hides_its_replays_from_open_games(
        client, other_client, clock):
    """A game of yesterday's deal still open at midnight: the winners' replays stay hidden from
    its player, and finished after midnight it does not reach yesterday's table."""
    yesterday, seed, line, winner_id = _won_yesterday(other_client, clock)
    clock.now = datetime.combine(yesterday, datetime.min.time(), tzinfo=UTC) + timedelta(hours=23, minutes=59)
    game_id, html = _at_board(client, f"/play/relaxed/{seed}", line[:2])
    assert client.get(f"/g/{winner_id}/replay").status_code == 403  # open since yesterday: no spoilers
    table = client.get(f"/daily/relaxed/table?day={yesterday.isoformat()}").text
    assert f"/g/{winner_id}/replay" not in table and 'data-spoilers="hidden"' in table
    clock.now = datetime.now(UTC)
    _, html = _at_board(client, "", line[2:], html=client.get(f"/games/{game_id}").text, game_id=game_id)
    assert board_state(html)["status"] == "won"
    assert _mine(client, yesterday, "relaxed") is None  # finished today: yesterday's table was final
    assert _mine(other_client, yesterday, "relaxed").rank is not None
    assert client.get(f"/g/{winner_id}/replay").status_code == 200  # nothing open now


def test_fake_2b_a_game_stored_by_a_hint_keeps_a_past_days_replays_hidden(client, other_client, clock):
    """A hint asked before the first move stores the game: not played yet, it is still the
    player's first game of the deal, and the day's winning lines stay hidden from it."""
    yesterday, seed, line, winner_id = _won_yesterday(other_client, clock)
    page = client.get(f"/play/relaxed/{seed}").text
    hinted = client.post(f"/play/relaxed/{seed}/hint", data={"csrf_token": csrf_of(page)}, headers=HX)
    assert hinted.status_code == 200 and "data-hint" in hinted.text
    assert client.get(f"/g/{winner_id}/replay").status_code == 403
    table = client.get(f"/daily/relaxed/table?day={yesterday.isoformat()}").text
    assert f"/g/{winner_id}/replay" not in table and 'data-spoilers="hidden"' in table


def test_fake_3_a_program_through_the_api_is_listed_never_ranked(client):
    seed, line = _today(client)
    auth = api_player(client)
    game = play_line(client, auth, new_game(client, auth, "pyramid", seed), line)
    assert game["status"] == "won"
    entry = next(e for e in client.get("/api/daily/pyramid", headers=auth).json()["leaderboard"] if e["you"])
    assert entry["rank"] is None and entry["clean"] is False and entry["unranked"] == "api"
    page = client.get("/daily/pyramid/table").text
    assert 'data-unranked="api"' in page and "through the API" in page


def test_fake_3_a_program_at_the_board_is_faster_than_a_person(client, clock):
    seed, line = _today(client)
    clock.pace = 0.0  # as fast as the server answers
    _, html = _at_board(client, f"/play/pyramid/{seed}", line)
    assert board_state(html)["status"] == "won"
    mine = _mine(client)
    assert mine is not None and mine.rank is None and mine.why == "too_fast"


def test_fake_3_a_hint_before_the_first_move_counts_in_the_game_then_played(client, clock):
    seed, line = _today(client)
    clock.pace = 3.0
    url = f"/play/pyramid/{seed}"
    hinted = client.post(f"{url}/hint", data={"csrf_token": csrf_of(client.get(url).text)}, headers=HX)
    assert hinted.status_code == 200 and "data-hint=" in hinted.text
    hinted_id = hinted.headers["HX-Push-Url"].rsplit("/", 1)[1]
    game_id, html = _at_board(client, url, line)  # back to the deal's link, and play it from there
    assert game_id == hinted_id and board_state(html)["status"] == "won"
    assert _game(client, game_id).hint_count == 1
    mine = _mine(client)
    assert mine is not None and mine.rank is None and mine.why == "assisted"
    # the player reads why their win has no place, in words under their name, not in a title
    row = re.search(r'<tr[^>]*data-mine[^>]*>.*?</tr>', client.get("/daily/pyramid/table").text, re.S).group(0)
    # its player is told which help it was; others see the rule's badge
    assert re.search(r'data-unranked-why>Played with hints: not ranked</span>', row), row
    assert 'title="With undo, hint, auto-finish or “still winnable?”: not ranked"' in row
    # the end panel says so too, beside the share text that has no place in it
    panel = client.get(f"/games/{game_id}/analysis", headers=HX).text
    assert 'data-unranked-why>Played with hints: not ranked<' in panel


def _prefs(client, html: str, **fields) -> None:
    answer = client.post("/prefs", data={"csrf_token": csrf_of(html), "scoring": "simple", "next": "/", **fields})
    assert answer.status_code == 303


def test_still_winnable_shown_marks_the_game_though_turned_off_before_each_move(client, clock):
    """The solver's verdict, once shown, is help: turning the setting off before the next move
    does not make the game clean (the verdict is recorded when it is shown, not when a move is
    stored with the setting on)."""
    seed, line = _today(client)
    clock.pace = 3.0
    game_id, html = _at_board(client, f"/play/pyramid/{seed}", line[:1])
    _prefs(client, html, winnable_indicator="true")
    shown = client.get(f"/games/{game_id}/solver", headers=HX)
    assert shown.status_code == 200 and 'data-winnable="yes"' in shown.text
    _prefs(client, html)  # off again before the next move
    game_id, html = _at_board(client, "", line[1:], html=client.get(f"/games/{game_id}").text, game_id=game_id)
    assert board_state(html)["status"] == "won"
    assert _game(client, game_id).winnable_shown is True
    mine = _mine(client)
    assert mine is not None and mine.rank is None and mine.why == "assisted"


def test_the_setting_alone_is_no_help(client, clock):
    """With "still winnable?" on but its verdict never asked for (a page without JavaScript shows
    the link only), nothing was shown: the win is clean."""
    seed, line = _today(client)
    clock.pace = 3.0
    page = client.get(f"/play/pyramid/{seed}").text
    _prefs(client, page, winnable_indicator="true")
    game_id, html = _at_board(client, f"/play/pyramid/{seed}", line)
    assert board_state(html)["status"] == "won" and _game(client, game_id).winnable_shown is False
    mine = _mine(client)
    assert mine is not None and mine.clean and mine.rank is not None


SWAPPED = str.maketrans("CDHS", "DCSH")


def _swapped(preset: str, seed: int) -> str:
    """The deal of ``seed`` with its suits swapped (clubs and diamonds, hearts and spades): the
    same game to a player of Pyramid, which reads only ranks."""
    return format_deal(deal_for_seed(get_preset(preset).game, seed)).translate(SWAPPED)


def _complemented(preset: str, seed: int) -> str:
    """The deal of ``seed`` with each rank v but the king's made 13 - v: every pair still makes
    13, in the same places, so a line of one is a line of the other, move for move."""
    cards = deal_for_seed(get_preset(preset).game, seed)
    return format_deal(tuple(c if c.rank == 13 else card(13 - c.rank, c.suit) for c in cards))


@pytest.mark.parametrize("changed", [_swapped, _complemented])
def test_fake_4_the_days_cards_with_their_suits_swapped_are_the_same_deal(client, clock, changed):
    """Played first as an imported deal with its suits swapped, or its ranks v made 13 - v
    (hints and all: a line of it plays unchanged on the day's deal), the day's deal is another
    try, not a clean first game."""
    seed, line = _today(client)
    clock.pace = 3.0
    imported = "/play/pyramid?deal=" + changed("pyramid", seed).replace(" ", "+")
    first_id, html = _at_board(client, imported, line)
    assert board_state(html)["status"] == "won"
    game_id, html = _at_board(client, f"/play/pyramid/{seed}", line)
    assert game_id != first_id and board_state(html)["status"] == "won"
    mine = _mine(client)
    assert mine is not None and mine.rank is None and mine.why == "again"


def test_fake_4_the_days_cards_under_another_preset_or_imported_are_not_shown_before_it_is_finished(
        client, other_client, clock):
    """Another player's wins of the day's cards, dealt by a sibling preset or imported with their
    suits swapped, are the day's line: hidden from a viewer with the day's deal in play, shown
    once they have finished it."""
    seed, line = _today(client)
    clock.pace = 3.0
    sibling_id, html = _at_board(other_client, f"/play/pyramid-classic/{seed}", line)
    assert board_state(html)["status"] == "won"
    swapped = "/play/pyramid?deal=" + _swapped("pyramid", seed).replace(" ", "+")
    imported_id, html = _at_board(other_client, swapped, line)
    assert board_state(html)["status"] == "won"
    game_id, html = _at_board(client, f"/play/pyramid/{seed}", line[:1])
    for winner in (sibling_id, imported_id):
        assert client.get(f"/g/{winner}/replay").status_code == 403
    _, html = _at_board(client, "", line[1:], html=client.get(f"/games/{game_id}").text, game_id=game_id)
    assert board_state(html)["status"] == "won"
    mine = _mine(client)
    assert mine is not None and mine.clean and mine.rank is not None  # seeing nothing, they ranked
    for winner in (sibling_id, imported_id):
        assert client.get(f"/g/{winner}/replay").status_code == 200


def test_fake_5_the_days_cards_under_a_sibling_preset_beside_the_days_game_show_no_line(client, clock):
    """The day's game in play, the same cards dealt by a sibling preset and given up at once (a
    new deal): the deal's page still hides the line from the day's game."""
    seed, line = _today(client)
    clock.pace = 3.0
    _at_board(client, f"/play/pyramid/{seed}", line[:1])
    sibling_id, html = _at_board(client, f"/play/pyramid-3/{seed}", line[:1])
    assert act(client, sibling_id, html, action="confirm-new").status_code == 200
    assert _game(client, sibling_id).abandoned
    page = client.get(f"/deal/pyramid/{seed}").text
    assert "data-moves" not in page and " ".join(line[:6]) not in page
    assert client.get(f"/api/deals/pyramid/{seed}").json().get("verdict") in (None, {}, [])


def test_fake_5_a_sibling_game_played_beside_the_days_game_makes_its_win_unranked(client, clock):
    """The day's game in play, the same cards won under a sibling preset (hints and all: a line
    of Pyramid with three passes plays on the day's deal): the day's win is listed, not ranked."""
    seed, line = _today(client)
    clock.pace = 3.0
    game_id, html = _at_board(client, f"/play/pyramid/{seed}", line[:1])
    sibling_id, sibling = _at_board(client, f"/play/pyramid-3/{seed}", line)
    assert board_state(sibling)["status"] == "won"
    _, html = _at_board(client, "", line[1:], html=client.get(f"/games/{game_id}").text, game_id=game_id)
    assert board_state(html)["status"] == "won"
    mine = _mine(client)
    assert mine is not None and mine.rank is None and not mine.clean and mine.why == "alongside"
    table = client.get("/daily/pyramid/table", headers={"Accept-Language": "en"}).text
    assert "The same cards were opened in another game while this one was played: not ranked" in table


def test_fake_5_a_hint_asked_on_the_deal_page_of_the_days_game_in_play_is_that_games(client, clock):
    """The deal's first hint, asked from a tab opened before the day's game began: the game in
    play is the answer, and no second game of the cards is stored for it."""
    seed, line = _today(client)
    clock.pace = 3.0
    stale = client.get(f"/play/pyramid/{seed}").text
    game_id, _ = _at_board(client, f"/play/pyramid/{seed}", line[:1])
    with client.app.state.sessionmaker() as session:
        before = session.query(Game).count()
    hinted = client.post(f"/play/pyramid/{seed}/hint", data={"csrf_token": csrf_of(stale)}, headers=HX)
    assert hinted.status_code == 409 and hinted.headers["HX-Push-Url"] == f"/games/{game_id}"
    assert "data-hint" not in hinted.text
    with client.app.state.sessionmaker() as session:
        assert session.query(Game).count() == before
    assert _game(client, game_id).hint_count == 0


def test_a_retry_after_the_days_win_leaves_the_line_and_the_replays_shown(client, other_client, clock):
    """A game of the day's cards begun after the day's win can rank nowhere (another try): open,
    it hides nothing from its player."""
    seed, line = _today(client)
    clock.pace = 3.0
    winner_id, _ = _at_board(other_client, f"/play/pyramid/{seed}", line)
    _at_board(client, f"/play/pyramid/{seed}", line)
    retry_id, _ = _at_board(client, f"/play/pyramid/{seed}", line[:1])
    assert _game(client, retry_id).status == "playing"
    assert "data-moves" in client.get(f"/deal/pyramid/{seed}").text
    assert client.get(f"/g/{winner_id}/replay").status_code == 200


def test_a_retry_of_a_past_days_deal_won_leaves_its_line_shown(client, clock):
    yesterday, seed, line, _ = _won_yesterday(client, clock)
    clock.now = datetime.now(UTC)
    retry_id, _ = _at_board(client, f"/play/relaxed/{seed}", line[:1])
    assert _game(client, retry_id).status == "playing"
    assert "data-moves" in client.get(f"/deal/relaxed/{seed}").text
