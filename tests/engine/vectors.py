"""The test vectors in ``tests/vectors`` (a copy of the project's shared vectors, kept in the repository)."""

from __future__ import annotations

import json
from pathlib import Path

VECTORS = Path(__file__).resolve().parents[1] / "vectors"


def load(name: str) -> list[dict]:
    path = VECTORS / name
    if not path.exists():
        raise FileNotFoundError(f"shared test vectors missing: {path} ")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def cli_options(options: dict) -> list[str]:
    args: list[str] = []
    for key, value in options.items():
        args += [f"--{key}"] if value is True else [f"--{key}", str(value)]
    return args
