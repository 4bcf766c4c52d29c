"""Whole games offline and their return (issue 38, items 3 and 4), in Debian's Chromium.

A phone (390x844) or a desktop (1280x800) with offline play on (the service worker and the
engine in the page) makes a Gaps game's first move online, reloads the game's page offline (from
the cache) and plays on by itself: cards that fit a gap (the engine in the page names the legal
moves; the bench taps the card, then the gap when the card is only selected), a redeal when no
card fits, an undo and its redo. Then the network comes back at a given round trip
(Network.emulateNetworkConditions) and the page sends every change, in order.

It prints, per screen and round trip:
  start   - seconds from the offline reload to the page playing by itself (Pyodide's start)
  tap     - the engine's answer to a tap in the page (median and 90th percentile, ms)
  back    - seconds from the network's return until the server holds every change and the
            page is the server's board again, and the changes per second that makes
The server's moves are checked against the page's, and nothing may be refused.

  .venv/bin/python bench/offline_return.py                 # 0 and 150 ms, phone, 40 changes
  options: --rtts 0,150 --sizes phone,desktop --changes 40 --base-url URL

Only 127.0.0.1 is contacted; every loop ends by itself.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.browser import chromium_and_server  # noqa: E402

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
SEED = 21


def network(cdp, *, offline: bool, rtt: int) -> None:
    cdp.send("Network.emulateNetworkConditions",
             {"offline": offline, "latency": rtt, "downloadThroughput": -1, "uploadThroughput": -1})


def one_run(browser, base: str, size: str, rtt: int, changes: int) -> dict:
    context = browser.new_context(viewport=SIZES[size], service_workers="allow")
    page = context.new_page()
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    network(cdp, offline=False, rtt=rtt)
    page.goto(f"{base}/play/gaps/{SEED}")
    page.evaluate("() => localStorage.setItem('tretten.offline', 'on')")
    page.reload()
    page.wait_for_function("() => !!navigator.serviceWorker.controller && !!window.TrettenEngine")
    page.evaluate("() => TrettenEngine.ready().then(() => true)")
    legal = page.evaluate("() => TrettenEngine.legal(JSON.parse(document.getElementById('board').dataset.engineGame))")
    card = next(m for m in legal if m != "N").split(">")[0]
    page.click(f'#board [data-card="{card}"][data-pos]')
    page.wait_for_function("() => !!document.getElementById('board').dataset.gameId && !TrettenBoard.waiting()")
    game_id = page.get_attribute("#board", "data-game-id")

    network(cdp, offline=True, rtt=rtt)
    context.set_offline(True)
    began = time.monotonic()
    page.reload()
    page.wait_for_function("() => window.TrettenOfflinePlay && TrettenOfflinePlay.active()")
    start = time.monotonic() - began
    taps: list[float] = []

    def tap(selector: str, done: str, arg) -> None:
        t0 = time.monotonic()
        page.click(selector)
        page.wait_for_function(done, arg=arg)
        taps.append((time.monotonic() - t0) * 1000)

    made = 0
    while made < changes:
        game = page.evaluate("() => TrettenOfflinePlay.state().game")
        if page.get_attribute("#board", "data-status") != "playing":
            break
        legal = page.evaluate("(g) => TrettenEngine.legal(g, g.moves.slice(0, g.cursor))", game)
        fills = [m for m in legal if m != "N"]
        moved = "(c) => TrettenOfflinePlay.state().game.cursor !== c"
        if not fills:
            if "N" not in legal:
                break
            tap('#board [data-action="redeal"]', moved, game["cursor"])
        else:
            card, gap = fills[0].split(">")
            pos = page.evaluate("(c) => document.querySelector('#board [data-card=\"' + c + '\"][data-pos]').dataset.pos", card)
            tap(f'#board [data-pos="{pos}"]', "(c) => TrettenOfflinePlay.state().game.cursor !== c || "
                "!!TrettenOfflinePlay.state().game.sel", game["cursor"])
            if page.evaluate("() => TrettenOfflinePlay.state().game.cursor") == game["cursor"]:
                tap(f'#board [data-pos="{gap}"]', moved, game["cursor"])
        made += 1
        if made == changes // 2:  # an undo and its redo
            cursor = page.evaluate("() => TrettenOfflinePlay.state().game.cursor")
            tap('#board [data-action="undo"]', "(c) => TrettenOfflinePlay.state().game.cursor === c - 1", cursor)
            tap('#board [data-action="redo"]', "(c) => TrettenOfflinePlay.state().game.cursor === c", cursor)
            made += 2
    local = page.evaluate("() => TrettenOfflinePlay.state().game")
    queued = page.evaluate("() => TrettenOfflinePlay.pending()")

    context.set_offline(False)
    network(cdp, offline=False, rtt=rtt)
    began = time.monotonic()
    page.wait_for_function("() => !TrettenOfflinePlay.active() && TrettenOfflinePlay.pending() === 0 && "
                           "!TrettenBoard.waiting() && !!document.getElementById('board').dataset.gameId")
    back = time.monotonic() - began
    refused = page.locator("#board [data-error]").count()
    stored = page.context.request.get(f"{base}/games/{game_id}").text()
    ply = int(page.get_attribute("#board", "data-ply"))
    ok = ply == local["cursor"] and f'data-ply="{ply}"' in stored and not refused and not errors
    context.close()
    return {"size": size, "rtt": rtt, "start": start, "taps": taps, "queued": queued, "back": back, "ok": ok,
            "errors": errors[:3]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rtts", default="0,150")
    parser.add_argument("--sizes", default="phone")
    parser.add_argument("--changes", type=int, default=40)
    parser.add_argument("--base-url", default="")
    args = parser.parse_args()
    print(f"{'screen':8} {'rtt ms':>6} {'start s':>8} {'tap p50':>8} {'tap p90':>8} {'changes':>8} "
          f"{'back s':>7} {'per s':>6}  same")
    with chromium_and_server(args.base_url) as (browser, base):
        for size in args.sizes.split(","):
            for rtt in (int(r) for r in args.rtts.split(",")):
                r = one_run(browser, base, size, rtt, args.changes)
                taps = sorted(r["taps"])
                p90 = taps[min(len(taps) - 1, int(len(taps) * 0.9))]
                print(f"{size:8} {rtt:6d} {r['start']:8.1f} {statistics.median(taps):8.0f} {p90:8.0f} "
                      f"{r['queued']:8d} {r['back']:7.2f} {r['queued'] / r['back']:6.1f}  "
                      f"{'yes' if r['ok'] else 'NO ' + '; '.join(r['errors'])}", flush=True)


if __name__ == "__main__":
    main()
