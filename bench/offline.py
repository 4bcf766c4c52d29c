"""Offline (docs/architecture.md, "Offline"): what installing the service worker and turning
offline play on cost, and how fast the page's engine (Pyodide in a worker) answers.

  - bytes (gzip, as served): the service worker's install beyond what a first page loaded
    (/sw.js, Workbox's modules, the precached shell files the page did not link), and offline
    play's files (the court figures, Pyodide's core, the engine's bundle);
  - in Debian's Chromium, on a real server (127.0.0.1 only): the engine ready after the setting
    is turned on on a cold cache, and again after a reload (from the service worker's cache);
    one tap's answer (TrettenEngine.apply: the move and the board drawn) over 40 taps; random
    play, positions a second, in the page and in this process's CPython.

Run: .venv/bin/python bench/offline.py
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from app.web.views.offline_engine import random_games  # noqa: E402


def wire(client: httpx.Client, url: str) -> int:
    body = client.get(url, headers={"Accept-Encoding": "identity"}).content
    return len(gzip.compress(body, compresslevel=6))


def sizes(base: str) -> None:
    with httpx.Client(base_url=base, timeout=60) as client:
        page = client.get("/play/pyramid/42").text
        linked = set(re.findall(r'(?:href|src)="(/static/[^"]+)"', page))
        sw = client.get("/sw.js").text
        workbox = re.findall(r'importScripts\("([^"]+)"\)', sw)
        modules = [f"/static/vendor/workbox/workbox-{n}.prod.js"
                   for n in ("core", "precaching", "routing", "strategies", "expiration", "cacheable-response")]
        shell = [u for u in re.findall(r'"url": "([^"]+)"', sw) if u not in linked]
        install = {"/sw.js": wire(client, "/sw.js")} | {u: wire(client, u) for u in workbox + modules + shell}
        files = client.get("/offline/files.json").json()
        art = sum(wire(client, u) for u in files["art"])
        engine = {u.split("?")[0]: wire(client, u) for u in files["engine"]}
    print("service worker's install (gzip), beyond the first page:")
    for url, size in install.items():
        print(f"  {url.split('?')[0]:52s} {size:8d} B")
    print(f"  {'total':52s} {sum(install.values()):8d} B")
    print("offline play's files (gzip), once it is turned on:")
    print(f"  {'court figures (' + str(len(files['art'])) + ')':52s} {art:8d} B")
    for url, size in engine.items():
        print(f"  {url:52s} {size:8d} B")
    print(f"  {'total':52s} {art + sum(engine.values()):8d} B")


def browser(base: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                              args=["--no-sandbox", "--disable-gpu"])
        context = chromium.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.set_default_timeout(180_000)
        page.goto(f"{base}/play/pyramid/42")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        started = time.perf_counter()
        page.locator("details.settings summary").click()
        page.locator("[data-offline-toggle]").check()
        page.wait_for_function("() => document.querySelector('[data-offline-state]').dataset.offlineState === 'ready'")
        cold = time.perf_counter() - started
        page.reload()
        started = time.perf_counter()
        page.wait_for_function("() => !!window.TrettenEngine")
        page.evaluate("() => TrettenEngine.ready()")
        warm = time.perf_counter() - started
        taps = page.evaluate("""async () => {
            const times = []; let moves = [];
            for (let i = 0; i < 40; i++) {
              const t = performance.now();
              const game = {preset: 'gaps', deal: {seed: 5}, moves};
              const state = await TrettenEngine.apply(game, {move: (await TrettenEngine.legal(game, moves))[0]});
              times.push(performance.now() - t);
              moves = state.moves;
              if (state.status !== 'playing') break;
            }
            return times; }""")
        started = time.perf_counter()
        played = page.evaluate("() => TrettenEngine.call('random_games', {preset: 'gaps', first_seed: 1, count: 200})")
        in_page = time.perf_counter() - started
        chromium.close()
    positions = sum(len(g["digests"]) for g in played)
    started = time.perf_counter()
    random_games("gaps", 1, 200)
    here = time.perf_counter() - started
    print(f"engine ready after turning it on, cold cache: {cold:6.1f} s")
    print(f"engine ready after a reload (service worker's cache): {warm:6.1f} s")
    print(f"one tap answered (apply + legal, board drawn), {len(taps)} taps: median {statistics.median(taps):.1f} ms, "
          f"max {max(taps):.1f} ms")
    print(f"random Gaps play, 200 games, {positions} positions: page {positions / in_page:,.0f}/s, "
          f"CPython {positions / here:,.0f}/s")


def main() -> None:
    data = tempfile.mkdtemp()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "DATA_DIR": data, "SECRET_KEY": "offline-bench-secret-of-at-least-32-chars",
           "WEB_CONCURRENCY": "1", "PREPARE_AHEAD": "false"}
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen([sys.executable, "-c", f"from app.web.serve import serve; serve('127.0.0.1', {port})"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        sizes(base)
        browser(base)
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
