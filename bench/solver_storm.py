"""A storm of hints, or a flood of deal pages, while others play on (issues 14 and 40).

Each of `--hinters` players holds a Gaps game at the start of its last round (two redeals), where
a search takes its whole budget on most deals; at one moment all of them post the hint button at
once. With `--pages N`, N anonymous visitors (no cookie, as a crawler) load deal pages of fresh
seeds one after another from a second before the hints on, each page a deal nobody has asked
about. Meanwhile `--movers` players tap random legal moves through the board form, for
`--seconds` before the storm (the quiet figure, in the same minute: this machine's load varies
by several times from one minute to the next) and as long after it. Prints the hint outcomes
(answered, "the solver is busy" with Retry-After, other), the pages loaded, every 5xx, and the
other players' move latencies before and during the storm, with the ratio of their p99s.

  .venv/bin/python bench/solver_storm.py                                   # SQLite, one instance
  .venv/bin/python bench/solver_storm.py --hinters 200                     # 200 at once
  .venv/bin/python bench/solver_storm.py --hinters 15 --pages 40           # a crawler's flood, 15 hints
  .venv/bin/python bench/solver_storm.py --db postgresql --instances 2
  options: --hinters 45,200 --movers 20 --seconds 8 --pages 0

Targets: no 5xx at 45 and at 200 players asking at once (issue 14); the other players' move p99
under 200 hinters and under a deal-page flood within twice the quiet one, and a flood of pages
refuses no player's hint (issue 40). Only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import BOARD, CSRF, FORM_HEADERS, Http, Player, Stats, running_servers  # noqa: E402



async def last_round(http: Http, seed: int) -> tuple[str, str]:
    """A Gaps game of the seed at the start of its third round: (game id, CSRF token)."""
    link = f"/play/gaps/{seed}"
    status, _, text = await http.request("GET", link)
    csrf = CSRF.search(text).group(1)
    body = urlencode({"csrf_token": csrf, "action": "confirm-redeal"}).encode()
    status, fields, text = await http.request("POST", link, body, FORM_HEADERS)  # the first move stores it
    game_id = fields["hx-push-url"].rsplit("/", 1)[1]
    _, ply, version, _ = BOARD.search(text).groups()
    body = urlencode({"csrf_token": csrf, "action": "confirm-redeal", "ply": ply, "version": version}).encode()
    status, _, text = await http.request("POST", f"/games/{game_id}/act", body, FORM_HEADERS)
    if status != 200 or 'data-stat="round">3<' not in text:
        raise RuntimeError(f"no third round for seed {seed}: {status}")
    return game_id, csrf


async def storm(bases: list[str], hinters: int, movers: int, seconds: float, pages: int = 0) -> dict:
    rng = random.Random(7)
    clients = [Http(bases[i % len(bases)]) for i in range(hinters)]
    games = [await last_round(c, 10_000 + i) for i, c in enumerate(clients)]
    players = [Player(i, bases[i % len(bases)], ["relaxed", "pyramid-3", "pyramid", "giza"], random.Random(rng.random()))
               for i in range(movers)]
    for player in players:
        player.prepare(int(seconds / 0.15) + 50)
    await asyncio.gather(*(p.new_game() for p in players))
    moves = Stats()
    outcomes: Counter[str] = Counter()
    page_outcomes: Counter[str] = Counter()
    page_ms: list[float] = []
    flooders = [Http(bases[i % len(bases)]) for i in range(pages)]
    hint_ms: list[float] = []
    done = asyncio.Event()

    async def play(player: Player) -> None:
        while not done.is_set():
            await player.move(moves)
            await asyncio.sleep(rng.uniform(0.075, 0.225))

    async def ask(http: Http, game_id: str, csrf: str) -> None:
        started = time.perf_counter()
        try:
            status, fields, text = await http.request("POST", f"/games/{game_id}/hint",
                                                      urlencode({"csrf_token": csrf}).encode(), FORM_HEADERS)
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            outcomes["connection error"] += 1
            return
        hint_ms.append((time.perf_counter() - started) * 1000)
        if status == 200 and "data-hint=" in text:
            outcomes["answered"] += 1
        elif status in (429, 503) and "retry-after" in fields and 'data-error="solver_busy"' in text:
            outcomes[f"busy ({status}, Retry-After {fields['retry-after']} s)"] += 1
        elif status >= 500:
            outcomes[f"5xx ({status})"] += 1
        else:
            outcomes[f"other ({status})"] += 1

    async def browse(http: Http, index: int) -> None:
        """An anonymous visitor's deal pages, one after another: each a seed nobody asked about."""
        presets = ("pyramid", "relaxed", "pyramid-3", "giza")
        n = 0
        while not done.is_set():
            n += 1
            http.cookies.clear()  # no cookie: every page a new visitor, as a crawler is
            target = f"/deal/{presets[n % len(presets)]}/{500_000_000 + index * 100_000 + n}"
            started = time.perf_counter()
            try:
                status, _, _ = await http.request("GET", target)
            except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
                page_outcomes["connection error"] += 1
                continue
            page_ms.append((time.perf_counter() - started) * 1000)
            page_outcomes[str(status)] += 1

    quiet: list[float] = []

    async def run() -> None:
        playing = [asyncio.create_task(play(p)) for p in players]
        # a server that has searched before (its solver process started: a second of CPU the
        # first search after a restart pays, which is not the crowd's cost)
        for index, base in enumerate(bases):
            warm = Http(base)
            warm_game, warm_csrf = await last_round(warm, 9_000 + index)
            await warm.request("POST", f"/games/{warm_game}/hint", urlencode({"csrf_token": warm_csrf}).encode(),
                               FORM_HEADERS)
            await warm.close()
        for http in clients:  # set up long ago: the server has closed their idle connections
            await http.close()
        await asyncio.sleep(1.0)  # the movers under way
        moves.latencies.clear()
        await asyncio.sleep(seconds)  # the quiet figure, in the same minute as the storm's: the load varies
        quiet.extend(moves.latencies)
        moves.latencies.clear()
        browsing = [asyncio.create_task(browse(h, i)) for i, h in enumerate(flooders)]
        await asyncio.sleep(1.0 if flooders else 0.0)  # the flood under way
        await asyncio.gather(*(ask(c, g, t) for c, (g, t) in zip(clients, games)))
        await asyncio.sleep(max(0.0, seconds - 1.0))
        done.set()
        await asyncio.gather(*playing, *browsing)

    await run()
    for http in clients + flooders + [p.http for p in players]:
        await http.close()
    ms = sorted(x * 1000 for x in moves.latencies)
    q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 2 else [float("nan")] * 99
    calm = statistics.quantiles([x * 1000 for x in quiet], n=100, method="inclusive") if len(quiet) > 2 else [float("nan")] * 99
    return {"outcomes": outcomes, "hint_ms": sorted(hint_ms), "pages": page_outcomes, "page_ms": sorted(page_ms),
            "moves": len(ms), "move_errors": moves.errors,
            "p50": q[49], "p99": q[98], "max": ms[-1] if ms else float("nan"),
            "quiet_n": len(quiet), "quiet_p50": calm[49], "quiet_p99": calm[98]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hinters", default="45,200", help="players asking at once, one run each")
    parser.add_argument("--movers", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=8, help="how long the movers play from the storm on")
    parser.add_argument("--pages", type=int, default=0, help="anonymous visitors loading deal pages meanwhile")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--instances", type=int, default=1)
    args = parser.parse_args()
    for hinters in (int(n) for n in args.hinters.split(",")):
        if not (0 <= hinters <= 500 and 1 <= args.instances <= 4 and 0 <= args.pages <= 200):
            raise SystemExit("bounded: 0-500 hinters, 1-4 instances, 0-200 page visitors")
        with running_servers(args.db, args.instances, prefix="tretten-storm-") as (data_dir, servers):
            result = asyncio.run(storm([b for _, b in servers], hinters, args.movers, args.seconds, args.pages))
        logged = sum(log.read_text(errors="replace").count('"status":5') for log in data_dir.glob("server-*.log"))
        hint = result["hint_ms"]
        print(f"{hinters} players ask for a hint at once, {args.pages} visitors load deal pages, "
              f"{args.movers} others play; {args.db}, {args.instances} instance(s)")
        if hint:
            print("  hints: " + ", ".join(f"{k} {v}" for k, v in sorted(result["outcomes"].items()))
                  + f"; answered in p50 {statistics.median(hint):.0f} ms, max {hint[-1]:.0f} ms")
        if result["page_ms"]:
            page = result["page_ms"]
            print("  deal pages: " + ", ".join(f"{k} {v}" for k, v in sorted(result["pages"].items()))
                  + f"; p50 {statistics.median(page):.0f} ms, max {page[-1]:.0f} ms")
        print(f"  5xx in the servers' request logs: {logged}")
        print(f"  other players' moves just before, quiet: n {result['quiet_n']}, p50 {result['quiet_p50']:.1f} ms, "
              f"p99 {result['quiet_p99']:.1f} ms")
        print(f"  other players' moves during the storm: n {result['moves']}, errors {result['move_errors']}, "
              f"p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms, max {result['max']:.1f} ms; "
              f"p99 {result['p99'] / result['quiet_p99']:.2f} × the quiet one")


if __name__ == "__main__":
    main()
