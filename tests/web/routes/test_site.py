"""robots.txt: crawlers keep out of what deals a new game or is a player's own, and may read
what is shared (a deal's link, a replay, the daily deals, the rules)."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.sqlite_only  # what is served, not how it is stored


def _allowed(rules: list[str], path: str) -> bool:
    """As Google reads Disallow lines (the file has no others): "*" is any run, "$" the end."""
    matching = [rule for rule in rules
                if re.match(re.escape(rule).replace(r"\*", ".*").replace(r"\$", "$"), path)]
    return not matching


@pytest.mark.parametrize(("path", "allowed"), [
    ("/", True), ("/rules/gaps", True), ("/daily/pyramid", True), ("/daily/pyramid/table", True),
    ("/play/pyramid/123", True), ("/play/double-pyramid/9", True), ("/deal/giza/5", True), ("/g/abc/replay", True),
    ("/play/pyramid", False), ("/play/gaps-danish", False), ("/play/tuts-tomb", False),  # a former name too
    ("/play?preset=giza&seed=4", False),
    ("/games/abc", False), ("/games/abc/analysis", False), ("/link/abc.0123", False), ("/profile", False),
    ("/stats", False), ("/api/games", False),
])
def test_crawlers_keep_out_of_new_deals_and_players_own_pages(client, path, allowed):
    answer = client.get("/robots.txt")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    lines = answer.text.splitlines()
    assert lines[0] == "User-agent: *"
    rules = [line.removeprefix("Disallow: ") for line in lines[1:]]
    assert _allowed(rules, path) is allowed
