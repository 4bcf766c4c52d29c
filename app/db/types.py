"""Column types of our own."""

from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.types import TypeDecorator

SEED_DIGITS = 20  # 2**64 - 1 = 18446744073709551615 has 20 digits


class SeedType(TypeDecorator):
    """A deal seed, 0 ≤ seed < 2**64, stored as its decimal text.

    Neither SQLite nor PostgreSQL has an unsigned 64-bit integer (both stop at 2**63 − 1,
    and SQLite's NUMERIC turns larger values into floats), so the column is a short string;
    Python code sees an int. Only equality is ever asked of it (a deal is a preset and a seed).
    """

    impl = String(SEED_DIGITS)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        return None if value is None else str(int(value))

    def process_result_value(self, value, dialect):
        return None if value is None else int(value)
