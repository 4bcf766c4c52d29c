"""Tretten installs and reloads offline (issue 38 item 1; docs/architecture.md, "Offline"): on a
phone, Chromium finds nothing missing for installing the app (``Page.getInstallabilityErrors``,
in a profile of its own: an incognito one is never installable), and a game's page reloads from
the service worker's cache with the network off. An update of the app waits for the player's
tap (or the page left) and never reloads a page under a finger; the new version sends the
moves that waited."""

from __future__ import annotations

import re
import shutil
from urllib.parse import quote

import pytest
from playwright.sync_api import Error as PlaywrightError

from .conftest import CHROMIUM_ARGS, READY_MS, shot
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


def deployable(page) -> dict[str, int]:
    """The service worker as the server sends it, marked with a build number: raise
    ``build["n"]`` and the next check for an update finds a new version (a deploy)."""
    build = {"n": 0}

    def service_worker(route):
        answer = route.fetch()
        route.fulfill(response=answer, body=answer.text() + f"\n// build {build['n']}\n")

    page.context.route("**/sw.js", service_worker)
    return build


def a_new_version_while_on_a_game(page, server: str) -> None:
    """The page of a game, its service worker in charge; then a deploy, which the worker finds."""
    build = deployable(page)
    page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
    controlled(page)
    build["n"] = 1
    page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")


def kept_pages(context) -> list[str]:
    """The pages the service worker keeps for a reload offline, as it sees them."""
    return [url for worker in context.service_workers for url in worker.evaluate(
        "() => caches.open('tretten-pages').then(c => c.keys()).then(keys => keys.map(k => k.url))")]


def test_installable_and_a_game_reloads_from_the_cache_offline(browser, server, tmp_path):
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS,
        viewport=PHONE, locale="en-GB")
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(READY_MS)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        console: list[str] = []  # the page's and the service worker's
        context.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
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
        try:
            page.reload()
        except PlaywrightError as failed:  # what the worker had, to tell a lost copy from a refused one
            pytest.fail(f"{failed}\nkept: {kept_pages(context)}\nconsole: {console}")
        wait_ply(page, 1)
        assert page.url == address
        # the styles and scripts came from the precache: a card has its size, the answers work
        assert page.locator("#board [data-loc='P23']").bounding_box()["width"] > 30
        page.wait_for_function("() => !!window.TrettenBoard && !!window.htmx")
        shot(page, "offline-reloaded-390")
        # the deal's own address (a bookmark, the history) leads to the game, not the deal at its
        # start: moves made there were dropped on return, the game of the deal being in play
        page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
        wait_ply(page, 1)
        assert page.url == address
        # a page never opened here: ours, saying so, with the way back (the browser's own error
        # page said nothing of what is kept)
        page.goto(f"{server}/rules/giza")
        assert page.inner_text("[data-offline-page] h1") == "No connection"
        # the games the device keeps, by name (the way back to them), and no link to a start page
        # never opened here (it led to a second "No connection")
        game_path = address.split(server, 1)[1]
        kept = page.wait_for_selector(f'[data-kept-games]:not([hidden]) a[href="{game_path}"]')
        assert kept.inner_text() == "Pyramid · Imported deal"
        assert page.locator("[data-offline-page] [data-start-page]").count() == 0
        shot(page, "offline-page-not-kept-390")
        kept.click()
        wait_ply(page, 1)
        context.set_offline(False)
        assert not errors
    finally:
        context.close()


def test_an_update_waits_for_the_players_tap_and_the_new_version_sends_the_moves_waiting(new_page, server):
    """A deploy while a game is in play: the new version is let in when the player says so
    ("New version: reload", at the end of the site's links), never under their finger: until
    then the page stays as it is and takes taps. The reloaded page sends the moves that waited."""
    page = new_page(**PHONE, service_workers="allow")
    errors = uncaught(page)  # the console's lines about the failed requests are expected
    build = deployable(page)
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
    tap_all(page, OFFLINE_MOVES[:-1])
    page.wait_for_function(f"() => document.getElementById('board').dataset.pending === '{len(OFFLINE_MOVES) - 1}'")

    build["n"] = 1
    table = page.locator("#board .table").bounding_box()
    page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_selector("header.site nav [data-update]")  # the new version waits for the player
    assert page.get_attribute("header.site [data-update]", "aria-label") == "New version: reload"
    assert page.locator("#board .table").bounding_box() == table  # nothing moved on the phone's screen
    tap_all(page, OFFLINE_MOVES[-1:])  # a tap meanwhile is taken, on the same page
    page.wait_for_function(f"() => document.getElementById('board').dataset.pending === '{len(OFFLINE_MOVES)}'")
    assert page.evaluate("() => window.oldVersion") is True and not reloaded["yes"]
    assert page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => !!r.waiting)")
    button, header = (page.locator(s).bounding_box() for s in ("header.site [data-update]", "header.site"))
    assert button["y"] + button["height"] <= header["y"] + header["height"]
    assert button["x"] + button["width"] <= PHONE["width"]
    assert button["height"] >= 24  # a target a thumb can take (WCAG 2.5.8: at least 24 px)
    shot(page, "offline-update-ready-390")
    assert stored_moves(page, server, game_id) == ["D"]

    page.click("header.site [data-update]")
    page.wait_for_function("() => window.oldVersion === undefined && !!window.TrettenBoard")
    settled(page)
    assert reloaded["yes"] and stored_moves(page, server, game_id) == ["D", *OFFLINE_MOVES]
    assert pending(page) == 0 and ply(page) == 1 + len(OFFLINE_MOVES)
    assert page.evaluate("() => Object.keys(sessionStorage).filter(k => k.startsWith('tretten.'))") == []
    assert page.locator("[data-update]").count() == 0  # the page is the new version
    assert not errors


def test_an_update_is_let_in_when_the_page_is_left(new_page, server):
    """Without the player's tap, the next page is the new version: leaving the page lets the
    waiting worker in, and the page that loads asks nothing."""
    page = new_page(**PHONE, service_workers="allow")
    a_new_version_while_on_a_game(page, server)
    page.wait_for_selector("header.site nav [data-update]")
    # a move meanwhile: the page kept for a reload offline is the page as drawn, without the
    # offer (read back when the new version runs, its button would do nothing)
    page.evaluate("() => caches.delete('tretten-pages')")
    page.click("details.settings > summary")  # the offline setting is drawn when the settings open
    page.wait_for_selector("[data-offline-toggle]")
    page.click('[data-action="draw"]')
    wait_ply(page, 1)
    settled(page)
    kept = "() => caches.open('tretten-pages').then(c => c.match(location.href)).then(r => r ? r.text() : '')"
    page.wait_for_function(f"() => ({kept})().then(text => text.includes('data-ply=\"1\"'))")
    copy = page.evaluate(kept)
    assert "data-update" not in copy and "data-ply=\"1\"" in copy
    # nor the setting as drawn (a reload offline would show its box unticked, and not draw it)
    assert "data-offline-toggle" not in copy and "<div data-offline-setting=\"\" hidden=\"\"></div>" in copy
    page.click("header.site nav a[href='/stats']")  # the player goes on to another page
    page.wait_for_function("() => location.pathname === '/stats' && !!navigator.serviceWorker.controller")
    # the worker that waited is the page's now (without the page left, it would wait on)
    page.wait_for_function("() => navigator.serviceWorker.getRegistration().then(r => !r.waiting && !!r.active "
                           "&& r.active === navigator.serviceWorker.controller)")
    page.wait_for_load_state("networkidle")
    assert page.locator("[data-update]").count() == 0  # and this page, of the new version, asks nothing


def test_an_update_is_offered_when_the_worker_was_registered_after_the_scripts_ran(new_page, server):
    """A busy phone registers the service worker after the page's offline script has run (found
    in CI: the offer never came, and the new version waited unsaid): the script waits for the
    registration the page asked for instead of reading none."""
    page = new_page(**PHONE, service_workers="allow")
    page.add_init_script("""(() => {
      const register = ServiceWorkerContainer.prototype.register;
      ServiceWorkerContainer.prototype.register = function (...args) {
        return new Promise((done) => setTimeout(done, 1000)).then(() => register.apply(this, args));
      };
    })()""")
    a_new_version_while_on_a_game(page, server)
    page.wait_for_selector("header.site nav [data-update]")
    assert not page.js_errors
