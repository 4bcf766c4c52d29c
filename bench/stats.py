"""The stats page against 100,000 stored games: median answer time (target ≤ 100 ms).

Run: .venv/bin/python bench/stats.py [--games 100000] [--database-url URL]
(default: a fresh SQLite file; PostgreSQL: a URL to an empty database, e.g.
postgresql+psycopg://postgres@127.0.0.1:5432/bench_stats). Every game belongs to one player,
the worst case for that player's page; the history, charts, streaks and figures are all
aggregated in SQL. Prints the median and 90th percentile of GET /stats and of the API.

By default the 100,000 games belong to 500 players, and the measured player has 2,000 of them
(a heavy player: five games a day for a year); --mine 100000 puts every game on that player.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import insert  # noqa: E402

from app.db.models import Game, Player  # noqa: E402
from app.db.migrate import upgrade_to_head  # noqa: E402
from app.engine import PRESETS, SCORING_SYSTEMS  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.web.main import create_app  # noqa: E402
from app.web.http.identity import PLAYER_COOKIE, sign_player  # noqa: E402


def fill(app, games: int, mine: int, players: int = 500) -> str:
    rng = random.Random(13)
    now = datetime.now(timezone.utc)
    with app.state.sessionmaker() as session:
        player = Player(id="bench-player", scoring="simple", zen=False, four_colour=False, created_at=now,
                        token_hash="0" * 64)
        session.add(player)
        others = [Player(id=f"other-{k}", scoring="simple", zen=False, four_colour=False, created_at=now)
                  for k in range(players - 1)]
        session.add_all(others)
        session.commit()
        presets = list(PRESETS)
        batch = []
        for i in range(games):
            started = now - timedelta(seconds=rng.randrange(365 * 86400))
            status = rng.choices(("won", "lost", "playing"), (3, 6, 1))[0]
            seconds = rng.randrange(40, 900) if status != "playing" else None
            batch.append({
                "id": f"b{i:09d}", "player_id": player.id if i < mine else others[i % len(others)].id, "preset": rng.choice(presets), "game": "pyramid",
                "rules": {}, "deal": "", "seed": rng.getrandbits(64), "moves": "", "cursor": rng.randrange(20, 80),
                "status": status, "scoring": rng.choice(SCORING_SYSTEMS), "score": rng.randrange(0, 1500),
                "undo_count": rng.choice((0, 0, 0, 1, 3)), "hint_count": rng.choice((0, 0, 0, 0, 1)),
                "created_at": started, "updated_at": started + timedelta(seconds=seconds or 60),
                "started_at": started, "finished_at": started + timedelta(seconds=seconds) if seconds else None,
                "seconds": seconds, "abandoned": status == "playing" and rng.random() < .5, "auto_finished": False,
                "daily_on": started.date() if rng.random() < .1 else None, "version": 1,
            })
            if len(batch) == 10_000:
                session.execute(insert(Game), batch)
                batch = []
        if batch:
            session.execute(insert(Game), batch)
        session.commit()
    return player.id


def timed(client, url, runs: int, **kwargs) -> list[float]:
    client.get(url, **kwargs)  # warm caches (templates, query plans)
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        response = client.get(url, **kwargs)
        out.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.text[:500]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--mine", type=int, default=2_000, help="games of the measured player")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp())
    settings = Settings(data_dir=data, database_url=args.database_url or f"sqlite:///{data / 'bench.sqlite3'}",
                        secret_key="bench-secret-of-at-least-32-characters", games_per_minute=10**9,
                        new_players_per_address=0, new_players_total=0,
                        new_games_per_address=0, new_games_total=0)
    upgrade_to_head(settings)
    app = create_app(settings)
    started = time.perf_counter()
    player_id = fill(app, args.games, min(args.mine, args.games))
    print(f"stored {args.games} games ({min(args.mine, args.games)} of the measured player) in {time.perf_counter() - started:.1f} s ({settings.database_url.split(':')[0]})")
    with TestClient(app) as client:
        client.cookies.set(PLAYER_COOKIE, sign_player(settings.secret_key, player_id))
        for label, url in (("GET /stats", "/stats"), ("GET /stats?preset=pyramid&result=won&page=3", "/stats?preset=pyramid&result=won&page=3"),
                           ("GET /stats (htmx view)", "/stats?result=lost")):
            headers = {"HX-Request": "true"} if "htmx" in label else {}
            times = sorted(timed(client, url, args.runs, headers=headers))
            print(f"{label}: median {statistics.median(times):.1f} ms, p90 {times[int(len(times) * .9) - 1]:.1f} ms")



if __name__ == "__main__":
    main()
