"""Gaps as a strong player who does not know the redeals (``bench/gaps_play.py``).

Each round is played by the solver as well as it can within the round, then the redeal is
a fresh random shuffle (not the seeded one). Deals alternate between the presets, so that
a run stopped early leaves both with about as many deals. Every deal is one line of the
log (JSON), so a run can be stopped and resumed (``--resume``); ``--summary`` prints the
figures with the Wilson 95 % interval and writes ``docs/survey/gaps-player.json``.

    nice -n 10 .venv/bin/python bench/gaps_player.py --deals 1000 --log docs/survey/gaps-player-deals.jsonl
    .venv/bin/python bench/gaps_player.py --summary --log docs/survey/gaps-player-deals.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

OUT = ROOT / "docs" / "survey" / "gaps-player.json"
PRESETS = ("gaps", "gaps-danish")


def play(preset: str, seed: int, nodes: int) -> dict:
    from gaps_play import play_deal  # beside this script

    from app.engine import PRESETS as ALL
    from app.engine import deal_for_seed, get_game

    variant = get_game("gaps")
    rules = variant.parse_rules(ALL[preset].rules.to_options())
    position = variant.new_position(deal_for_seed("gaps", seed), rules)
    start = time.perf_counter()
    # the fresh shuffles: their own generator per deal, so every line can be reproduced alone
    result = play_deal(position, random.Random(f"gaps-player {preset} {seed}"), nodes)  # nosec B311
    return {"preset": preset, "seed": seed, "won": result.won, "rounds": result.rounds,
            "cards_in_runs": result.cards_in_runs, "undecided": result.last_round_undecided,
            "seconds": round(time.perf_counter() - start, 3)}


def summary(log: Path, nodes: int, command: str) -> list[dict]:
    from app.survey import wilson

    rows = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    out = []
    for preset in PRESETS:
        mine = [r for r in rows if r["preset"] == preset]
        won = sum(r["won"] for r in mine)
        rate, low, high = wilson(won, len(mine))
        by_round = {str(k): sum(1 for r in mine if r["won"] and r["rounds"] == k) for k in (1, 2, 3)}
        out.append({
            "preset": preset, "player": "strong, redeals unknown", "deals": len(mine),
            "seeds": sorted(r["seed"] for r in mine)[:1] + sorted(r["seed"] for r in mine)[-1:],
            "won": won, "win_rate": round(rate, 5), "ci95": [round(low, 5), round(high, 5)],
            "won_in_round": by_round,
            "last_round_undecided": sum(r["undecided"] for r in mine),
            "nodes_per_search": nodes,
            "seconds_mean": round(sum(r["seconds"] for r in mine) / max(1, len(mine)), 3),
            "command": command,
        })
    return out


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=1000, help="per preset")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--nodes", type=int, default=20000, help="positions per search")
    p.add_argument("--log", type=Path, default=Path("/tmp/gaps-player.jsonl"))
    p.add_argument("--resume", action="store_true", help="skip the deals already in the log")
    p.add_argument("--summary", action="store_true", help="print and write the figures of the log")
    a = p.parse_args(argv)
    if a.summary:
        command = (f"nice -n 10 .venv/bin/python bench/gaps_player.py --deals {a.deals} "
                   f"--seed {a.seed} --nodes {a.nodes} --log {a.log}")
        figures = summary(a.log, a.nodes, command)
        OUT.write_text(json.dumps(figures, indent=2) + "\n")
        print(json.dumps(figures, indent=2))
        return
    done = set()
    if a.resume and a.log.exists():
        done = {(r["preset"], r["seed"]) for r in map(json.loads, a.log.read_text().splitlines()) if r}
    with a.log.open("a" if a.resume else "w") as log:
        for seed in range(a.seed, a.seed + a.deals):
            for preset in PRESETS:
                if (preset, seed) not in done:
                    log.write(json.dumps(play(preset, seed, a.nodes)) + "\n")
                    log.flush()


if __name__ == "__main__":
    main()
