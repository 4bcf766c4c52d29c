"""Seeded deals that stay the same forever.

A seed (0 ≤ seed < 2**64) drives SplitMix64, and a Fisher–Yates shuffle of the
ordered deck uses it. Both are specified in ``docs/seeded-deals.md``; do not change
them, or every shared link deals different cards.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

MASK64 = (1 << 64) - 1
MAX_SEED = MASK64  # the largest seed; every seed from 0 to it deals (stored as text: app.db.models.SeedType)
_TWO_64 = 1 << 64
T = TypeVar("T")


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64 generator (the reference constants)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """An unbiased integer in ``range(bound)`` (rejection sampling, no modulo bias)."""
        limit = _TWO_64 - (_TWO_64 % bound)
        while True:
            value = self.next()
            if value < limit:
                return value % bound


def shuffled(items: Sequence[T], seed: int) -> list[T]:
    """Fisher–Yates (Durstenfeld): for i from n−1 down to 1, swap i with below(i+1)."""
    result = list(items)
    rng = SplitMix64(seed)
    for i in range(len(result) - 1, 0, -1):
        j = rng.below(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


def check_seed(seed: int) -> int:
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is an integer from 0 to {MAX_SEED}, not {seed}")
    return seed


def text_seed(text: str) -> int:
    """A 64-bit seed from text: the first 8 bytes of its SHA-256, big-endian."""
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")
