"""Where the hot path's sync work runs (board actions, and the load benchmark's floor).

The work (SQLAlchemy, the engine, Jinja) is synchronous and CPU-bound under one GIL.

On SQLite (``BOARD_INLINE``, on by default there) it runs on the event loop itself: a local
file answers in microseconds, and a request then runs start to finish without handing the
GIL back and forth. Measured with bench/load.py at 50 players, BOARD_INLINE true and false
alternating on a busy machine: median move 10, 12 and 23 ms inline against 16, 39 and 68 ms
through the threadpool, with 4-20 % less server CPU per move. One exception: if another
thread of this process is in the middle of a write, the work does not wait for it on the
loop (that thread may need the loop to finish); it rolls back (nothing was stored) and runs
in a worker thread instead, as below. Work that turns out to be slow (the solver choosing a
winnable deal) calls ``leave_the_loop()`` before it starts and is run in a thread the same way.

Otherwise (PostgreSQL, whose round trips would hold up the loop) it runs in worker threads,
at most BOARD_THREADS at once: threads beyond the few that keep the database busy add no
throughput, they take turns at the GIL with the event loop, which then reads requests and
writes responses late. Requests beyond the limit wait their turn on the event loop, in order.
(Other sync routes, such as the solver's, keep AnyIO's default of 40 threads.)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextvars import ContextVar
from typing import TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from anyio.lowlevel import RunVar
from starlette.requests import Request

from app.db.session import WriteLockBusy, no_waiting

T = TypeVar("T")

# one limiter per event loop (a test client runs its own loop)
_limiter: RunVar[CapacityLimiter] = RunVar("tretten_board_limiter")
_on_the_loop: ContextVar[bool] = ContextVar("tretten_board_work_on_the_loop", default=False)


class _LeaveTheLoop(Exception):
    """Inline work that is about to be slow: run it again in a worker thread."""


def leave_the_loop() -> None:
    """Called by board work before something slow (seconds of solver): on the event loop it
    would hold up every other request of the instance, so the work stops here (nothing has
    been stored yet: the session rolls back) and is run again from the start in a thread."""
    if _on_the_loop.get():
        raise _LeaveTheLoop


async def run_board_work(request: Request, func: Callable[..., T], *args) -> T:
    """``func(*args)``, on the loop or in a worker thread (see above). ``func`` opens and closes
    its own session, so after WriteLockBusy (or leave_the_loop) it can simply be run again."""
    settings = request.app.state.settings
    if settings.board_inline:
        token = _on_the_loop.set(True)
        try:
            with no_waiting():
                return func(*args)
        except (WriteLockBusy, _LeaveTheLoop):
            pass
        finally:
            _on_the_loop.reset(token)
    try:
        limiter = _limiter.get()
    except LookupError:
        limiter = CapacityLimiter(settings.board_threads)
        _limiter.set(limiter)
    return await anyio.to_thread.run_sync(functools.partial(func, *args), limiter=limiter)
