"""The one threadpool hop of the hot path (board actions, and the load benchmark's floor).

Sync work (SQLAlchemy, the engine, Jinja) runs in worker threads so the event loop is never
blocked on the database. But it is CPU work under one GIL: threads beyond the few that keep
the database busy add no throughput, they take turns at the GIL with the event loop, which
then reads requests and writes responses late (a move measured 19 ms inside the app at the
median for ~2.5 ms of CPU). The hot path therefore has a limiter of its own, BOARD_THREADS
(other sync routes, such as the solver's, keep AnyIO's default of 40), and requests beyond it
wait their turn on the event loop, in order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from anyio.lowlevel import RunVar
from starlette.requests import Request

T = TypeVar("T")

# one limiter per event loop (a test client runs its own loop)
_limiter: RunVar[CapacityLimiter] = RunVar("tretten_board_limiter")


async def run_board_work(request: Request, func: Callable[..., T], *args) -> T:
    try:
        limiter = _limiter.get()
    except LookupError:
        limiter = CapacityLimiter(request.app.state.settings.board_threads)
        _limiter.set(limiter)
    return await anyio.to_thread.run_sync(functools.partial(func, *args), limiter=limiter)
