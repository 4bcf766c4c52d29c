"""Where the solver's searches run: in worker processes of their own, not in the web process.

A search is up to seconds of pure-Python CPU. In a thread of the web process it holds the GIL,
and every request of the instance waits for it again at each switch: with hints being searched
beside them, moves took 52 ms at the median instead of 2.6 ms; with the searches in a process
of their own, 2.4 ms (bench/searches.py). ``use_processes(n)`` (the app calls it at start-up,
from SOLVER_PROCESSES) sets the pool's size; the processes start with the first search and end
with ``stop()`` (the app's shutdown) or with the process. With 0, and for every caller outside
the app (the command line, scripts), a search runs in the calling thread. Callers wait for the answer in their own
(worker) thread, which holds no GIL meanwhile.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

from app import lifeline
from app.engine import Position

from ..errors import BusyError, RateLimitError

log = logging.getLogger("tretten.searches")

_lock = threading.Lock()
_processes = 0
_pool: ProcessPoolExecutor | None = None

# Admission: a search waits for a solver process in a worker thread of the web process, so the
# searches let in at once are capped per instance (the rest are told the solver is busy, at
# once, rather than queue for seconds) and per player (one at a time).
_admitted = 0
_max_admitted = 3
_per_player: Counter[str] = Counter()
RETRY_AFTER_SECONDS = 2


def use_processes(processes: int, *, max_searches: int = 3) -> None:
    """Searches from now on in a pool of ``processes`` (0: in the calling thread), at most
    ``max_searches`` of them running or waiting at once."""
    global _processes, _max_admitted
    with _lock:
        if processes != _processes:
            _shut_down_locked()
        _processes = processes
        _max_admitted = max_searches


def check_room(player_id: str) -> None:
    """Refuse at once (as ``admitted`` would) a search that could not be let in now: a request
    that will search checks this before it does any other work."""
    with _lock:
        if _per_player[player_id] >= 1:
            raise RateLimitError("one search at a time, please", "solver_busy", retry_after=RETRY_AFTER_SECONDS)
        if _admitted >= _max_admitted:
            raise BusyError("the solver is busy", "solver_busy", retry_after=RETRY_AFTER_SECONDS)


@contextmanager
def admitted(player_id: str | None) -> Iterator[None]:
    """A slot for one search asked for by ``player_id``: BusyError when the instance has as many
    as it takes, RateLimitError when that player already has one under way. Searches the app
    makes for itself (``player_id`` None: the daily deal) are not capped."""
    global _admitted
    if player_id is None:
        yield
        return
    with _lock:
        if _per_player[player_id] >= 1:
            raise RateLimitError("one search at a time, please", "solver_busy", retry_after=RETRY_AFTER_SECONDS)
        if _admitted >= _max_admitted:
            raise BusyError("the solver is busy", "solver_busy", retry_after=RETRY_AFTER_SECONDS)
        _admitted += 1  # (check_room says the same without taking a slot)
        _per_player[player_id] += 1
    try:
        yield
    finally:
        with _lock:
            _admitted -= 1
            _per_player[player_id] -= 1
            if not _per_player[player_id]:
                del _per_player[player_id]


def stop() -> None:
    """End the pool's processes (the app, as it shuts down); searches under way finish first.
    The next search starts a new pool."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _shut_down_locked() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def _get_pool() -> Executor | None:
    global _pool, _processes
    with _lock:
        if _processes and _pool is None:
            try:
                # spawn: a fresh interpreter, not a fork of a process that runs threads
                _pool = ProcessPoolExecutor(_processes, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_exit_with, initargs=(os.getpid(),))
            except (OSError, ImportError, NotImplementedError) as exc:  # e.g. no /dev/shm for its locks
                log.warning("no solver processes (%s): searching in the request's thread", exc)
                _processes = 0
        return _pool


def _exit_with(parent: int) -> None:
    """In each solver process: leave when the web process that started it is gone (killed, or
    ended without waiting for its pool), rather than linger as an orphan, searching."""
    lifeline.leave_with(parent, lambda: os._exit(0))


def _run(function, *args, **kwargs):
    for attempt in (1, 2):
        pool = _get_pool()
        if pool is None:
            return function(*args, **kwargs)
        try:
            return pool.submit(function, *args, **kwargs).result()
        except BrokenProcessPool:  # a process died (killed, out of memory): a new pool, once
            log.warning("solver process pool broken; starting a new one (attempt %d)", attempt)
            with _lock:
                if _pool is pool:
                    _shut_down_locked()
    return function(*args, **kwargs)  # the new pool broke at once too: search here rather than fail


def solve(position: Position, *, player_id: str | None, **budget):
    """``app.solver.solve(position, **budget)`` (a SolveResult), in a solver process, admitted
    for ``player_id`` (see ``admitted``)."""
    from app.solver import solve as search

    with admitted(player_id):
        return _run(search, position, **budget)


def best_score_move(position: Position, max_nodes: int, *, player_id: str | None) -> str | None:
    """``app.solver.best_score_move``, in a solver process, admitted for ``player_id``."""
    from app.solver import best_score_move as search

    with admitted(player_id):
        return _run(search, position, max_nodes)


def shortest_win(position: Position, *, player_id: str | None, **budget):
    """``app.solver.shortest_win`` (a ShortestWin), in a solver process; None for a position the
    solver has no shortest-win search for (Gaps: there a win is only as short as it is found)."""
    from app.solver import proves_shortest
    from app.solver import shortest_win as search

    if not proves_shortest(position):
        return None
    with admitted(player_id):
        return _run(search, position, **budget)
