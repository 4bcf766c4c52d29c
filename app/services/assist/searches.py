"""Where the solver's searches run: in worker processes of their own, not in the web process.

A search is up to seconds of pure-Python CPU. In a thread of the web process it holds the GIL,
and every request of the instance waits for it again at each switch, so moves served beside a
search would wait for it (bench/searches.py measures it). ``use_processes(n)`` (the app calls it at start-up,
from SOLVER_PROCESSES) sets the pool's size; the processes start with the first search and end
with ``stop()`` (the app's shutdown) or with the process. With 0, and for every caller outside
the app (the command line, scripts), a search runs in the calling thread. Callers wait for the answer in their own
(worker) thread, which holds no GIL meanwhile.

Players first. A player's search (a hint, "still winnable?", the analysis of their game) is
admitted to one of the instance's slots (``admitted``). What a page view would have the solver
work out (a deal's par on its page, its verdict, a day's par for its table) never takes one: the
page serves what is kept, and the search is left to the solver's **spare time**
(``in_spare_time``): one job at a time, in a thread of its own, started only while no player's
search is running or waiting, in a solver process of its own at the lowest CPU priority, and
kept for the next look. A flood of page views then costs the players' searches nothing.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from contextvars import ContextVar

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


@contextmanager
def admitted(player_id: str | None) -> Iterator[None]:
    """A slot for one search asked for by ``player_id``: BusyError when the instance has as many
    as it takes, RateLimitError when that player already has one under way. Searches the app
    makes for itself (``player_id`` None: the daily deal) are not capped, nor the searches of a
    request that holds its player's slot already (``held``)."""
    global _admitted
    if player_id is None or _held.get() == player_id:
        yield
        return
    with _lock:
        if _per_player[player_id] >= 1:
            raise RateLimitError("one search at a time, please", "solver_busy", retry_after=RETRY_AFTER_SECONDS)
        if _admitted >= _max_admitted:
            raise BusyError("the solver is busy", "solver_busy", retry_after=RETRY_AFTER_SECONDS)
        _admitted += 1
        _per_player[player_id] += 1
    try:
        yield
    finally:
        with _lock:
            _admitted -= 1
            _per_player[player_id] -= 1
            if not _per_player[player_id]:
                del _per_player[player_id]
            _spare.notify_all()  # the spare-time thread waits for no player's search at all


_held: ContextVar[str | None] = ContextVar("tretten_search_slot_held", default=None)


@contextmanager
def held(player_id: str) -> Iterator[None]:
    """A player's slot taken before a request that will search does any other work, and held
    until it ends (its searches run in it): refused at once, as ``admitted`` refuses, when there
    is none. A crowd asking at the same moment is then refused at the door, all but the few the
    solver can take, rather than each reading its game first and being refused at the search."""
    with admitted(player_id):
        token = _held.set(player_id)
        try:
            yield
        finally:
            _held.reset(token)


# ---------------------------------------------------------------- spare time

SPARE_JOBS = 64  # waiting at most; beyond, a page's search is not queued (the next look asks again)
_spare = threading.Condition(_lock)
_spare_jobs: OrderedDict[str, Callable[[], object]] = OrderedDict()
_spare_running: str | None = None
_spare_thread: threading.Thread | None = None
_spare_pool: ProcessPoolExecutor | None = None
_lane = threading.local()  # .spare: this thread runs spare-time jobs (their searches: the spare pool)


def in_spare_time(key: str, job: Callable[[], object]) -> None:
    """Run ``job`` (a page's search and what keeps its answer) when the solver has nothing for
    the players: after the jobs asked before it, while no player's search is running or
    waiting. A job under ``key`` already waiting or running is not asked twice; the caller
    never waits."""
    global _spare_thread
    with _spare:
        if key == _spare_running or key in _spare_jobs or len(_spare_jobs) >= SPARE_JOBS:
            return
        _spare_jobs[key] = job
        if _spare_thread is None or not _spare_thread.is_alive():
            _spare_thread = threading.Thread(target=_spare_loop, name="tretten-spare-time", daemon=True)
            _spare_thread.start()
        _spare.notify_all()


def _spare_loop() -> None:
    global _spare_running
    _lane.spare = True
    while True:
        with _spare:
            while not _spare_jobs or _admitted:
                _spare.wait()
            key, job = _spare_jobs.popitem(last=False)
            _spare_running = key
        try:
            job()
        except Exception:  # a failed page search is searched again when the page is seen again
            log.exception("spare-time job %s failed", key)
        finally:
            with _spare:
                _spare_running = None
                _spare.notify_all()


def wait_for_spare_time() -> None:
    """Until no spare-time job is waiting or running (for tests and scripts: a page's answer is
    kept when this returns)."""
    with _spare:
        while _spare_jobs or _spare_running is not None:
            _spare.wait()


PLAYER_NICE, SPARE_NICE = 5, 19  # CPU priority below the web process's (0): moves first, then hints, then pages


def _player_process_init(parent: int) -> None:
    _exit_with(parent)
    os.nice(PLAYER_NICE)  # on a busy machine the web process (every other player's move) comes first


def _spare_process_init(parent: int) -> None:
    _exit_with(parent)
    os.nice(SPARE_NICE)  # and the players' searches before any page's


def _spare_pool_now() -> Executor | None:
    global _spare_pool
    with _lock:
        if _processes and _spare_pool is None:
            try:
                _spare_pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                  initializer=_spare_process_init, initargs=(os.getpid(),))
            except (OSError, ImportError, NotImplementedError) as exc:
                log.warning("no spare-time solver process (%s)", exc)
                return None
        return _spare_pool


def stop() -> None:
    """End the pools' processes (the app, as it shuts down); searches under way finish first.
    The next search starts a new pool."""
    global _pool, _spare_pool
    with _lock:
        pools, _pool, _spare_pool = (_pool, _spare_pool), None, None
    for pool in pools:
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
                                            initializer=_player_process_init, initargs=(os.getpid(),))
            except (OSError, ImportError, NotImplementedError) as exc:  # e.g. no /dev/shm for its locks
                log.warning("no solver processes (%s): searching in the request's thread", exc)
                _processes = 0
        return _pool


def _exit_with(parent: int) -> None:
    """In each solver process: leave when the web process that started it is gone (killed, or
    ended without waiting for its pool), rather than linger as an orphan, searching."""
    lifeline.leave_with(parent, lambda: os._exit(0))


def _run(function, *args, **kwargs):
    global _spare_pool
    for attempt in (1, 2):
        pool = _spare_pool_now() if getattr(_lane, "spare", False) else _get_pool()
        if pool is None:
            return function(*args, **kwargs)
        try:
            return pool.submit(function, *args, **kwargs).result()
        except BrokenProcessPool:  # a process died (killed, out of memory): a new pool, once
            log.warning("solver process pool broken; starting a new one (attempt %d)", attempt)
            with _lock:
                if _pool is pool:
                    _shut_down_locked()
                elif _spare_pool is pool:
                    _spare_pool.shutdown(wait=False, cancel_futures=True)
                    _spare_pool = None
    return function(*args, **kwargs)  # the new pool broke at once too: search here rather than fail


def solve(position: Position, *, player_id: str | None, **budget):
    """``app.solver.solve(position, **budget)`` (a SolveResult), in a solver process, admitted
    for ``player_id`` (see ``admitted``)."""
    from app.solver import solve as search

    with admitted(player_id):
        return _run(search, position, **budget)


def best_score_move(position: Position, max_nodes: int, *, player_id: str | None,
                    avoid: frozenset = frozenset()) -> str | None:
    """``app.solver.best_score_move``, in a solver process, admitted for ``player_id``."""
    from app.solver import best_score_move as search

    with admitted(player_id):
        return _run(search, position, max_nodes, avoid)


def shortest_win(position: Position, *, player_id: str | None, **budget):
    """``app.solver.shortest_win`` (a ShortestWin), in a solver process; None for a position the
    solver has no shortest-win search for."""
    from app.solver import proves_shortest
    from app.solver import shortest_win as search

    if not proves_shortest(position):
        return None
    with admitted(player_id):
        return _run(search, position, **budget)
