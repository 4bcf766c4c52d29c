"""Solver searches run in worker processes of their own (app/services/assist/searches.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app import solver
from app.engine import GameRecord, deal_for_seed, get_preset
from app.services.assist import searches

from ...processes import alive

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def processes():
    """Searches in a pool of one process for the test, then as before."""
    before = searches._processes
    searches.use_processes(1)
    yield
    searches.use_processes(0)
    searches.use_processes(before)


def _position(seed: int = 8):
    preset = get_preset("pyramid")
    return GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed)).position


def test_a_search_runs_in_another_process_and_answers_as_the_solver(processes):
    assert searches._run(os.getpid) != os.getpid()
    position = _position()
    assert searches.solve(position, player_id=None, budget_nodes=50_000) == solver.solve(position, budget_nodes=50_000)
    assert searches.best_score_move(position, 500, player_id=None) == solver.best_score_move(position, 500)


def test_without_processes_a_search_runs_in_the_calling_thread():
    before = searches._processes
    searches.use_processes(0)
    try:
        assert searches._run(os.getpid) == os.getpid()
    finally:
        searches.use_processes(before)


def test_a_search_process_that_dies_is_replaced(processes):
    os.kill(searches._run(os.getpid), signal.SIGKILL)
    position = _position()
    assert searches.solve(position, player_id=None, budget_nodes=50_000) == solver.solve(position, budget_nodes=50_000)
    assert searches._run(os.getpid) != os.getpid()


def test_search_processes_leave_with_the_process_that_started_them(tmp_path):
    script = ("import os, sys, time\n"
              "from app.services.assist import searches\n"
              "searches.use_processes(1)\n"
              "print(searches._run(os.getpid), flush=True)\n"
              "time.sleep(60)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        worker = int(parent.stdout.readline())
        os.kill(parent.pid, signal.SIGKILL)  # no shutdown, no atexit
        parent.wait(10)
        deadline = time.monotonic() + 10
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(worker)
    finally:
        parent.kill()


def test_stopping_ends_the_processes_and_the_next_search_starts_new_ones(processes):
    worker = searches._run(os.getpid)
    searches.stop()
    assert not alive(worker)
    assert searches._run(os.getpid) not in (worker, os.getpid())


def test_where_processes_cannot_start_a_search_runs_in_the_calling_thread(processes, monkeypatch, caplog):
    searches.use_processes(0)
    searches.use_processes(1)

    def no_processes(*args, **kwargs):
        raise OSError("no /dev/shm here")

    monkeypatch.setattr(searches, "ProcessPoolExecutor", no_processes)
    position = _position()
    assert searches.solve(position, player_id=None, budget_nodes=50_000) == solver.solve(position, budget_nodes=50_000)
    assert searches._run(os.getpid) == os.getpid()
    assert "no solver processes" in caplog.text


def test_searches_are_admitted_per_instance_and_per_player():
    from app.services.errors import BusyError, RateLimitError

    searches.use_processes(0, max_searches=2)
    try:
        with searches.admitted("a"):
            with pytest.raises(RateLimitError) as one_at_a_time, searches.admitted("a"):
                pass
            assert one_at_a_time.value.params["retry_after"] == searches.RETRY_AFTER_SECONDS
            with searches.admitted("b"):
                with pytest.raises(BusyError), searches.admitted("c"):
                    pass
                with searches.admitted(None):  # the app's own searches (the daily deal) are not capped
                    pass
        with searches.admitted("a"), searches.admitted("c"):  # all released again
            pass
    finally:
        searches.use_processes(0)


def test_a_request_holding_its_players_slot_searches_in_it():
    """``held``: the slot taken at the door (app/web/http/solver_room.py) is the one its searches
    run in; other players are refused while the instance's slots are all held, and a second
    request of the same player is refused too."""
    from app.services.errors import BusyError, RateLimitError

    searches.use_processes(0, max_searches=1)
    try:
        with searches.held("a"):
            with searches.admitted("a"), searches.admitted("a"):  # its searches, one after another
                pass
            with pytest.raises(BusyError), searches.held("b"):
                pass
            with pytest.raises(BusyError), searches.admitted("b"):
                pass
        with searches.admitted("a"):  # released; and outside the request, one at a time again
            with pytest.raises(RateLimitError), searches.admitted("a"):
                pass
            with pytest.raises(RateLimitError), searches.held("a"):
                pass
    finally:
        searches.use_processes(0)
