"""A newcomer's first new deal on a new server: what it is and how long the player waits.

    .venv/bin/python bench/first_deal.py [--rounds 5] [--presets gaps,gaps-danish] [--without-shipped]

Each round starts from nothing, as a new server does: a fresh SQLite database (no verdict kept)
and a solver process started by the first search (SOLVER_PROCESSES=1, the default). A
winnable-only player (a newcomer's default) asks for a new deal of each preset in turn, through
``app.services.assist.winnable.new_seed``, the server's own path. Prints, per deal, where it came
from (``searched``: proven by the search; ``kept``: a deal proven before; ``shipped``: one of
app/services/assist/first_deals.py; ``UNPROVEN``), and the seconds it took; then the process's
CPU seconds (the solver process's not included). ``--without-shipped``: as a server without
the shipped deals would deal.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import select

from app.db.migrate import upgrade_to_head
from app.db.models import DealVerdict, Player
from app.db.session import session_factory
from app.services.assist import first_deals, searches, winnable
from app.settings import Settings


def where_from(session, slug: str, seed: int, kept_before: set[int]) -> str:
    if seed in kept_before:
        return "kept"
    if seed in first_deals.shipped(slug):
        return "shipped"
    verdict = session.get(DealVerdict, (slug, seed))
    return "searched" if verdict is not None and verdict.winnable else "UNPROVEN"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--presets", default="gaps,gaps-danish")
    parser.add_argument("--without-shipped", action="store_true")
    args = parser.parse_args()
    if args.without_shipped:
        first_deals.SEEDS.clear()
    cpu = time.process_time()
    for round_ in range(args.rounds):
        with tempfile.TemporaryDirectory() as data:
            settings = Settings(data_dir=Path(data), database_url=f"sqlite:///{data}/bench.sqlite3",
                                secret_key="bench-first-deal-secret-bench-first-deal")
            upgrade_to_head(settings)
            searches.use_processes(1)
            sessions = session_factory(settings)
            with sessions() as session:
                for slug in args.presets.split(","):
                    player = Player(winnable_only=True)
                    session.add(player)
                    session.commit()
                    kept_before = set(session.scalars(select(DealVerdict.seed).where(DealVerdict.preset == slug)))
                    began = time.perf_counter()
                    seed = winnable.new_seed(session, player, slug)
                    took = time.perf_counter() - began
                    source = where_from(session, slug, seed, kept_before)
                    print(f"round {round_} {slug:<12} seed {seed:>10} {source:<9} {took:6.2f} s", flush=True)
            searches.stop()  # the next round's first search starts a new solver process, as a new server's does
    print(f"cpu {time.process_time() - cpu:.1f} s (this process)")


if __name__ == "__main__":
    main()
