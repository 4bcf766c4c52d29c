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
