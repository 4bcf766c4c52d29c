"""`tretten serve` keeps the daily deals ahead (app/web/http/serve.py): a process of its own, started
unless PREPARE_AHEAD is off, that ends with the server."""

from __future__ import annotations

import os

import pytest

from app.settings import get_settings
from app.web.http import serve


@pytest.mark.parametrize("enabled", ["true", "false"])
def test_serve_starts_the_process_that_prepares_the_daily_deals_unless_told_not_to(tmp_path, monkeypatch, enabled):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("PREPARE_AHEAD", enabled)
    get_settings.cache_clear()
    started = []

    class Process:
        def __init__(self, target, args, daemon, name):
            started.append((target, args, daemon))

        def start(self):
            pass

    monkeypatch.setattr(serve.multiprocessing, "get_context", lambda _method: type("C", (), {"Process": Process}))
    monkeypatch.setattr(serve.uvicorn, "run", lambda *a, **k: None)
    try:
        serve.serve()
    finally:
        get_settings.cache_clear()
    expected = [(serve.prepare_ahead, (os.getpid(),), True)] if enabled == "true" else []
    assert started == expected


def test_the_preparing_process_ends_when_its_server_is_gone(monkeypatch):
    monkeypatch.setattr(serve, "get_settings", lambda: pytest.fail("nothing prepared for a server that is gone"))
    serve.prepare_ahead(parent=-1)  # not its parent: it returns at once


@pytest.mark.parametrize(("parent", "stops"), [("supervisor", False), ("gone", True), ("self", False)])
def test_a_worker_whose_supervisor_went_while_it_started_stops_at_once(monkeypatch, parent, stops):
    """A worker's app starts after its process: a supervisor killed in between is no longer its
    parent when it looks, and no lifeline would ever see it go (the worker would run for good)."""
    from app import lifeline

    killed, watched = [], []
    me, ppid = os.getpid(), os.getppid()
    supervisor = {"supervisor": ppid, "gone": 999_999_999, "self": me}[parent]
    monkeypatch.setenv(serve.SUPERVISOR, str(supervisor))
    monkeypatch.setattr(os, "kill", lambda pid, sig: killed.append((pid, sig)))
    monkeypatch.setattr(lifeline, "leave_with", lambda pid, leave: watched.append(pid))
    serve.leave_with_supervisor()
    assert bool(killed) is stops and (not stops or killed[0][0] == me)
    assert watched == ([ppid] if parent == "supervisor" else [])
