"""Load: N simulated players play random legal games against real uvicorn processes on loopback.

Each player is a browser-like client on one keep-alive connection (its own cookie, CSRF token,
htmx header, gzip; a bare HTTP/1.1 client, see Http): it opens a seeded share link, then taps moves through the board form (`POST /games/{id}/act`, answered by
the board fragment), with a random think time between taps; a finished game is followed by a
new deal. Each player's games (seeds and random legal taps) are played out by the engine before
the clock starts. The same players also hit the floor, in slices alternating with the moves'
(`--rounds`): `POST /bench/floor/{game}` (bench/floor.py: the servers run the app with that route added), which reads the
game row, commits one UPDATE and returns a fragment of the move fragment's size.

Prints moves/s, p50/p95/p99 latency and errors for both, and the ratio of the medians; and for
each phase the CPU the servers and this load generator used (from /proc and process_time), since
on a small machine the generator's own share of the cores is part of the picture.

  .venv/bin/python bench/load.py                                   # SQLite, one instance, 50 players
  .venv/bin/python bench/load.py --db postgresql --instances 2     # PostgreSQL, two instances
  options: --players 50 --seconds 20 --rounds 4 --think-ms 150 --presets relaxed,pyramid-3,giza

  .venv/bin/python bench/load.py --workers 1                       # one instance, one worker process
                                                                   # (the default: one per core, as tretten serve)

The floor to hold (docs/performance.md): >= 200 moves/s with p99 < 200 ms at 50 players on one
instance on SQLite. Only 127.0.0.1 is ever contacted; every loop ends by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from app.db.migrate import upgrade_to_head  # noqa: E402
from app.engine import GameRecord, deal_for_seed, get_preset  # noqa: E402
from app.settings import Settings  # noqa: E402

BOARD = re.compile(r'id="board"[^>]*data-status="(\w+)" data-ply="(\d+)" data-version="(\d+)" data-game-id="([\w-]*)"')
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]+)"')
POSTGRES_URL = os.environ.get("TRETTEN_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database(kind: str, data_dir: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{data_dir / 'load.sqlite3'}"
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = make_url(POSTGRES_URL)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text('DROP DATABASE IF EXISTS "tretten_load" WITH (FORCE)'))
        connection.execute(text('CREATE DATABASE "tretten_load"'))
    admin.dispose()
    return base.set(database="tretten_load").render_as_string(hide_password=False)


def start_servers(url: str, data_dir: Path, count: int, pool: int,
                  extra_env: dict[str, str] | None = None, workers: int = 1) -> list[tuple[subprocess.Popen, str]]:
    servers = []
    env = {**os.environ, "DATABASE_URL": url, "DATA_DIR": str(data_dir), "SECRET_KEY": "load-secret-of-at-least-32-characters",
           "GAMES_PER_MINUTE": "100000", "DB_POOL_SIZE": str(pool),
           "NEW_PLAYERS_PER_ADDRESS": "0", "NEW_PLAYERS_TOTAL": "0", "NEW_GAMES_PER_ADDRESS": "0", "NEW_GAMES_TOTAL": "0",
           **(extra_env or {})}
    for index in range(count):
        port = free_port()
        log = open(data_dir / f"server-{index}.log", "wb")
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--app-dir", str(ROOT / "bench"), "--factory", "floor:create_app", "--host", "127.0.0.1",
             "--port", str(port), "--no-access-log", "--log-level", "warning", "--workers", str(workers)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        servers.append((process, f"http://127.0.0.1:{port}"))
    for process, base in servers:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise SystemExit(f"server exited: see {data_dir}")
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("server did not start")
            time.sleep(0.05)
    return servers


def stop_servers(servers: list[tuple[subprocess.Popen, str]]) -> None:
    """SIGTERM (requests in flight finish), then SIGKILL after 30 s."""
    for process, _ in servers:
        process.send_signal(signal.SIGTERM)
    for process, _ in servers:
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


@contextmanager
def running_servers(db: str, count: int, pool: int = 10, prefix: str = "tretten-load-",
                    extra_env: dict[str, str] | None = None,
                    workers: int = 1) -> Iterator[tuple[Path, list[tuple[subprocess.Popen, str]]]]:
    """A fresh database (SQLite in a new folder, or a fresh PostgreSQL database) migrated to the
    schema's head, and ``count`` servers on it (their logs in the folder), stopped on the way out."""
    data_dir = Path(tempfile.mkdtemp(prefix=prefix))
    url = database(db, data_dir)
    upgrade_to_head(Settings(data_dir=data_dir, database_url=url, secret_key="load-secret-of-at-least-32-characters"))
    servers = start_servers(url, data_dir, count, pool, extra_env, workers)
    try:
        yield data_dir, servers
    finally:
        stop_servers(servers)


def form_for(move: str) -> dict:
    if move == "D":
        return {"action": "draw"}
    if move == "R":
        return {"action": "recycle"}
    if "+" in move:
        first, second = move.split("+")
        return {"sel": first, "target": second}
    return {"target": move}


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User+system CPU of a process and its worker processes so far (fields 14 and 15 of
    /proc/PID/stat; uvicorn's --workers are the children of its supervisor)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    workers = [int(child) for child in children.read_text().split()] if children.exists() else []
    return _own_cpu_seconds(pid) + sum(_own_cpu_seconds(child) for child in workers)


def _own_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    sizes: list[int] = field(default_factory=list)
    games: int = 0
    server_cpu: float = 0.0  # seconds, all instances, over the phase
    client_cpu: float = 0.0  # seconds, this load generator, over the phase

    def line(self, name: str, seconds: float) -> str:
        ms = sorted(x * 1000 for x in self.latencies)
        if not ms:
            return f"{name}: no requests, errors {self.errors}"
        q = statistics.quantiles(ms, n=100, method="inclusive")
        return (f"{name:6s} {len(ms) / seconds:7.1f} req/s   p50 {q[49]:6.2f} ms   p95 {q[94]:6.2f} ms   "
                f"p99 {q[98]:6.2f} ms   max {ms[-1]:7.2f} ms   n {len(ms)}   errors {self.errors}")

    def cpu_line(self, seconds: float) -> str:
        n = max(len(self.latencies), 1)
        return (f"       CPU: servers {self.server_cpu / seconds:4.2f} cores ({self.server_cpu * 1000 / n:5.2f} ms/req), "
                f"load generator {self.client_cpu / seconds:4.2f} cores ({self.client_cpu * 1000 / n:5.2f} ms/req)")

    def median(self) -> float:
        return statistics.median(self.latencies) * 1000 if self.latencies else float("nan")


class Http:
    """A bare HTTP/1.1 client for loopback: one keep-alive connection, a cookie jar, gzip.

    The generator shares the two cores with the server it measures, so its own CPU is taken
    from the server's: httpx's AsyncClient cost about 2 ms of CPU a request, this about a
    tenth of that. It speaks only what the app answers (Content-Length bodies, no chunks)."""

    def __init__(self, base: str) -> None:
        self.host = base.removeprefix("http://")
        address, port = self.host.rsplit(":", 1)
        self.address, self.port = address, int(port)
        self.cookies: dict[str, str] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, target: str, body: bytes = b"", headers: tuple[str, ...] = ()) -> tuple[int, dict, str]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.address, self.port)
        lines = [f"{method} {target} HTTP/1.1", f"Host: {self.host}", "Accept-Encoding: gzip",
                 f"Content-Length: {len(body)}", *headers]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        head = "\r\n".join(lines) + "\r\n\r\n"
        try:
            self.writer.write(head.encode() + body)
            status = int((await self.reader.readline()).split()[1])
            fields: dict[str, str] = {}
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                name, value = name.lower(), value.strip()
                if name == "set-cookie":
                    pair = value.split(";", 1)[0]
                    key, _, cookie_value = pair.partition("=")
                    self.cookies[key] = cookie_value
                fields[name] = value
            data = await self.reader.readexactly(int(fields.get("content-length", "0")))
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            await self.close()
            raise
        if fields.get("content-encoding") == "gzip":
            data = zlib.decompress(data, 31)
        if fields.get("connection") == "close":
            await self.close()
        return status, fields, data.decode()

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


@dataclass
class Plan:
    """One game a player will play: its preset, its seed, and every tap, chosen beforehand."""

    preset: str
    seed: int
    moves: list[str]


def plan_game(preset: str, seed: int, rng: random.Random) -> Plan:
    """A random legal game to its end, worked out by the engine before the clock runs: the
    generator shares the cores with the server, and choosing moves mid-phase would slow its
    reading of the move answers (and not of the floor's) by its own CPU."""
    p = get_preset(preset)
    record = GameRecord.new(p.game, p.rules, deal_for_seed(p.game, seed))
    moves = []
    while record.position.status == "playing" and (legal := record.position.legal_moves()):
        move = str(rng.choice(legal))
        moves.append(move)
        record = record.play(move)
    return Plan(preset, seed, moves)


class Player:
    def __init__(self, index: int, base: str, presets: list[str], rng: random.Random) -> None:
        self.index = index
        self.http = Http(base)
        self.presets = presets
        self.rng = rng
        self.game_id = ""
        self.csrf = ""
        self.plans: list[Plan] = []
        self.plan = Plan("", 0, [])
        self.next_move = 0

    def prepare(self, moves: int) -> None:
        """Plan games until they hold at least `moves` taps (more are planned if they run out)."""
        while sum(len(p.moves) for p in self.plans) < moves:
            self.plans.append(self._new_plan())

    def _new_plan(self) -> Plan:
        return plan_game(self.rng.choice(self.presets), self.rng.randrange(1_000_000_000), self.rng)

    async def new_game(self) -> None:
        """Open a share link (the deal ready to play) and make the first move, which stores the game."""
        self.plan = self.plans.pop(0) if self.plans else self._new_plan()
        self.next_move = 0
        link = f"/play/{self.plan.preset}/{self.plan.seed}"
        status, fields, text = await self.http.request("GET", link)
        if status == 303:  # a share link of a game in play resumes it: this player never plays a seed twice
            raise RuntimeError("resumed game")
        if status != 200:
            raise RuntimeError(f"new game: {status}")
        self.csrf = CSRF.search(text).group(1)
        self.ply, self.version, self.game_id = 0, 0, ""
        while not self.game_id and self.next_move < len(self.plan.moves):  # a tap that only selects stores nothing
            body = urlencode({"csrf_token": self.csrf, **form_for(self.plan.moves[self.next_move])}).encode()
            status, fields, text = await self.http.request("POST", link, body, FORM_HEADERS)
            if status != 200:
                raise RuntimeError(f"first move: {status}")
            self.next_move += 1
            self.game_id = fields.get("hx-push-url", "").rsplit("/", 1)[-1]
        board = BOARD.search(text)
        self.ply, self.version = int(board.group(2)), int(board.group(3))

    async def move(self, stats: Stats) -> None:
        if self.next_move >= len(self.plan.moves):
            stats.games += 1
            await self.new_game()
            return
        move = self.plan.moves[self.next_move]
        body = urlencode({"csrf_token": self.csrf, "ply": self.ply, "version": self.version, **form_for(move)}).encode()
        started = time.perf_counter()
        try:
            status, _fields, text = await self.http.request("POST", f"/games/{self.game_id}/act", body, FORM_HEADERS)
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            stats.errors += 1
            return
        elapsed = time.perf_counter() - started
        board = BOARD.search(text) if status == 200 else None
        if board is None or int(board.group(2)) != self.ply + 1:
            stats.errors += 1
            await self.new_game()
            return
        stats.latencies.append(elapsed)
        stats.sizes.append(len(text))
        self.next_move += 1
        self.ply, self.version = int(board.group(2)), int(board.group(3))

    async def floor(self, stats: Stats, size: int) -> None:
        started = time.perf_counter()
        try:
            status, _fields, text = await self.http.request("POST", f"/bench/floor/{self.game_id}?size={size}")
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            stats.errors += 1
            return
        if status != 200:
            stats.errors += 1
            return
        stats.latencies.append(time.perf_counter() - started)
        stats.sizes.append(len(text))


FORM_HEADERS = ("HX-Request: true", "Content-Type: application/x-www-form-urlencoded")


async def drive(bases: list[str], args, pids: tuple[int, ...] = ()) -> tuple[Stats, Stats, float, float]:
    """The players play without a pause from the warm-up to the end; what they post changes with
    the clock: taps during the warm-up (not counted), then moves and floor in alternating slices
    (`--rounds` of each, `--seconds` in all per kind). A shared machine's speed drifts within a
    minute, and slices spread that drift over both kinds instead of handing it to whichever came
    second; one unbroken run has no ramp at the start or tail at the end of a slice. A request
    counts for the slice it starts in; CPU is read at each change of slice."""
    rng = random.Random(args.seed)
    presets = args.presets.split(",")
    players = [Player(i, bases[i % len(bases)], presets, random.Random(rng.random())) for i in range(args.players)]
    taps = int(1.5 * (args.warmup + args.seconds) / (args.think_ms / 1000)) + 50
    for player in players:
        player.prepare(taps)
    await asyncio.gather(*(p.new_game() for p in players))
    think = args.think_ms / 1000
    warm, moves, floor = Stats(), Stats(), Stats()
    slice_seconds = args.seconds / args.rounds
    timeline = [(warm, args.warmup)] + [(kind, slice_seconds) for _ in range(args.rounds) for kind in (moves, floor)]
    started = time.monotonic()
    ends = [started + sum(seconds for _, seconds in timeline[:i + 1]) for i in range(len(timeline))]

    def current() -> Stats | None:
        now = time.monotonic()
        return next((kind for (kind, _), end in zip(timeline, ends) if now < end), None)

    size: list[int] = []  # the floor answers with the median move fragment's size, set once

    def floor_size() -> int:
        if not size:
            sizes = moves.sizes or warm.sizes
            size.append(int(statistics.median(sizes)) if sizes else 11000)
        return size[0]

    async def play(player: Player) -> None:
        await asyncio.sleep(player.rng.uniform(0, think))  # do not all start at once
        while (kind := current()) is not None:
            if kind is floor:
                await player.floor(floor, floor_size())
            else:
                await player.move(kind)
            await asyncio.sleep(player.rng.uniform(0.5 * think, 1.5 * think))

    async def meter() -> None:
        for (kind, _), end in zip(timeline, ends):
            server, client = sum(cpu_seconds(p) for p in pids), time.process_time()
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            kind.server_cpu += sum(cpu_seconds(p) for p in pids) - server
            kind.client_cpu += time.process_time() - client

    await asyncio.gather(meter(), *(play(p) for p in players))
    await asyncio.gather(*(p.http.close() for p in players))
    return moves, floor, args.seconds, args.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20, help="per kind (moves, floor), over all rounds")
    parser.add_argument("--rounds", type=int, default=4, help="alternating slices of moves and floor")
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--think-ms", type=float, default=150, help="mean pause between one player's taps")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--instances", type=int, default=1)
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)),
                        help="worker processes per instance (WEB_CONCURRENCY; one per core, as tretten serve)")
    parser.add_argument("--pool", type=int, default=10, help="DB_POOL_SIZE per instance")
    parser.add_argument("--presets", default="relaxed,pyramid-3,pyramid,giza")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not (1 <= args.players <= 1000 and 0 < args.seconds <= 600 and 1 <= args.instances <= 8
            and 1 <= args.rounds <= 20):
        raise SystemExit("bounded: 1-1000 players, at most 600 s, 1-8 instances, 1-20 rounds")

    with running_servers(args.db, args.instances, args.pool, workers=args.workers) as (_, servers):
        moves, floor, move_seconds, floor_seconds = asyncio.run(drive([b for _, b in servers], args, tuple(p.pid for p, _ in servers)))
    size = int(statistics.median(moves.sizes)) if moves.sizes else 0
    print(f"{args.players} players, think {args.think_ms:.0f} ms, {args.db}, {args.instances} instance(s), "
          f"{args.seconds:.0f} s per kind in {args.rounds} rounds; move fragment {size} B raw; games finished {moves.games}")
    print(moves.line("moves", move_seconds))
    print(moves.cpu_line(move_seconds))
    print(floor.line("floor", floor_seconds))
    print(floor.cpu_line(floor_seconds))
    print(f"median move / median floor = {moves.median() / floor.median():.2f}")


if __name__ == "__main__":
    main()
