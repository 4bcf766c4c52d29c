"""Whether a process is still running, for tests that watch processes come and go."""

from __future__ import annotations

from pathlib import Path


def alive(pid: int) -> bool:
    """Running or sleeping: not gone, and not a zombie (which has exited; only its entry waits
    for its parent to collect it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
