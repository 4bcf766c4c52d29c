"""Nothing a player does is lost on a real network (issue 39, "What it must show"): on a phone's
round trip, moves made offline, moves whose answer is lost after the server stored them, and
moves waiting through a reload all reach the server once and in order, with no tap; the page
ends equal to the server's board, and while moves wait the board and the status say so."""

from __future__ import annotations

import html
import re
from urllib.parse import quote

import pytest

from tests.web.helpers import csrf_of

from .conftest import shot
from .test_answers import ISSUE_DEAL, equals_a_fresh_load, settled, taps
from .test_play import ply, wait_ply

pytestmark = pytest.mark.motion  # moves shown, animated, while their answers wait

PHONE = {"width": 390, "height": 844}
# how long the phone stays offline: the protocol's pauses stop growing at 4 s, so nothing in the
# page depends on this length; issue 39 asks for 20 s
OFFLINE_S = 20
# from the issue's deal after one draw: a king, two pairs and two draws
OFFLINE_MOVES = ["P23", "P22+P25", "P16+P24", "D", "D"]
# what a press the page cannot show (a draw, a turnover, a redeal) says offline, offline play off
BLIND_OFFLINE = "No connection: only the server knows the next cards. Try again when it is back."
# the page shows a move at once while it knows the answers one move ahead: the king and the
# first pair; the taps after them are held, marked, for the boards that come
SHOWN = 2


def network(page, *, offline: bool, latency_ms: int = 150) -> None:
    """Chromium's network emulation: a phone's round trip, or no network at all."""
    cdp = getattr(page, "_cdp", None) or page.context.new_cdp_session(page)
    page._cdp = cdp
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions",
             {"offline": offline, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1})


def stored_moves(page, server: str, game_id: str) -> list[str]:
    """The game's moves as the server holds them, in order (the replay's page hooks), asked as
    the page's player: a game still in play shows its board to its own player only."""
    def replay(query: str = "") -> str:
        return page.context.request.get(f"{server}/g/{game_id}/replay{query}").text()

    total = int(re.search(r'data-total="(\d+)"', replay()).group(1))
    return [html.unescape(re.search(r'data-replay-move="([^"]*)"', replay(f"?ply={n}")).group(1))
            for n in range(1, total + 1)]


def uncaught(page) -> list[str]:
    """The page's uncaught errors from here on (the console's own lines about a failed request,
    the browser's and htmx's, are expected while the network is down)."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def new_deal(new_page, server: str):
    """A phone on a phone's round trip, on the issue's deal ready to play, and its uncaught errors."""
    page = new_page(**PHONE)
    errors = uncaught(page)
    page.goto(f"{server}/play/pyramid?deal={quote(ISSUE_DEAL)}")
    network(page, offline=False)
    return page, errors


def mid_game(new_page, server: str):
    """The same after one draw: mid-game, the game stored."""
    page, errors = new_deal(new_page, server)
    page.click('[data-action="draw"]')
    wait_ply(page, 1)
    settled(page)
    return page, errors


def tap_all(page, moves: list[str]) -> None:
    """Every tap of ``moves`` at once, as a player taps on without looking at the network."""
    for move in moves:
        for selector in taps(move):
            page.click(selector)


def pending(page) -> int:
    return int(page.get_attribute("#board", "data-pending") or 0)


def game_id_of(page) -> str:
    return page.get_attribute("#board", "data-game-id")


def test_offline_for_twenty_seconds_then_every_move_is_stored_in_order(server, new_page):
    page, errors = mid_game(new_page, server)
    # "still winnable?" on: its words are the stored board's, so they wait with the figures
    page.context.request.post(f"{server}/prefs", form={"csrf_token": csrf_of(page.content()), "winnable_indicator": "true"})
    page.reload()
    page.wait_for_selector('#board #solver-status:not([data-solver-status="pending"])')
    network(page, offline=True)
    cards, draws = OFFLINE_MOVES[:3], OFFLINE_MOVES[3:]
    tap_all(page, cards)
    # the page shows what it can stand behind, holds the rest, and says that all of it waits
    page.wait_for_selector("#board [data-sync]:not([hidden])")
    # a draw it cannot show is a blind move: not kept with no network, said not done (kept,
    # taps made because nothing seemed to happen drew a one-pass stock to its end unseen)
    for _ in draws:
        page.click('#board [data-action="draw"]')
        toast = page.wait_for_selector("#board .toast.near")
        assert toast.inner_text() == BLIND_OFFLINE
    # so is its key (kept, three presses of d drew three cards unseen once the network was back)
    page.evaluate("() => document.querySelectorAll('.toast').forEach(t => t.remove())")
    page.keyboard.press("d")
    toast = page.wait_for_selector("#board .toast.near")
    assert toast.inner_text() == BLIND_OFFLINE
    # a hint asked behind the waiting moves brings no card: not done, said so plainly
    page.evaluate("() => document.querySelectorAll('.toast').forEach(t => t.remove())")
    page.click('#board [data-action="hint"]')
    toast = page.wait_for_selector("#board .toast.near")
    assert toast.inner_text() == "No connection: not done. Try again when it is back."
    assert pending(page) == len(cards)
    # the held cards tapped again, as nothing seemed to happen: held once, no second move
    for selector in taps(cards[-1]):
        page.click(selector)
    assert pending(page) == len(cards) and page.evaluate("() => TrettenBoard.debug().later.length") == 2
    # the moves' count is the table's: the stored move and the ones shown on their way
    assert page.inner_text('#board [data-stat="ply"]') == str(1 + SHOWN)
    status = page.inner_text("#board [data-sync]")
    assert "waiting" in status and str(len(cards)) in status, status
    assert page.inner_text("#sync-said") == status  # read out
    # the figures but the count are the stored board's: dimmed, and no offer made on that board
    page.wait_for_function("""() => getComputedStyle(document.querySelector('#board [data-stat="score"]')).opacity < 0.5
      && getComputedStyle(document.querySelector('#board [data-count="stock"]')).opacity < 0.5""")
    assert page.evaluate("""() => getComputedStyle(document.querySelector('#board [data-stat="ply"]')).opacity""") == "1"
    assert page.locator("#board #solver-status").count() == 1 and page.locator("#board #solver-status").is_hidden()
    assert page.locator('#board [data-loc="P23"][data-removed]').count() == 1  # the king: shown
    assert page.locator("#board .held").count() >= 2  # the taps kept for later: marked
    assert ply(page) == 1
    shot(page, "network-offline-390")
    page.wait_for_timeout(OFFLINE_S * 1000)  # a train, a lift
    assert pending(page) == len(cards) and ply(page) == 1
    # an Undo kept offline showed nothing, then took back stored moves as well: not done, said so
    page.evaluate("() => document.querySelectorAll('.toast').forEach(t => t.remove())")
    page.click('#board [data-action="undo"]')
    toast = page.wait_for_selector("#board .toast.near")
    assert toast.inner_text() == "No connection: not done. Try again when it is back."
    assert pending(page) == len(cards) and page.locator('#board [data-action="undo"].held').count() == 0
    assert page.locator("#board .toast[data-offline]").count() == 1
    network(page, offline=False)
    # within 5 s (issue 39's bound; bench/reconnect.py prints the time) and with no tap: everything
    # stored, and the page is the server's board
    page.wait_for_function("() => !TrettenBoard.waiting() && document.getElementById('board').dataset.pending === '0'",
                           timeout=5_000)
    wait_ply(page, 1 + len(cards))
    # the network is back: its "no connection" goes with the first board it brings
    assert page.locator("#board .toast[data-offline]").count() == 0
    settled(page)
    assert page.locator('#board [data-action="redo"]:not([disabled])').count() == 0
    assert stored_moves(page, server, game_id_of(page)) == ["D", *cards]
    assert page.is_hidden("#board [data-sync]")
    assert page.inner_text("#sync-said") == "All moves saved."
    page.wait_for_function("""() => getComputedStyle(document.querySelector('#board [data-stat="score"]')).opacity === '1'""")
    equals_a_fresh_load(page)
    shot(page, "network-back-online-390")
    assert not errors


def test_kept_taps_refused_when_their_turn_comes_back_online_say_not_done(server, new_page):
    """The player test's run (seed 250 after the first moves of its winning line): offline, a
    draw (shown), a second draw (its card not in sight: said not done, where it was kept and drew
    a card unseen once the network was back), a pair (shown from the answers one move ahead),
    then three cards tapped, kept. Back online, the draw and the pair are stored; the first kept card cannot
    be played on the board that comes, so it and the taps after it are not made: the page says
    so, with the card's reason, beside it and in the status (read out) until the next press, and
    never "All moves saved." (it was said, and the words of the refusal gone with the board after
    it, a fifth of a second later)."""
    from tests.web.play import WIN_LINE, WIN_SEED

    from .test_answers import play

    page = new_page(**PHONE)
    errors = uncaught(page)
    page.goto(f"{server}/play/pyramid/{WIN_SEED}")
    network(page, offline=False)
    online = WIN_LINE[:2]
    play(page, online)
    network(page, offline=True)
    draw = taps("D")[0]
    counts = lambda: [int(page.inner_text(f'#board [data-count="{pile}"]')) for pile in ("stock", "waste")]  # noqa: E731
    stock, waste = counts()
    page.click(draw)  # shown: the board knows the answers one move ahead
    page.wait_for_function("() => TrettenBoard.debug().known && TrettenBoard.debug().queue.length === 1")
    assert counts() == [stock - 1, waste + 1]  # the piles' counts with the card (the waste said 0 under it)
    page.click(draw)  # the stock's next card is not in sight: a blind draw, not done
    toast = page.wait_for_selector("#board .toast")
    assert toast.inner_text() == BLIND_OFFLINE
    assert page.evaluate("() => TrettenBoard.debug().queue.length + TrettenBoard.debug().later.length") == 1
    for selector in taps("P22+P26"):  # shown from the answers one move ahead
        page.click(selector)
    page.wait_for_function("() => TrettenBoard.debug().queue.length === 2 && !TrettenBoard.debug().known")
    kept = ["P18", "P27", "P17"]  # the ace of hearts, the two of clubs and the nine of clubs
    for loc in kept:
        page.click(f'#board [data-loc="{loc}"][data-card]')
    assert page.evaluate("() => TrettenBoard.debug().later.length") == len(kept)
    page.wait_for_selector("#board [data-sync]:not([hidden])")
    assert page.inner_text("#board [data-sync]") == "No connection: 4 moves waiting"
    assert page.locator("#board .held").count() == len(kept)
    network(page, offline=False)
    page.wait_for_function("() => !TrettenBoard.waiting() && document.getElementById('board').dataset.pending === '0'")
    settled(page)
    assert stored_moves(page, server, game_id_of(page)) == [*online, "D", "P22+P26"]
    assert ply(page) == len(online) + 2 and page.locator("#board .held").count() == 0
    not_done = ("Not done: your waiting taps could not be made when their turn came. "
                "No free card makes 13 with this one right now.")
    assert page.inner_text("#sync-said") == not_done  # read out, and "All moves saved." is not
    toast = page.locator("#board .toast[data-near]")
    assert toast.count() == 1 and toast.inner_text() == not_done
    assert toast.get_attribute("data-near") == kept[0]  # beside the card whose turn it was
    assert page.is_hidden("#board [data-sync]")
    shot(page, "network-kept-taps-not-made-390")
    page.click(draw)  # the next press: the words go
    wait_ply(page, len(online) + 3)
    settled(page)
    assert toast.count() == 0 and page.inner_text("#sync-said") == ""
    equals_a_fresh_load(page)
    assert not errors


def test_answers_lost_after_the_server_stored_the_moves_are_stored_once(server, new_page):
    page, errors = new_deal(new_page, server)
    lost = []

    def store_then_drop(route):
        """The first try of the first three moves reaches the server, which stores it, and its
        answer never comes back; the page's second try is answered."""
        mid = re.search(r"mid=(\w+)", route.request.post_data or "")
        if mid and len(lost) < 3 and mid.group(1) not in lost:
            route.fetch()
            lost.append(mid.group(1))
            route.abort("connectionreset")
        else:
            route.continue_()

    # the first move of the deal (which stores the game) and two after it
    page.route(re.compile(r"/(play/pyramid|games/[\w-]+/act)(\?.*)?$"), store_then_drop)
    tap_all(page, ["D", *OFFLINE_MOVES])
    page.wait_for_function("() => !window.TrettenBoard.waiting()")
    settled(page)
    assert len(lost) == 3
    assert stored_moves(page, server, game_id_of(page)) == ["D", *OFFLINE_MOVES]
    assert ply(page) == 1 + len(OFFLINE_MOVES) and pending(page) == 0
    assert page.locator("[data-error]").count() == 0  # no "moved on in another tab"
    equals_a_fresh_load(page)
    assert not errors


def test_a_reload_while_moves_wait_sends_them(server, new_page):
    page, errors = new_deal(new_page, server)
    tries = []

    def first_stored_then_nothing(route):
        tries.append(route.request.url)
        if len(tries) == 1:
            route.fetch()  # the deal's first move is stored, its answer lost: the game exists
        route.abort("internetdisconnected")

    page.route(re.compile(r"/(play/pyramid|games/[\w-]+/act)(\?.*)?$"), first_stored_then_nothing)
    tap_all(page, ["D", *OFFLINE_MOVES])
    page.wait_for_function(f"() => document.getElementById('board').dataset.pending === '{1 + len(OFFLINE_MOVES)}'")
    assert ply(page) == 0
    page.unroute(re.compile(r"/(play/pyramid|games/[\w-]+/act)(\?.*)?$"))
    page.reload()  # the link of the deal: the server's game of it now, with its first move
    page.wait_for_function("() => window.TrettenBoard && !window.TrettenBoard.waiting()")
    settled(page)
    game_id = game_id_of(page)
    assert game_id and stored_moves(page, server, game_id) == ["D", *OFFLINE_MOVES]
    assert pending(page) == 0 and ply(page) == 1 + len(OFFLINE_MOVES)
    assert page.evaluate("() => Object.keys(sessionStorage).filter(k => k.startsWith('tretten.'))") == []
    equals_a_fresh_load(page)
    assert not errors


def test_another_tabs_move_meanwhile_drops_the_waiting_moves_with_the_reason(server, new_page):
    page, errors = mid_game(new_page, server)
    network(page, offline=True)
    tap_all(page, OFFLINE_MOVES[:2])
    page.wait_for_function("() => document.getElementById('board').dataset.pending === '2'")
    other = page.context.new_page()  # the same player on another network: a second tab
    other.goto(page.url)
    other.click('[data-action="draw"]')
    wait_ply(other, 2)
    network(page, offline=False)
    page.wait_for_selector('[data-error="stale"]')
    settled(page)
    assert pending(page) == 0 and ply(page) == 2
    assert stored_moves(page, server, game_id_of(page)) == ["D", "D"]
    equals_a_fresh_load(page)
    assert not errors


def test_a_hint_asked_offline_is_not_done_and_says_so(server, new_page):
    page, errors = mid_game(new_page, server)
    network(page, offline=True)
    page.click('#board [data-action="hint"]')
    page.wait_for_selector("#board .toast[data-near]", state="visible")
    assert "No connection" in page.inner_text("#board .toast[data-near]")
    assert page.locator("#board [data-hint]").count() == 0 and ply(page) == 1
    network(page, offline=False)
    # the board is fetched again once the network is back (the hint may have been done after
    # all): "No connection" is over, and goes with the board it was said on
    page.wait_for_function("() => !document.querySelector('#board .toast[data-near]')")
    page.click('#board [data-action="hint"]')  # back: it is done
    page.wait_for_selector("#board [data-hint]")
    assert not errors


def test_a_second_try_that_meets_the_stored_first_is_its_answer(server, new_page):
    """The first try is stored but its answer lost; the second reaches the server as if it had
    raced the first (it is refused as stale, 409): the board it brings holds the move (its
    data-mid), so the page takes it as the answer and goes on with the next moves."""
    page, errors = mid_game(new_page, server)
    tries = []

    def stored_then_raced(route):
        tries.append(route.request.post_data)
        if len(tries) == 1:
            route.fetch()
            route.abort("connectionreset")
        elif len(tries) == 2:  # as a racing second try is seen: another id on an old ply
            route.continue_(post_data=re.sub(r"mid=\w+", "mid=raced", route.request.post_data))
        else:
            route.continue_()

    page.route(re.compile(r"/games/[\w-]+/act$"), stored_then_raced)
    tap_all(page, OFFLINE_MOVES[:3])
    page.wait_for_function("() => !window.TrettenBoard.waiting()")
    settled(page)
    assert len(tries) >= 4
    assert stored_moves(page, server, game_id_of(page)) == ["D", *OFFLINE_MOVES[:3]]
    assert page.locator("[data-error]").count() == 0 and pending(page) == 0
    equals_a_fresh_load(page)
    assert not errors


MOVE_POSTS = re.compile(r"/(play/pyramid|games/[\w-]+/act)(\?.*)?$")


def hold_moves(page):
    """The page's move posts held here, in order, until the answered ``let_go()``; those after
    it go at once."""
    held: list = []

    def hold(route):
        if held is None:
            route.continue_()
        else:
            held.append(route)

    def let_go():
        nonlocal held
        waiting, held = held, None
        for route in waiting:
            route.continue_()

    page.route(MOVE_POSTS, hold)
    return let_go


def test_words_said_while_a_move_is_on_its_way_stay_when_its_board_comes(server, new_page):
    """A refusal made while the last move's board is on its way (a round trip on a phone) is still
    there to read once that board is laid in; it went with the board's swap before."""
    page, errors = new_deal(new_page, server)
    let_go = hold_moves(page)
    page.click(taps(OFFLINE_MOVES[0])[0])  # the king: shown at once, its board held
    page.wait_for_function("() => TrettenBoard.debug().posted")
    page.click('#board [data-loc="P0"]')  # the apex: covered
    said = "That card is covered: it can be played once the cards lying on it are gone."
    assert page.inner_text("#board .toast[data-near]") == said
    let_go()
    settled(page)
    assert ply(page) == 1
    assert page.inner_text("#board .toast[data-near]") == said
    page.click('[data-action="draw"]')  # the next press: the words go
    wait_ply(page, 2)
    assert page.locator("#board .toast[data-near]").count() == 0
    assert not errors


def test_a_kept_tap_whose_card_was_covered_meanwhile_is_not_made_and_says_why(server, new_page):
    """Draw, draw and draw again, then the waste's card: the second draw is kept (its card is not
    in sight until the first one's board comes), so are the third and the tap on the card the
    player saw on the waste, in order (the tap was answered at once, before the draws kept ahead
    of it). The kept draws cover that card before the tap's turn, so the tap is not made, and the
    page says so instead of dropping it."""
    page, errors = mid_game(new_page, server)
    let_go = hold_moves(page)
    draw = taps("D")[0]
    page.click(draw)  # shown: the board knows the answers one move ahead
    page.wait_for_function("() => TrettenBoard.debug().known && TrettenBoard.debug().posted")
    page.click(draw)  # the stock's next card is not in sight: kept
    page.click(draw)  # kept
    page.click('#board [data-loc="W"][data-card]')  # the card on the waste now: kept too, after them
    assert page.evaluate("() => TrettenBoard.debug().later.length") == 3
    let_go()
    toast = page.wait_for_selector("#board .toast[data-near]")
    assert toast.inner_text() == "Not done: the cards had already moved when your tap's turn came."
    settled(page)
    assert stored_moves(page, server, game_id_of(page)) == ["D"] * 4
    assert page.locator("#board .held").count() == 0 and pending(page) == 0
    assert page.inner_text("#board .toast[data-near]") == toast.inner_text()  # still there to read
    equals_a_fresh_load(page)
    assert not errors


def test_undo_pressed_while_the_first_move_is_on_its_way_takes_it_back(server, new_page):
    """The deal's first move (the king) is shown and on its way; Undo, greyed on the deal, takes
    the press at once: kept, and made once the move's board has come."""
    page, errors = new_deal(new_page, server)
    assert page.locator('#board [data-action="undo"]').is_disabled()
    let_go = hold_moves(page)
    page.click(taps(OFFLINE_MOVES[0])[0])
    page.wait_for_function("() => TrettenBoard.debug().posted")
    page.click('#board [data-action="undo"]')
    assert page.evaluate("() => TrettenBoard.debug().later.length") == 1  # kept for the board that comes
    let_go()
    page.wait_for_selector('#board[data-ply="0"] [data-action="redo"]:not([disabled])')
    settled(page)
    assert page.locator('#board [data-loc="P23"][data-card]').count() == 1  # the king is back
    assert not errors


def test_undo_pressed_while_the_winning_move_is_on_its_way_says_a_win_is_final(server, new_page):
    """The last move of a win is shown and on its way, and Undo pressed: kept, it is not made on
    the won board that comes, and the page says why (the greyed button's reason)."""
    from tests.web.play import WIN_LINE, WIN_SEED

    from .test_words import _api_game, _browse_as

    game, info = _api_game(server, "pyramid", WIN_SEED, WIN_LINE[:-1])
    page = new_page(**PHONE)
    errors = uncaught(page)
    _browse_as(page, server, info["link"])
    page.goto(f"{server}/games/{game['id']}")
    let_go = hold_moves(page)
    for selector in taps(WIN_LINE[-1]):
        page.click(selector)
    page.wait_for_function("() => TrettenBoard.debug().posted")
    page.click('#board [data-action="undo"]')
    assert page.evaluate("() => TrettenBoard.debug().later.length") == 1
    let_go()
    page.wait_for_selector('#board[data-status="won"]')
    toast = page.wait_for_selector("#board .toast[data-near]")
    assert toast.inner_text() == "This game is won, and a win is final: it cannot be undone."
    settled(page)
    assert ply(page) == len(WIN_LINE)
    assert not errors


def test_undos_pressed_while_draws_are_on_their_way_are_all_made(server, new_page):
    """Two draws and two undos pressed at once on a phone's round trip: the undos wait for the
    draws' boards and each is made, one after the other (htmx drops a form's request while
    one of it is out: the page must count each of its own requests until that one ends)."""
    page, errors = mid_game(new_page, server)
    game_id = game_id_of(page)
    let_go = hold_moves(page)
    for _ in range(2):
        page.click('#board [data-action="draw"]')
    for _ in range(2):
        page.click('#board [data-action="undo"]')
    let_go()
    page.wait_for_function("() => { const d = TrettenBoard.debug(); return !d.posted && !d.queue.length"
                           " && !d.later.length && !d.others; }")
    settled(page)
    assert ply(page) == 1 and stored_moves(page, server, game_id) == ["D"]
    page.reload()
    assert ply(page) == 1 and page.locator('#board [data-action="redo"]:not([disabled])').count() == 1
    assert not errors


def test_a_hint_pressed_while_moves_wait_leaves_them_their_own_address(server, new_page):
    """A Hint pressed while moves are on their way is kept and asked once they are stored; one
    turned down offline is not asked at all. Either way the waiting moves are stored as moves
    (htmx sends a form's request to the address of the button pressed last: the Hint's)."""
    page, errors = mid_game(new_page, server)
    game_id = game_id_of(page)
    let_go = hold_moves(page)
    tap_all(page, OFFLINE_MOVES[:SHOWN])
    page.click('#board [data-action="hint"]')
    assert page.evaluate("() => TrettenBoard.debug().later.length") == 1  # kept for the boards that come
    let_go()
    page.wait_for_selector("#board [data-hint]")
    assert ply(page) == 1 + SHOWN and stored_moves(page, server, game_id) == ["D", *OFFLINE_MOVES[:SHOWN]]
    # offline: the Hint is turned down, the moves wait and go when the network is back
    network(page, offline=True)
    tap_all(page, OFFLINE_MOVES[SHOWN:SHOWN + 1])
    page.click('#board [data-action="hint"]')
    page.wait_for_selector("#board .toast[data-near]", state="visible")
    assert "No connection" in page.inner_text("#board .toast[data-near]") and pending(page) == 1
    network(page, offline=False)
    page.wait_for_function("() => { const d = TrettenBoard.debug(); return !d.posted && !d.queue.length; }")
    assert stored_moves(page, server, game_id) == ["D", *OFFLINE_MOVES[:SHOWN + 1]]
    assert not errors


def test_a_press_right_after_another_tabs_board_came_is_let_go(server, new_page):
    """A stale tab's move is refused and the other tab's board laid in with the reason: an Undo
    pressed a moment after, aimed at the board before, would take back the other tab's move.
    It is let go, and the reason stays; a press a moment later is made."""
    page, errors = mid_game(new_page, server)
    other = page.context.new_page()  # the same player, a second tab
    other.goto(page.url)
    other.click('[data-action="draw"]')
    wait_ply(other, 2)
    let_go = hold_moves(page)
    tap_all(page, OFFLINE_MOVES[:1])  # the king, on the board before the other tab's draw
    page.wait_for_function("() => TrettenBoard.debug().posted")
    # Undo pressed the moment the refusal's board is in (a hand does not wait for its cards to
    # settle), however slow the machine: meant for the board before
    page.evaluate("""() => document.addEventListener('htmx:afterSettle', function once() {
      if (!document.querySelector('#board [data-error="stale"]')) return;
      document.removeEventListener('htmx:afterSettle', once);
      document.querySelector('#board [data-action="undo"]').click();
      window.pressedAtOnce = true;
    })""")
    let_go()
    page.wait_for_function("() => window.pressedAtOnce")
    assert page.locator('[data-error="stale"]').count() == 1 and not page.evaluate("() => TrettenBoard.debug().others")
    assert stored_moves(page, server, game_id_of(page)) == ["D", "D"]
    page.wait_for_timeout(700)  # a moment later the press is the player's, on the board they see
    page.click('#board [data-action="undo"]')
    wait_ply(page, 1)
    assert not errors


def test_a_key_for_a_button_the_board_has_not_is_no_press(server, new_page):
    """"d" (draw, or a Gaps redeal) on a Giza board while a king's removal is on its way: Giza
    has neither, so nothing is kept, and nothing is said not done when the move's board comes."""
    page = new_page(**PHONE)
    errors = uncaught(page)
    page.goto(f"{server}/play/giza/1")  # two kings free at the start
    network(page, offline=False)
    held: list = []
    page.route(re.compile(r"/play/giza/1$"),
               lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    page.click('#board button[name="target"][data-move]')
    page.wait_for_function("() => TrettenBoard.debug().posted")  # the fill is on its way, held
    page.keyboard.press("d")
    assert page.evaluate("() => TrettenBoard.debug().later.length") == 0
    for route in held:
        route.continue_()
    wait_ply(page, 1)
    settled(page)
    assert page.locator("#board .toast[data-near]").count() == 0
    assert not errors


def auto_finish_after_a_move(server, new_page, left: int):
    """A phone at seed 250 ``left`` moves from the win, with Auto-finish offered; on a phone's
    round trip, the next move of the winning line is tapped (shown at once, its post held) and
    Auto-finish pressed at once, kept. Returns the page, its uncaught errors, the ``let_go`` of
    the move's post, and the posts' bodies to the auto-finish's address."""
    from .test_motion import near_won_pyramid

    page = new_page(**PHONE)
    errors = uncaught(page)
    rest = near_won_pyramid(server, page, left=left)
    page.wait_for_selector('#board [data-action="auto-finish"]', timeout=30_000)  # the solver has proven the win
    network(page, offline=False)
    let_go = hold_moves(page)
    finishes: list[str] = []
    page.on("request", lambda r: finishes.append(r.post_data or "") if r.url.endswith("/autofinish") else None)
    tap_all(page, rest[:1])
    page.wait_for_function("() => TrettenBoard.debug().posted")
    page.click('#board [data-action="auto-finish"]')
    assert page.evaluate("() => TrettenBoard.debug().later.length") == 1 and not finishes  # kept
    return page, errors, let_go, finishes


def test_auto_finish_pressed_while_a_move_is_on_its_way_is_made_on_its_board(server, new_page):
    """A card move and Auto-finish at once: the move's board comes without the offer (it comes by
    a request of its own after the board), and the press kept is posted all the same, after the
    move's answer and with that board's ply: the game is auto-finished, nothing said not done
    (it was dropped, "the cards had already moved")."""
    from tests.web.play import WIN_LINE

    page, errors, let_go, finishes = auto_finish_after_a_move(server, new_page, left=6)
    let_go()
    settled(page)
    assert len(finishes) == 1 and re.search(r"(^|&)ply=21(&|$)", finishes[0]), finishes  # the move's board
    assert page.get_attribute("#board", "data-status") == "won"
    assert stored_moves(page, server, game_id_of(page)) == WIN_LINE
    assert page.locator("#board .toast").count() == 0 and "Not done" not in page.inner_text("#sync-said")
    assert pending(page) == 0
    equals_a_fresh_load(page)
    assert not errors


def test_auto_finish_pressed_while_the_winning_move_is_on_its_way_says_the_servers_reason(server, new_page):
    """The same with the winning move: the press kept is posted on the won board that comes, and
    the server turns it down; its reason is what the page shows (not "the cards had already
    moved": nothing had)."""
    from tests.web.play import WIN_LINE

    page, errors, let_go, finishes = auto_finish_after_a_move(server, new_page, left=1)
    let_go()
    settled(page)
    assert len(finishes) == 1 and re.search(r"(^|&)ply=26(&|$)", finishes[0]), finishes
    assert page.get_attribute("#board", "data-status") == "won"
    assert page.locator("#board .toast").count() == 1
    assert page.locator('#board .toast[data-error="won_final"]').count() == 1  # the server's reason
    assert "Not done" not in page.inner_text("#board .toast") and "Not done" not in page.inner_text("#sync-said")
    assert stored_moves(page, server, game_id_of(page)) == WIN_LINE
    assert not errors


def test_a_reload_the_server_answers_before_the_move_on_its_way_shows_the_move(server, new_page):
    """A reload just after a move's post was sent (the race seen once): the server answers the
    reload first, with the game before the move, then stores the move, and the page being left,
    still there until the new one comes, gets the move's answer. The page that comes shows the
    game as stored (it showed one move while the server held two: the page left had forgotten
    the move as answered, so the new one had nothing to send)."""
    page, errors = mid_game(new_page, server)
    game_id = game_id_of(page)
    let_go = hold_moves(page)
    page.click(taps("D")[0])  # shown at once, its post held
    page.wait_for_function("() => TrettenBoard.debug().posted")
    reloads: list = []

    def answered_first(route):
        if route.request.resource_type != "document":
            route.continue_()
            return
        reloads.append((route, route.fetch()))  # the server's answer to the reload: the game before the move
        let_go()  # then the move reaches the server

    page.route(f"{server}/games/{game_id}", answered_first)
    # the page left lays in the move's answer while the new one is on its way (it says so in its
    # console: the test can run no script in a page being left, it waits for the next)
    page.evaluate("""() => document.addEventListener('htmx:afterSettle', () =>
        console.log('laid ' + document.getElementById('board').dataset.ply))""")
    with page.expect_console_message(lambda message: message.text == "laid 2"):
        page.evaluate("() => setTimeout(() => location.reload(), 0)")
    assert len(reloads) == 1 and 'data-ply="1"' in reloads[0][1].text()
    with page.expect_navigation():
        reloads[0][0].fulfill(response=reloads[0][1])
    page.unroute(f"{server}/games/{game_id}")
    page.wait_for_function("() => window.TrettenBoard && !TrettenBoard.waiting()")
    settled(page)
    assert stored_moves(page, server, game_id) == ["D", "D"]
    assert ply(page) == 2 and pending(page) == 0
    equals_a_fresh_load(page)
    assert page.evaluate("() => Object.keys(sessionStorage).filter(k => k.startsWith('tretten.'))") == []
    assert not errors


def test_gaps_taps_held_offline_are_counted_one_move_each(server, new_page):
    """A Gaps card tapped moves by itself: five taps are five moves waiting (counted as Pyramid's
    pairs, two taps a move, the line said four for five)."""
    page = new_page(**PHONE)
    errors = uncaught(page)
    page.goto(f"{server}/play/gaps/41")
    network(page, offline=False)
    first = page.locator("#board [data-card][data-move]").first
    first.click()  # the first move stores the game
    wait_ply(page, 1)
    settled(page)
    network(page, offline=True)
    for _ in range(2):  # shown at once: the board knows the answers one move ahead
        page.locator("#board [data-card][data-move]").first.click()
    page.wait_for_function("() => TrettenBoard.debug().queue.length === 2 && !TrettenBoard.debug().known")
    cards = page.eval_on_selector_all("#board [data-pos][data-card]", "els => els.map(e => e.dataset.pos)")
    for pos in cards[-3:]:  # held, each a move of its own
        page.click(f'#board [data-pos="{pos}"][data-card]')
    assert page.evaluate("() => TrettenBoard.debug().later.length") == 3
    page.wait_for_selector("#board [data-sync]:not([hidden])")
    assert page.inner_text("#board [data-sync]") == "No connection: 5 moves waiting" and pending(page) == 5
    network(page, offline=False)
    page.wait_for_function("() => !TrettenBoard.waiting()")
    settled(page)
    assert ply(page) >= 3
    equals_a_fresh_load(page)
    assert not errors


def test_a_tap_held_behind_a_request_a_reload_cut_off_is_made_after_the_reload(server, new_page):
    """An Undo on its way, a king tapped behind it (held: it waits for the undo's board), then a
    reload: the held tap comes back with the page and is made on the board the server has, and
    the next press too (the page held every press behind it for good)."""
    page, errors = mid_game(new_page, server)
    cut_off = []  # held, never answered
    page.route("**/act", lambda route: cut_off.append(route))
    page.click('#board [data-action="undo"]')
    page.wait_for_function("() => TrettenBoard.debug().others === 1")
    page.click('#board button[name="target"][value="P23"]')  # the deal's king: held behind the undo
    assert page.evaluate("() => TrettenBoard.debug().later.length") == 1
    page.reload()  # the undo never reaches the server
    page.unroute("**/act")
    page.wait_for_selector('#board [data-loc="P23"][data-removed]', state="attached")  # the king is made
    settled(page)
    made = ply(page)
    assert made == 2  # the draw and the king
    page.click('#board [data-action="draw"]')
    wait_ply(page, made + 1)
    settled(page)
    assert page.evaluate("() => TrettenBoard.debug().later.length") == 0 and pending(page) == 0
    equals_a_fresh_load(page)
    assert not errors


def test_no_connection_said_offline_goes_when_the_network_comes_back(server, new_page):
    """Moves waiting offline, New deal pressed: not done, no connection. The network back, the moves are stored and the board they bring says nothing of
    a connection gone (the words were laid into it again, seconds after the network was back)."""
    page, _ = mid_game(new_page, server)
    network(page, offline=True)
    tap_all(page, OFFLINE_MOVES[:2])
    page.wait_for_selector("#board [data-sync]:not([hidden])")
    page.click('#board [data-action="new"]')
    page.wait_for_selector("#board .toast[data-offline]")
    network(page, offline=False)
    page.wait_for_function("() => document.getElementById('board').dataset.pending === '0'")
    wait_ply(page, 1 + len(OFFLINE_MOVES[:2]))
    assert page.locator("#board .toast").count() == 0


def test_kings_held_offline_are_counted_a_move_each(server, new_page):
    """Taps held while moves wait are counted as moves: two card taps in a row are one pair, but
    a king (its board said a tap on it plays alone) is one move by itself: two kings held were
    counted as one."""
    page = new_page(**PHONE)
    page.goto(f"{server}/play/pyramid/123")  # kings at P21 and P26, pairs P22+P25 and P23+P27
    network(page, offline=False)
    page.click('[data-action="draw"]')  # the game stored
    wait_ply(page, 1)
    settled(page)
    network(page, offline=True)
    tap_all(page, ["P22+P25", "P23+P27", "P21", "P26"])  # two pairs shown, the kings held behind them
    page.wait_for_selector("#board [data-sync]:not([hidden])")
    assert page.evaluate("() => TrettenBoard.debug().later.length") == 2
    assert pending(page) == 4
    assert "4 moves waiting" in page.inner_text("#board [data-sync]")


def test_a_press_offline_while_offline_play_starts_says_to_wait_a_moment(server, new_page):
    """Offline play on, its engine still starting (seconds after a page loads offline): a press it
    would answer is not "wait for the network", which was wrong a moment later."""
    page, _ = mid_game(new_page, server)
    page.evaluate("() => { window.TrettenOfflinePlay = { active: () => false }; }")  # loaded, not started
    network(page, offline=True)
    tap_all(page, OFFLINE_MOVES[:3])  # moves waiting, shown as far as the page can: a draw now is a blind press
    page.wait_for_selector("#board [data-sync]:not([hidden])")
    page.click('#board [data-action="draw"]')
    toast = page.wait_for_selector("#board .toast.near")
    assert toast.inner_text() == "Offline play is getting ready. Try again in a moment."
