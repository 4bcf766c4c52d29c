"""Motion's cost to a tap: tap → settled board with animations on and off, in Chromium.

    .venv/bin/python bench/motion.py --taps 15

On a loaded 2-core machine a run takes about 10 minutes (Gaps after Pyramid).

Starts its own server (fresh SQLite) unless given --base. Plays Pyramid draws and Gaps fills by
taps spaced so that each animation has ended, animations on and off by turns, and prints per
family and setting the p50/p90 of
"settled" (the tap's event → htmx has swapped and settled the board) and "shown" (→ the first
frame showing the new board: with animations on, the frame its cards start moving in; the
animation itself, 220 ms a move, comes after it and holds nothing up). A second line per family
taps every 60 ms, during the animations: each tap then ends the running one.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
PlaywrightTimeout = TimeoutError  # Playwright's, once imported (main)

# In the page: times each board swap from the tap's event to afterSettle and to the frame after.
PROBE = """() => {
  window.motionTimes = [];
  let tapAt = null;
  document.addEventListener('click', e => { if (e.target.closest('#board')) tapAt = e.timeStamp; }, true);
  document.addEventListener('htmx:afterSettle', e => {
    if (tapAt === null || !e.detail.elt || e.detail.elt.id !== 'board') return;
    const start = tapAt, settled = performance.now();
    tapAt = null;
    requestAnimationFrame(() => window.motionTimes.push([settled - start, performance.now() - start]));
  });
}"""


def start_server() -> tuple[str, subprocess.Popen]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "DATA_DIR": tempfile.mkdtemp(prefix="tretten-bench-"),
           "SECRET_KEY": "bench-motion-secret-of-at-least-32-characters", "GAMES_PER_MINUTE": "100000",
           "NEW_PLAYERS_PER_ADDRESS": "0", "NEW_PLAYERS_TOTAL": "0", "NEW_GAMES_PER_ADDRESS": "0", "NEW_GAMES_TOTAL": "0"}
    env.pop("DATABASE_URL", None)
    process = subprocess.Popen([sys.executable, "-c", f"from app.web.http.serve import serve; serve('127.0.0.1', {port})"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return base, process
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def open_deal(page, base: str, family: str, seed: int, selector: str) -> None:
    page.goto(f"{base}/play/{family}/{seed}")
    # the first move stores the game and moves to its address; the taps timed come after it
    page.click(selector)
    page.wait_for_selector('#board[data-ply="1"], #board .partner', state="attached")
    if page.locator("#board .partner").count():  # a card with two gaps: choose one
        page.click("#board .partner")
    page.wait_for_url("**/games/**", wait_until="load")
    page.wait_for_selector('#board[data-ply="1"]')
    page.evaluate(PROBE)


def tap_series(page, base: str, family: str, taps: int, gap_ms: int, alternate: bool) -> dict[bool, list]:
    """Taps one after another; with `alternate`, animations on and off by turns (so that the
    load of a shared machine weighs on both alike), else always on."""
    selector = '[data-action="draw"]' if family == "pyramid" else "#board .card.playable"
    seed = 7
    open_deal(page, base, family, seed, selector)
    times: dict = {True: [], False: [], "lost": []}
    done = 0
    while done < taps:
        on = not alternate or done % 2 == 0
        page.evaluate("on => on ? document.documentElement.removeAttribute('data-animations')"
                      " : document.documentElement.setAttribute('data-animations', 'off')", on)
        ply = int(page.get_attribute("#board", "data-ply"))
        target = page.locator(f"#board {selector}:not([disabled])").first
        if not target.count():
            seed += 1
            open_deal(page, base, family, seed, selector)
            continue
        box = target.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        try:
            page.wait_for_selector(f'#board[data-ply="{ply + 1}"], #board[data-selected]:not([data-selected=""])',
                                   state="attached", timeout=10_000)
        except PlaywrightTimeout:
            times["lost"].append(ply)  # reported: a tap that never played
            done += 1
            continue
        page.wait_for_timeout(gap_ms)
        found = page.evaluate("() => window.motionTimes.splice(0)")
        if int(page.get_attribute("#board", "data-ply")) != ply + 1:  # a card with two gaps: selected
            page.click("#board .partner")
            page.wait_for_selector(f'#board[data-ply="{ply + 1}"]', state="attached")
            page.wait_for_timeout(gap_ms)
            page.evaluate("() => window.motionTimes.splice(0)")
            continue
        times[on].extend(found)
        done += 1
    return times


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main(argv=None) -> None:
    from playwright.sync_api import sync_playwright

    global PlaywrightTimeout
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    p = argparse.ArgumentParser()
    p.add_argument("--taps", type=int, default=40, help="taps per family and setting")
    p.add_argument("--base", help="a running server (default: start one)")
    a = p.parse_args(argv)
    base, process = (a.base, None) if a.base else start_server()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=shutil.which("chromium"),
                                         args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            print(f"{'family':<9}{'animations':<12}{'spacing':>8}{'taps':>6}{'settled p50':>12}{'p90':>6}"
                  f"{'shown p50':>10}{'p90':>6}  (ms)")
            for family in ("pyramid", "gaps"):
                for gap, alternate in ((350, True), (60, False)):
                    context = browser.new_context(viewport={"width": 1280, "height": 800})
                    page = context.new_page()
                    series = tap_series(page, base, family, a.taps * (2 if alternate else 1), gap, alternate)
                    context.close()
                    if series["lost"]:
                        print(f"{family:<9}{'':<12}{gap:>8}  taps lost at plies {series['lost']}")
                    for on in (False, True):
                        times = series[on]
                        if not times:
                            continue
                        settled = [t[0] for t in times]
                        shown = [t[1] for t in times]
                        print(f"{family:<9}{'on' if on else 'off':<12}{gap:>8}{len(times):>6}"
                              f"{statistics.median(settled):>12.1f}{pct(settled, .9):>6.0f}"
                              f"{statistics.median(shown):>10.1f}{pct(shown, .9):>6.0f}")
            browser.close()
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
