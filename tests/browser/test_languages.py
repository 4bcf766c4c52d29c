"""Danish and Swedish pages on a phone: the game, stats and rules pages at 390 px in the player's
language, with the longer Danish and Swedish words still fitting (screenshots in test-artifacts/)."""

from __future__ import annotations

import pytest

from .conftest import shot

LOCALES = {"da": "da-DK", "sv": "sv-SE"}
WORDS = {  # a word of each page that only that language's page has
    "da": {"game": "Vend kort", "stats": "Sejrsprocent", "rules": "Trækbunkens øverste kort"},
    "sv": {"game": "Vänd kort", "stats": "Vinstprocent", "rules": "Talongens översta kort"},
}


@pytest.mark.parametrize("language", ["da", "sv"])
def test_game_stats_and_rules_pages_fit_a_phone_in_danish_and_swedish(server, new_page, language):
    page = new_page(width=390, height=844, locale=LOCALES[language])
    for name, path in (("game", "/play/pyramid/5"), ("gaps", "/play/gaps-danish/5"), ("rules", "/rules/pyramid")):
        page.goto(server + path)
        assert page.get_attribute("html", "lang") == language
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, (name, language)
        if name in WORDS[language]:
            assert WORDS[language][name] in page.inner_text("main"), (name, language)
        shot(page, f"{language}-{name}-390")
    # the card-sized draw button holds its words; after the stock runs out it becomes the
    # turnover button, whose words must fit too
    fits = "b => b.scrollWidth <= b.offsetWidth && b.scrollHeight <= b.offsetHeight"  # within its border
    page.goto(server + "/play/pyramid-3/5")
    assert page.locator('[data-action="draw"]').evaluate(fits), language
    for ply in range(1, 25):
        page.click('[data-action="draw"]')
        page.wait_for_function("n => document.querySelector('#board').dataset.ply == n", arg=str(ply))
    assert page.locator('[data-action="recycle"]').evaluate(fits), language
    shot(page, f"{language}-turnover-390")
    page.goto(server + "/play/pyramid/5")
    page.click(".pile .card")  # the stock's face-up card: selected, its partners marked
    page.goto(server + "/stats")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert WORDS[language]["stats"] in page.inner_text("main")
    shot(page, f"{language}-stats-390")
    assert not page.js_errors, page.js_errors


def test_a_danish_win_and_a_swedish_redeal_by_taps_on_a_phone(server, new_page):
    from ..web.play import WIN_LINE, WIN_SEED
    from .test_play import click_move, wait_ply

    page = new_page(width=390, height=844, locale="da-DK")
    page.goto(f"{server}/play/pyramid/{WIN_SEED}")
    for move in WIN_LINE:
        click_move(page, move)
    page.wait_for_selector('#board[data-status="won"]')
    assert page.inner_text('[data-banner="won"] strong') == "Du vandt!"
    assert "Pyramiden er ryddet." in page.inner_text('[data-banner="won"]')
    shot(page, "da-won-390")
    page.wait_for_selector('#analysis[data-analysis-kind="won"]')  # loaded after the last move
    shot(page, "da-won-analysis-390")
    page.goto(f"{server}/g/{page.get_attribute('#board', 'data-game-id')}/replay?ply={len(WIN_LINE)}")
    assert page.inner_text('[data-banner="won"] strong') == "Vundet."
    shot(page, "da-replay-won-390")

    page = new_page(width=390, height=844, locale="sv-SE")
    page.goto(f"{server}/play/gaps/21")
    page.click('[data-action="redeal"]')
    page.wait_for_selector('[data-action="confirm-redeal"]')
    assert "Vill du lägga om ändå?" in page.inner_text("#board")
    shot(page, "sv-confirm-redeal-390")
    page.click('[data-action="confirm-redeal"]')
    wait_ply(page, 1)
    assert page.inner_text('[data-stat="round"]') == "2"
    assert page.inner_text('[data-action="redeal"]') == "Lägg om (1)"
    assert not page.js_errors


@pytest.mark.parametrize("language", ["da", "sv"])
def test_each_daily_deal_keeps_its_state_and_table_link_on_one_line_on_a_phone(server, new_page, language):
    """"ikke spillet endnu · Tavle" once broke after the dot, leaving "Tavle" alone on a line; and
    where it stands went under a long name only, leaving the list ragged: now under every name."""
    page = new_page(width=390, height=844, locale=LOCALES[language])
    page.goto(server + "/")
    entries = page.evaluate("""() => [...document.querySelectorAll('.daily-list li')].map(li => {
        const state = li.querySelector('.daily-state').getBoundingClientRect();
        const table = li.querySelector('[data-daily-table]').getBoundingClientRect();
        const name = li.querySelector('a').getBoundingClientRect();
        return {slug: li.dataset.daily, lines: Math.round(state.height / table.height),
                right: Math.round(window.innerWidth - state.right), under: state.top >= name.bottom - 1};
    })""")
    assert len(entries) == 8
    assert all(e["lines"] == 1 for e in entries), entries
    assert len({e["right"] for e in entries}) == 1, entries  # all end at the list's right edge
    assert all(e["under"] for e in entries), entries
    shot(page, f"{language}-daily-390")
