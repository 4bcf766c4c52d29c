"""Tretten installs and reloads offline (issue 38 item 1; docs/architecture.md, "Offline"): on a
phone, Chromium finds nothing missing for installing the app (``Page.getInstallabilityErrors``,
in a profile of its own: an incognito one is never installable), and a game's page reloads from
the service worker's cache with the network off. An update of the app while moves wait reloads
the page into the new version, which sends them."""

from __future__ import annotations

import re
import shutil
from urllib.parse import quote

import pytest

from .conftest import CHROMIUM_ARGS, shot
from .test_answers import ISSUE_DEAL, settled
from .test_network import OFFLINE_MOVES, game_id_of, pending, tap_all, uncaught
from .test_play import ply, wait_ply

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
ACT = re.compile(r"/games/[\w-]+/act$")


def stored_moves(page, server: str, game_id: str) -> list[str]:
    """The game's moves as the server holds them, asked as its player (a game in play is its
    player's alone): the replay's page hooks."""
    get = page.context.request.get
    total = int(re.search(r'data-total="(\d+)"', get(f"{server}/g/{game_id}/replay").text()).group(1))
    return [re.search(r'data-replay-move="([^"]*)"', get(f"{server}/g/{game_id}/replay?ply={n}").text()).group(1)
            for n in range(1, total + 1)]


def controlled(page) -> None:
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_installable_and_a_game_reloads_from_the_cache_offline(browser, server, tmp_path):
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS,
        viewport=PHONE, locale="en-GB")
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(20_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
        controlled(page)
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
        manifest = cdp.send("Page.getAppManifest")
        assert not manifest["errors"] and '"display": "standalone"' in manifest["data"]

        page.click('[data-action="draw"]')  # the game is stored: its address is /games/{id} now
        wait_ply(page, 1)
        settled(page)
        address = page.url
        assert "/games/" in address
        # the move went straight to the network, past the worker (its static route for POSTs)
        routed = page.evaluate("""() => performance.getEntriesByType('resource')
            .filter(e => /\\/play\\/pyramid\\?deal=/.test(e.name)).map(e => e.workerMatchedSourceType)""")
        assert routed == ["network"]
        page.wait_for_function("url => caches.match(url).then(hit => !!hit)", arg=address)

        context.set_offline(True)
        page.reload()
        wait_ply(page, 1)
        assert page.url == address
        # the styles and scripts came from the precache: a card has its size, the answers work
        assert page.locator("#board [data-loc='P23']").bounding_box()["width"] > 30
        page.wait_for_function("() => !!window.TrettenBoard && !!window.htmx")
        shot(page, "offline-reloaded-390")
        context.set_offline(False)
        assert not errors
    finally:
        context.close()


def test_an_update_while_moves_wait_reloads_into_the_new_version_which_sends_them(new_page, server):
    page = new_page(**PHONE, service_workers="allow")
    errors = uncaught(page)  # the console's lines about the failed requests are expected
    build = {"n": 0}

    def service_worker(route):  # a deploy: the service worker's text changes
        answer = route.fetch()
        route.fulfill(response=answer, body=answer.text() + f"\n// build {build['n']}\n")

    page.context.route("**/sw.js", service_worker)
    page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
    controlled(page)
    page.click('[data-action="draw"]')
    wait_ply(page, 1)
    settled(page)
    game_id = game_id_of(page)

    # the network fails for the moves: they wait, kept in the tab, until the page that loads
    # after the update sends them (the old page's tries are all refused, so none goes early)
    reloaded = {"yes": False}
    page.on("framenavigated", lambda frame: reloaded.update(yes=True) if frame == page.main_frame else None)
    page.route(ACT, lambda route: route.continue_() if reloaded["yes"] else route.abort("internetdisconnected"))
    page.evaluate("() => { window.oldVersion = true; }")
    tap_all(page, OFFLINE_MOVES)
    page.wait_for_function(f"() => document.getElementById('board').dataset.pending === '{len(OFFLINE_MOVES)}'")
    assert stored_moves(page, server, game_id) == ["D"]

    build["n"] = 1
    page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_function("() => window.oldVersion === undefined && !!window.TrettenBoard")
    settled(page)
    assert reloaded["yes"] and stored_moves(page, server, game_id) == ["D", *OFFLINE_MOVES]
    assert pending(page) == 0 and ply(page) == 1 + len(OFFLINE_MOVES)
    assert page.evaluate("() => Object.keys(sessionStorage).filter(k => k.startsWith('tretten.'))") == []
    assert not errors
