"""axe-core (installed by `npm ci`, package.json pins it) checks the main pages in Chromium:
no serious or critical violation on the lobby, a game of each family (Pyramid with its stock,
Gaps with its grid), a finished game, the statistics, the odds and the rules, in English,
Danish and Swedish, in the light and the dark theme, at desktop width (and, in Danish and the
dark theme, the pages whose layout changes most at phone width).

The pages' Content-Security-Policy allows no inline script, so these contexts bypass it to
inject axe; nothing else on the pages changes."""

from __future__ import annotations

import pytest

from tests.web.play import WIN_LINE, WIN_SEED

from .conftest import ROOT
from .test_words import _api_game, _browse_as

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PAGES = {
    "lobby": "/",
    "pyramid": "/play/pyramid/250",
    "giza": "/play/giza/7",
    "gaps": "/play/gaps/4",
    "gaps-danish": "/play/gaps-danish/3",
    "stats": "/stats",
    "odds": "/odds",
    "rules-pyramid": "/rules/pyramid",
    "rules-gaps": "/rules/gaps",
}
PHONE = {"lobby", "pyramid", "gaps", "stats", "end"}  # at 390 px: the pages whose layout changes most
# the third language again over the pages with the most of its own words (names, labels, the
# analysis): what the other two passes check of the same templates is the layout and the colours
THIRD = {"lobby", "pyramid", "stats", "end", "rules-pyramid"}
RUN = """async () => {
    const result = await axe.run(document, {resultTypes: ['violations']});
    return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' — ' + n.failureSummary.replace(/\\s+/g, ' ')),
    }));
}"""


def _check(page, where: str) -> None:
    page.add_script_tag(path=str(AXE))
    assert page.evaluate("typeof axe.run") == "function"
    violations = page.evaluate(RUN)
    assert violations == [], f"{where}: " + "\n".join(f"{v['impact']} {v['id']} ({v['help']}): {v['nodes']}" for v in violations)


@pytest.fixture(scope="module")
def finished(server):
    """A won game and a link that makes a browser its player (with history for the stats)."""
    game, info = _api_game(server, "pyramid", WIN_SEED, WIN_LINE)
    assert game["status"] == "won"
    return game, info["link"]


# each language once and each scheme in more than one: the scan of every page is the suite's
# slowest browser test, and contrast does not change with the language; at phone width once, in
# the dark scheme and in Danish's longer words (what a narrow screen changes is the layout)
@pytest.mark.parametrize("language, scheme", [("en", "light"), ("da", "dark"), ("sv", "light")])
def test_axe_finds_no_serious_violation(server, browser, finished, language, scheme):
    assert AXE.is_file(), "axe-core is missing: run npm ci"
    game, link = finished
    widths = ((1280, 800), (390, 844)) if (language, scheme) == ("da", "dark") else ((1280, 800),)
    for width, height in widths:
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                      locale={"en": "en-GB", "da": "da-DK", "sv": "sv-SE"}[language], bypass_csp=True)
        try:
            page = context.new_page()
            _browse_as(page, server, link)
            pages = {**PAGES, "end": f"/games/{game['id']}", "replay": f"/g/{game['id']}/replay?ply=3"}
            for name, path in pages.items():
                if (width < 1280 and name not in PHONE) or (language == "sv" and name not in THIRD):
                    continue
                page.goto(server + path)
                assert page.get_attribute("html", "lang") == language
                if name == "end":  # checked with its analysis in, as the player reads it; its search
                    # done (still running, it holds the player's one search: the hint below was refused)
                    page.wait_for_selector('#analysis:not([data-analysis-kind="pending"])', timeout=60_000)
                _check(page, f"{name} ({language}, {scheme}, {width} px)")
            # a hint shown (its note was 2.7:1 once)
            page.goto(server + PAGES["pyramid"])
            page.keyboard.press("h")
            page.wait_for_selector("#board [data-hint]")
            _check(page, f"pyramid with a hint ({language}, {scheme}, {width} px)")
            # the settings open, and the theme chosen there rather than by the device
            page.goto(server + "/")
            page.click("details.settings summary")
            _check(page, f"settings ({language}, {scheme}, {width} px)")
            if width == 1280:
                page.check(f'input[name="theme"][value="{scheme}"]')
                with page.expect_navigation():
                    page.click('details.settings button[type="submit"]')
                assert page.get_attribute("html", "data-theme") == scheme
                page.goto(server + PAGES["pyramid"])
                _check(page, f"pyramid with data-theme={scheme} ({language})")
                page.goto(server + "/")  # back to following the device for the next pages
                page.click("details.settings summary")
                page.check('input[name="theme"][value="auto"]')
                with page.expect_navigation():
                    page.click('details.settings button[type="submit"]')
        finally:
            context.close()


def test_axe_itself_reports_a_known_violation(server, browser):
    """The check above can fail: on a page given a button without a name, axe says so."""
    context = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(server + "/odds")
        page.evaluate("() => document.querySelector('main').append(document.createElement('button'))")
        with pytest.raises(AssertionError, match="button-name"):
            _check(page, "odds with a nameless button")
    finally:
        context.close()


def test_the_dark_theme_follows_the_device_unless_one_is_chosen(server, browser):
    """auto follows prefers-color-scheme; a theme chosen in the settings wins over the device."""
    felt = "getComputedStyle(document.documentElement).backgroundColor"
    light, dark = "rgb(14, 90, 58)", "rgb(19, 37, 28)"
    for device, chosen, expected in (("light", "auto", light), ("dark", "auto", dark),
                                     ("dark", "light", light), ("light", "dark", dark)):
        context = browser.new_context(color_scheme=device)
        try:
            page = context.new_page()
            page.goto(server + "/")
            if chosen != "auto":
                page.click("details.settings summary")
                page.check(f'input[name="theme"][value="{chosen}"]')
                with page.expect_navigation():
                    page.click('details.settings button[type="submit"]')
            assert page.get_attribute("html", "data-theme") == chosen
            assert page.evaluate(felt) == expected, (device, chosen)
            # the cards stay light in every theme: dark ink on ivory
            page.goto(server + PAGES["pyramid"])
            paper = page.evaluate("getComputedStyle(document.querySelector('#board .card')).backgroundColor")
            assert sum(int(v) for v in paper[4:-1].split(",")[:3]) > 3 * 200, paper
        finally:
            context.close()
