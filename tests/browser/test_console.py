"""No console error while a game is played and its replay is stepped and played: a refused inline
style (the CSP has no 'unsafe-inline'), a failed request or a script error would be one.

htmx settles the attributes of an element the swap replaces onto the new one of the same id; with
"style" among them it would copy a style a script had set (a ghost's place, a toast's) with
setAttribute, which the CSP refuses (templates/base.html, htmx-config)."""

from __future__ import annotations

from tests.web.play import WIN_LINE, WIN_SEED

from .test_play import click_move


def styled_by_a_script(page, selector: str) -> None:
    """The element's inline style set as our scripts set theirs (CSSOM, which the CSP allows)."""
    page.eval_on_selector(selector, "el => { el.style.minHeight = '1px'; }")
    assert page.get_attribute(selector, "style") == "min-height: 1px;"


def test_playing_a_game_then_stepping_and_playing_its_replay_log_no_console_error(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/pyramid/{WIN_SEED}")
    for text in WIN_LINE[:6]:  # pairs, kings and draws: the moves' animations and toasts
        click_move(page, text)
    styled_by_a_script(page, "#board")
    page.click('[data-action="undo"]')
    page.wait_for_selector('#board[data-ply="5"]')
    for text in WIN_LINE[5:]:
        click_move(page, text)
    page.wait_for_selector('#board[data-status="won"]')
    assert page.js_errors == [], page.js_errors
    game_id = page.url.rsplit("/", 1)[1]

    page.goto(f"{server}/g/{game_id}/replay?ply=0")
    for ply in (1, 2, 3):  # stepping: the "Forward" link's swap of the whole replay
        styled_by_a_script(page, "#replay-board")
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'#replay[data-ply="{ply}"]')
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#replay[data-ply="2"]')
    page.select_option("[data-replay-speed]", "250")
    styled_by_a_script(page, "#replay")
    page.click("[data-replay-play]")  # playing: a step every quarter second
    for _ in range(100):  # a step every quarter second: past any one frame before a poll sees it
        if int(page.get_attribute("#replay", "data-ply")) >= 6:
            break
        page.wait_for_timeout(100)
    assert int(page.get_attribute("#replay", "data-ply")) >= 6
    page.click("[data-replay-play]")  # and pause
    page.locator("[data-replay-slider]").fill("10")
    page.wait_for_selector('#replay[data-ply="10"]')
    assert page.js_errors == [], page.js_errors
