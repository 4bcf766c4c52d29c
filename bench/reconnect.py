"""Reconnect: how soon the moves made offline are stored once the network is back, in Debian's
Chromium on a phone (390x844) at a 150 ms round trip (DevTools network emulation).

Each run opens the deal of issue 26, draws once (the game is stored), goes offline, taps a king,
two pairs and two draws (five moves: two shown at once, the rest held for the boards that
come), stays offline --offline seconds, and comes back. Measured from the moment the network is
back (the page's `online` event) to the frame where #board says no move waits (data-pending
"0") with every move stored: the page retries at once on `online`, so this is the five moves'
round trips one after another, not a retry's pause. Checks after each run: the server holds the
six moves in order (the replay's hooks) and the page equals a fresh load.

  .venv/bin/python bench/reconnect.py                       # 5 runs, 3 s offline each
  options: --runs 5 --offline 20 --rtt 150 --base-url URL

Only 127.0.0.1 is contacted; every loop ends by itself.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path
from urllib.parse import quote

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.browser import chromium_and_server  # noqa: E402

DEAL = ("KD TD KH 2C JD 5C QH QD 6S AD 8S 3S 9D 7D 3D 2H 4C AH 7H 4D 6H 8D TC KC 9S 3H 2S 4H 2D TH "
        "4S 3C 7C 9H 5H AS 7S AC 6D TS JS QS KS 6C JC 5S JH 9C 8H 5D QC 8C")
OFFLINE_MOVES = ["P23", "P22+P25", "P16+P24", "D", "D"]

# the time the network came back, and the frame after the last move waiting was answered
PROBE = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  window.addEventListener("online", () => { window.__online = now(); window.__settled = 0; });
  new MutationObserver(() => {
    const b = document.getElementById("board");
    if (window.__online && !window.__settled && b && b.dataset.pending === "0")
      requestAnimationFrame(() => { window.__settled = now(); });
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-pending"], childList: true });
})();
"""
SNAPSHOT = """() => { const b = document.getElementById('board');
  const cards = [...b.querySelectorAll('[data-card]')]
    .map(e => (e.dataset.loc || e.dataset.pos) + '=' + e.dataset.card).sort();
  return {ply: b.dataset.ply, status: b.dataset.status, cards: cards.join(' ')}; }"""


def taps(move: str) -> list[str]:
    if move == "D":
        return ['#board [data-action="draw"]']
    return [f'#board [data-loc="{loc}"][data-card]' for loc in move.split("+")]


def stored_moves(base: str, game_id: str) -> list[str]:
    total = int(re.search(r'data-total="(\d+)"', httpx.get(f"{base}/g/{game_id}/replay").text).group(1))
    return [re.search(r'data-replay-move="([^"]*)"', httpx.get(f"{base}/g/{game_id}/replay?ply={n}").text).group(1)
            for n in range(1, total + 1)]


def one_run(browser, base: str, offline_s: float, rtt: int) -> tuple[float, bool]:
    context = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844},
                                  has_touch=True, is_mobile=True)
    context.add_init_script(PROBE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")

    def network(offline: bool) -> None:
        cdp.send("Network.emulateNetworkConditions", {"offline": offline, "latency": rtt,
                                                      "downloadThroughput": -1, "uploadThroughput": -1})

    page.goto(f"{base}/play/pyramid?deal={quote(DEAL)}")
    network(False)
    page.tap('#board [data-action="draw"]')
    page.wait_for_selector('#board[data-ply="1"][data-pending="0"]')
    page.wait_for_load_state("networkidle")
    network(True)
    for move in OFFLINE_MOVES:
        for selector in taps(move):
            page.tap(selector)
    page.wait_for_selector(f'#board[data-pending="{len(OFFLINE_MOVES)}"]')
    page.wait_for_timeout(offline_s * 1000)
    network(False)
    page.wait_for_function("() => window.__settled > 0")
    ms = page.evaluate("() => window.__settled - window.__online")
    page.wait_for_load_state("networkidle")
    game_id = page.get_attribute("#board", "data-game-id")
    mine = page.evaluate(SNAPSHOT)
    fresh = context.new_page()
    fresh.goto(page.url)
    same = fresh.evaluate(SNAPSHOT) == mine and stored_moves(base, game_id) == ["D", *OFFLINE_MOVES]
    context.close()
    return ms, same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--offline", type=float, default=3.0, help="seconds offline per run")
    parser.add_argument("--rtt", type=int, default=150)
    parser.add_argument("--base-url", default="")
    args = parser.parse_args()
    with chromium_and_server(args.base_url) as (browser, base):
        results = [one_run(browser, base, args.offline, args.rtt) for _ in range(args.runs)]
    times = sorted(ms for ms, _ in results)
    print(f"rtt {args.rtt} ms, {args.offline:g} s offline, {len(OFFLINE_MOVES)} moves waiting, {args.runs} runs")
    print(f"back online -> all stored: median {statistics.median(times):.0f} ms, max {times[-1]:.0f} ms "
          f"({', '.join(f'{t:.0f}' for t in times)})")
    print(f"stored once, in order, page = server: {'yes' if all(same for _, same in results) else 'NO'}")
    return 0 if all(same for _, same in results) else 1


if __name__ == "__main__":
    sys.exit(main())
