"""Limits on arrivals that cost storage and nothing to make: new players and new games.

A cookie-less request makes a new player, so a limit per player does nothing against a flood:
these count per client address and in total. Each is a token bucket: up to ``per_minute``
at once, refilled at ``per_minute`` a minute. The buckets live in this process's memory, so
each instance counts alone: N instances behind one balancer allow up to N times the total.

IPv6 addresses count by their /64, the block one subscriber is usually given (an attacker
with one /64 has 2**64 addresses). Only the MAX_KEYS addresses seen most recently are kept;
an address forgotten while its bucket was not yet full starts over (the total still holds).
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from .errors import RateLimitError

MAX_KEYS = 100_000
TOTAL = "*"  # the key of the bucket every arrival counts in


def address_key(address: str) -> str:
    """The key an address counts under: an IPv4 address itself, an IPv6 address's /64, and
    anything else (a proxy's odd value, a test client's name) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:100]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class TokenBuckets:
    """One token bucket per key, all of the same size and rate. Not locked: see ``Arrivals``."""

    def __init__(self, per_minute: int, max_keys: int = MAX_KEYS) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0  # tokens a second
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, as of)

    def _tokens(self, key: str, now: float) -> float:
        tokens, then = self._buckets.get(key, (self.capacity, now))
        return min(self.capacity, tokens + (now - then) * self.rate)

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` has a token (0: it has one now). Asking counts as a use."""
        if key in self._buckets:
            self._buckets.move_to_end(key)
        missing = 1.0 - self._tokens(key, now)
        return 0.0 if missing <= 0 else missing / self.rate

    def take(self, key: str, now: float) -> None:
        """Spend one of ``key``'s tokens (``wait`` said there is one)."""
        self._buckets[key] = (self._tokens(key, now) - 1.0, now)
        self._buckets.move_to_end(key)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)  # the longest unused


class Arrivals:
    """New players (or new games) per client address and in total, for one instance.

    ``check(address)`` counts one arrival, or raises RateLimitError (with ``retry_after``,
    whole seconds) and counts none; with ``take=False`` it only says whether one would be
    refused now (a request that searches before it stores a game asks first). A limit of 0 is
    no limit. Safe to call from any thread.
    """

    def __init__(self, per_address: int, total: int, *, message: str, key: str,
                 clock: Callable[[], float] = time.monotonic, max_keys: int = MAX_KEYS) -> None:
        self.per_address = TokenBuckets(per_address, max_keys) if per_address > 0 else None
        self.total = TokenBuckets(total, 1) if total > 0 else None
        self.message = message
        self.key = key
        self.clock = clock
        self._lock = threading.Lock()

    def check(self, address: str, *, take: bool = True) -> None:
        if self.per_address is None and self.total is None:
            return
        key = address_key(address)
        with self._lock:
            now = self.clock()
            wait = max(self.per_address.wait(key, now) if self.per_address else 0.0,
                       self.total.wait(TOTAL, now) if self.total else 0.0)
            if wait > 0:
                raise RateLimitError(self.message, self.key, retry_after=max(1, math.ceil(wait)))
            if not take:
                return
            if self.per_address:
                self.per_address.take(key, now)
            if self.total:
                self.total.take(TOTAL, now)
