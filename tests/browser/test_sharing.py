"""Sharing in a real browser: "Share result" on a phone (the share sheet, stubbed, then the
clipboard), on a desktop (the clipboard), a friend opening the shared result, and the daily
calendar on /stats at 390 px; "Share link" (the sheet on a phone, the clipboard on a desktop)."""

from __future__ import annotations

from tests.web.play import WIN_LINE, WIN_SEED

from .conftest import shot, watched
from .test_play import click_move, wait_ply

# navigator.share as a phone has it, recording what it was given (the test's stand-in for the sheet)
STUB_SHARE = """
Object.defineProperty(navigator, "share", {configurable: true, writable: true,
  value: function (data) { window.sharedData = data; return Promise.resolve(); }});
"""


def _context(browser, server, width: int, *, phone: bool, locale: str):
    context = browser.new_context(viewport={"width": width, "height": 844 if phone else 900}, locale=locale,
                                  has_touch=phone, is_mobile=phone)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    context.add_init_script(STUB_SHARE)
    return context, watched(context.new_page())


def _win(page, server) -> str:
    page.goto(f"{server}/play/pyramid/{WIN_SEED}")
    for text in WIN_LINE:
        click_move(page, text)
    page.wait_for_selector('#board[data-status="won"] [data-share-result]:not([hidden])')
    # the analysis brings the deal's par, and with it the share text's last form
    page.wait_for_selector('#analysis[data-analysis-kind="won"]')
    page.wait_for_selector('#share-result [data-share-result]:not([hidden])')
    return page.inner_text("[data-share-text]")


def test_share_result_on_a_phone_uses_the_share_sheet_then_the_clipboard(server, browser):
    context, page = _context(browser, server, 390, phone=True, locale="da-DK")
    try:
        text = _win(page, server)
        lines = text.split("\n")
        assert lines[0] == f"Tretten · Pyramide · Spilnummer {WIN_SEED}"
        assert lines[1].startswith(f"Vundet på {len(WIN_LINE)} træk, ")
        game_id = page.get_attribute("#board", "data-game-id")
        assert lines[-1] == f"{server}/deal/pyramid/{WIN_SEED}?from={game_id}"
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        assert page.is_visible("#share [data-share]")  # "Share link" opens the sheet: "Copy link" beside it
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("[data-share-result]").scroll_into_view_if_needed()
        assert page.locator("[data-share-text]").bounding_box()["width"] <= 390
        shot(page, "share-end-390")

        page.click("[data-share-result]")
        page.wait_for_function("window.sharedData !== undefined")
        assert page.evaluate("window.sharedData") == {"text": text}
        assert page.url.endswith(f"/games/{game_id}")  # the control shares; it does not follow its link
        page.evaluate("window.sharedData = undefined")
        page.focus("[data-share-result]")
        page.keyboard.press(" ")  # a link in the role of a button: Space presses it too
        page.wait_for_function("window.sharedData !== undefined")

        page.evaluate("navigator.share = undefined")  # a phone without the share sheet: the clipboard
        page.click("[data-share-result]")
        page.wait_for_selector('[data-share-status]:has-text("Kopieret")')
        assert page.evaluate("navigator.clipboard.readText()") == text
        shot(page, "share-end-390-copied")
        assert not page.js_errors
    finally:
        context.close()


def test_share_result_on_a_desktop_copies_and_a_friend_sees_the_challenge(server, browser):
    context, page = _context(browser, server, 1280, phone=False, locale="en-GB")
    friend_context, friend = _context(browser, server, 390, phone=True, locale="en-GB")
    try:
        text = _win(page, server)
        page.bring_to_front()  # the clipboard refuses a page without focus, and the friend's came after
        page.click("[data-share-result]")
        page.wait_for_function("() => document.querySelector('[data-share-status]').textContent !== ''")
        assert page.inner_text("[data-share-status]") == "Copied. Paste it into a message."
        assert page.evaluate("navigator.clipboard.readText()") == text
        assert page.evaluate("window.sharedData") is None  # a mouse: no share sheet
        # so "Share link" copies, and no "Copy link" beside it does the same
        assert page.is_visible("#share [data-share-url]") and page.is_hidden("#share [data-share]")
        page.locator("[data-share-box]").scroll_into_view_if_needed()
        shot(page, "share-end-1280")
        assert not page.js_errors

        friend.goto(text.split("\n")[-1])  # the link at the end of the shared text
        challenge = friend.locator("[data-challenge]")
        assert challenge.get_attribute("data-challenge") == "won"
        assert f"Won in {len(WIN_LINE)} moves" in challenge.inner_text()
        assert "Can you do better?" in challenge.inner_text()
        play = friend.locator('[data-action="play-deal"]')
        assert challenge.bounding_box()["y"] < play.bounding_box()["y"]
        assert play.bounding_box()["y"] + 44 < 844  # "Play this deal" on the first screen
        assert friend.get_attribute("[data-verdict]", "data-verdict") == "hidden"
        assert friend.evaluate("document.documentElement.scrollWidth") <= 390
        shot(friend, "challenge-390")
        friend.set_viewport_size({"width": 1280, "height": 900})
        shot(friend, "challenge-1280")
        play.click()
        friend.wait_for_selector('#board[data-status="playing"]')
        friend.click('[data-action="draw"]')
        wait_ply(friend, 1)
        assert not friend.js_errors
    finally:
        context.close()
        friend_context.close()


def test_the_daily_calendar_fits_a_phone(server, browser):
    context, page = _context(browser, server, 390, phone=True, locale="sv-SE")
    try:
        page.goto(f"{server}/daily/pyramid")
        page.click('[data-action="draw"]')
        wait_ply(page, 1)
        page.goto(f"{server}/stats#daily-calendar")
        today = page.locator('table.calendar td[aria-current="date"]')
        assert today.get_attribute("data-result") == "playing"
        assert page.locator("table.calendar thead th").count() == 7
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.locator("table.calendar").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert page.inner_text("#calendar-title").startswith("Dagens givar i ")
        page.locator("#daily-calendar").scroll_into_view_if_needed()
        shot(page, "calendar-390")
        page.set_viewport_size({"width": 1280, "height": 900})
        shot(page, "calendar-1280")
        assert not page.js_errors
    finally:
        context.close()


def test_share_link_copies_on_a_desktop_and_opens_the_share_sheet_on_a_phone(server, browser):
    """"Share link" is the deal's link: a click copies it and says so (it reloaded the page, the
    same address, with nothing said), a phone's tap gives it to the share sheet; the page stays."""
    for phone, locale, said in ((False, "sv-SE", "Länken är kopierad."), (True, "da-DK", None)):
        context, page = _context(browser, server, 390 if phone else 1280, phone=phone, locale=locale)
        try:
            page.goto(f"{server}/play/pyramid/{WIN_SEED}")
            page.bring_to_front()  # the clipboard refuses a page without focus
            page.evaluate("window.stayed = true")
            link = page.get_attribute("[data-share-url]", "href")
            assert link == f"{server}/play/pyramid/{WIN_SEED}"
            (page.tap if phone else page.click)("[data-share-url]")
            if phone:
                page.wait_for_function("window.sharedData !== undefined")
                assert page.evaluate("window.sharedData.url") == link
            else:
                page.wait_for_selector("[data-share-link-status]:not(:empty)")
                assert page.inner_text("[data-share-link-status]") == said
                assert page.evaluate("navigator.clipboard.readText()") == link
                # a note over the stats: it goes by itself, as a toast does
                page.wait_for_selector("[data-share-link-status]:empty", state="attached")
            assert page.evaluate("window.stayed") is True
            assert page.js_errors == [], page.js_errors
        finally:
            context.close()
