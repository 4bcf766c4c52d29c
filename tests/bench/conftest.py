"""The benchmarks' own modules (``bench/``) are scripts' neighbours, not a package: import them
as their scripts do, from their folder."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
