"""Statistics: known sequences of games played through the API, every figure checked exactly
on the stats page and in GET /api/players/me/stats."""

from __future__ import annotations

import re

from app.db.models import Game
from app.services.assist import assist

from ..helpers import HX
from ..play import (
    WIN_LINE,
    WIN_SEED,
    api_player,
    browse_as,
    days_ago,
    first_move,
    lose,
    move,
    new_game,
    play_line,
    played_by_hand,
    set_columns,
    stats_of,
    win,
)


def play_known_sequence(client, app):
    """Pyramid: won, won with an undo, lost, abandoned (a new deal replaced it), won with a
    hint. Gaps: one left for two days (lost), one in progress. Giza: opened, never moved."""
    auth = api_player(client)
    idle = first_move(client, auth, "gaps", 3)          # first in time: it started two days ago
    set_columns(app, idle["id"], started_at=days_ago(2.1), updated_at=days_ago(2))
    g1 = win(client, auth)
    g2 = new_game(client, auth, "pyramid", WIN_SEED)
    g2 = move(client, auth, g2, WIN_LINE[0])
    undone = client.post(f"/api/games/{g2['id']}/undo", headers=auth).json()
    assert undone["cursor"] == 0
    g2 = play_line(client, auth, undone, WIN_LINE)
    assert g2["status"] == "won"
    g3 = lose(client, auth)
    g4 = first_move(client, auth, "pyramid", 77)        # replaced by the next pyramid deal
    g5 = win(client, auth)
    set_columns(app, g5["id"], hint_count=1)
    playing = first_move(client, auth, "gaps", 4)
    new_game(client, auth, "giza", 5)                   # no move: not played
    for game, seconds in ((g1, 40), (g2, 100), (g5, 70)):
        set_columns(app, game["id"], seconds=seconds, played_via="page")  # as if played at the board
    return auth, {"g1": g1, "g2": g2, "g3": g3, "g4": g4, "g5": g5, "idle": idle, "playing": playing}


def test_every_figure_on_the_page_and_in_the_api(client, other_client, app):
    auth, games = play_known_sequence(client, app)
    moves = len(WIN_LINE)
    lost_score = games["g3"]["scoring"]["points"]
    api = client.get("/api/players/me/stats", headers=auth)
    assert api.status_code == 200
    body = api.json()
    pyramid = {
        "preset": "pyramid", "played": 5, "won": 3, "lost": 2, "in_progress": 0, "win_rate": 60.0,
        # in order of first move: won, won, lost, lost (abandoned), won
        "current_streak": 1, "best_streak": 2,
        "best_scores": {"simple": max(28, lost_score)}, "best_time": 40, "fewest_moves": moves,
        "average_time": 70.0, "average_moves": float(moves), "hints": 1, "undos": 1, "clean_wins": 1,
    }
    gaps = {
        "preset": "gaps", "played": 2, "won": 0, "lost": 1, "in_progress": 1, "win_rate": 0.0,
        "current_streak": 0, "best_streak": 0, "best_scores": {"simple": games["idle"]["scoring"]["points"]},
        "best_time": None, "fewest_moves": None, "average_time": None, "average_moves": None,
        "hints": 0, "undos": 0, "clean_wins": 0,
    }
    total = {
        **pyramid, "preset": None, "played": 7, "lost": 3, "in_progress": 1, "win_rate": 50.0,
        # idle gaps loss first, then the pyramid sequence
        "current_streak": 1, "best_streak": 2,
        "best_scores": {"simple": max(28, lost_score, games["idle"]["scoring"]["points"])},
    }
    assert body["presets"] == [pyramid, gaps]
    assert body["total"] == total
    assert body["daily"] == {"played_days": 0, "won_days": 0, "current_streak": 0, "best_streak": 0}

    browse_as(other_client, client, auth)
    page = other_client.get("/stats", headers={"Accept-Language": "en"})
    assert page.status_code == 200
    shown = stats_of(page.text)
    assert set(shown) == {"total", "pyramid", "gaps"}
    assert shown["pyramid"] == {
        "played": "5", "won": "3", "lost": "2", "win-rate": "60\xa0%", "streak": "1", "best-streak": "2",
        "best-score-simple": str(pyramid["best_scores"]["simple"]), "best-time": "0:40",
        "fewest-moves": str(moves), "average-time": "1:10", "average-moves": str(moves),
        "hints": "1", "undos": "1", "clean-wins": "1",
    }
    assert shown["gaps"]["in-progress"] == "1" and shown["gaps"]["win-rate"] == "0\xa0%"
    assert shown["gaps"]["best-time"] == "–" and shown["gaps"]["fewest-moves"] == "–"
    assert shown["total"]["played"] == "7" and shown["total"]["win-rate"] == "50\xa0%"
    assert "counts as lost" in page.text  # the rule is said on the page
    # the history lists every played game, newest first, with the effective result
    rows = re.findall(r'<tr data-game-id="([\w-]+)" data-result="(\w+)"', page.text)
    assert len(rows) == 7
    assert rows[0] == (games["playing"]["id"], "playing")
    assert (games["g4"]["id"], "lost") in rows and (games["idle"]["id"], "lost") in rows
    assert rows[-1] == (games["idle"]["id"], "lost")
    # charts: no "last 10 games" line from 6 decided games (it says how many it needs), score
    # bars, and days with results
    assert 'data-chart="rolling"' in page.text and "<polyline" not in page.text
    assert 'data-rolling-needs="10"' in page.text and "Shown once 10 games are won or lost: 6 so far." in page.text
    assert re.search(r'data-chart="days".*?<rect class="bar won"', page.text, re.S)
    # the scores' bars in the colours their legend names: won at the foot, lost on top
    for chart in ("scores", "days"):
        figure = re.search(rf'<figure class="chart" data-chart="{chart}">(.*?)</figure>', page.text, re.S).group(1)
        kinds = re.findall(r'<rect class="bar ?(\w*)"', figure)
        assert set(kinds) == {"won", "lost"}, (chart, kinds)
        assert '<span class="key won"></span> won <span class="key lost"></span> lost' in figure


def test_a_replaced_game_is_lost_for_good(client, app):
    auth = api_player(client)
    first = new_game(client, auth, "pyramid", WIN_SEED)
    first = move(client, auth, first, WIN_LINE[0])
    second = new_game(client, auth, "pyramid", 12)
    move(client, auth, second, "D")  # its first move replaces the first game
    refused = client.post(f"/api/games/{first['id']}/moves", json={"move": WIN_LINE[1], "ply": 1}, headers=auth)
    assert refused.status_code == 422 and "counted as lost" in refused.json()["error"]
    figures = client.get("/api/players/me/stats", headers=auth).json()["total"]
    assert (figures["played"], figures["won"], figures["lost"], figures["in_progress"]) == (2, 0, 1, 1)


def test_a_clean_win_is_the_first_game_of_its_cards_played_alone_by_hand(client, app):
    """Won again, the deal is known (and its winning line was on its page): a win, not a clean
    one; so is a win of cards played before under another preset, or imported as a deal; nor is
    a program's win, or one played with "still winnable?" shown."""
    def figures(auth) -> tuple[int, int]:
        total = client.get("/api/players/me/stats", headers=auth).json()["total"]
        return total["won"], total["clean_wins"]

    auth = api_player(client)
    win(client, auth, by_hand=True)
    win(client, auth, by_hand=True)
    total = client.get("/api/players/me/stats", headers=auth).json()["total"]
    assert (total["won"], total["clean_wins"], total["undos"], total["hints"]) == (2, 1, 0, 0)
    # the same cards imported as a deal, or dealt by another preset of the game, before the seed
    seeded = new_game(client, api_player(client), "pyramid", WIN_SEED)["deal"]
    imports = api_player(client)
    assert client.post("/api/games", json={"preset": "pyramid", "deal": seeded}, headers=imports).json()["deal"] == seeded
    sibling = api_player(client)
    play_line(client, sibling, new_game(client, sibling, "pyramid-classic", WIN_SEED), WIN_LINE[:1])
    for auth in (imports, sibling):
        win(client, auth, by_hand=True)
        assert figures(auth) == (1, 0)
    # a program's win (through the API, at a program's pace) is not the player's own
    program = api_player(client)
    win(client, program)
    assert figures(program) == (1, 0)
    # nor one the solver watched, saying whether it could still be won (shown once is enough)
    shown = api_player(client)
    game = play_line(client, shown, new_game(client, shown, "pyramid", WIN_SEED), WIN_LINE[:1])
    with app.state.sessionmaker() as session:
        stored = session.get(Game, game["id"])
        stored.player.winnable_indicator = True
        session.commit()
        assert assist.still_winnable(session, stored, stored.player).winnable is True
        stored.player.winnable_indicator = False
        session.commit()
    game = play_line(client, shown, game, WIN_LINE[1:])
    played_by_hand(app, game["id"])
    assert figures(shown) == (1, 0)
    with app.state.sessionmaker() as session:
        assert session.get(Game, game["id"]).winnable_shown is True


def test_a_game_left_for_a_day_is_lost_for_good(client, app):
    auth = api_player(client)
    game = first_move(client, auth, "pyramid", WIN_SEED)
    figures = lambda: client.get("/api/players/me/stats", headers=auth).json()["total"]  # noqa: E731
    assert (figures()["in_progress"], figures()["lost"]) == (1, 0)
    set_columns(app, game["id"], updated_at=days_ago(1.01))
    assert (figures()["in_progress"], figures()["lost"]) == (0, 1)
    refused = client.post(f"/api/games/{game['id']}/moves", json={"move": WIN_LINE[1], "ply": 1}, headers=auth)
    assert refused.status_code == 422  # coming back cannot undo the loss
    assert (figures()["in_progress"], figures()["lost"]) == (0, 1)


def test_playing_time_is_stored_when_a_game_ends(client, app):
    auth = api_player(client)
    game = new_game(client, auth, "pyramid", WIN_SEED)
    game = move(client, auth, game, WIN_LINE[0])
    set_columns(app, game["id"], started_at=days_ago(0.001))  # 86.4 seconds ago
    for text in WIN_LINE[1:]:
        game = move(client, auth, game, text)
    best = client.get("/api/players/me/stats", headers=auth).json()["total"]["best_time"]
    assert 86 <= best <= 90


def test_history_is_paginated_and_filtered_with_every_filter_in_the_url(client, other_client, app):
    auth = api_player(client)
    for seed in range(23):
        game = first_move(client, auth, "pyramid-3" if seed % 2 else "relaxed", 1000 + seed)
    win(client, auth)
    browse_as(other_client, client, auth)
    page1 = other_client.get("/stats")
    assert page1.text.count("<tr data-game-id=") == 20 and 'data-history-total="24"' in page1.text
    older = re.search(r'rel="next" href="([^"]+)"', page1.text).group(1)
    assert older == "/stats?page=2"
    page2 = other_client.get(older)
    assert page2.text.count("<tr data-game-id=") == 4
    won = other_client.get("/stats?result=won")
    assert re.findall(r'data-result="(\w+)"', won.text) == ["won"]
    relaxed = other_client.get("/stats?preset=relaxed&result=lost&scoring=pairs")
    assert 'data-history-total="11"' in relaxed.text  # each relaxed game was replaced by the next
    assert '<option value="relaxed" selected>' in relaxed.text and '<option value="pairs" selected>' in relaxed.text
    # htmx asks for the filtered view alone; the URL stays the same
    fragment = other_client.get("/stats?preset=relaxed&result=lost", headers=HX)
    assert fragment.text.lstrip().startswith('<div id="stats-view">') and "<html" not in fragment.text
    assert 'data-history-total="11"' in fragment.text
    # unknown filter values are ignored, not an error
    assert other_client.get("/stats?preset=chess&result=maybe").status_code == 200
    del game


def test_stats_page_without_games_and_in_danish(client):
    page = client.get("/stats", headers={"Accept-Language": "da"})
    assert page.status_code == 200 and "data-empty-stats" in page.text
    assert '<html lang="da" ' in page.text and "Statistik" in page.text



def test_the_rolling_win_rate_starts_at_its_tenth_game_and_dates_say_the_month(client):
    auth = api_player(client)
    browse_as(client, client, auth)
    for k in range(12):  # each first move replaces the game before: 11 lost, the last in progress
        first_move(client, auth, "pyramid", 100 + k)
    game = win(client, auth)  # and its first move replaced the twelfth: 12 lost, 1 won
    page = client.get("/stats", headers={"Accept-Language": "en"}).text
    points = re.search(r'<polyline class="line" points="([^"]+)"', page).group(1).split()
    assert len(points) == 13 - 9  # a point at the 10th, 11th, 12th and 13th decided game
    assert "13 games won or lost" in page and "data-rolling-needs" not in page
    assert re.search(r"<title>10\xa0%</title></circle>", page)  # the last ten: one won
    when = {"en": r"\d{1,2} [A-Z][a-z]{2} 20\d\d, \d\d:\d\d", "da": r"\d{1,2}\. [a-zæøå]{3}\. 20\d\d \d\d\.\d\d",
            "sv": r"\d{1,2} [a-zåäö]{3}\.? 20\d\d \d\d:\d\d"}
    for language, pattern in when.items():
        page = client.get("/stats", headers={"Accept-Language": language}).text
        row = re.search(rf'<tr data-game-id="{game["id"]}".*?</tr>', page, re.S).group(0)
        assert re.search(rf'<td class="when">{pattern}</td>', row), (language, row[:300])
        chart = page.split('data-chart="days"')[1].split("</figure>")[0]
        assert not re.search(r"\d\d?/\d\d?(/\d{4})?", chart), language
        month = {"en": r"\d{1,2} [A-Z][a-z]{2}<", "da": r"\d{1,2}\. [a-zæøå]{3}\.<", "sv": r"\d{1,2} [a-zåäö]{3}\.?<"}[language]
        assert re.search(month, chart), (language, re.findall(r'text-anchor="\w+">([^<]*)<', chart))
