"""Stats, replays and deal pages in a real browser: play two deals, read /stats and its charts,
step through a replay by keyboard and slider, open a deal page from a share link elsewhere; a
replay's Play/Pause, its speed on a slow network, and steps by hand while it plays (its frame is
swapped at every step); the statistics' filters by keyboard."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import httpx
import pytest

from tests.web.play import WIN_LINE, WIN_SEED, api_player, move, new_game, win

from .conftest import shot
from .test_play import click_move, wait_ply
from .test_words import _api_game, _browse_as


def test_two_deals_then_stats_replay_and_a_shared_deal_page(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/pyramid/{WIN_SEED}")
    for text in WIN_LINE:
        click_move(page, text)
    page.wait_for_selector('#board[data-status="won"]')
    share = page.get_attribute("[data-share-url]", "href")
    assert share.endswith(f"/deal/pyramid/{WIN_SEED}")  # after the game the link shows the deal
    won_url = page.url
    page.goto(f"{server}/play/pyramid-3/31")
    page.click('[data-action="draw"]')
    wait_ply(page, 1)

    page.goto(f"{server}/stats")
    assert page.inner_text('[data-figures="total"] [data-stat="played"]') == "2"
    assert page.inner_text('[data-figures="total"] [data-stat="won"]') == "1"
    page.click('[data-figures="pyramid"] summary')  # a game's own figures are folded to one line
    assert page.inner_text('[data-figures="pyramid"] [data-stat="fewest-moves"]') == str(len(WIN_LINE))
    # one game won or lost: no "last 10 games" line yet, but how many it needs
    assert page.locator('[data-chart="rolling"] svg polyline').count() == 0
    assert page.get_attribute('[data-chart="rolling"] [data-rolling-needs]', "data-rolling-needs") == "10"
    assert page.locator('[data-chart="days"] svg rect.bar').count() >= 1
    page.select_option('select[name="result"]', "won")  # htmx swaps the view and keeps the URL
    page.wait_for_url(re.compile(r"result=won"))
    page.wait_for_selector('[data-history-total="1"]')
    shot(page, "stats-1280")

    game_id = won_url.rsplit("/", 1)[1]
    page.goto(f"{server}/g/{game_id}/replay?ply=0")
    assert page.get_attribute("#replay", "data-ply") == "0"
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#replay[data-ply="1"]')
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#replay[data-ply="2"]')
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#replay[data-ply="1"]')
    assert page.url.endswith("?ply=1")  # the permalink follows
    page.keyboard.press("End")
    page.wait_for_selector(f'#replay[data-ply="{len(WIN_LINE)}"]')
    assert page.locator('[data-banner="won"]').is_visible()
    slider = page.locator("[data-replay-slider]")
    slider.focus()
    page.keyboard.press("Home")  # the slider's own keys: to 0, and the page follows
    page.wait_for_selector('#replay[data-ply="0"]')
    slider = page.locator("[data-replay-slider]")
    slider.fill("5")
    page.wait_for_selector('#replay[data-ply="5"]')
    assert page.evaluate("document.activeElement.hasAttribute('data-replay-slider')")
    shot(page, "replay-1280")
    assert not page.js_errors

    friend = new_page()
    friend.goto(share)
    assert friend.get_attribute("[data-seed]", "data-seed") == str(WIN_SEED)
    assert int(friend.inner_text('[data-stat="players"]')) >= 1
    assert friend.get_attribute("[data-verdict]", "data-verdict") == "hidden"  # no spoilers
    friend.click('[data-action="play-deal"]')
    friend.wait_for_selector('#board[data-status="playing"]')
    assert friend.get_attribute("[data-seed]", "data-seed") == str(WIN_SEED)
    page.goto(share)
    assert page.get_attribute("[data-verdict]", "data-verdict") == "winnable"
    shot(page, "deal-1280")


@pytest.mark.parametrize("path", ["/stats", "/profile", f"/deal/pyramid/{WIN_SEED}", "/", "/stats?preset=pyramid"])
def test_new_pages_fit_a_phone(server, new_page, path):
    page = new_page(width=390, height=844)
    if path == "/stats" or path.startswith("/stats?"):
        page.goto(f"{server}/play/pyramid/{WIN_SEED}")
        for text in ("D", "D"):  # a played game, so the page has figures, charts and history
            click_move(page, text)
    page.goto(server + path)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "phone-" + re.sub(r"\W+", "-", path.strip("/")) if path != "/" else "phone-lobby-daily")


def _shown_labels(page, chart: str) -> list[dict]:
    """The labels under a chart's bars that are drawn, left to right, with their boxes."""
    return page.evaluate("""chart => [...document.querySelectorAll(`[data-chart="${chart}"] svg text.axis[y="210"]`)]
        .filter(t => getComputedStyle(t).display !== "none")
        .map(t => { const b = t.getBoundingClientRect(); return {text: t.textContent, left: b.left, right: b.right}; })
        .sort((a, b) => a.left - b.left)""", chart)


def test_a_phone_s_statistics_keep_the_score_labels_apart_and_say_each_deal(server, new_page):
    """Scores 0 (a game lost at its first draw) and 28 (a win) make ten buckets of three points:
    the labels of the last two lay under neighbouring bars ("24–26", "27–29"), and on a phone,
    drawn larger, they ran into each other. The labels drawn keep apart (the last one kept),
    at 1280 px all of them are drawn; and each game of the phone's history says its deal, its
    score and its time (they were hidden there)."""
    with httpx.Client(base_url=server, timeout=30) as api:
        auth = api_player(api)
        lost = move(api, auth, new_game(api, auth, "pyramid", 5), "D")  # counted lost (0) by the next deal
        won = win(api, auth)
        link = urlsplit(api.post("/api/players/me/device-link", headers=auth).json()["url"]).path
    page = new_page(width=390, height=844)
    _browse_as(page, server, link)
    page.goto(f"{server}/stats")
    every = page.locator('[data-chart="scores"] svg text.axis[y="210"]').all_text_contents()
    assert every[-1] == "27–29" and page.locator('[data-chart="scores"] svg rect.bar').count() >= 2
    shown = _shown_labels(page, "scores")
    assert [label["text"] for label in shown][-1] == "27–29" and len(shown) >= 3
    for left, right in zip(shown, shown[1:]):
        assert left["right"] <= right["left"], f"{left['text']} runs into {right['text']} at 390 px"
    for game, deal in ((won, str(WIN_SEED)), (lost, "5")):
        row = page.locator(f'.history tr[data-game-id="{game["id"]}"]')
        for cell in ("seed", "score", *(("time",) if game is won else ())):  # a game with no time says none
            assert row.locator(f"td.{cell}").is_visible(), f"the history's {cell} is hidden on a phone"
        box = [row.locator(f"td.{cell}").bounding_box() for cell in ("game", "links")]
        assert box[1]["y"] - box[0]["y"] < 2.5 * box[0]["height"], "a game's row takes more than two lines"
        assert row.locator("td.seed a").inner_text() == deal
        box = row.locator("td.seed").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "phone-stats-scores")
    page.set_viewport_size({"width": 1280, "height": 800})
    assert len(_shown_labels(page, "scores")) == len(every)  # a desktop's chart names every label


def test_the_end_panel_s_move_lists_print_red_suits_red(server, new_page):
    """A won game's panel lists its moves in card symbols: hearts and diamonds as red as on the
    cards (they were printed in the panel's black ink), spades and clubs in the ink."""
    game, info = _api_game(server, "pyramid", WIN_SEED, WIN_LINE)
    page = new_page()
    _browse_as(page, server, info["link"])
    page.goto(f"{server}/games/{game['id']}")
    page.wait_for_selector('#analysis[data-analysis-kind="won"]')
    colours = page.evaluate("""() => {
        const colour = el => getComputedStyle(el).color;
        const list = document.querySelector('#analysis [data-par-moves]');
        return {text: colour(list),
                red: [...list.querySelectorAll('.suit-H, .suit-D')].map(colour),
                black: [...list.querySelectorAll('.suit-S, .suit-C')].map(colour)}; }""")
    assert colours["red"] and colours["black"]
    assert set(colours["black"]) == {colours["text"]}
    assert len(set(colours["red"])) == 1
    red = colours["red"][0]
    r, g, b = (int(v) for v in re.findall(r"\d+", red)[:3])
    assert r > 120 and g < 60 and b < 60, f"a red suit is printed {red}"
    shot(page, "end-panel-suits")


def test_replay_fits_a_phone(server, new_page):
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/gaps/21")
    page.click('#board .playable')
    wait_ply(page, 1)
    game_id = page.get_attribute("#board", "data-game-id")
    page.goto(f"{server}/g/{game_id}/replay?ply=1")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "phone-replay-gaps")



def _replay_playing(server, new_page):
    """A won game's replay, playing a step every quarter second."""
    game, _ = _api_game(server, "pyramid", WIN_SEED, WIN_LINE)
    page = new_page()
    page.goto(f"{server}/g/{game['id']}/replay")
    page.wait_for_selector("[data-replay-play]:not([hidden])")
    page.select_option("[data-replay-speed]", "250")
    page.click("[data-replay-play]")
    page.wait_for_function("() => +document.querySelector('#replay').dataset.ply >= 1")
    return page


def _stays_paused(page) -> None:
    assert page.get_attribute("[data-replay-play]", "aria-pressed") == "false"
    at = page.get_attribute("#replay", "data-ply")
    page.wait_for_timeout(1000)  # four steps' time: a replay still playing would have moved on
    assert page.get_attribute("#replay", "data-ply") == at
    assert page.get_attribute("[data-replay-play]", "aria-pressed") == "false"


def test_a_pause_pressed_as_the_replay_steps_is_heard(server, new_page):
    """The replay swaps its frame at every step; the Play/Pause button is kept through the swaps,
    so a press that begins before a step and ends after it still pauses."""
    page = _replay_playing(server, new_page)
    box = page.locator("[data-replay-play]").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    at = int(page.get_attribute("#replay", "data-ply"))
    page.mouse.down()
    page.wait_for_function(f"() => +document.querySelector('#replay').dataset.ply > {at}")  # a step mid-press
    page.mouse.up()
    _stays_paused(page)
    assert not page.js_errors


def test_a_replay_played_and_paused_by_keyboard_keeps_its_focus(server, new_page):
    """A keyboard player on the Play button: Enter plays, and after steps have swapped the frame
    the focus is still on the button, so Enter pauses."""
    page = _replay_playing(server, new_page)
    page.click("[data-replay-play]")  # paused
    page.focus("[data-replay-play]")
    page.keyboard.press("Enter")
    at = int(page.get_attribute("#replay", "data-ply"))
    page.wait_for_function(f"() => +document.querySelector('#replay').dataset.ply >= {at + 2}")
    assert page.evaluate("document.activeElement.hasAttribute('data-replay-play')")
    page.keyboard.press("Enter")
    _stays_paused(page)
    assert not page.js_errors


@pytest.mark.parametrize("failure", ["error", "network"])
def test_a_timed_step_that_fails_pauses_the_replay_and_play_goes_on_from_there(server, new_page, failure):
    """A step the server answers with an error, or that the network drops, lays nothing in: the
    replay stopped there with its button still saying Pause (a press then paused what was not
    playing). It pauses, and Play goes on from the step it reached."""
    page = _replay_playing(server, new_page)
    failed = []

    def fail_once(route):
        if route.request.headers.get("hx-trigger") == "replay" and not failed:
            failed.append(route.request.url)
            if failure == "error":
                route.fulfill(status=500, body="")
            else:
                route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/replay?ply=*", fail_once)
    page.wait_for_function("() => document.querySelector('[data-replay-play]').getAttribute('aria-pressed') === 'false'")
    assert failed
    at = int(page.get_attribute("#replay", "data-ply"))
    assert page.inner_text("[data-replay-play]") == page.get_attribute("[data-replay-play]", "data-play-label")
    assert page.locator("[data-replay-stopped]").is_visible()  # said why
    page.click("[data-replay-play]")
    page.wait_for_function(f"() => +document.querySelector('#replay').dataset.ply > {at}")
    assert not page.locator("[data-replay-stopped]").is_visible()
    assert page.get_attribute("[data-replay-play]", "aria-pressed") == "true"
    page.click("[data-replay-play]")


@pytest.mark.parametrize("how", ["key", "slider"])
def test_a_step_taken_by_hand_pauses_the_replay_and_the_step_on_its_way_never_lands(server, new_page, how):
    """A timed step can be on its way when the player takes a step (Home) or presses the slider
    (its answer held here until then): the replay pauses, the player's step follows the one on
    its way, and that one is never shown, so the frame stays where the player put it."""
    page = _replay_playing(server, new_page)
    held = []

    def hold_timed_steps(route):  # the timed step's request comes from the frame (HX-Trigger: its id)
        if route.request.headers.get("hx-trigger") == "replay":
            held.append(route)
        else:
            route.continue_()

    page.route("**/replay?ply=*", hold_timed_steps)
    for _ in range(200):  # the next step is asked within the quarter second
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "no timed step was asked from the frame"
    page.evaluate("""() => { window.plies = [];  // each frame laid in
        new MutationObserver(() => plies.push(document.querySelector('#replay').dataset.ply))
          .observe(document.querySelector('#replay').parentNode, {childList: true}); }""")
    if how == "key":
        page.keyboard.press("Home")
    else:
        box = page.locator("[data-replay-slider]").bounding_box()
        page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)
    assert page.get_attribute("[data-replay-play]", "aria-pressed") == "false"
    held[0].continue_()
    page.wait_for_selector('#replay[data-ply="0"]')
    _stays_paused(page)
    assert page.evaluate("plies") == ["0"]  # the step on its way was never shown
    assert page.url.endswith("?ply=0")
    assert not page.js_errors


def test_a_keyboard_player_changes_the_statistics_filters_one_after_another(server, new_page):
    """Each filter's change swaps the whole view: the focus comes back to the filter changed, so
    the next arrow key goes on choosing (it fell to the page's start before)."""
    page = new_page()
    page.goto(f"{server}/stats")
    page.focus('select[name="result"]')
    page.keyboard.press("ArrowDown")
    page.wait_for_url(re.compile(r"result=\w"))
    first = page.url
    assert page.evaluate("document.activeElement.name") == "result"
    page.keyboard.press("ArrowDown")
    page.wait_for_function("first => location.href !== first", arg=first)
    page.wait_for_selector('#stats-view:not(.htmx-request)')
    assert page.evaluate("document.activeElement.name") == "result"
    assert not page.js_errors


def test_a_replay_keeps_its_speed_on_a_slow_network(server, new_page):
    """At 1× a step is asked a second after the one before was asked, not a second after it
    came: a phone's round trip is inside the second (it came on top, 4× ran at about 2.4×).
    The page's clock is Playwright's, moved by hand; the timed step's answer is held."""
    game, _ = _api_game(server, "pyramid", WIN_SEED, WIN_LINE)
    page = new_page()
    page.clock.install()
    page.goto(f"{server}/g/{game['id']}/replay")
    page.wait_for_selector("[data-replay-play]:not([hidden])")
    held = []

    def hold_timed_steps(route):
        if route.request.headers.get("hx-trigger") == "replay":
            held.append(route)
        else:
            route.continue_()

    def asked(count):
        for _ in range(100):
            if len(held) >= count:
                return True
            page.wait_for_timeout(20)
        return False

    page.route("**/replay?ply=*", hold_timed_steps)
    page.clock.pause_at(page.evaluate("Date.now()") + 10)
    page.click("[data-replay-play]")
    page.clock.run_for(1)  # the first step at once
    assert asked(1)
    page.clock.run_for(700)  # its answer on its way for 0.7 s
    held[0].continue_()
    page.wait_for_selector('#replay[data-ply="1"]')
    page.clock.run_for(250)
    assert not asked(2)
    page.clock.run_for(100)  # a second after the first was asked
    assert asked(2)
    assert not page.js_errors
