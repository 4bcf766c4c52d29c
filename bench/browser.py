"""Browser: what a player waits for, in Debian's Chromium driven by Playwright, per preset.

Starts a real server (this checkout's app, a temporary SQLite DATA_DIR) unless --base-url is
given, and measures in the page, from the click (or the navigation's start) to the frame after
the board that answers is in the document (htmx:afterSettle on #board, or DOMContentLoaded):

  (a) tap → settled board: taps that post a move (a partner of the selection, a card a tap
      alone moves, Draw / Turn over / Redeal), each a tap a player could make, to the server's
      board laid in; a tap that only selects a card posts nothing (the page answers it, see
      bench/network.py for the time to that answer) and is not timed;
  (b) new deal button → dealt board: on a game in progress, "New deal" asks first; from the
      confirming click to the fresh deal's board;
  (c) deal link → dealt board: a share link (/play/{preset}/{seed}) opened in the address bar.

Also the first load of a game page in a fresh browser (HTML + CSS + JS, bytes as sent, gzip)
and a move's fragment (as sent and unpacked). Guards: first load <= 100 KB gzip, a move's
fragment <= 5 KB; tap p50 <= 60 ms, new deal p50 <= 150 ms (loopback).

  .venv/bin/python bench/browser.py                         # every preset, 1280x800
  options: --presets pyramid,gaps --taps 40 --deals 8 --width 390 --height 844 --base-url URL
           --against URL   (a second server, measured preset by preset alternately with the first)

Only 127.0.0.1 is contacted; every loop ends by itself.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.engine import PRESETS  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

# Runs in every document: the time (ms since the epoch, sub-ms) of the frame after a board arrived.
MARKER = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const stamp = () => { const seen = now(); requestAnimationFrame(() => {
    window.__boardSeen = seen; window.__boardAt = now();
  }); };
  document.addEventListener("DOMContentLoaded", () => { if (document.getElementById("board")) stamp(); });
  document.addEventListener("htmx:afterSettle", (e) => {
    const t = e.detail && e.detail.target;
    if (t && (t.id === "board" || t.id === "main" || (t.querySelector && t.querySelector("#board")))) stamp();
  });
})();
"""

# Picks a tap a player could make and makes it: "move" for a tap that posts a move (its board
# then arrives), "select" for one that only selects a card (the page answers it alone, nothing is
# posted: static/js/app.js), false when the game is over.
TAP = """
() => {
  const board = document.getElementById("board");
  if (!board || board.dataset.status !== "playing") return false;
  const pick = (q) => { const all = [...document.querySelectorAll(q)]; return all.length ? all[Math.floor(Math.random() * all.length)] : null; };
  const move = pick('#board [data-action="confirm-redeal"]')
    || pick('#board button[name="target"].partner:not([disabled])')
    || (Math.random() < 0.8 && pick('#board button[name="target"][data-move]:not([disabled])'))
    || pick('#board [data-action="draw"]:not([disabled]), #board [data-action="recycle"]:not([disabled]), #board [data-action="redeal"]:not([disabled])');
  const select = !move && pick('#board button[name="target"][data-partners]:not([disabled]):not(.selected)');
  const el = move || select;
  if (!el) return false;
  window.__boardAt = 0;
  sessionStorage.setItem("t0", String(performance.timeOrigin + performance.now()));
  el.click();
  return move ? "move" : "select";
}
"""

CLICK = """
(selector) => {
  const el = document.querySelector(selector);
  if (!el) return false;
  window.__boardAt = 0;
  sessionStorage.setItem("t0", String(performance.timeOrigin + performance.now()));
  el.click();
  return true;
}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data_dir: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "DATA_DIR": data_dir, "SECRET_KEY": "bench-browser-secret-of-at-least-32-chars",
           "GAMES_PER_MINUTE": "100000", "NEW_PLAYERS_PER_ADDRESS": "0", "NEW_PLAYERS_TOTAL": "0",
           "NEW_GAMES_PER_ADDRESS": "0", "NEW_GAMES_TOTAL": "0"}
    env.pop("DATABASE_URL", None)
    log = open(Path(data_dir) / "server.log", "w")
    process = subprocess.Popen([sys.executable, "-c", f"from app.web.http.serve import serve; serve('127.0.0.1', {port})"],
                               cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120  # a busy machine starts slowly
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return process, base
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start: " + (Path(data_dir) / "server.log").read_text()[-2000:])


@contextmanager
def chromium_and_server(base_url: str = ""):
    """Debian's Chromium (Playwright), and a server of this checkout on a temporary SQLite unless
    ``base_url`` names one: (browser, base URL), both ended on leaving."""
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        raise SystemExit("Chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    process = None
    with tempfile.TemporaryDirectory() as data_dir:
        base = base_url
        if not base:
            process, base = start_server(data_dir)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
                yield browser, base
                browser.close()
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=10)


def settled(page, timeout: float = 10.0) -> float:
    """Milliseconds from the stored click time to the board's frame (polls across navigations)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = page.evaluate("() => window.__boardAt && window.__boardSeen > Number(sessionStorage.getItem('t0')) ? window.__boardAt - Number(sessionStorage.getItem('t0')) : null")
        except Exception:  # the page is navigating
            value = None
        if value is not None and value > 0:
            return value
        time.sleep(0.003)
    raise RuntimeError("no board arrived")


def board_state(page) -> dict:
    return page.evaluate("""() => { const b = document.getElementById('board');
        return b ? {ply: b.dataset.ply, id: b.dataset.gameId, status: b.dataset.status,
                    seed: (document.querySelector('[data-seed]') || {}).textContent} : null; }""")


def quantiles(values: list[float]) -> str:
    if not values:
        return "      -       -  (n=0)"
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(round(0.9 * (len(values) - 1))))]
    return f"{statistics.median(values):7.1f} {p90:7.1f}  (n={len(values)})"


def open_deal(page, base: str, preset: str) -> None:
    page.goto(f"{base}/play/{preset}/{random.randrange(1, 10**9)}")
    page.wait_for_selector("#board")


def start_game(page, base: str, preset: str) -> bool:
    """A deal with its first move played (a stored game in progress)."""
    for _ in range(5):
        open_deal(page, base, preset)
        for _ in range(12):
            state = board_state(page)
            if state and state["id"] and state["status"] == "playing":
                return True
            tapped = page.evaluate(TAP)
            if not tapped:
                break
            if tapped == "move":
                settled(page)
    return False


def measure_preset(browser, base: str, preset: str, taps: int, deals: int, size: tuple[int, int]) -> dict:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-GB")
    context.add_init_script(MARKER)
    page = context.new_page()
    page.set_default_timeout(15_000)
    out = {"tap": [], "new": [], "link": [], "fragment": []}

    def on_response(response):
        if response.request.method == "POST" and "/act" in response.url and response.status == 200:
            try:
                out["fragment"].append((int(response.headers.get("content-length") or 0), len(response.body())))
            except Exception:
                pass
    page.on("response", on_response)

    open_deal(page, base, preset)
    while len(out["tap"]) < taps:
        tapped = page.evaluate(TAP)
        if not tapped:
            open_deal(page, base, preset)
        elif tapped == "move":  # a selection posts nothing: the next tap, its partner, is timed
            out["tap"].append(settled(page))
    for _ in range(deals):
        if not start_game(page, base, preset):
            continue
        page.click('#board [data-action="new"]')
        page.wait_for_selector('#board [data-action="confirm-new"]')
        before = board_state(page)
        page.evaluate(CLICK, '#board [data-action="confirm-new"]')
        out["new"].append(settled(page))
        after = board_state(page)
        if after["seed"] == before["seed"] or after["ply"] != "0":
            raise RuntimeError(f"New deal did not deal a new board: {before} → {after}")
    for _ in range(deals):
        page.goto(f"{base}/healthz")
        page.evaluate("() => sessionStorage.setItem('t0', '0')")
        page.goto(f"{base}/play/{preset}/{random.randrange(1, 10**9)}", wait_until="commit")
        at = settled(page)
        out["link"].append(page.evaluate("(at) => at - performance.timeOrigin", at))
    context.close()
    return out


def first_load(browser, base: str, preset: str) -> tuple[int, int, list[str]]:
    """Bytes as sent (encodedBodySize) and unpacked of a game page's first load, fresh cache."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/play/{preset}/{random.randrange(1, 10**9)}", wait_until="load")
    entries = page.evaluate("""() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
        .map(e => [e.name, e.encodedBodySize, e.decodedBodySize])""")
    context.close()
    return (sum(e[1] for e in entries), sum(e[2] for e in entries),
            [f"{e[0].rsplit('/', 1)[-1][:40]} {e[1] / 1024:.1f}" for e in entries])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    parser.add_argument("--base-url", default="")
    parser.add_argument("--against", default="", help="another server (e.g. a checkout of main): each preset "
                        "is measured on both, one after the other, so both see the machine's same load")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    random.seed(args.seed)
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        raise SystemExit("Chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    process = None
    with tempfile.TemporaryDirectory() as data_dir:
        base = args.base_url.rstrip("/")
        if not base:
            process, base = start_server(data_dir)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
                servers = [("", base)] + ([("main ", args.against.rstrip("/"))] if args.against else [])
                for label, url in servers:
                    sent, unpacked, parts = first_load(browser, url, "pyramid")
                    print(f"{label}first load of a game page: {sent / 1024:.1f} KB as sent (gzip), {unpacked / 1024:.1f} KB "
                          f"unpacked  [{', '.join(parts)}]  guard <= 100 KB")
                print(f"viewport {args.width}x{args.height}; ms, p50 p90 (n)")
                print(f"{'preset':<21} {'(a) tap → board':>24} {'(b) new deal → board':>24} {'(c) deal link → board':>24}")
                fragments: list[tuple[int, int]] = []
                every = {label: {"tap": [], "new": [], "link": []} for label, _ in servers}
                for preset in args.presets.split(","):
                    for label, url in servers:
                        out = measure_preset(browser, url, preset, args.taps, args.deals, (args.width, args.height))
                        if not label:
                            fragments += out["fragment"]
                        for key in every[label]:
                            every[label][key] += out[key]
                        name = label + preset
                        print(f"{name:<21} {quantiles(out['tap']):>24} {quantiles(out['new']):>24} {quantiles(out['link']):>24}",
                              flush=True)
                for label, _ in servers:
                    e = every[label]
                    print(f"{label + 'all':<21} {quantiles(e['tap']):>24} {quantiles(e['new']):>24} {quantiles(e['link']):>24}")
                if fragments:
                    sent = [f[0] for f in fragments if f[0]]
                    raw = [f[1] for f in fragments]
                    print(f"a move's fragment: median {statistics.median(sent) / 1024 if sent else 0:.2f} KB as sent, "
                          f"max {max(sent) / 1024 if sent else 0:.2f}; unpacked median {statistics.median(raw) / 1024:.2f} KB, "
                          f"max {max(raw) / 1024:.2f}  guard <= 5 KB (as sent)")
                print("targets: tap p50 <= 60 ms, new deal and deal link p50 <= 150 ms")
                browser.close()
        finally:
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
