"""The month of daily deals on /stats: each day played or won, the current daily streak, other
months by ?month=, and a link that names no real month still showing a calendar."""

from __future__ import annotations

import calendar
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from app.engine import deal_for_seed, format_deal, get_game
from app.services.play import daily
from app.services.play.daily_calendar import parse_month

from ..play import api_player, browse_as, lose, new_game, play_line, set_columns, win


def _cells(page: str) -> dict[str, dict[str, str]]:
    """{YYYY-MM-DD: {"class": …, "result": …, "streak": "yes"|"", "current": …, "words": …}}"""
    out = {}
    for attrs, body in re.findall(r'<td class="([^"]*"[^>]*)>(.*?)</td>', page, re.S):
        day = re.search(r'data-day="([\d-]+)"', attrs)
        if not day:
            continue
        result = re.search(r'data-result="(\w+)"', attrs)
        out[day.group(1)] = {
            "class": attrs.split('"', 1)[0],
            "result": result.group(1) if result else "",
            "streak": "yes" if "data-streak" in attrs else "",
            "current": "yes" if 'aria-current="date"' in attrs else "",
            "words": " ".join(re.sub(r"<[^>]+>", " ", body).split()),
        }
    return out


def _month(day: date) -> str:
    return day.isoformat()[:7]


@pytest.fixture(scope="module")
def daily_player(app):
    """A player with daily deals: won today and yesterday (a streak of 2), lost three days ago
    (and won another preset that day), only played four days ago; and a daily win 40 days ago.
    (Browser, today.) Made once for the module's tests, which only look."""
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as client:
        yield _daily_player(client, app)


def _daily_player(client, app):
    auth = api_player(client)
    today = daily.utc_today()

    seeds = iter(range(10**6, 10**7))

    def on(game: dict, days_ago: int) -> None:
        # each game a deal of its own (a second game of the cards is no streak's: stats.clean),
        # played at the board at a person's pace (the API is the test's quick way to play)
        seed, moment = next(seeds), datetime.now(UTC) - timedelta(days=days_ago)
        ended = {"started_at": moment - timedelta(seconds=60), "finished_at": moment} if game["status"] != "playing" else {}
        set_columns(app, game["id"], daily_on=moment.date(), seed=seed,
                    deal=format_deal(deal_for_seed(game["game"], seed)),
                    deal_key=get_game(game["game"]).deal_key(deal_for_seed(game["game"], seed)),
                    played_via="page", seconds=60, **ended)

    on(win(client, auth), 0)
    on(win(client, auth), 1)
    on(lose(client, auth), 3)
    on(win(client, auth, preset="pyramid-3"), 3)
    on(lose(client, auth), 3)
    on(play_line(client, auth, new_game(client, auth, "gaps", 8), ["N"]), 4)
    on(win(client, auth, preset="relaxed"), 40)
    on(new_game(client, auth, "giza", 3), 5)  # opened, no move made: not played
    browse_as(client, client, auth)
    return client, today


def test_each_day_says_played_or_won_and_the_streak(daily_player):
    client, today = daily_player
    seen = {}
    for month in sorted({_month(today - timedelta(days=k)) for k in range(6)}):
        page = client.get(f"/stats?month={month}")
        assert page.status_code == 200
        seen.update(_cells(page.text))
    day = lambda k: seen[(today - timedelta(days=k)).isoformat()]  # noqa: E731
    assert day(0)["result"] == "won" and day(0)["streak"] and day(0)["current"] and "won" in day(0)["class"]
    assert day(1)["result"] == "won" and day(1)["streak"] and not day(1)["current"]
    assert day(2)["result"] == "" and day(2)["class"] == "none"
    assert day(3)["result"] == "won" and not day(3)["streak"]  # another preset won that day: a won day
    assert day(3)["words"] == f"{day(3)['words'].split()[0]} Pyramid: lost; Pyramid, 3 passes: won"
    assert day(4)["result"] == "playing" and day(4)["class"] == "played"
    assert day(5)["result"] == ""  # a game opened but never played


def test_the_month_has_its_days_under_monday_to_sunday(daily_player):
    client, today = daily_player
    page = client.get("/stats").text
    assert re.search(rf'data-month="{_month(today)}"', page)
    cells = _cells(page)
    assert len(cells) == calendar.monthrange(today.year, today.month)[1]
    first = today.replace(day=1)
    blanks = page.split('<table class="calendar"')[1].split("</tr>")[1].count('<td class="outside">')
    assert blanks == first.weekday()  # Monday first
    heads = re.findall(r'<th scope="col"><abbr title="(\w+)">', page)
    assert heads == ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    da = client.get("/stats", headers={"Accept-Language": "da"}).text
    assert re.findall(r'<th scope="col"><abbr title="\w+">([^<]+)</abbr>', da) == ["ma.", "ti.", "on.", "to.", "fr.", "lø.", "sø."]
    assert "Dagens kabaler i " in da


def test_other_months_by_the_query(daily_player):
    client, today = daily_player
    page = client.get("/stats").text
    assert 'data-month-link="next"' not in page  # the current month: nothing to come
    previous = re.search(r'href="/stats\?month=([\d-]+)#daily-calendar" data-month-link="previous"', page).group(1)
    assert previous == _month(today.replace(day=1) - timedelta(days=1))
    old = today - timedelta(days=40)
    back = client.get(f"/stats?month={_month(old)}").text
    assert _cells(back)[old.isoformat()]["result"] == "won"
    assert 'data-month-link="next"' in back
    oldest = (old.replace(day=1) - timedelta(days=1)).replace(day=1)
    assert 'data-month-link="previous"' not in client.get(f"/stats?month={_month(oldest)}").text  # nothing before


def test_the_months_counts(daily_player):
    client, today = daily_player
    page = client.get(f"/stats?month={_month(today)}").text
    cells = _cells(page)
    played = sum(1 for c in cells.values() if c["result"])
    won = sum(1 for c in cells.values() if c["result"] == "won")
    assert f'data-month-days="{played} {won}"' in page


@pytest.mark.parametrize("month", ["2026-13", "abc", "1999-12", "2999-01", "", "2026-1-1", "0000-00"])
def test_a_month_that_is_not_a_real_past_month_shows_this_month(client, month):
    page = client.get(f"/stats?month={month}")
    assert page.status_code == 200
    assert f'data-month="{_month(daily.utc_today())}"' in page.text


def test_parse_month():
    today = date(2031, 5, 20)
    assert parse_month("2031-02", today) == date(2031, 2, 1)
    assert parse_month("2030-12", today) == date(2030, 12, 1)
    assert parse_month("2031-06", today) == date(2031, 5, 1)
    assert parse_month("1999-12", today) == date(2031, 5, 1)
    assert parse_month("2000-01", today) == date(2000, 1, 1)


def test_a_player_without_daily_deals_sees_an_empty_month(client):
    page = client.get("/stats").text
    cells = _cells(page)
    assert cells and not any(c["result"] for c in cells.values())
    assert 'data-month-link="previous"' not in page and 'data-month-days="0 0"' in page


def test_the_legend_names_every_kind_of_day_the_month_shows(daily_player):
    """Won, played, not played, the streak and today: each look a day can have is in the legend."""
    client, _ = daily_player
    page = client.get("/stats").text
    legend = re.search(r'<p class="calendar-legend[^>]*>(.*?)</p>', page, re.S).group(1)
    keys = set(re.findall(r'class="key (\w+)"', legend))
    assert keys == {"won", "played", "none", "streak", "today"}
    shown = {cls for c in _cells(page).values() for cls in c["class"].split()} - {"future"}
    assert shown <= keys and 'aria-current="date"' in page  # every class a day shows is explained


def test_the_streak_marked_is_the_streak_counted_when_today_s_win_does_not_count(client, app):
    """A win today that is no streak's (played through the API) once moved the marked streak onto
    today and yesterday, while /stats counted the two days before today."""
    auth = api_player(client)
    now = datetime.now(UTC)
    for days_ago, via in ((2, "page"), (1, "page"), (0, "api")):
        game, seed = win(client, auth), 2 * 10**7 + days_ago  # each a deal of its own, as above
        moment = now - timedelta(days=days_ago)
        set_columns(app, game["id"], daily_on=moment.date(), seed=seed, played_via=via, seconds=60,
                    deal=format_deal(deal_for_seed(game["game"], seed)),
                    deal_key=get_game(game["game"]).deal_key(deal_for_seed(game["game"], seed)),
                    started_at=moment - timedelta(seconds=60), finished_at=moment)
    browse_as(client, client, auth)
    today = daily.utc_today()
    page = client.get(f"/stats?month={_month(today)}").text
    cells = _cells(page)
    marked = sorted(day for day, cell in cells.items() if cell["streak"])
    assert 'data-stat="daily-streak">2<' in page
    expected = [(today - timedelta(days=k)).isoformat() for k in (2, 1)]
    assert marked == [d for d in expected if d in cells]  # the month shown may begin yesterday or today
    assert cells[today.isoformat()]["result"] == "won" and not cells[today.isoformat()]["streak"]
