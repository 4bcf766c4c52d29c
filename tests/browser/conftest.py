"""A real server (uvicorn subprocess, fresh SQLite) and Debian's Chromium driven by Playwright.

Without a Chromium the browser tests skip on a developer machine but FAIL under
CI=true: CI must really run them. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("browser-data")
    port = _free_port()
    env = {**os.environ, "DATA_DIR": str(data_dir), "SECRET_KEY": "browser-tests-secret-of-at-least-32-chars", "GAMES_PER_MINUTE": "1000",
           "NEW_PLAYERS_PER_ADDRESS": "0", "NEW_PLAYERS_TOTAL": "0", "NEW_GAMES_PER_ADDRESS": "0", "NEW_GAMES_TOTAL": "0",
           "WEB_CONCURRENCY": "1",  # one process: a test's server has one solver pool and one set of limits
           "PREPARE_AHEAD": "false"}  # no daily deals searched beside the tests (tests/services/assist/test_ahead.py)
    env.pop("DATABASE_URL", None)
    log = (data_dir / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-c", f"from app.web.http.serve import serve; serve('127.0.0.1', {port})"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    while process.poll() is None:  # ready when it answers; a server that exits has failed
        try:
            if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    else:
        pytest.fail("the server did not start: " + (data_dir / "server.log").read_text()[-2000:])
    yield base
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="session")
def browser():
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        message = "Chromium is not installed (apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, request):
    """Pages in fresh contexts (each context is a new anonymous player).

    Their device asks for reduced motion unless the test is marked ``motion``: the deal's and
    the moves' animations are the subject of the tests marked so (the motion itself, and taps
    and answers that meet a card still in flight), and elsewhere they only cost the browser's
    time (software rendering here: a fresh deal's page took 0.65 s of Chromium's CPU animated
    against 0.37 s still)."""
    contexts = []
    motion = request.node.get_closest_marker("motion") is not None

    def make(width: int = 1280, height: int = 900, locale: str = "en-GB", service_workers: str = "block"):
        # the service worker (/sw.js: installing it fetches its modules and the pages' scripts)
        # only where a test is about it (tests/browser/test_offline*.py): the others stay lean
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale,
                                      service_workers=service_workers,
                                      reduced_motion="no-preference" if motion else "reduce")
        contexts.append(context)
        return watched(context.new_page())

    yield make
    for context in contexts:
        context.close()


# how long a test waits for what it waits on: a bound, not a pace (a wait ends when the page is
# ready). Three workers on two cores with Chromium's software rendering stalled a page past 10 s
# now and then in CI (a first move's board, a copy to the clipboard), with nothing wrong.
READY_MS = 20_000


def watched(page):
    """The page with the suite's default timeout, its uncaught errors and console errors kept
    in ``page.js_errors``."""
    page.set_default_timeout(READY_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.js_errors = errors
    return page


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
