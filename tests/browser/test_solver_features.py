"""Post-game analysis and auto-finish in a real browser: a hint by the `h` key, the
"still winnable?" indicator loading after a move, auto-finish as one undo step, the analysis
of a lost deal with "try again from here", and the odds page; screenshots at 1280 and 390 px."""

from __future__ import annotations

from tests.web.play import LOSE_SEED, WIN_LINE, WIN_SEED

from .conftest import shot
from .test_play import click_move, wait_ply


def test_hint_indicator_auto_finish_and_a_final_win(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/pyramid/{WIN_SEED}")
    page.click("details.settings summary")
    page.check('input[name="winnable_indicator"]')
    with page.expect_navigation():
        page.click('details.settings button[type="submit"]')
    page.keyboard.press("h")  # a hint before the first move stores the game; the address follows
    page.wait_for_selector("#board [data-hint]")
    page.wait_for_selector('#solver-status[data-solver-status="yes"]')  # loaded after the board
    assert "/games/" in page.url
    # the highlight is added on htmx:afterSettle, a moment after the note is swapped in
    page.wait_for_selector("#board .hinted")
    assert "Hint:" in page.inner_text("#announce")
    keep = len(WIN_LINE) - 6
    for text in WIN_LINE[:keep]:
        click_move(page, text)
    wait_ply(page, keep)
    page.wait_for_selector('#solver-status[data-auto-finish="yes"]')
    assert page.inner_text('#solver-status [data-winnable]').startswith("✓")
    shot(page, "solver-game-1280")
    page.click('[data-action="auto-finish"]')
    page.wait_for_selector('#board[data-status="won"]')
    page.wait_for_selector('#analysis[data-analysis-kind="won"]')
    assert page.locator('#board [data-action="undo"]').is_disabled()  # a win is final
    assert page.js_errors == []


def _lose_by(moves_so_far, seed):
    """Moves that end a one-pass Pyramid game of the seed: the given ones, then draws first."""
    from app.engine import PRESETS, GameRecord, deal_for_seed

    record = GameRecord.new("pyramid", PRESETS["pyramid"].rules, deal_for_seed("pyramid", seed))
    played = []
    for text in moves_so_far:
        record = record.play(text)
        played.append(text)
    while record.position.status == "playing":
        legal = sorted(str(m) for m in record.position.legal_moves())
        text = "D" if "D" in legal else legal[0]
        record = record.play(text)
        played.append(text)
    assert record.position.status == "lost"
    return played


def test_analysis_of_a_lost_game_and_try_again_from_here(server, new_page):
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/pyramid/{LOSE_SEED}")
    for text in _lose_by([], LOSE_SEED):
        click_move(page, text)
    page.wait_for_selector('#board[data-status="lost"]')
    # no moves left: undo, or give up to see the analysis
    assert page.locator("#analysis").count() == 0
    page.click('[data-action="give-up"]')
    page.wait_for_selector('#board[data-phase="conceded"]')
    page.wait_for_selector('#analysis[data-analysis-kind="lost_from_start"]')
    assert "could not be won from the start" in page.inner_text("#analysis")
    shot(page, "solver-lost-390")

    page.goto(f"{server}/play/pyramid/{WIN_SEED}")
    for text in _lose_by(list(WIN_LINE[:3]), WIN_SEED):  # leaves the winning line after 3 moves
        click_move(page, text)
    page.wait_for_selector('#board[data-status="lost"]')
    page.click('[data-action="give-up"]')
    # the analysis searches a few positions with budgets: give a loaded machine time
    page.wait_for_selector('#analysis:not([data-analysis-kind="pending"])', timeout=60_000)
    assert page.get_attribute("#analysis", "data-analysis-kind") == "lost_at"
    fatal = int(page.get_attribute("#analysis", "data-analysis-ply"))
    assert fatal >= 4
    assert page.locator("#analysis li.fatal").count() == 1
    shot(page, "solver-analysis-390")
    page.click('[data-action="retry"]')
    page.wait_for_selector(f'#board[data-ply="{fatal - 1}"][data-status="playing"]')
    assert page.js_errors == []


def test_odds_page_screenshots(server, new_page):
    for width in (1280, 390):
        page = new_page(width=width, height=900)
        page.goto(f"{server}/odds")
        assert page.locator("table.odds tr[data-preset]").count() >= 8
        shot(page, f"odds-{width}")


def test_on_a_phone_a_hints_words_come_into_view_with_its_cards(server, new_page):
    """The hint's words are under the table, below a phone's window: the page brings them in,
    and the cards the hint marks stay in view."""
    page = new_page(390, 844)
    page.goto(f"{server}/play/relaxed/12345")
    page.click('#board [data-action="hint"]')
    page.wait_for_selector("#board .hinted")
    page.wait_for_function("() => document.querySelector('#board [data-hint]').getBoundingClientRect().bottom"
                           " <= window.innerHeight + 1")
    hinted = page.evaluate("""() => [...document.querySelectorAll('#board .hinted')].map(el => {
        const r = el.getBoundingClientRect(); return [r.top, r.bottom]; })""")
    assert hinted and all(top >= 0 and bottom <= 844 for top, bottom in hinted), hinted
    shot(page, "hint-390")
    assert page.js_errors == []
