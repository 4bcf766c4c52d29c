"""The app factory: what a running app sets up at start."""

from __future__ import annotations

import anyio.to_thread
from fastapi.testclient import TestClient

from app.web.main import create_app


def test_the_threadpool_has_the_threads_the_settings_name(settings):
    app = create_app(settings.model_copy(update={"threads": 5}))
    with TestClient(app) as client:
        tokens = client.portal.call(lambda: anyio.to_thread.current_default_thread_limiter().total_tokens)
        assert client.get("/healthz").status_code == 200
    assert tokens == 5
