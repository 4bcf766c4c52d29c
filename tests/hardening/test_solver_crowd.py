"""A crowd asking the solver at once (F3): no search holds a database connection while it waits
or runs, the solver takes a few searches at a time and tells the rest to come back (429 with
Retry-After), and the other players' moves go through meanwhile. With a pool of one connection
(and one on overflow), searches that held theirs would starve every other request."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from app.services.assist import searches

from ..web.helpers import HX, board_state, csrf_of, first_move


def test_a_crowd_of_hints_leaves_the_database_to_the_other_players(make_client, monkeypatch):
    real_run = searches._run
    running = threading.Semaphore(0)
    moved_on = threading.Event()

    def slow(function, *args, **kwargs):  # a search that takes its time, as Gaps' last round does:
        running.release()  # here, until the other player's move has been answered
        moved_on.wait(timeout=60)
        return real_run(function, *args, **kwargs)

    monkeypatch.setattr(searches, "_run", slow)
    crowd = [make_client(db_pool_size=1, solver_processes=0, solver_searches=2) for _ in range(8)]
    mover = make_client(db_pool_size=1, solver_processes=0, solver_searches=2)
    games = []
    for i, client in enumerate(crowd):
        game_id, response = first_move(client, f"/play/gaps/{300 + i}", action="confirm-redeal")
        games.append((client, game_id, response.text))
    moved_id, response = first_move(mover, "/play/pyramid/5", action="draw")
    moved_board = response.text

    def ask(entry):
        client, game_id, board = entry
        return client.post(f"/games/{game_id}/hint", data={"csrf_token": csrf_of(board)}, headers=HX)

    with ThreadPoolExecutor(max_workers=len(crowd)) as pool:
        answers = pool.map(ask, games)
        assert running.acquire(timeout=10)  # the searches are under way …
        state = board_state(moved_board)
        # the searches go on only once this move is answered: had they held the pool's one
        # connection, it could not be
        moved = mover.post(f"/games/{moved_id}/act", headers=HX, data={
            "csrf_token": csrf_of(moved_board), "action": "draw", "ply": state["ply"], "version": state["version"]})
        moved_on.set()
        codes = sorted(response.status_code for response in answers)
    assert moved.status_code == 200 and board_state(moved.text)["ply"] == 2  # … and the move went through
    assert all(code < 500 for code in codes), codes
    assert codes.count(200) >= 2 and set(codes) <= {200, 429}, codes
