"""A deal's par (app.services.assist.par) everywhere it is shown: one number on the end screen, the
replay, the deal page and the API, kept per deal in the database for every instance."""

from __future__ import annotations

import re
from datetime import date

import pytest
from sqlalchemy import delete

from app.db.models import DailyDeal, PositionVerdict, ShortestLine
from app.services import spare_time
from app.services.assist import par as par_service
from app.services.assist import solver_cache
from app.services.play import daily
from app.solver import ShortestWin, shortest_win

from .helpers import HX
from .play import api_player, browse_as, new_game, play_line

# Pyramid seed 18: a win in 38 moves; its par is shorter
SEED = 18
WIN_LINE = ("P22 P23+P24 P25+P26 P16+P18 D S+W D P17+S P27+S P20 S+W P12+S D D D D D P11+S D D P19+S "
            "P13+P21 P7+P15 P10 P6+W P8+W P14+W S+W S+W S+W S D P9+S P4+P5 P2+P3 S+W P1+W P0+S").split()



def _clear(app, start) -> None:
    key = solver_cache.key_of(start)
    with app.state.sessionmaker() as session:
        session.execute(delete(ShortestLine).where(ShortestLine.key == key))
        session.execute(delete(PositionVerdict).where(PositionVerdict.key == key))
        session.commit()


def test_par_is_searched_once_kept_and_read_back(app):
    start = par_service.start_of_deal("pyramid-3", 21)
    _clear(app, start)
    with app.state.sessionmaker() as session:
        assert par_service.known(session, start) is None
        found = par_service.par_of(session, start, player_id=None)
    best = shortest_win(start.position, budget_seconds=None)
    assert found == par_service.Par(len(best.moves), True, tuple(best.moves), best.lower_bound)
    with app.state.sessionmaker() as session:  # another request (or instance) reads it back
        assert par_service.known(session, start) == found
        key = solver_cache.key_of(start)
        assert par_service.known_many(session, [start, par_service.start_of_deal("pyramid-3", 22)]) == {key: found}


def test_an_answer_the_clock_cut_short_is_searched_again_and_a_proof_kept(app):
    start = par_service.start_of_deal("pyramid-3", 36)
    _clear(app, start)
    best = shortest_win(start.position, budget_seconds=None)
    longer = " ".join(best.moves) + " D"  # a stored line that is not the shortest
    with app.state.sessionmaker() as session:
        session.add(ShortestLine(key=solver_cache.key_of(start), game="pyramid", winnable=True, moves=longer,
                                 proven=False, lower_bound=3, nodes=10))
        session.commit()
        assert par_service.known(session, start).proven is False
        found = par_service.par_of(session, start, player_id=None)
    assert found.proven and found.moves == len(best.moves)
    with app.state.sessionmaker() as session:
        assert par_service.known(session, start) == found


def test_a_search_in_full_after_one_cut_short_keeps_the_better_of_both_and_is_final(app, monkeypatch):
    """A first hint searches par within its own wait (``seconds``) and keeps what it found; the
    next that asks with no cap searches in full. That search keeps the shorter line of the two
    and the higher bound (both hold), and its positions, so nothing searches it again."""
    start = par_service.start_of_deal("relaxed", 1)
    _clear(app, start)
    short, longer = ("D",) * 50, ("D",) * 55
    answers = {1.5: ShortestWin(True, short, False, 30, 900),
               None: ShortestWin(True, longer, False, 41, solver_cache.SHORTEST_NODES)}
    asked = []

    def search(position, *, player_id, budget_nodes, budget_seconds):
        asked.append(budget_seconds)
        return answers[budget_seconds]

    monkeypatch.setattr(solver_cache.searches, "shortest_win", search)
    with app.state.sessionmaker() as session:
        hinted = solver_cache.shortest(session, start, player_id=None, seconds=1.5)
        assert hinted == solver_cache.Shortest(True, short, False, 30)
        assert solver_cache.shortest(session, start, player_id=None, seconds=1.5) == hinted  # kept
        assert par_service.par_of(session, start, player_id=None) == par_service.Par(50, False, short, 41)
    with app.state.sessionmaker() as session:
        assert par_service.par_of(session, start, player_id=None) == par_service.Par(50, False, short, 41)
        row = session.get(ShortestLine, solver_cache.key_of(start))
        assert row.nodes == solver_cache.SHORTEST_NODES and row.lower_bound == 41
    assert asked == [1.5, None]


def test_gaps_has_a_best_known_line_never_a_par(app, monkeypatch):
    monkeypatch.setattr(solver_cache, "ANALYSIS_SECONDS", 120)  # its node budget decides, not the machine's load
    start = par_service.start_of_deal("gaps", 3)
    _clear(app, start)
    with app.state.sessionmaker() as session:
        found = par_service.par_of(session, start, player_id=None)
        assert found is not None and found.proven is False and found.moves == len(found.line) > 0
        assert par_service.known(session, start) == found
    here = start
    for move in found.line:
        here = here.play(move)
    assert here.position.status == "won"


def test_one_number_on_the_end_screen_replay_deal_page_and_api(client, other_client):
    auth = api_player(client)
    game = play_line(client, auth, new_game(client, auth, "pyramid", SEED), WIN_LINE)
    assert game["status"] == "won"
    browse_as(other_client, client, auth)
    best = shortest_win(par_service.start_of_deal("pyramid", SEED).position, budget_seconds=None)
    par, over = len(best.moves), len(WIN_LINE) - len(best.moves)
    assert best.proven and over > 0
    end = other_client.get(f"/games/{game['id']}/analysis", headers=HX).text
    assert f'data-par="{par}"' in end and f'data-over="{over}"' in end
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", end))
    assert f"Par {par} · you {len(WIN_LINE)}, +{over}" in text
    assert f'data-par-moves="{" ".join(best.moves)}"' in end
    replay = other_client.get(f"/g/{game['id']}/replay").text
    assert f"The shortest possible win needs {par} moves." in replay
    page = other_client.get(f"/deal/pyramid/{SEED}").text
    assert re.search(rf'data-stat="par" data-par-proven="true">{par} moves<', page)
    assert f"The shortest possible win needs {par} moves." in page and "found a win" not in page
    assert f'data-moves="{" ".join(best.moves)}"' in page
    api = client.get(f"/api/deals/pyramid/{SEED}", headers=auth).json()
    assert api["par"] == par and api["par_proven"] is True
    assert api["verdict"]["moves"] == " ".join(best.moves)


def test_the_api_gives_par_to_anyone_and_the_line_only_after_finishing(app, client):
    with app.state.sessionmaker() as session:  # kept, as the daily preparation or a first player does
        par_service.par_of(session, par_service.start_of_deal("pyramid-3", 21), player_id=None)
    api = client.get("/api/deals/pyramid-3/21").json()
    best = shortest_win(par_service.start_of_deal("pyramid-3", 21).position, budget_seconds=None)
    assert api["par"] == len(best.moves) and api["par_proven"] is True and api["verdict"] is None
    page = client.get("/deal/pyramid-3/21").text  # the number for everyone, the line never before
    assert 'data-stat="par"' in page and " ".join(best.moves) not in page
    gaps = client.get("/api/deals/gaps/3").json()
    assert gaps["par"] is None and gaps["par_proven"] is False
    assert client.get("/api/deals/pyramid/x").status_code == 422
    assert client.get("/api/deals/nope/1").status_code == 404


def _keep_line(app, preset: str, seed: int, moves: int, proven: bool, bound: int) -> None:
    start = par_service.start_of_deal(preset, seed)
    _clear(app, start)
    with app.state.sessionmaker() as session:
        session.add(ShortestLine(key=solver_cache.key_of(start), game=start.game, winnable=True,
                                 moves=" ".join(["D"] * moves), proven=proven, lower_bound=bound, nodes=1))
        session.commit()


def test_a_best_known_line_on_the_deal_page_says_what_its_bound_means(app, client, monkeypatch):
    """"(at least 46)" alone left a player guessing: the page says every win needs at least 46
    moves, and, since the number already says the deal can be won, that what waits for the end of
    a game is its line."""
    _keep_line(app, "double-pyramid", 4, 60, False, 46)
    monkeypatch.setattr(spare_time, "deal", lambda *args: None)
    page = client.get("/deal/double-pyramid/4", headers={"Accept-Language": "en"}).text
    assert "<dt>Best known line</dt>" in page and "(every win needs at least 46)" in page  # the solver's, no player's
    assert "The winning line is shown once you have finished this deal: no spoilers before." in page
    danish = client.get("/deal/double-pyramid/4", headers={"Accept-Language": "da"}).text
    assert "(enhver sejr kræver mindst 46)" in danish
    _clear(app, par_service.start_of_deal("double-pyramid", 4))
    assert "Shown once you have finished this deal: no spoilers before." in \
        client.get("/deal/double-pyramid/4", headers={"Accept-Language": "en"}).text


def test_the_deal_api_answers_the_same_par_fields_for_every_game(app, client, monkeypatch):
    # kept as the par search leaves them: a proof, a best known line with the bound every win
    # needs, a best known line with none (Gaps with redeals left), and nothing kept yet
    _keep_line(app, "pyramid-3", 21, 30, True, 30)
    _keep_line(app, "double-pyramid", 4, 60, False, 46)
    _keep_line(app, "gaps", 3, 120, False, 0)
    _clear(app, par_service.start_of_deal("gaps-danish", 5))
    monkeypatch.setattr(spare_time, "deal", lambda *args: None)  # what is kept, not what a search adds
    answers = {preset: client.get(f"/api/deals/{preset}/{seed}").json()
               for preset, seed in (("pyramid-3", 21), ("double-pyramid", 4), ("gaps", 3), ("gaps-danish", 5))}
    fields = ("par", "par_proven", "best_known", "lower_bound")
    assert {preset: tuple(answer[f] for f in fields) for preset, answer in answers.items()} == {
        "pyramid-3": (30, True, 30, 30),
        "double-pyramid": (None, False, 60, 46),
        "gaps": (None, False, 120, None),
        "gaps-danish": (None, False, None, None),
    }
    schema = client.get("/api/openapi.json").json()["components"]["schemas"]
    for model in ("DealOut", "DailyOut"):
        assert set(fields) <= set(schema[model]["properties"]), model
    day = date(2031, 3, 7)  # a day of this test's own, its Gaps deal the one above
    monkeypatch.setattr(daily, "utc_today", lambda: day)
    with app.state.sessionmaker() as session:
        session.merge(DailyDeal(day=day, preset="gaps", seed=3, candidate=0, proven=True))
        session.commit()
    table = client.get("/api/daily/gaps").json()
    assert (table["seed"], *(table[f] for f in fields)) == (3, None, False, 120, None)
