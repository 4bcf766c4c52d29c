"""Run ``tretten survey`` for every preset and write ``docs/survey/results.json``.

Presets with the same game and rules would share one survey. The deal counts are chosen
to fit this 2-core machine; the command line of each survey is stored beside its figures
so anyone can reproduce them.

    .venv/bin/python bench/survey_all.py [--scale 1.0] [--jobs 1]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from app.engine import PRESETS

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "survey" / "results.json"
DEALS = {
    "pyramid": 2000, "pyramid-classic": 1000, "pyramid-3": 1000, "relaxed": 2000, "giza": 2000,
    "double-pyramid": 100, "gaps": 100, "gaps-danish": 100,
}


def survey_command(slug: str, deals: int, jobs: int) -> list[str]:
    preset = PRESETS[slug]
    options: list[str] = []
    for key, value in preset.rules.to_options().items():
        if key == "passes" and preset.game in ("giza", "gaps"):
            continue
        options += [f"--{key}"] if key == "overlap" else [f"--{key}", value]
    return ["tretten", "survey", preset.game, *options, "--deals", str(deals), "--seed", "0",
            "--jobs", str(jobs), "--json", "--quiet"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every deal count")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", help="comma-separated preset slugs")
    args = parser.parse_args()
    results = json.loads(OUT.read_text()) if OUT.exists() else []
    by_rules: dict[tuple, dict] = {}
    for slug in (args.only.split(",") if args.only else PRESETS):
        preset = PRESETS[slug]
        key = (preset.game, tuple(sorted(preset.rules.to_options().items())))
        if key not in by_rules:
            command = survey_command(slug, max(1, round(DEALS[slug] * args.scale)), args.jobs)
            print(" ".join(command), file=sys.stderr, flush=True)
            # -m app.cli from the repository root, so a checkout surveys its own solver
            executable = [sys.executable, "-m", "app.cli", *command[1:]]
            out = subprocess.run(executable, capture_output=True, text=True, check=True, cwd=ROOT).stdout
            by_rules[key] = json.loads(out) | {"command": " ".join(command)}
        entry = by_rules[key] | {"preset": slug}
        results = [r for r in results if r.get("preset") != slug] + [entry]
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(results, indent=2) + "\n")
        print(json.dumps(entry), flush=True)


if __name__ == "__main__":
    main()
