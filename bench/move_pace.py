"""How fast a game is played, as the server times it: the daily table's floor (docs/par.md,
"Programs are not players"; FLOOR_SECONDS_PER_MOVE in app/services/stats/clean.py).

Two figures:
- `--db URL`: real play. The won games of a database that were played at the board of the
  pages, each as seconds a move (from its first move to its last, over the moves after the
  first), in quantiles: the fastest hands a live site has seen, which the floor must stay under.
- without `--db`: a program at the board. A fresh server (SQLite), and a script that plays each
  preset's daily par line through the board form as fast as the answers come, as the third fake
  of issue 40 did; and how many of those moves take one tap (a draw, a turnover, a king) and
  how many two (a pair), which is what a hand has to do.

  .venv/bin/python bench/move_pace.py
  .venv/bin/python bench/move_pace.py --db postgresql+psycopg://user@host/tretten

Only 127.0.0.1 is contacted (and the given database).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import BOARD, CSRF, FORM_HEADERS, Http, form_for, running_servers  # noqa: E402
from sqlalchemy import create_engine, select  # noqa: E402

from app.db.models import Game  # noqa: E402
from app.engine import Status  # noqa: E402
from app.services.play.lifecycle import aware  # noqa: E402

PRESETS = ("pyramid", "relaxed", "pyramid-3", "giza")


def real_play(url: str) -> None:
    engine = create_engine(url)
    with engine.connect() as connection:
        rows = connection.execute(select(Game.preset, Game.cursor, Game.started_at, Game.finished_at).where(
            Game.status == Status.WON, Game.played_via == "page", Game.hint_count == 0, Game.cursor > 1)).all()
    paces = sorted((aware(finished) - aware(started)).total_seconds() / (moves - 1)
                   for _, moves, started, finished in rows if started is not None and finished is not None)
    if len(paces) < 2:
        print(f"{len(paces)} won games at the board without hints: too few to say")
        return
    q = statistics.quantiles(paces, n=100, method="inclusive")
    print(f"{len(paces)} won games at the board without hints, seconds a move: fastest {paces[0]:.2f}, "
          f"p1 {q[0]:.2f}, p5 {q[4]:.2f}, median {statistics.median(paces):.2f}")


async def program_at_the_board(base: str, preset: str) -> tuple[float, int, int]:
    """(server seconds a move, one-tap moves, two-tap moves) of the day's par line played by a script."""
    http = Http(base)
    status, _, text = await http.request("GET", f"/api/daily/{preset}")
    import json

    today = json.loads(text)
    seed = today["seed"]
    link = f"/play/{preset}/{seed}"
    from app.db.session import session_factory  # the par line, as the server keeps it
    from app.services.assist import par
    from app.settings import get_settings

    with session_factory(get_settings(), bounded=False)() as session:
        found = par.known(session, par.start_of_deal(preset, seed))
    assert found is not None, "no par kept"
    status, _, text = await http.request("GET", link)
    csrf = CSRF.search(text).group(1)
    game_id, ply, version = "", 0, 0
    for move in found.line:
        fields = {"csrf_token": csrf, **form_for(move)}
        if game_id:
            fields.update(ply=ply, version=version)
        target = f"/games/{game_id}/act" if game_id else link
        status, headers, text = await http.request("POST", target, urlencode(fields).encode(), FORM_HEADERS)
        if not game_id:
            game_id = headers["hx-push-url"].rsplit("/", 1)[1]
        board = BOARD.search(text)
        ply, version = int(board.group(2)), int(board.group(3))
    await http.close()
    with session_factory(get_settings(), bounded=False)() as session:
        game = session.get(Game, game_id)
        assert game.status == Status.WON
        seconds = (aware(game.finished_at) - aware(game.started_at)).total_seconds()
    one_tap = sum(1 for m in found.line if "+" not in m)
    return seconds / (len(found.line) - 1), one_tap, len(found.line) - one_tap


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", help="a database of real play to read (read only)")
    args = parser.parse_args()
    if args.db:
        real_play(args.db)
        return
    import os

    with running_servers("sqlite", 1, prefix="tretten-pace-") as (data_dir, servers):
        os.environ.update(DATABASE_URL=f"sqlite:///{data_dir / 'load.sqlite3'}", DATA_DIR=str(data_dir))
        taps = [0, 0]
        for preset in PRESETS:
            pace, one, two = asyncio.run(program_at_the_board(servers[0][1], preset))
            taps[0] += one
            taps[1] += two
            print(f"{preset}: the day's par line ({one + two} moves: {one} of one tap, {two} pairs) played by a "
                  f"script at the board: {pace * 1000:.1f} ms a move, as the server timed it")
        print(f"one-tap moves {taps[0]}, pairs {taps[1]} ({taps[1] / sum(taps):.0%} of the moves take two aimed taps)")


if __name__ == "__main__":
    main()
