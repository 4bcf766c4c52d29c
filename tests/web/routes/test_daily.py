"""The daily deal: the documented rule, proven winnable, stored once, the lobby's marks, streaks."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest

from app.db.models import DailyDeal, DealVerdict, Game
from app.engine import GameRecord, deal_for_seed, get_preset
from app.engine.seeding import text_seed
from app.services.assist import daily_choice, par, searches, solver_cache
from app.services.play import daily
from app.services.stats import stats
from app.solver import SolveResult, solve

from ..helpers import HX, act, board_fields, first_move
from ..play import api_player, browse_as, move, played_by_hand, set_columns, win

DAY = date(2026, 12, 1)


def test_the_rule_picks_the_first_candidate_the_solver_proves_winnable():
    choice = daily_choice.choose(DAY, "pyramid")
    assert choice.proven and choice.seed == text_seed(f"tretten-daily:2026-12-01:pyramid:{choice.candidate}")
    preset = get_preset("pyramid")
    for k in range(choice.candidate + 1):
        seed = daily_choice.candidate_seed(DAY, "pyramid", k)
        position = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed)).position
        result = solve(position, budget_nodes=daily_choice.NODE_BUDGET)
        assert bool(result.winnable) == (k == choice.candidate)
    # the winning line it found really wins
    record = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, choice.seed))
    for text in choice.moves:
        record = record.play(text)
    assert record.position.status == "won"


def test_gaps_takes_the_first_candidate_proven_within_the_budget(monkeypatch):
    verdicts = iter([SolveResult(None, (), "budget"), SolveResult(False), SolveResult(True, ("N",))])
    asked = []

    def fake_solve(preset, seed):
        asked.append(seed)
        return next(verdicts)

    monkeypatch.setattr(daily_choice, "_solve", fake_solve)
    choice = daily_choice.choose(DAY, "gaps")
    assert (choice.candidate, choice.proven) == (2, True)
    assert asked == [daily_choice.candidate_seed(DAY, "gaps", k) for k in range(3)]


def test_without_any_proof_it_falls_back_to_an_undecided_candidate(monkeypatch):
    monkeypatch.setattr(daily_choice, "_solve", lambda preset, seed: SolveResult(False) if seed == daily_choice.candidate_seed(DAY, "gaps", 0) else None)
    choice = daily_choice.choose(DAY, "gaps")
    assert (choice.candidate, choice.proven) == (1, False)


def test_chosen_once_per_day_and_preset_then_read_from_the_database(app, monkeypatch):
    day = date(2030, 1, 2)
    with app.state.sessionmaker() as session:
        first = daily_choice.daily_deal(session, "relaxed", day)
        monkeypatch.setattr(daily_choice, "choose", lambda *a: pytest.fail("the stored choice must be used"))
        again = daily_choice.daily_deal(session, "relaxed", day)
        assert again.seed == first.seed and again.proven
        assert session.get(DailyDeal, (day, "relaxed")).seed == first.seed


def test_a_daily_deal_chosen_on_the_day_has_its_par_searched_apart(client, monkeypatch):
    """On a server that did not choose the day's deal ahead (a fresh one), the first request for
    it chooses it, and leaves its par to spare time: a Double Pyramid's took 13 s, every other
    request for the day's deal waiting on it."""
    asked = []
    real = searches.shortest_win
    monkeypatch.setattr(searches, "shortest_win", lambda *a, **k: asked.append(k["player_id"]) or real(*a, **k))
    with searches.admitted("a"), searches.admitted("b"), searches.admitted("c"):  # spare time waits
        answer = client.get("/daily/pyramid-3", follow_redirects=False)
        assert answer.status_code == 303 and asked == []
    searches.wait_for_spare_time()
    with client.app.state.sessionmaker() as session:
        row = daily.cached_daily(session, "pyramid-3")
        assert asked and par.known(session, par.start_of_deal("pyramid-3", row.seed)) is not None


def test_daily_link_starts_todays_deal_and_the_lobby_shows_it_played(client, other_client, app, monkeypatch):
    monkeypatch.setattr(solver_cache, "SHORTEST_NODES", 20_000)  # its par is searched, not looked at here
    auth = api_player(client)
    browse_as(other_client, client, auth)
    lobby = other_client.get("/")
    assert 'data-daily="double-pyramid" data-daily-result="none"' in lobby.text
    response = other_client.get("/daily/double-pyramid")
    assert response.status_code == 303
    with app.state.sessionmaker() as session:
        row = daily_choice.daily_deal(session, "double-pyramid")
        line = session.get(DealVerdict, ("double-pyramid", row.seed)).moves.split()
    assert response.headers["location"] == f"/play/double-pyramid/{row.seed}"  # ready to play, nothing stored
    assert 'data-daily-result="none"' in other_client.get("/").text
    # its first move (a draw) stores the game, marked as the day's daily deal
    game_id, _ = first_move(other_client, response.headers["location"], action="draw")
    with app.state.sessionmaker() as session:
        game = session.get(Game, game_id)
        assert game.seed == row.seed and game.daily_on == daily.utc_today() and game.cursor == 1
    assert 'data-daily="double-pyramid" data-daily-result="playing"' in other_client.get("/").text
    assert other_client.get("/daily/double-pyramid").headers["location"] == f"/games/{game_id}"  # resumed
    # back to the deal, then play the solver's line to the win through the API (same player)
    state = client.post(f"/api/games/{game_id}/undo", json={"ply": 1}, headers=auth).json()
    for text in line:
        state = move(client, auth, state, text)
    assert state["status"] == "won"
    played_by_hand(app, game_id)  # the API was the test's quick way to play: as if at the board
    assert 'data-daily="double-pyramid" data-daily-result="won"' in other_client.get("/").text
    # the daily link now leads to the day's results, and the deal page says it is today's deal
    again = other_client.get("/daily/double-pyramid")
    assert again.headers["location"] == f"/deal/double-pyramid/{row.seed}"
    deal_page = other_client.get(again.headers["location"]).text
    assert "daily deal" in deal_page.lower() and 'data-verdict="winnable"' in deal_page
    body = client.get("/api/players/me/stats", headers=auth).json()["daily"]
    assert body == {"played_days": 1, "won_days": 1, "current_streak": 1, "best_streak": 1}
    assert re.search(r'data-stat="daily-streak">1<', other_client.get("/stats").text)


def test_daily_streaks_count_days_in_a_row(client, app):
    auth = api_player(client)
    today = date(2031, 5, 20)
    with app.state.sessionmaker() as session:
        from app.services.accounts.players import player_for_token

        player_id = player_for_token(session, auth["Authorization"].split()[1]).id
        won_days = [today - timedelta(days=d) for d in (9, 8, 7, 5, 1, 0)]
        lost_days = [today - timedelta(days=3)]
        for day in won_days + lost_days:  # each day's deal its own seed
            session.add(Game(player_id=player_id, preset="pyramid", game="pyramid", rules={}, deal=f"cards of {day}",
                             deal_key=f"cards of {day}",
                             seed=day.toordinal(), status="won" if day in won_days else "lost",
                             started_at=day_start(day), updated_at=day_start(day), created_at=day_start(day),
                             finished_at=day_start(day), seconds=60, daily_on=day))
        session.commit()
        figures = stats.daily_figures(session, player_id, today)
        assert (figures.played_days, figures.won_days, figures.current_streak, figures.best_streak) == (7, 6, 2, 3)
        later = stats.daily_figures(session, player_id, today + timedelta(days=2))
        assert later.current_streak == 0  # a day without a win breaks it
        # lost, then won again after the deal's page showed its winning line: a day won (as the
        # calendar marks it), but no streak's (it does not join day 5 into a run)
        retried = today - timedelta(days=4)
        for status, minutes in (("lost", 0), ("won", 30)):
            at = day_start(retried) + timedelta(minutes=minutes)
            session.add(Game(player_id=player_id, preset="pyramid", game="pyramid", rules={}, deal=f"cards of {retried}",
                             deal_key=f"cards of {retried}",
                             seed=retried.toordinal(), status=status, started_at=at, updated_at=at, created_at=at,
                             finished_at=at, seconds=60, daily_on=retried))
        session.commit()
        figures = stats.daily_figures(session, player_id, today)
        assert (figures.played_days, figures.won_days, figures.current_streak, figures.best_streak) == (8, 7, 2, 3)
        # won with a hint, or on the day after (its line public by then): no streak's either
        hinted, late = today - timedelta(days=6), today - timedelta(days=2)
        for day, finished, hints in ((hinted, day_start(hinted), 1), (late, day_start(late) + timedelta(days=1), 0)):
            session.add(Game(player_id=player_id, preset="pyramid", game="pyramid", rules={}, deal=f"cards of {day}",
                             deal_key=f"cards of {day}",
                             seed=day.toordinal(), status="won", started_at=day_start(day), updated_at=finished,
                             created_at=day_start(day), finished_at=finished, seconds=60, hint_count=hints,
                             daily_on=day))
        session.commit()
        figures = stats.daily_figures(session, player_id, today)
        assert (figures.played_days, figures.won_days, figures.current_streak, figures.best_streak) == (10, 9, 2, 3)


def day_start(day):
    from datetime import datetime

    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


@pytest.mark.parametrize("hints", [0, 1])
def test_the_tap_that_wins_the_daily_deal_brings_the_new_streak_into_the_heading(client, other_client, app, hints):
    auth = api_player(client)
    browse_as(other_client, client, auth)
    location = other_client.get("/daily/double-pyramid").headers["location"]
    with app.state.sessionmaker() as session:
        row = daily_choice.daily_deal(session, "double-pyramid")
        line = session.get(DealVerdict, ("double-pyramid", row.seed)).moves.split()
    game_id, _ = first_move(other_client, location, action="draw")
    heading = other_client.get(f"/games/{game_id}").text
    assert re.search(r'id="daily-streak" data-stat="daily-streak">0<', heading)
    state = client.post(f"/api/games/{game_id}/undo", json={"ply": 1}, headers=auth).json()
    for text in line[:-2]:
        state = move(client, auth, state, text)
    # as if played at the board, at a person's pace: the API was the test's quick way there
    set_columns(app, game_id, played_via="page", started_at=datetime.now(UTC) - timedelta(minutes=10),
                hint_count=hints)
    page = other_client.get(f"/games/{game_id}").text
    before_last = act(other_client, game_id, page, **board_fields(line[-2]))
    assert 'data-status="playing"' in before_last.text
    assert "daily-streak" not in before_last.text  # a move that ends nothing says nothing of it
    last = act(other_client, game_id, before_last.text, **board_fields(line[-1]))
    assert last.status_code == 200 and 'data-status="won"' in last.text
    # out of band: htmx puts it in the heading, which the board's answer does not redraw
    assert re.search(rf'<b id="daily-streak" data-stat="daily-streak" hx-swap-oob="true">{1 - hints}</b>', last.text)
    # a win with a hint is no day of the streak: the heading says so beside the 0 (once said "0" alone)
    note = re.search(r'<small id="streak-note"[^>]*hx-swap-oob="true" data-streak-missed="(\w+)">(.*?)</small>', last.text)
    assert note and note.group(1) == ("true" if hints else "false")
    assert ('this win does not count · <a href="/stats#daily-stats-title">why?</a>' in note.group(2)) == bool(hints)
    again = other_client.get(f"/games/{game_id}").text  # the page drawn again says it too
    assert ('data-streak-missed="true"' in again) == bool(hints) and 'id="streak-note" class="muted" data-' in again



def _visible(html: str) -> str:
    """A page's words, without its tags (whose links and data attributes may hold the seed)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)))


def test_a_daily_deal_is_named_by_its_day_never_by_its_19_digit_seed(client, other_client, app):
    auth = api_player(client)
    browse_as(other_client, client, auth)
    location = other_client.get("/daily/pyramid").headers["location"]
    with app.state.sessionmaker() as session:
        seed = daily_choice.daily_deal(session, "pyramid").seed
    assert len(str(seed)) >= 18
    day = daily.utc_today()
    named = f"Daily deal {day.day} {day.strftime('%B')} {day.year}"
    ready = other_client.get(location).text
    assert named in _visible(ready) and str(seed) not in _visible(ready)
    game_id, answer = first_move(other_client, location, action="draw")
    assert str(seed) not in _visible(answer.text)  # the board's answer and its share line out of band
    for path in (f"/games/{game_id}", f"/g/{game_id}/replay", "/stats", f"/deal/pyramid/{seed}"):
        page = other_client.get(path)
        assert page.status_code == 200, path
        words = _visible(page.text)
        assert str(seed) not in words, path
        # the history's column says it shorter: "Daily deal 5 Dec 2026"
        assert named in words or (path == "/stats" and named.replace(day.strftime("%B"), day.strftime("%b")) in words), path
    # "Try this deal again" on the end screen: the deal ready to play again, swapped in by htmx
    set_columns(app, game_id, abandoned=True)  # counted as lost
    assert "Try this deal again" in other_client.get(f"/games/{game_id}").text
    again = other_client.get(location, headers=HX)
    assert again.status_code == 200 and str(seed) not in _visible(again.text)
    # an ordinary deal keeps its number
    assert "Seed 42" in _visible(other_client.get("/deal/pyramid/42").text)


def test_an_old_daily_win_that_counted_is_not_said_to_miss_the_streak(client, app):
    """Once a streak broke, every daily win before it was said not to count."""
    auth = api_player(client)
    game, moment = win(client, auth), datetime.now(UTC) - timedelta(days=5)
    set_columns(app, game["id"], daily_on=moment.date(), played_via="page", seconds=60,
                started_at=moment - timedelta(seconds=60), finished_at=moment)
    browse_as(client, client, auth)
    page = client.get(f"/games/{game['id']}").text
    assert 'data-stat="daily-streak">0<' in page and 'data-streak-missed="false"' in page
