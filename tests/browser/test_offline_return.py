"""Whole games offline, judged by the server on return (issue 38, "What it must show"): a phone
visits once with offline play on (the service worker installed, the engine in the page), goes
offline, reloads the game's page from the cache, plays the game on to its win (draws, an undo
and its redo among the moves), starts a new deal and plays it, and comes back: within 10 s the
server holds both games move for move, the page is the server's board, and nothing was refused."""

from __future__ import annotations

import time

import pytest

from app.engine import Fill, deal_for_seed, get_game
from app.services.assist import first_deals
from tests.web.play import WIN_LINE, WIN_SEED

from .conftest import shot, watched
from .test_answers import SNAPSHOT, equals_a_fresh_load, taps
from .test_network import stored_moves

PHONE = {"width": 390, "height": 844}
ONLINE_FIRST = 2  # moves made before the network goes: the game is stored, its page kept
BACK_WITHIN_S = 10


@pytest.fixture(scope="module")
def phone_browser(browser):
    """One phone for the module's tests. What it keeps of the app itself stays from test to test:
    the service worker, its copies of the app's files and of the engine's (Pyodide's core, the
    bundle), the browser's cache, so each test's engine starts without fetching and compiling
    them all again. What a player leaves does not stay (``phone``)."""
    context = browser.new_context(viewport=PHONE, locale="en-GB", service_workers="allow")
    yield context
    context.close()


@pytest.fixture
def phone(phone_browser, server):
    """A new tab of the module's phone, online, as a new player with nothing of the tests before:
    no cookie (a new anonymous player), no local storage (offline play's setting, its games and
    queue) and no kept pages (the service worker's "tretten-pages"; its copies of the app's own
    files stay). A tab's session storage is its own."""
    context = phone_browser
    context.set_offline(False)
    context.clear_cookies()
    page = context.new_page()
    # on the server's origin by an answer that runs no script (none to store anything again) and
    # that the service worker keeps no copy of: the API's 404
    assert page.goto(f"{server}/api/no-such-thing").status == 404
    assert page.evaluate("() => { localStorage.clear(); return caches.delete('tretten-pages')"
                         ".then(() => caches.keys()).then(names => localStorage.length === 0 && "
                         "!names.includes('tretten-pages')); }")
    yield watched(page)
    page.close()


def cursor(page) -> int:
    return page.evaluate("() => TrettenOfflinePlay.state().game.cursor")


def offline_move(page, move: str) -> None:
    """One move in notation, tapped as a player taps it, answered by the engine in the page."""
    expected = cursor(page) + 1
    clicks = taps(move)
    for n, selector in enumerate(clicks):
        page.click(selector)
        if n < len(clicks) - 1:  # a card selected: the engine has answered before the partner's tap
            loc = move.split("+")[n]
            page.wait_for_function(f"() => TrettenOfflinePlay.state().game.sel === {loc!r}")
    page.wait_for_function(f"() => TrettenOfflinePlay.state().game.cursor === {expected}")


def playing_offline(page) -> None:
    """The page plays by itself, on the engine's board: a tap made before that board is laid
    lands on the server's copy of the card, which the engine's replaces under the pointer (the
    page plays it once, on the new copy, app.js "pointerup"; Playwright, seeing its target gone,
    clicks again: the card selected, then let go)."""
    page.wait_for_function("() => window.TrettenOfflinePlay && TrettenOfflinePlay.active() && "
                           "document.getElementById('board').hasAttribute('data-offline-play')")


def offline_play_on(page, server, path: str = f"/play/pyramid/{WIN_SEED}") -> None:
    """The deal's page with the setting "play offline" on: the service worker installed and the
    engine in the page ready."""
    page.set_default_timeout(60_000)  # readiness on a busy machine: the worker's install, Pyodide's start
    page.goto(f"{server}{path}")
    page.evaluate("() => localStorage.setItem('tretten.offline', 'on')")
    page.reload()
    page.wait_for_function("() => !!navigator.serviceWorker.controller && !!window.TrettenEngine")
    page.evaluate("() => TrettenEngine.ready().then(() => true)")


def played_online(page, moves: int) -> str:
    """The winning line's first ``moves`` made online and stored; the game's id."""
    for move in WIN_LINE[:moves]:
        for selector in taps(move):
            page.click(selector)
    page.wait_for_function(f"() => document.getElementById('board').dataset.ply === '{moves}'"
                           " && !TrettenBoard.waiting()")
    return page.get_attribute("#board", "data-game-id")


@pytest.mark.slow
def test_two_whole_games_offline_reach_the_server_move_for_move(phone, server):
    page = phone
    offline_play_on(page, server)
    first_id = played_online(page, ONLINE_FIRST)

    # the page as last drawn is kept for a reload offline when the page is idle: once it is
    page.wait_for_function("url => caches.match(url).then(hit => !!hit)", arg=page.url)
    page.context.set_offline(True)
    page.reload()  # from the cache
    playing_offline(page)
    assert page.get_attribute("#board", "data-game-id") == first_id

    rest = WIN_LINE[ONLINE_FIRST:]
    assert len(rest) >= 15 and "D" in rest
    for n, move in enumerate(rest):
        offline_move(page, move)
        if n == 3:  # an undo and its redo, made offline too
            page.click('#board [data-action="undo"]')
            page.wait_for_function(f"() => TrettenOfflinePlay.state().game.cursor === {ONLINE_FIRST + n}")
            page.click('#board [data-action="redo"]')
            page.wait_for_function(f"() => TrettenOfflinePlay.state().game.cursor === {ONLINE_FIRST + n + 1}")
    page.wait_for_selector('#board [data-banner="won"]')
    assert page.evaluate("() => TrettenOfflinePlay.pending()") == len(rest) + 2
    # a win is final offline too: the engine's answer greys undo and redo, as the server's board
    assert page.is_disabled('#board [data-action="undo"]') and page.is_disabled('#board [data-action="redo"]')
    shot(page, "offline-return-won-offline")

    page.click('#board [data-banner] [data-action="new"]')  # a new deal, its seed picked by the page
    page.wait_for_function("() => TrettenOfflinePlay.state().game.moves.length === 0 && !!document.querySelector('#board [data-card]')")
    second = []
    for _ in range(4):
        legal = page.evaluate("() => TrettenEngine.legal(TrettenOfflinePlay.state().game)")
        move = next((m for m in legal if m != "D" and m != "R"), legal[0])
        offline_move(page, move)
        second.append(move)
    seed = page.evaluate("() => TrettenOfflinePlay.state().game.deal.seed")
    # a newcomer is dealt winnable deals only: offline, one of those shipped proven (the page has
    # no solver), the seed a string as the page's own (app/services/play/games.py: random_seed)
    assert seed.isdigit() and int(seed) in first_deals.shipped("pyramid"), seed
    # reloaded offline (the page kept is the first game's), the deal shown is the one played
    page.reload()
    playing_offline(page)
    page.wait_for_function("seed => document.querySelector('#share [data-seed]').getAttribute('data-seed') === seed", arg=seed)
    assert page.inner_text("#share [data-seed]") == seed
    assert page.get_attribute("#share [data-share-url]", "href").endswith(f"/play/pyramid/{seed}")
    shot(page, "offline-return-new-deal-offline")
    waiting = page.evaluate("() => TrettenOfflinePlay.pending()")  # moves, an undo, a redo: changes
    assert page.locator("#board [data-sync]").inner_text() == f"Playing offline: {waiting} changes to send"
    line, header, table = (page.locator(s).bounding_box()
                           for s in ("#board [data-sync]", "header.site", "#board .table"))
    # a line of the page: below the header, above the table, on the phone's screen
    assert header["y"] + header["height"] <= line["y"] and line["y"] + line["height"] <= table["y"]
    assert line["x"] >= 0 and line["x"] + line["width"] <= PHONE["width"]

    page.context.set_offline(False)
    began = time.monotonic()
    # all sent, and the server's board of the game last played laid in, at its address
    page.wait_for_function("() => !TrettenOfflinePlay.active() && TrettenOfflinePlay.pending() === 0 && "
                           "!!document.getElementById('board').dataset.gameId && !TrettenBoard.waiting() && "
                           "location.pathname === '/games/' + document.getElementById('board').dataset.gameId",
                           timeout=BACK_WITHIN_S * 1000)
    took = time.monotonic() - began
    assert took < BACK_WITHIN_S
    second_id = page.get_attribute("#board", "data-game-id")
    assert second_id != first_id and page.url.endswith(f"/games/{second_id}")
    assert page.locator("#board [data-error]").count() == 0  # nothing refused
    assert stored_moves(page, server, first_id) == WIN_LINE
    assert stored_moves(page, server, second_id) == second
    assert page.evaluate(SNAPSHOT)["ply"] == str(len(second))
    equals_a_fresh_load(page)  # the page is the server's board
    first = page.context.request.get(f"{server}/games/{first_id}").text()
    assert 'data-status="won"' in first and "played offline (time not counted)" in first
    assert f'data-seed="{seed}"' in page.content()
    shot(page, "offline-return-back")


@pytest.mark.slow
def test_the_network_gone_while_a_move_is_on_its_way_the_page_plays_on(phone, server):
    """The "offline" event comes while a move's post is on its way (offline play waits for no
    post then), and the post is answered: the page plays on by itself all the same, without a
    tap to fail first."""
    page = phone
    offline_play_on(page, server)
    first = WIN_LINE[0]

    def answered_after_the_network_went(route):
        response = route.fetch()  # the server has the move
        page.context.set_offline(True)
        page.wait_for_function("() => navigator.onLine === false")
        route.fulfill(response=response)

    page.route("**/play/pyramid/*", lambda route: answered_after_the_network_went(route)
               if route.request.method == "POST" else route.continue_())
    for selector in taps(first):
        page.click(selector)
    playing_offline(page)
    page.unroute("**/play/pyramid/*")
    game_id = page.get_attribute("#board", "data-game-id")
    assert page.evaluate("() => TrettenOfflinePlay.state().game.moves") == [first]
    offline_move(page, WIN_LINE[1])
    # undone, the game's legal moves are those at its cursor, not after its redo tail
    page.click('#board [data-action="undo"]')
    page.wait_for_function("() => TrettenOfflinePlay.state().game.cursor === 1")
    assert WIN_LINE[1] in page.evaluate("() => TrettenEngine.legal(TrettenOfflinePlay.state().game)")
    page.click('#board [data-action="redo"]')
    page.wait_for_function("() => TrettenOfflinePlay.state().game.cursor === 2")

    page.context.set_offline(False)
    page.wait_for_function("() => !TrettenOfflinePlay.active() && TrettenOfflinePlay.pending() === 0 && "
                           "!TrettenBoard.waiting()")
    assert stored_moves(page, server, game_id) == WIN_LINE[:2]


@pytest.mark.slow
def test_two_tabs_offline_keep_their_own_changes_and_a_closed_tabs_go_with_the_next_page(phone, server):
    """Two tabs of one phone play two games offline at once (of two presets: a new game of a
    preset replaces the one in play). Each keeps its own changes (they
    shared one place in the browser's storage: the tab that wrote last had the other's queue on
    its reload, and the other's were lost), and a tab closed with changes waiting leaves them to
    the next page, which sends them once the network is back."""
    first = phone
    offline_play_on(first, server)
    first_id = played_online(first, ONLINE_FIRST)
    second = watched(first.context.new_page())
    try:
        offline_play_on(second, server, f"/play/pyramid-3/{WIN_SEED}")
        second.click(taps("D")[0])
        second.wait_for_function("() => document.getElementById('board').dataset.ply === '1' && !TrettenBoard.waiting()")
        second_id = second.get_attribute("#board", "data-game-id")
        for page in (first, second):  # each page kept for a reload offline
            page.wait_for_function("url => caches.match(url).then(hit => !!hit)", arg=page.url)
        first.context.set_offline(True)
        playing_offline(first)
        playing_offline(second)
        offline_move(second, "D")
        offline_move(second, "D")
        for move in WIN_LINE[ONLINE_FIRST:ONLINE_FIRST + 3]:  # the first tab writes last
            offline_move(first, move)
        assert first.evaluate("() => TrettenOfflinePlay.pending()") == 3
        # three changes waiting in a tab the phone's browser drops. Its page sends nothing more
        # (a page Chromium closes under DevTools' offline emulation may still post as it goes)
        first.evaluate("() => { window.fetch = () => new Promise(() => {}); }")
        first.close()

        tab = second.evaluate("() => sessionStorage.getItem('tretten.offline.tab')")
        second.reload()  # from the cache, offline: its own game and changes, not the first tab's
        playing_offline(second)
        assert second.evaluate("() => sessionStorage.getItem('tretten.offline.tab')") == tab  # its key again
        assert second.get_attribute("#board", "data-game-id") == second_id
        assert (cursor(second), second.evaluate("() => TrettenOfflinePlay.pending()")) == (3, 2)
        offline_move(second, "D")
        # a page opened meanwhile takes the closed tab's changes, never those of a tab that lives
        # (it holds its lock while it has changes waiting), and when it is closed in turn, leaves them
        other = watched(second.context.new_page())
        other.goto(second.url)  # from the cache, offline
        playing_offline(other)
        assert other.evaluate("() => Object.values(TrettenOfflinePlay.state().ids)") == [first_id]
        assert other.evaluate("() => TrettenOfflinePlay.pending()") == 3
        other.evaluate("() => { window.fetch = () => new Promise(() => {}); }")
        other.close()
        assert second.evaluate("() => TrettenOfflinePlay.pending()") == 3

        second.context.set_offline(False)
        second.wait_for_function("() => !TrettenOfflinePlay.active() && TrettenOfflinePlay.pending() === 0 && "
                                 "!TrettenBoard.waiting() && document.getElementById('board').dataset.ply === '4'")
        assert stored_moves(second, server, second_id) == ["D"] * 4
        # nothing waiting, no lock held: a page holding one is never kept for the Back button
        assert second.evaluate("() => navigator.locks.query().then(q => q.held.length)") == 0
        assert stored_moves(second, server, first_id) == WIN_LINE[:ONLINE_FIRST]  # still waiting

        # the next page (here a new tab) sends what the closed tab left, and shows that game
        third = watched(second.context.new_page())
        third.goto(f"{server}/play/giza/{WIN_SEED}")
        third.wait_for_function(f"() => location.pathname === '/games/{first_id}' && !TrettenOfflinePlay.active() && "
                                "TrettenOfflinePlay.pending() === 0 && "
                                f"document.getElementById('board').dataset.ply === '{ONLINE_FIRST + 3}'")
        assert stored_moves(third, server, first_id) == WIN_LINE[:ONLINE_FIRST + 3]
        assert third.locator("#board [data-error]").count() == 0
        assert third.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('tretten.offline.play:'))"
                              ".filter(k => JSON.parse(localStorage.getItem(k)).queue.length)") == []
        third.close()
        # the posts that failed offline (Chromium's words for them), nothing else
        assert [e for e in second.js_errors if "ERR_INTERNET_DISCONNECTED" not in e] == []
    finally:
        second.close()


@pytest.mark.slow
def test_a_duplicated_tab_keeps_its_changes_apart_from_the_tab_it_was_copied_from(phone, server):
    """A tab duplicated by the browser starts with a copy of the other's session storage, its tab
    id among it. Played offline, each keeps its own changes under its own key: the copy had taken
    the other's key while that tab had nothing waiting, and the two wrote over each other's."""
    first = phone
    offline_play_on(first, server)
    first_id = played_online(first, ONLINE_FIRST)
    tab = first.evaluate("() => sessionStorage.getItem('tretten.offline.tab')")
    assert tab
    second = watched(first.context.new_page())
    try:
        second.add_init_script(f"sessionStorage.setItem('tretten.offline.tab', {tab!r})")  # as a duplicate
        offline_play_on(second, server, f"/play/pyramid-3/{WIN_SEED}")
        second.click(taps("D")[0])
        second.wait_for_function("() => document.getElementById('board').dataset.ply === '1' && !TrettenBoard.waiting()")
        second_id = second.get_attribute("#board", "data-game-id")
        first.context.set_offline(True)
        playing_offline(first)
        playing_offline(second)
        offline_move(first, WIN_LINE[ONLINE_FIRST])
        offline_move(second, "D")
        offline_move(first, WIN_LINE[ONLINE_FIRST + 1])
        offline_move(second, "D")
        kept = first.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith('tretten.offline.play:'))
            .map(k => Object.values(JSON.parse(localStorage.getItem(k)).ids).concat([JSON.parse(localStorage.getItem(k)).queue.length]))""")
        assert sorted(kept) == sorted([[first_id, 2], [second_id, 2]])
        first.context.set_offline(False)
        for page, ply in ((first, ONLINE_FIRST + 2), (second, 3)):
            page.wait_for_function("() => !TrettenOfflinePlay.active() && TrettenOfflinePlay.pending() === 0 && "
                                   f"!TrettenBoard.waiting() && document.getElementById('board').dataset.ply === '{ply}'")
        assert stored_moves(first, server, first_id) == WIN_LINE[:ONLINE_FIRST + 2]
        assert stored_moves(first, server, second_id) == ["D"] * 3
    finally:
        second.close()


def _offline_after(page, server, online: int) -> str:
    """A phone with offline play on makes ``online`` moves, then the network goes: the page
    plays on by itself. Returns the game's id."""
    offline_play_on(page, server)
    game_id = played_online(page, online)
    page.context.set_offline(True)
    playing_offline(page)
    return game_id


@pytest.mark.slow
def test_a_change_refused_on_return_keeps_the_ones_before_and_shows_why(phone, server):
    """The server takes the changes up to the one it refuses (here a redo the page's queue should
    never hold, put in the middle), drops the rest, and the page shows its board with the reason."""
    page = phone
    game_id = _offline_after(page, server, ONLINE_FIRST)
    for move in WIN_LINE[ONLINE_FIRST:ONLINE_FIRST + 4]:
        offline_move(page, move)
    page.evaluate("() => TrettenOfflinePlay.state().queue.splice(2, 0, {mid: 'refused-redo', "
                  "deal: TrettenOfflinePlay.state().deal, fields: {action: 'redo'}})")
    sent = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    page.context.set_offline(False)
    page.wait_for_selector('#board [data-error="nothing_to_redo"]')
    page.wait_for_function("() => !TrettenOfflinePlay.active() && TrettenOfflinePlay.pending() === 0")
    assert sent == [f"{server}/games/{game_id}/changes"]  # one request for the whole return
    assert stored_moves(page, server, game_id) == WIN_LINE[:ONLINE_FIRST + 2]
    assert page.get_attribute("#board", "data-ply") == str(ONLINE_FIRST + 2)
    # the reason, and what is gone: the refused change and the two after it
    toast = page.locator("#board .toast")
    assert toast.count() == 1 and toast.inner_text().endswith(" 3 changes made offline were not made.")
    assert "lasting" in toast.get_attribute("class")
    assert page.inner_text("#sync-said") == toast.inner_text()  # read out so, not "changes to send"
    shot(page, "offline-return-refused-in-the-middle")


@pytest.mark.slow
def test_changes_whose_answer_was_lost_are_sent_again_and_answered_as_stored(phone, server):
    """The server stored the changes but its answer never came (the network went again): the page
    sends the same changes again, and the server answers from what it stored, none made twice."""
    page = phone
    game_id = _offline_after(page, server, ONLINE_FIRST)
    rest = WIN_LINE[ONLINE_FIRST:ONLINE_FIRST + 6]
    for move in rest:
        offline_move(page, move)
    answers = []

    def lost_once(route):
        response = route.fetch()  # the server judges and stores them
        answers.append(response.headers.get("x-changes-taken"))
        if len(answers) == 1:
            route.abort("connectionreset")
        else:
            route.fulfill(response=response)

    page.route("**/games/*/changes", lost_once)
    page.context.set_offline(False)
    page.wait_for_function("() => !TrettenOfflinePlay.active() && TrettenOfflinePlay.pending() === 0 && "
                           "!TrettenBoard.waiting() && document.getElementById('board').dataset.ply === "
                           f"'{ONLINE_FIRST + len(rest)}'")
    assert answers == [str(len(rest)), str(len(rest))]
    assert page.locator("#board [data-error]").count() == 0
    assert stored_moves(page, server, game_id) == WIN_LINE[:ONLINE_FIRST + len(rest)]


@pytest.mark.slow
def test_a_tap_the_engine_answers_after_the_last_change_is_stored_is_sent_too(phone, server):
    """The network comes back while the engine is still answering a tap: the changes before it
    are stored and answered, and the page does not give the board back to the server before that
    tap's change is made and sent too (it was lost, with nothing said)."""
    page = phone
    game_id = _offline_after(page, server, ONLINE_FIRST)
    offline_move(page, WIN_LINE[ONLINE_FIRST])  # a change waiting
    pair = WIN_LINE[ONLINE_FIRST + 1]
    first, second = taps(pair)
    page.click(first)
    page.wait_for_function(f"() => TrettenOfflinePlay.state().game.sel === {pair.split('+')[0]!r}")
    # the engine's next answer is held until the test lets it go
    page.evaluate("""() => { const apply = TrettenEngine.apply;
        const held = new Promise(go => { window.letTheAnswerGo = go; });
        TrettenEngine.apply = (game, tap) => held.then(() => apply(game, tap)); }""")
    page.click(second)  # the pair: a move, its answer held
    page.context.set_offline(False)
    # the waiting change stored and its answer in
    page.wait_for_function("() => TrettenOfflinePlay.pending() === 0")
    assert stored_moves(page, server, game_id) == WIN_LINE[:ONLINE_FIRST + 1]
    page.evaluate("() => window.letTheAnswerGo()")
    page.wait_for_function("() => !TrettenOfflinePlay.active() && TrettenOfflinePlay.pending() === 0 && "
                           "!TrettenBoard.waiting() && document.getElementById('board').dataset.ply === "
                           f"'{ONLINE_FIRST + 2}'")
    assert stored_moves(page, server, game_id) == WIN_LINE[:ONLINE_FIRST + 2]
    assert page.locator("#board [data-error]").count() == 0
    assert not page.js_errors


@pytest.mark.slow
def test_a_game_won_offline_ends_in_the_end_panel_of_a_phone(phone, server):
    """The page's own "You won!" is the end panel of a phone, as the server's is: a sheet across
    the foot of the screen with room round its words, not a corner box over the game's buttons."""
    page = phone
    _offline_after(page, server, ONLINE_FIRST)
    for move in WIN_LINE[ONLINE_FIRST:]:
        offline_move(page, move)
    page.wait_for_selector('#board [data-banner="won"]')
    shot(page, "offline-won-panel-phone")
    panel = page.locator('#board [data-banner="won"]').bounding_box()
    assert panel["x"] == 0 and panel["width"] == PHONE["width"]
    assert panel["y"] + panel["height"] == PHONE["height"]
    padding = page.eval_on_selector('#board [data-banner="won"]', "el => getComputedStyle(el).paddingLeft")
    assert float(padding.removesuffix("px")) > 0
    assert not page.locator('#board [data-action="hint"]').is_visible()  # a finished game, as the server's board


@pytest.mark.slow
def test_a_tap_the_engine_does_not_answer_is_said_not_done_and_a_new_engine_plays_the_next(phone, server):
    """The engine's worker answers nothing (a browser may stop one that runs out of memory): the
    tap is said not done, in the player's words, the game stays as it was, and the next tap is
    answered by a new worker (the taps waited for ever behind the one not answered)."""
    page = phone
    game_id = _offline_after(page, server, ONLINE_FIRST)
    offline_move(page, WIN_LINE[ONLINE_FIRST])  # a change waiting
    page.evaluate("""() => {
        const Real = Worker;
        window.realPost = Real.prototype.postMessage;
        window.workersStarted = 0;
        window.Worker = class extends Real { constructor(...a) { super(...a); window.workersStarted += 1; } };
        TrettenEngine.patience.call = 1000;
        Real.prototype.postMessage = function () {};  // the worker gets nothing, so answers nothing
    }""")
    pair = WIN_LINE[ONLINE_FIRST + 1]
    page.click(taps(pair)[0])
    note = page.wait_for_selector("#board [data-offline-note]")
    assert note.text_content() == page.get_attribute("#sync-said", "data-engine-unanswered") != ""
    game = page.evaluate("() => TrettenOfflinePlay.state().game")
    assert (game["cursor"], game["sel"]) == (ONLINE_FIRST + 1, "")
    assert page.evaluate("() => TrettenOfflinePlay.pending()") == 1
    shot(page, "offline-engine-did-not-answer")

    page.evaluate("() => { Worker.prototype.postMessage = window.realPost; TrettenEngine.patience.call = 15000; }")
    offline_move(page, pair)
    assert page.evaluate("() => window.workersStarted") == 1
    page.context.set_offline(False)
    page.wait_for_function("() => !TrettenOfflinePlay.active() && TrettenOfflinePlay.pending() === 0 && "
                           "!TrettenBoard.waiting() && document.getElementById('board').dataset.ply === "
                           f"'{ONLINE_FIRST + 2}'")
    assert stored_moves(page, server, game_id) == WIN_LINE[:ONLINE_FIRST + 2]
    assert not page.js_errors


@pytest.mark.slow
def test_a_move_made_as_the_network_goes_waits_on_the_page_when_the_engine_cannot_play_it(phone, server):
    """Offline play is on but its engine cannot answer (its files gone from the browser's cache):
    a move made as the network goes is kept, shown and said to wait, as without offline play, and
    is stored when the network is back (the page handed it to the engine, which dropped it)."""
    page = phone
    offline_play_on(page, server)
    game_id = played_online(page, ONLINE_FIRST)
    page.evaluate("() => { TrettenEngine.board = () => Promise.reject(new Error('no engine')); }")
    page.context.set_offline(True)
    for selector in taps(WIN_LINE[ONLINE_FIRST]):
        page.click(selector)
    waiting = page.get_attribute("#sync-said", "data-offline-one").replace("{n}", "1")
    page.wait_for_function("text => !TrettenOfflinePlay.active() && document.getElementById('board').dataset.pending === '1'"
                           " && document.querySelector('#board [data-sync]').textContent === text", arg=waiting)
    shot(page, "offline-engine-cannot-play-move-waits")
    page.context.set_offline(False)
    page.wait_for_function("() => !TrettenBoard.waiting() && document.getElementById('board').dataset.ply === "
                           f"'{ONLINE_FIRST + 1}'")
    assert stored_moves(page, server, game_id) == WIN_LINE[:ONLINE_FIRST + 1]
    # htmx's words of the posts that failed offline, and Chromium's: the failures themselves
    assert [e for e in page.js_errors if not e.startswith("htmx:") and "ERR_INTERNET_DISCONNECTED" not in e] == []


def gaps_filled_once_then_offline(page, server) -> tuple[Fill, str]:
    """Gaps seed 21 with offline play on, a first fill made and stored, then the network gone and
    the engine playing on: the fill and the game's id."""
    offline_play_on(page, server, "/play/gaps/21")
    variant = get_game("gaps")
    position = variant.new_position(deal_for_seed("gaps", 21), variant.parse_rules())
    fill = next(m for m in position.legal_moves() if isinstance(m, Fill))
    place = next(f"{i // 13}.{i % 13}" for i, c in enumerate(position.grid) if c == fill.card)
    page.click(f'#board [data-pos="{place}"]')
    page.click(f'#board [data-pos="{fill.row}.{fill.col}"]')
    page.wait_for_function("() => document.getElementById('board').dataset.ply === '1' && !TrettenBoard.waiting()")
    game_id = page.get_attribute("#board", "data-game-id")
    page.context.set_offline(True)
    playing_offline(page)
    return fill, game_id


@pytest.mark.slow
def test_a_gaps_redeal_offline_asks_first_as_online_and_its_yes_is_stored(phone, server):
    """Offline, a redeal while cards can still be moved asks first, as the server's board does
    (its words and its two buttons, nothing redealt); its yes makes it, and the server stores it
    on return. A new deal asks too, and Cancel leaves the game as it was."""
    page = phone
    fill, game_id = gaps_filled_once_then_offline(page, server)
    page.click('#board [data-action="redeal"]')
    question = page.wait_for_selector('#board [data-confirm="redeal"]')
    assert question.inner_text().split("\n")[0] == "Cards can still be moved. Redeal anyway?"
    assert cursor(page) == 1 and page.locator('#board [data-confirm] [data-action="cancel"]').count() == 1
    page.click('#board [data-confirm] [data-action="confirm-redeal"]')  # yes
    page.wait_for_function("() => TrettenOfflinePlay.state().game.cursor === 2")
    assert page.locator("#board [data-confirm]").count() == 0
    # a new deal would count this game as lost: the engine asks first, as the server's board
    page.click('#board [data-action="new"]')
    question = page.wait_for_selector('#board [data-confirm="new"]')
    assert question.inner_text().split("\n")[0] == "Start a new deal? This game is not finished: it counts as lost."
    shot(page, "offline-confirm-new-390")
    page.click('#board [data-confirm] [data-action="cancel"]')
    assert page.locator("#board [data-confirm]").count() == 0
    # the focus goes back to the button that asked (it was lost with the question)
    assert page.evaluate("() => document.activeElement.getAttribute('data-action')") == "new"
    # only the question's own yes is one: a double press of New deal asks, and deals nothing
    page.evaluate("() => { const b = document.querySelector('#board [data-action=\"new\"]'); b.click(); b.click(); }")
    page.wait_for_selector('#board [data-confirm="new"]')
    page.keyboard.press("n")  # its question, after the two before it (the engine answers in turn)
    page.wait_for_selector('#board [data-confirm="new"]')
    assert cursor(page) == 2 and page.get_attribute("#board", "data-game-id") == game_id
    page.context.set_offline(False)
    page.wait_for_function("() => !TrettenOfflinePlay.active() && TrettenOfflinePlay.pending() === 0 && "
                           "!TrettenBoard.waiting()")
    assert stored_moves(page, server, game_id) == [str(fill), "N"]
    assert page.locator("[data-error]").count() == 0


@pytest.mark.slow
def test_a_confirmed_redeal_waiting_in_the_page_is_made_offline_without_asking_again(phone, server):
    """The page holds a Gaps redeal the player said yes to ("confirm-redeal"), not yet answered,
    when the network goes: the engine that plays on makes it as pressed, a yes, and does not ask
    again (the hand-over made it a plain "redeal": the question came back, nothing redealt), and
    the server stores it on return."""
    page = phone
    fill, game_id = gaps_filled_once_then_offline(page, server)
    # the yes waits in the tab's queue (app.js keeps it there through a reload: a yes pressed as
    # the network went, say), and the page is loaded again offline
    page.evaluate("""() => { const b = document.getElementById('board');
        sessionStorage.setItem('tretten.waiting:' + b.dataset.deal, JSON.stringify({v: 1,
          base: {ply: b.dataset.ply, version: b.dataset.version},
          moves: [{mid: 'confirmedredeal0123456789', spec: '', fields: {action: 'confirm-redeal'}}], later: []})); }""")
    page.reload()  # from the cache: the yes is handed to the engine
    playing_offline(page)
    page.wait_for_function("() => TrettenOfflinePlay.state().game.cursor === 2 || "
                           "!!document.querySelector('#board .toast[data-offline-note]')")
    assert page.locator("#board .toast[data-offline-note]").count() == 0  # not asked again
    assert cursor(page) == 2 and page.evaluate("() => TrettenOfflinePlay.pending()") == 1
    page.context.set_offline(False)
    page.wait_for_function("() => !TrettenOfflinePlay.active() && TrettenOfflinePlay.pending() === 0 && "
                           "!TrettenBoard.waiting()")
    assert stored_moves(page, server, game_id) == [str(fill), "N"]
    assert page.get_attribute("#board", "data-ply") == "2" and page.locator("[data-error]").count() == 0


@pytest.mark.slow
def test_a_hint_waiting_in_the_page_when_the_network_goes_is_said_not_done(phone, server):
    """The page held a Hint pressed while a move was on its way when the network went: the engine
    that plays on makes no hint (only the server's solver does), so the press is said not done,
    not dropped without a word."""
    page = phone
    offline_play_on(page, server)
    played_online(page, ONLINE_FIRST)
    page.wait_for_function("url => caches.match(url).then(hit => !!hit)", arg=page.url)
    page.context.set_offline(True)
    playing_offline(page)
    page.evaluate("""() => { const b = document.getElementById('board');
        sessionStorage.setItem('tretten.waiting:' + b.dataset.deal, JSON.stringify({v: 1,
          base: {ply: b.dataset.ply, version: b.dataset.version}, moves: [],
          later: [{actions: ['hint'], at: Date.now()}]})); }""")
    page.reload()  # from the cache: the press is handed to the engine
    playing_offline(page)
    toast = page.wait_for_selector("#board .toast[data-offline-note]")
    assert toast.inner_text() == "No connection: not done. Try again when it is back."
    assert cursor(page) == ONLINE_FIRST
