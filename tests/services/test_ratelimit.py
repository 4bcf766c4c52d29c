"""The arrival limits: token buckets per client address and in total, on a clock we move."""

from __future__ import annotations

import threading

import pytest

from app.services.ratelimit import Arrivals, address_key
from app.services.errors import RateLimitError


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def arrivals(per_address: int, total: int, clock: Clock, **kwargs) -> Arrivals:
    return Arrivals(per_address, total, message="too many", key="too_many_players", clock=clock, **kwargs)


def allowed(limits: Arrivals, address: str) -> bool:
    try:
        limits.check(address)
    except RateLimitError:
        return False
    return True


def test_an_address_gets_its_burst_then_waits_for_the_next_token():
    clock = Clock()
    limits = arrivals(10, 0, clock)
    assert [allowed(limits, "203.0.113.1") for _ in range(12)] == [True] * 10 + [False] * 2
    with pytest.raises(RateLimitError) as refused:
        limits.check("203.0.113.1")
    assert refused.value.params["retry_after"] == 6 and refused.value.key == "too_many_players"  # 10 a minute: one per 6 s
    clock.now += 5.9
    assert not allowed(limits, "203.0.113.1")
    clock.now += 0.1
    assert allowed(limits, "203.0.113.1") and not allowed(limits, "203.0.113.1")
    clock.now += 60
    assert [allowed(limits, "203.0.113.1") for _ in range(11)] == [True] * 10 + [False]  # full again, no more


def test_another_address_is_not_held_up():
    limits = arrivals(3, 0, Clock())
    assert [allowed(limits, "203.0.113.1") for _ in range(4)] == [True, True, True, False]
    assert [allowed(limits, "203.0.113.2") for _ in range(4)] == [True, True, True, False]


def test_the_total_holds_across_addresses_and_a_refusal_counts_nothing():
    clock = Clock()
    limits = arrivals(2, 5, clock)
    results = [allowed(limits, f"198.51.100.{i}") for i in range(5)]
    assert results == [True] * 5
    with pytest.raises(RateLimitError) as refused:
        limits.check("198.51.100.99")
    assert refused.value.params["retry_after"] == 12  # 5 a minute
    # the refused address spent nothing: it has both its tokens once the total has one
    clock.now += 24
    assert allowed(limits, "198.51.100.99") and allowed(limits, "198.51.100.99")
    assert not allowed(limits, "198.51.100.50")


def test_zero_is_no_limit():
    limits = arrivals(0, 0, Clock())
    assert all(allowed(limits, "203.0.113.1") for _ in range(10_000))


def test_ipv6_addresses_count_by_their_64_block():
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:203.0.113.7") == address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("testclient") == "testclient"
    limits = arrivals(2, 0, Clock())
    assert [allowed(limits, f"2001:db8:1:2::{i:x}") for i in range(1, 4)] == [True, True, False]
    assert allowed(limits, "2001:db8:1:3::1")


def test_only_the_most_recent_addresses_are_remembered():
    limits = arrivals(1, 0, Clock(), max_keys=3)
    for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        assert allowed(limits, address)
    assert not allowed(limits, "10.0.0.1")  # refused, and so seen most recently
    assert allowed(limits, "10.0.0.4")  # pushes out the one not seen longest: 10.0.0.2
    assert len(limits.per_address._buckets) == 3
    assert allowed(limits, "10.0.0.2")  # forgotten: starts over (and pushes out 10.0.0.3)
    assert not allowed(limits, "10.0.0.1") and not allowed(limits, "10.0.0.4")


def test_threads_together_get_exactly_the_burst():
    limits = arrivals(50, 120, Clock())
    results: list[bool] = []
    lock = threading.Lock()
    start = threading.Barrier(8)

    def hammer(address: str) -> None:
        start.wait()
        mine = [allowed(limits, address) for _ in range(100)]
        with lock:
            results.extend(mine)

    threads = [threading.Thread(target=hammer, args=(f"203.0.113.{i % 4}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(results) == 120  # four addresses could take 200; the total stops them at 120


def test_asking_first_counts_nothing():
    """``take=False``: would an arrival be refused now? Asked as often as one likes, it takes no
    token (a hint asks before its search; the game it then stores is counted)."""
    clock = Clock()
    limits = arrivals(2, 0, clock)
    for _ in range(5):
        limits.check("10.0.0.1", take=False)
    assert allowed(limits, "10.0.0.1") and allowed(limits, "10.0.0.1")
    with pytest.raises(RateLimitError):
        limits.check("10.0.0.1", take=False)
