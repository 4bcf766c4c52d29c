"""Whole games played offline, judged by the server on return (issue 38, items 3 and 4).

The page queues every change it made with no network (moves, undo, redo, a Gaps redeal, the
first move of a new deal it picked the seed of) and, when the network is back, posts them in
order to the ordinary endpoints, each with its id (``mid``) and ``offline=1``, each on the ply
and version of the answer before it. The server replays and checks each as if it were made now;
a game with any such move is played offline for good: its time is never counted (no seconds, a
timed score without its time bonus), and the daily table ranks it by its moves and says so."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from sqlalchemy import update

from app.db.models import DailyDeal, Game, Player
from app.engine import GameRecord, deal_for_seed, get_preset, scoring
from app.services.assist import par as par_service
from app.services.play import returned
from app.services.play.games import record_of
from app.services.stats import leaderboard

from ..helpers import HX, act, board_fields, board_state, csrf_of
from ..play import WIN_LINE, WIN_SEED, set_columns


class Queue:
    """The page's queue as it is sent on return: every change posted in order, on the board of
    the answer before it, with its own id and the offline mark."""

    def __init__(self, client, url: str):
        self.client = client
        page = client.get(url)
        assert page.status_code == 200, page.text
        self.url, self.html, self.n = url, page.text, 0
        self.game_id: str | None = None

    def send(self, *, offline: bool = True, again: bool = False, **fields):
        if not again:
            self.n += 1
        data = {"csrf_token": csrf_of(self.html), "mid": f"offline-{self.n:04d}", **fields}
        if offline:
            data["offline"] = "1"
        if self.game_id is None:  # a deal ready to play: its first move goes to the deal's link
            answer = self.client.post(self.url, data=data, headers=HX)
            assert answer.status_code == 200, answer.text
            self.game_id = answer.headers["HX-Push-Url"].rsplit("/", 1)[1]
        else:
            state = board_state(self.html)
            data |= {"ply": state["ply"], "version": state["version"]}
            answer = self.client.post(f"/games/{self.game_id}/act", data=data, headers=HX)
        if answer.status_code == 200 and not again:
            self.html = answer.text
        return answer

    def move(self, notation: str, **kw):
        return self.send(**board_fields(notation), **kw)


def _new_record(preset: str, seed: int) -> GameRecord:
    p = get_preset(preset)
    return GameRecord.new(p.game, p.rules, deal_for_seed(p.game, seed))


def _game(app, game_id: str) -> Game:
    with app.state.sessionmaker() as session:
        game = session.get(Game, game_id)
        session.expunge(game)
        return game


def test_a_new_deal_played_to_its_win_offline_with_undo_and_redo_is_replayed_move_for_move(client, app):
    queue = Queue(client, f"/play/pyramid/{WIN_SEED}")  # the seed the page picked, offline
    line = list(WIN_LINE)
    for i, move in enumerate(line):
        answer = queue.move(move)
        assert answer.status_code == 200, answer.text
        if i == 5:  # an undo and its redo, queued as actions in order
            assert queue.send(action="undo").status_code == 200
            assert board_state(queue.html)["ply"] == 5
            assert queue.send(action="redo").status_code == 200
        if i == 9:  # an answer lost on the way back: the same change again is answered, not applied twice
            again = queue.move(move, again=True)
            assert again.status_code == 200 and board_state(again.text) == board_state(queue.html)
    game = _game(app, queue.game_id)
    assert game.status == "won" and game.moves == " ".join(line) and game.cursor == len(line)
    assert game.played_offline and game.seconds is None and game.undo_count == 1
    assert board_state(queue.html)["status"] == "won"
    # the end screen says why no time is shown, and the share text too
    page = client.get(f"/games/{queue.game_id}").text
    assert "played offline (time not counted)" in page
    history = client.get("/stats").text  # the history's time column says why it has none
    row = history.split(f'data-game-id="{queue.game_id}"')[1].split("</tr>")[0]
    assert "data-offline" in row and "played offline" in row


def test_a_timed_game_played_offline_earns_no_time_bonus(client, app):
    page = client.get(f"/play/pyramid/{WIN_SEED}").text
    assert client.post("/prefs", data={"csrf_token": csrf_of(page), "scoring": "timed"}).status_code in (200, 303)
    queue = Queue(client, f"/play/pyramid/{WIN_SEED}")
    queue.move(WIN_LINE[0])
    assert 'data-offline-time' in queue.html and "played offline: not timed" in queue.html
    assert "data-timer=" not in queue.html
    for move in WIN_LINE[1:]:
        assert queue.move(move).status_code == 200
    game = _game(app, queue.game_id)
    assert game.scoring == "timed" and game.status == "won"
    assert game.score == scoring.score(record_of(game), "pairs")  # the pairs, without the time bonus
    assert game.score < scoring.score(record_of(game), "timed", 3600)


def test_a_game_played_online_keeps_its_time_and_one_offline_move_marks_it_for_good(client, app):
    queue = Queue(client, f"/play/pyramid/{WIN_SEED}")
    for move in WIN_LINE[:3]:
        queue.move(move, offline=False)
    assert not _game(app, queue.game_id).played_offline
    queue.move(WIN_LINE[3])  # one made with no network
    for move in WIN_LINE[4:]:
        queue.move(move, offline=False)
    game = _game(app, queue.game_id)
    assert game.status == "won" and game.played_offline and game.seconds is None


def test_an_online_win_is_timed_as_before(client, app):
    queue = Queue(client, f"/play/pyramid/{WIN_SEED}")
    for move in WIN_LINE:
        queue.move(move, offline=False)
    game = _game(app, queue.game_id)
    assert game.status == "won" and not game.played_offline and game.seconds is not None


def test_gaps_offline_with_a_redeal_is_replayed_and_checked(client, app):
    queue = Queue(client, "/play/gaps/21")
    for step in range(8):
        if step == 4:  # a redeal made offline: the seeded shuffle is the same on the server
            assert queue.send(action="confirm-redeal").status_code == 200
            continue
        position = (record_of(_game(app, queue.game_id)) if queue.game_id else _new_record("gaps", 21)).position
        fill = next(m for m in position.legal_moves() if str(m) != "N")
        card = next(f"{i // 13}.{i % 13}" for i, c in enumerate(position.grid) if c == fill.card)
        assert queue.send(sel=card, target=f"{fill.row}.{fill.col}").status_code == 200
    game = _game(app, queue.game_id)
    assert game.cursor == 8 and " N " in f" {game.moves} " and game.played_offline


def test_a_refused_change_in_the_queue_stores_nothing_and_the_rest_is_stale(client, app):
    queue = Queue(client, f"/play/pyramid/{WIN_SEED}")
    for move in WIN_LINE[:4]:
        queue.move(move)
    before = _game(app, queue.game_id)
    refused = queue.send(target="P0")  # the apex, covered: not a move
    assert refused.status_code == 200 and board_state(refused.text)["ply"] == 4  # a word, nothing stored
    redo = queue.send(action="redo")  # nothing taken back: refused with the reason
    assert redo.status_code == 422 and 'data-error="nothing_to_redo"' in redo.text
    after = _game(app, queue.game_id)
    assert (after.moves, after.cursor, after.version) == (before.moves, before.cursor, before.version)


def _day_row(app, day, seed: int = WIN_SEED) -> None:
    with app.state.sessionmaker() as session:
        if session.get(DailyDeal, (day, "pyramid")) is None:
            session.add(DailyDeal(day=day, preset="pyramid", seed=seed, candidate=0, proven=True))
            session.commit()
        par_service.par_of(session, par_service.start_of_deal("pyramid", seed), player_id=None)


def test_a_daily_deal_won_offline_is_on_the_table_marked_played_offline_and_not_ranked(client, other_client, app):
    """Its moves came together on return: the server did not see it played, and a program can
    say it played offline as well as a person (a form's ``offline`` field): not ranked."""
    day = datetime(2021, 4, 2, tzinfo=UTC).date()
    _day_row(app, day)
    noon = datetime(2021, 4, 2, 12, tzinfo=UTC)
    offline = Queue(client, f"/play/pyramid/{WIN_SEED}")
    for move in WIN_LINE:
        offline.move(move)
    online = Queue(other_client, f"/play/pyramid/{WIN_SEED}")
    for move in WIN_LINE:
        online.move(move, offline=False)
    # both on that day; the offline game's moves all arrived within a second (faster than anyone
    # plays: as they do when the network comes back)
    set_columns(app, offline.game_id, started_at=noon, finished_at=noon + timedelta(seconds=1), daily_on=day)
    set_columns(app, online.game_id, started_at=noon, finished_at=noon + timedelta(seconds=600), seconds=600,
                daily_on=day)
    with app.state.sessionmaker() as session:
        for game_id, name in ((offline.game_id, "Offline"), (online.game_id, "Online")):
            player_id = session.get(Game, game_id).player_id
            session.execute(update(Player).where(Player.id == player_id).values(display_name=name))
        session.commit()
        table = leaderboard.table(session, "pyramid", day, None, choose=False)
    rows = [(e.rank, e.name, e.moves, e.seconds, e.why, e.offline) for e in table.entries]
    assert rows == [(1, "Online", len(WIN_LINE), 600, None, False),
                    (None, "Offline", len(WIN_LINE), None, "offline", True)]
    assert table.entries[1].to_json()["offline"] is True and table.entries[1].to_json()["unranked"] == "offline"
    page = client.get(f"/daily/pyramid/table?day={day.isoformat()}").text
    assert page.count("data-offline") == 1 and 'data-unranked="offline"' in page and "played offline" in page


# ---------------------------------------------------------------- the changes sent back together

def _change(n: int, move: str | None = None, **fields) -> dict:
    return {"mid": f"back-{n:04d}", **(board_fields(move) if move else {}), **fields}


def _send_back(client, game_id: str, html: str, changes: list[dict]):
    """The page's return: a game's waiting changes in one request, on the board it last had."""
    state = board_state(html)
    return client.post(f"/games/{game_id}/changes", headers=HX,
                       data={"csrf_token": csrf_of(html), "ply": state["ply"], "version": state["version"],
                             "changes": json.dumps(changes)})


def _stored_first_move(client) -> tuple[str, str]:
    """A game whose first move reached the server before the network went."""
    queue = Queue(client, f"/play/pyramid/{WIN_SEED}")
    queue.move(WIN_LINE[0], offline=False)
    return queue.game_id, queue.html


def test_a_whole_game_sent_back_in_one_request_is_judged_change_by_change_and_stored(client, app):
    game_id, html = _stored_first_move(client)
    before = _game(app, game_id)
    rest = WIN_LINE[1:]
    changes = [_change(n, move) for n, move in enumerate(rest)]
    changes[5:5] = [_change(900, action="undo"), _change(901, action="redo")]  # taken back and made again
    answer = _send_back(client, game_id, html, changes)
    assert answer.status_code == 200, answer.text
    assert answer.headers["X-Changes-Taken"] == str(len(changes)) and "X-Changes-Refused" not in answer.headers
    assert board_state(answer.text)["status"] == "won" and board_state(answer.text)["ply"] == len(WIN_LINE)
    game = _game(app, game_id)
    assert game.moves == " ".join(WIN_LINE) and game.status == "won" and game.undo_count == 1
    assert game.played_offline and game.seconds is None
    assert game.version == before.version + len(changes)  # each change its own conditional write
    assert game.last_mid == changes[-1]["mid"]


def test_a_change_refused_in_the_middle_keeps_the_ones_before_and_drops_the_rest(client, app):
    game_id, html = _stored_first_move(client)
    before = _game(app, game_id)
    changes = [_change(1, WIN_LINE[1]), _change(2, WIN_LINE[2]),
               _change(3, target="P0"),  # the apex, covered: the server moves nothing
               _change(4, WIN_LINE[3]), _change(5, WIN_LINE[4])]
    answer = _send_back(client, game_id, html, changes)
    assert answer.status_code == 200  # two stored: the refusal is said, the answer is the stored board
    assert answer.headers["X-Changes-Taken"] == "2" and answer.headers["X-Changes-Refused"] == "covered"
    assert 'data-error="covered"' in answer.text  # the board as stored says why
    state = board_state(answer.text)
    game = _game(app, game_id)
    assert game.moves == " ".join(WIN_LINE[:3]) and game.cursor == 3 == state["ply"]
    assert game.version == before.version + 2 == state["version"] and game.last_mid == "back-0002"

    # the same changes again (the answer was lost): answered from what was stored, nothing made twice
    again = _send_back(client, game_id, html, changes)
    assert again.status_code == 422 and again.headers["X-Changes-Taken"] == "2"
    after = _game(app, game_id)
    assert (after.moves, after.version) == (game.moves, game.version)


def test_an_illegal_undo_in_the_middle_is_refused_with_its_reason(client, app):
    game_id, html = _stored_first_move(client)
    changes = [_change(1, WIN_LINE[1]), _change(2, action="redo"), _change(3, WIN_LINE[2])]
    answer = _send_back(client, game_id, html, changes)
    assert answer.status_code == 200 and answer.headers["X-Changes-Refused"] == "nothing_to_redo"
    assert answer.headers["X-Changes-Taken"] == "1"
    # the same again stores nothing more: now the refusal is the answer's status
    again = _send_back(client, game_id, html, changes)
    assert again.status_code == 422 and again.headers["X-Changes-Taken"] == "1"
    assert _game(app, game_id).moves == " ".join(WIN_LINE[:2])


def test_a_change_named_as_the_board_never_names_it_is_refused_as_online(client, app):
    """Only an action that asks first is sent again as "confirm-…" (a redeal): "confirm-undo" is
    no action of the board's form online (422), nor in a queue sent back."""
    game_id, html = _stored_first_move(client)
    online = act(client, game_id, html, action="confirm-undo")
    assert online.status_code == 422
    changes = [_change(1, WIN_LINE[1]), _change(2, action="confirm-undo")]
    answer = _send_back(client, game_id, html, changes)
    assert answer.status_code == 200 and answer.headers["X-Changes-Refused"] == "unknown_action"
    assert answer.headers["X-Changes-Taken"] == "1" and _game(app, game_id).moves == " ".join(WIN_LINE[:2])


def test_the_same_changes_sent_again_are_answered_as_stored_and_the_rest_judged(client, app):
    game_id, html = _stored_first_move(client)
    changes = [_change(n, move) for n, move in enumerate(WIN_LINE[1:6])]
    first = _send_back(client, game_id, html, changes[:3])
    assert first.status_code == 200 and first.headers["X-Changes-Taken"] == "3"
    stored = _game(app, game_id)
    # the answer was lost: the page sends all it holds again, from the board it had before
    again = _send_back(client, game_id, html, changes)
    assert again.status_code == 200 and again.headers["X-Changes-Taken"] == "5"
    game = _game(app, game_id)
    assert game.moves == " ".join(WIN_LINE[:6]) and game.version == stored.version + 2
    # and once more, all of them in: nothing changes, nothing is refused as stale
    repeat = _send_back(client, game_id, html, changes)
    assert repeat.status_code == 200 and repeat.headers["X-Changes-Taken"] == "5"
    assert board_state(repeat.text) == board_state(again.text) and _game(app, game_id).version == game.version


def test_changes_made_on_a_board_that_moved_on_elsewhere_are_refused_whole(client, app):
    game_id, html = _stored_first_move(client)
    elsewhere = Queue(client, f"/games/{game_id}")  # another tab moves the game on
    elsewhere.game_id, elsewhere.n = game_id, 50  # its own change ids
    elsewhere.move(WIN_LINE[1], offline=False)
    stored = _game(app, game_id)
    assert stored.cursor == 2
    answer = _send_back(client, game_id, html, [_change(1, WIN_LINE[1]), _change(2, WIN_LINE[2])])
    assert answer.status_code == 409 and answer.headers["X-Changes-Taken"] == "0"
    assert answer.headers["X-Changes-Refused"] == "stale" and 'data-error="stale"' in answer.text
    game = _game(app, game_id)
    assert (game.moves, game.version, game.played_offline) == (stored.moves, stored.version, False)


def test_more_changes_than_one_request_takes_are_refused_and_nothing_is_stored(client, app):
    game_id, html = _stored_first_move(client)
    changes = [_change(n, action="undo" if n % 2 else "redo") for n in range(returned.MAX_CHANGES + 1)]
    answer = _send_back(client, game_id, html, changes)
    assert answer.status_code == 422 and answer.headers["X-Changes-Taken"] == "0"
    assert _game(app, game_id).cursor == 1
