"""The daily table (app.services.stats.leaderboard, /daily/{preset}/table, /api/daily/{preset}): clean
wins ranked by moves then time with ties shared, other wins after them, one row per player,
names and anonymity, the choice to appear, the UTC day's boundary, and no spoilers before a
viewer has finished today's deal."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import update

from app.db.models import DailyDeal, Game, Player
from app.services.assist import par as par_service
from app.services.play import daily
from app.services.stats import leaderboard

from ..helpers import csrf_of
from ..play import WIN_LINE, WIN_SEED, api_player, browse_as, move, new_game, play_line, played_by_hand, set_columns

DAY = date(2021, 3, 14)  # a past day of this test's own, with pyramid seed 250 as its deal


def _player(client, app, name: str | None = None, shown: bool = True) -> tuple[dict, str]:
    auth = api_player(client)
    game = new_game(client, auth, "pyramid", 1)  # a game never started tells us the player's id
    with app.state.sessionmaker() as session:
        player_id = session.get(Game, game["id"]).player_id
        session.execute(update(Player).where(Player.id == player_id).values(display_name=name, on_daily_table=shown))
        session.commit()
    return auth, player_id


def _won(client, app, auth, *, started: datetime, seconds: int, moves: int | None = None, undos: int = 0,
         hints: int = 0) -> dict:
    game = play_line(client, auth, new_game(client, auth, "pyramid", WIN_SEED), WIN_LINE)
    assert game["status"] == "won"
    # as if played at the board (the API's games are never clean): this test is of the ranking
    values = {"started_at": started, "finished_at": started + timedelta(seconds=seconds), "seconds": seconds,
              "undo_count": undos, "hint_count": hints, "played_via": "page"}
    if moves is not None:
        values["cursor"] = moves
    set_columns(app, game["id"], **values)
    return game


def _day_row(app, day: date, seed: int = WIN_SEED) -> None:
    with app.state.sessionmaker() as session:
        if session.get(DailyDeal, (day, "pyramid")) is None:
            session.add(DailyDeal(day=day, preset="pyramid", seed=seed, candidate=0, proven=True))
            session.commit()
        par_service.par_of(session, par_service.start_of_deal("pyramid", seed), player_id=None)


def test_clean_wins_rank_by_moves_then_time_ties_share_and_the_others_follow(client, app):
    _day_row(app, DAY)
    noon = datetime(2021, 3, 14, 12, tzinfo=UTC)
    ada, ada_id = _player(client, app, "Ada")
    bo, bo_id = _player(client, app, "Bo")
    anon, anon_id = _player(client, app, None)
    undo, undo_id = _player(client, app, "Undo")
    slow, slow_id = _player(client, app, "Long")
    hidden, hidden_id = _player(client, app, "Hidden", shown=False)
    early, _ = _player(client, app, "Early")
    late, _ = _player(client, app, "Late")
    midnight, midnight_id = _player(client, app, "Midnight")
    _won(client, app, ada, started=noon, seconds=100)
    _won(client, app, ada, started=noon, seconds=300)         # a second, worse win: one row a player
    _won(client, app, bo, started=noon, seconds=100)          # ties with Ada
    _won(client, app, anon, started=noon, seconds=90)         # the fastest at par
    _won(client, app, undo, started=noon, seconds=20, undos=1)  # fastest of all, not clean
    _won(client, app, slow, started=noon, seconds=30, moves=len(WIN_LINE) + 4)
    _won(client, app, hidden, started=noon, seconds=10)
    _won(client, app, early, started=datetime(2021, 3, 13, 23, 59, 59, tzinfo=UTC), seconds=5)  # the day before
    _won(client, app, late, started=datetime(2021, 3, 15, 0, 0, 0, tzinfo=UTC), seconds=5)      # the day after
    _won(client, app, midnight, started=datetime(2021, 3, 14, 0, 0, 0, tzinfo=UTC), seconds=200)
    with app.state.sessionmaker() as session:
        table = leaderboard.table(session, "pyramid", DAY, ada_id, choose=False)
    assert table.par is not None and table.par.proven and table.par.moves == len(WIN_LINE)
    rows = [(e.rank, e.name, e.moves, e.seconds, e.clean, e.over_par, e.mine) for e in table.entries]
    par = len(WIN_LINE)
    rows[1:3] = sorted(rows[1:3], key=lambda r: r[1])  # equal moves and seconds: either order, one rank
    assert rows == [
        (1, None, par, 90, True, 0, False),
        (2, "Ada", par, 100, True, 0, True),
        (2, "Bo", par, 100, True, 0, False),
        (4, "Midnight", par, 200, True, 0, False),
        (5, "Long", par + 4, 30, True, 4, False),
        (None, "Undo", par, 20, False, 0, False),
    ]
    assert table.lines_shown  # the day is over: replays for everyone
    assert table.place_of_mine() == (2, 5)
    with app.state.sessionmaker() as session:  # the player who chose not to appear sees their own row only
        own = leaderboard.table(session, "pyramid", DAY, hidden_id, choose=False)
        assert [(e.rank, e.name, e.mine) for e in own.entries][:2] == [(1, "Hidden", True), (2, None, False)]
        history = leaderboard.history(session, ada_id, today=DAY + timedelta(days=1))
        assert [(h.day, h.rank, h.ranked, h.over_par) for h in history] == [(DAY, 2, 5, 0)]
        assert leaderboard.history(session, ada_id, today=DAY) == []  # a table still open is not history
    page = client.get(f"/daily/pyramid/table?day={DAY.isoformat()}").text
    assert page.count("data-entry=") == 6 and "Anonymous" in page and "Hidden" not in page
    assert 'href="/rules/pyramid#par">What is par?</a>' in page  # a newcomer meets the word here
    assert re.search(r'data-rank="" data-clean="false"', page) and "not clean" in page
    assert page.count("/replay") == 6
    assert client.get("/daily/pyramid/table?day=2021-02-30").status_code == 422
    for odd in ("0001-01-01", "0001-01-02", "1999-12-31"):  # the page links the day before: no 500 at the calendar's start
        assert client.get(f"/daily/pyramid/table?day={odd}").status_code == 404
    assert client.get("/daily/pyramid/table?day=2000-01-01").status_code == 200
    assert client.get(f"/daily/pyramid/table?day={(daily.utc_today() + timedelta(days=1)).isoformat()}").status_code == 404
    assert client.get("/daily/nope/table").status_code == 404


def test_the_tables_pager_goes_back_to_the_first_daily_deal_and_no_further(client, app):
    _day_row(app, DAY)
    with app.state.sessionmaker() as session:
        first = daily.first_day(session, "pyramid")
    assert first is not None and first <= DAY
    page = client.get("/daily/pyramid/table").text
    assert f'href="/daily/pyramid/table?day={(daily.utc_today() - timedelta(days=1)).isoformat()}"' in page
    assert 'rel="next"' not in page
    at_first = client.get(f"/daily/pyramid/table?day={first.isoformat()}").text
    assert 'rel="prev"' not in at_first and f'table?day={(first + timedelta(days=1)).isoformat()}"' in at_first
    # it led on, a day at a time, into days that never had a daily deal
    before = client.get(f"/daily/pyramid/table?day={(first - timedelta(days=1)).isoformat()}").text
    assert "There was no daily deal of this game that day." in before and 'rel="prev"' not in before


def test_the_share_text_gives_par_and_the_place_on_the_table(client, app):
    _day_row(app, DAY)
    auth, _ = _player(client, app, "Sharer")
    game = _won(client, app, auth, started=datetime(2021, 3, 14, 9, tzinfo=UTC), seconds=60)
    browse_as(client, client, auth)
    text = client.get(f"/games/{game['id']}/analysis", headers={"HX-Request": "true"}).text
    assert 'id="share-result" hx-swap-oob="true"' in text
    shared = re.search(r"<pre class=\"share-text\" data-share-text[^>]*>(.*?)</pre>", text, re.S).group(1)
    assert f"Par {len(WIN_LINE)}: par · No. 1 of " in shared



def _today_line(client) -> tuple[dict, list[str]]:
    today = client.get("/api/daily/pyramid").json()
    start = par_service.start_of_deal("pyramid", today["seed"])
    with client.app.state.sessionmaker() as session:
        found = par_service.known(session, start)
    assert found is not None and found.proven and today["par"] == found.moves and today["par_proven"] is True
    return today, list(found.line)


@pytest.mark.parametrize("before", ["imported", "pyramid-classic"])
def test_a_win_of_cards_the_player_had_before_under_another_name_is_another_try(client, before):
    """The daily deal's cards imported as a deal, or dealt by a preset with the same cards: their
    hints follow the day's line, so the daily game after them knows it."""
    today, line = _today_line(client)
    auth = api_player(client)
    cards = new_game(client, api_player(client), "pyramid", today["seed"])["deal"]
    if before == "imported":
        copy = client.post("/api/games", json={"preset": "pyramid", "deal": cards}, headers=auth).json()
    else:
        copy = new_game(client, auth, before, today["seed"])
    assert copy["deal"] == cards
    won = play_line(client, auth, new_game(client, auth, "pyramid", today["seed"]), line)
    played_by_hand(client.app, won["id"])
    mine = [e for e in client.get("/api/daily/pyramid", headers=auth).json()["leaderboard"] if e["you"]]
    assert len(mine) == 1 and mine[0]["rank"] is None and mine[0]["unranked"] == "again"


def test_the_api_table_of_today_lists_games_played_through_the_api_unranked(client):
    today, line = _today_line(client)
    assert set(today) == {"preset", "date", "seed", "par", "par_proven", "best_known", "lower_bound", "leaderboard"}
    assert today["date"] == daily.utc_today().isoformat()
    auth = api_player(client)
    game = play_line(client, auth, new_game(client, auth, "pyramid", today["seed"]), line)
    assert game["status"] == "won"
    table = client.get("/api/daily/pyramid", headers=auth).json()["leaderboard"]
    mine = [e for e in table if e["you"]]
    assert len(mine) == 1 and mine[0]["moves"] == today["par"] and mine[0]["clean"] is False
    assert mine[0]["over_par"] == 0 and mine[0]["rank"] is None and mine[0]["unranked"] == "api"
    assert set(mine[0]) == {"rank", "name", "moves", "seconds", "clean", "unranked", "over_par", "you"}
    assert client.get("/api/daily/nope").status_code == 404


def test_no_line_or_replay_of_todays_deal_before_the_viewer_has_finished_it(client, other_client):
    today, line = _today_line(client)
    winner = api_player(client)
    won = play_line(client, winner, new_game(client, winner, "pyramid", today["seed"]), line)
    played_by_hand(client.app, won["id"])  # a person's win: the deal page's record
    watcher = api_player(other_client)
    browse_as(other_client, other_client, watcher)
    assert other_client.get(f"/g/{won['id']}/replay").status_code == 403
    assert other_client.get(f"/games/{won['id']}/analysis").status_code == 403
    assert other_client.get(f"/api/games/{won['id']}", headers=watcher).status_code == 403
    deal = other_client.get(f"/api/deals/pyramid/{today['seed']}", headers=watcher).json()
    assert deal["verdict"] is None and deal["fewest_moves"]["game"] is None
    page = other_client.get("/daily/pyramid/table").text
    assert 'data-spoilers="hidden"' in page and "/replay" not in page
    assert 'href="/daily/pyramid">' in page  # "Play today's deal"
    assert " ".join(line) not in other_client.get(f"/deal/pyramid/{today['seed']}").text
    # the watcher plays it to the end (a first move, then a loss would do as well): now they see
    game = new_game(other_client, watcher, "pyramid", today["seed"])
    game = move(other_client, watcher, game, line[0])
    assert other_client.get(f"/g/{won['id']}/replay").status_code == 403  # playing is not finished
    play_line(other_client, watcher, game, line[1:])
    assert other_client.get(f"/g/{won['id']}/replay").status_code == 200
    assert other_client.get(f"/api/games/{won['id']}", headers=watcher).status_code == 200
    page = other_client.get("/daily/pyramid/table").text
    assert 'data-spoilers="hidden"' not in page and f"/g/{won['id']}/replay" in page
    # their own win is on the table: no "Play today's deal" (another game would not be)
    assert 'href="/daily/pyramid">' not in page and 'data-mine' in page
    deal = other_client.get(f"/api/deals/pyramid/{today['seed']}", headers=watcher).json()
    assert deal["verdict"]["moves"] == " ".join(line)


def test_once_the_viewers_game_of_todays_deal_is_over_the_table_no_longer_offers_to_play_it(client):
    today, line = _today_line(client)
    auth = api_player(client)
    browse_as(client, client, auth)
    assert 'href="/daily/pyramid">' in client.get("/daily/pyramid/table").text  # "Play today's deal"
    game = move(client, auth, new_game(client, auth, "pyramid", today["seed"]), line[0])
    assert 'href="/daily/pyramid">' in client.get("/daily/pyramid/table").text  # in play: go on with it
    set_columns(client.app, game["id"], status="lost", finished_at=datetime.now(UTC))
    # no moves left: the game may still be undone, or given up; the button leads back to it
    page = client.get("/daily/pyramid/table").text
    assert 'href="/daily/pyramid">' in page and "data-spoilers" in page
    assert client.get("/daily/pyramid").headers["location"].endswith(f"/games/{game['id']}")
    set_columns(client.app, game["id"], abandoned=True)  # given up: over
    # the button led to the deal's results (app.web.routes.deals.play_daily), and a loss is not on the table
    page = client.get("/daily/pyramid/table").text
    assert 'href="/daily/pyramid">' not in page and f'href="/deal/pyramid/{today["seed"]}"' in page
    assert client.get("/daily/pyramid").headers["location"].endswith(f"/deal/pyramid/{today['seed']}")


def test_the_profile_chooses_whether_to_appear(client, app):
    auth, player_id = _player(client, app, "Shy")
    browse_as(client, client, auth)
    page = client.get("/profile").text
    assert "data-on-daily-table" in page and "checked" in page.split("data-on-daily-table")[0][-40:]
    assert client.post("/profile/daily-table", data={"csrf_token": csrf_of(page)}).status_code == 303
    with app.state.sessionmaker() as session:
        assert session.get(Player, player_id).on_daily_table is False
    client.post("/profile/daily-table", data={"csrf_token": csrf_of(page), "on_daily_table": "on"})
    with app.state.sessionmaker() as session:
        assert session.get(Player, player_id).on_daily_table is True
    assert client.post("/profile/daily-table", data={"on_daily_table": "on"}).status_code == 403


def test_stats_show_wins_at_par_the_places_and_yesterdays_tables(client, app):
    yesterday = daily.utc_today() - timedelta(days=1)
    _day_row(app, yesterday)
    with app.state.sessionmaker() as session:
        seed = session.get(DailyDeal, (yesterday, "pyramid")).seed
        found = par_service.par_of(session, par_service.start_of_deal("pyramid", seed), player_id=None)
    auth, _ = _player(client, app, "Stats")
    game = play_line(client, auth, new_game(client, auth, "pyramid", seed), found.line)
    started = datetime.combine(yesterday, datetime.min.time(), tzinfo=UTC) + timedelta(hours=23, minutes=59)
    set_columns(app, game["id"], started_at=started, finished_at=started + timedelta(seconds=30), seconds=30,
                played_via="page")  # as if played at the board, finished before midnight
    browse_as(client, client, auth)
    page = client.get("/stats").text
    assert re.search(r'data-stat="wins-at-par">1<', page) and re.search(r'data-stat="average-over-par">0<', page)
    row = re.search(rf'data-history-day="{yesterday.isoformat()}" data-history-preset="pyramid" '
                    r'data-history-rank="(\d+)"', page)
    assert row is not None
    section = page.split('class="daily-tables fold"')[1]
    assert "Stats <span class=\"muted\">(you)</span>" in section and 'class="mine"' in section
