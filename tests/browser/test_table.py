"""The table (issue 27): cards sized to the window, Gaps and Giza comfortable on a phone, a win
laid over the table with a cascade, a refusal answered beside the finger, the daily deal naming
itself, a phone's statistics page a few screens long, and court cards that show their figures."""

from __future__ import annotations

import io
from urllib.parse import quote, urlsplit

import httpx
import pytest
from PIL import Image

from app.engine import PRESETS

from ..web.play import WIN_SEED, api_player, first_move
from .conftest import shot
from .test_motion import GAPS_NEAR_WON, near_won_pyramid, slow_animations
from .test_play import wait_ply

SIZES = [(1280, 800), (390, 844)]
CONTROLS = ", ".join(f'#board [data-action="{name}"]' for name in ("undo", "redo", "hint", "redeal"))

# the boxes of what the selector finds, in the window's coordinates
RECTS = """(sel) => [...document.querySelectorAll(sel)].map(el => { const r = el.getBoundingClientRect();
  return {x: r.x, y: r.y, w: r.width, h: r.height, bottom: r.bottom, right: r.right,
          what: el.dataset.pos || el.dataset.loc || el.dataset.action || el.className}; })"""


def settled(page) -> None:
    page.wait_for_function("() => document.getAnimations().length === 0")


@pytest.mark.parametrize("preset", ["pyramid", "double-pyramid", "giza", "gaps"])
@pytest.mark.parametrize("size", SIZES)
def test_the_board_fills_the_window_without_scrolling(server, new_page, preset, size):
    page = new_page(*size)
    page.goto(f"{server}/play/{preset}/5")
    settled(page)
    cards = page.evaluate(RECTS, "#board [data-loc], #board [data-pos], " + CONTROLS)
    assert cards and all(c["y"] >= 0 and c["bottom"] <= size[1] and c["x"] >= 0 and c["right"] <= size[0]
                         for c in cards), preset
    top = min(c["y"] for c in cards)
    bottom = max(c["bottom"] for c in cards)
    # the table uses the height it has: from the top of the cards to the foot of the window,
    # no large empty band below
    assert size[1] - bottom < 0.2 * size[1], (preset, size, top, bottom)
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    if preset == "pyramid" and size[0] == 1280:
        width = page.eval_on_selector("#board .prow .card", "e => e.getBoundingClientRect().width")
        assert width >= 90  # was about 60 in half an empty window


@pytest.mark.parametrize("preset", ["gaps", "gaps-danish"])
def test_on_a_phone_each_gaps_row_is_one_column_of_44_px_targets_with_the_buttons_on_screen(server, new_page, preset):
    # Swedish: the longest words on the buttons ("Ledtråd" fell below the fold)
    page = new_page(390, 844, locale="sv-SE")
    page.goto(f"{server}/play/{preset}/3")
    settled(page)
    cells = page.evaluate(RECTS, "#board [data-pos]")
    assert len(cells) == 52
    assert all(c["w"] >= 44 and c["h"] >= 44 and c["y"] >= 0 and c["bottom"] <= 844 and c["x"] >= 0 and c["right"] <= 390
               for c in cells), cells
    buttons = page.evaluate(RECTS, CONTROLS + ", #board .game-menu .button")
    assert len(buttons) == 6 and all(b["y"] >= 0 and b["bottom"] <= 844 and b["right"] <= 390 and b["h"] >= 44
                                     for b in buttons), buttons
    assert page.evaluate("scrollY") == 0
    # each row is one column, read downwards: its cells (and its starter) share one x, each
    # just under the one before, so a gap's left neighbour is the card right above it
    rows = page.evaluate("""() => [...document.querySelectorAll('#board .grow')].map(row =>
        [...row.querySelectorAll('[data-pos], .starter')].map(el => {
          const r = el.getBoundingClientRect(); return [r.x, r.y, r.height]; }))""")
    assert len(rows) == 4 and all(len(row) == (14 if preset == "gaps-danish" else 13) for row in rows)
    for row in rows:
        assert len({round(x) for x, _, _ in row}) == 1, row
        assert all(0 < y2 - (y1 + h1) <= 4 for (_, y1, h1), (_, y2, _) in zip(row, row[1:])), row
    lefts = [row[0][0] for row in rows]
    assert lefts == sorted(lefts) and min(b - a for a, b in zip(lefts, lefts[1:])) >= 44  # row 1 leftmost
    arrow = page.evaluate("() => getComputedStyle(document.querySelector('#board .grow'), '::before').content")
    assert "↓" in arrow
    if preset == "gaps":
        # the hint's words beside the board, in the window: nothing scrolls to show them
        page.click('#board [data-action="hint"]')
        page.wait_for_selector("#board .hint-note")
        settled(page)
        note = page.evaluate(RECTS, "#board .hint-note")[0]
        assert note["x"] >= 290 and note["bottom"] <= 844 and page.evaluate("scrollY") == 0, note
    shot(page, f"table-{preset}-390")


def test_on_a_phone_giza_cards_are_44_px_targets(server, new_page):
    page = new_page(390, 844)
    page.goto(f"{server}/play/giza/3")
    settled(page)
    cards = page.evaluate(RECTS, "#board button[data-loc]")
    assert cards and all(c["w"] >= 44 and c["h"] >= 44 and c["bottom"] <= 844 for c in cards), cards
    reserves = page.evaluate(RECTS, "#board .reserve")
    assert len(reserves) == 8 and len({round(r["y"]) for r in reserves}) == 1  # one row
    assert all(c["bottom"] <= 844 for c in page.evaluate(RECTS, CONTROLS))


def won_gaps(page, server) -> None:
    page.goto(f"{server}/play/gaps?deal={quote(GAPS_NEAR_WON)}")
    page.click('#board [data-card="QC"]')
    wait_ply(page, 1)


@pytest.mark.motion
@pytest.mark.parametrize("size", SIZES)
def test_a_win_lays_its_panel_over_the_finished_table_with_a_cascade(server, new_page, size):
    page = new_page(*size)
    won_gaps(page, server)
    # the grid's top in the page (not the window): Playwright's click may scroll the card into
    # view, and a won board, without its buttons, is shorter, so a scrolled window is drawn back
    grid_top = "() => document.querySelector('#board .gaps-grid').getBoundingClientRect().y + scrollY"
    grid = page.evaluate(grid_top)
    slow_animations(page)
    page.click('#board [data-card="KC"]')
    page.wait_for_selector('#board[data-status="won"]')
    # the cards cascade, copies thrown from the finished rows, under the panel
    assert page.evaluate("() => document.getAnimations().filter(a => a.id === 'motion-cascade').length") == 48
    # the panel where it rests once it has popped in (its pop overshoots a little)
    page.evaluate("""() => document.getAnimations().filter(a => a.animationName === 'motion-pop')
        .forEach(a => a.finish())""")
    panel = page.evaluate(RECTS, '[data-banner="won"]')[0]
    assert panel["y"] >= 0 and panel["bottom"] <= size[1] and panel["right"] <= size[0]
    # over the cards: the board did not move, and the panel covers part of it
    assert abs(page.evaluate(grid_top) - grid) < 1
    after = page.evaluate(RECTS, "#board .gaps-grid")[0]
    assert panel["y"] < after["bottom"] and panel["bottom"] > after["y"]
    assert page.evaluate("""() => { const p = document.querySelector('[data-banner="won"]').getBoundingClientRect();
        const hit = document.elementFromPoint(p.x + p.width / 2, p.y + 12);
        return !!hit.closest('[data-banner="won"]'); }""")
    # the finished rows still show around it, and its buttons are on screen
    assert page.locator("#board .gaps-grid [data-card]").count() == 48
    buttons = page.evaluate(RECTS, '[data-banner="won"] .banner-actions .button')
    assert buttons and all(b["bottom"] <= size[1] and b["y"] >= 0 for b in buttons)
    if size[0] == 390:
        assert all(b["y"] > size[1] / 2 for b in buttons)  # in reach of a thumb
    shot(page, f"table-win-gaps-{size[0]}")
    # a tap ends the cascade
    page.mouse.click(5, size[1] - 5)
    assert page.evaluate("() => document.querySelectorAll('.motion-cascade').length") == 0
    assert not page.js_errors


@pytest.mark.motion
def test_a_won_pyramid_throws_its_removed_pile(server, new_page):
    page = new_page(390, 844)
    last = near_won_pyramid(server, page)
    slow_animations(page)
    first, second = last[0].split("+")
    page.click(f'#board [data-loc="{first}"]')
    page.wait_for_selector(f'#board[data-selected="{first}"]')
    page.click(f'#board [data-loc="{second}"]')
    page.wait_for_selector('#board[data-status="won"]')
    assert page.evaluate("() => document.getAnimations().filter(a => a.id === 'motion-cascade').length") == 28
    assert page.is_visible("#board .tableau")  # the (empty) table keeps its place under the panel
    shot(page, "table-win-pyramid-390")
    assert not page.js_errors


def test_no_cascade_under_reduced_motion(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    won_gaps(page, server)
    page.click('#board [data-card="KC"]')
    page.wait_for_selector('#board[data-status="won"]')
    assert page.evaluate("() => document.querySelectorAll('.motion-cascade').length") == 0
    assert page.is_visible('[data-banner="won"]')
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_refusal_is_answered_beside_the_tapped_card(server, new_page, size):
    page = new_page(*size)
    page.goto(f"{server}/play/pyramid/4242")
    settled(page)
    board = page.evaluate(RECTS, "#board .tableau")[0]
    page.click('#board [data-loc="P0"]')  # the apex: covered at the start
    page.wait_for_selector("#board .toast.at-finger, #board .toast.near", state="visible")  # the page's own answer, or the server's
    card = page.evaluate(RECTS, '#board [data-loc="P0"]')[0]
    toast = page.evaluate(RECTS, "#board .toast")[0]
    gap_x = max(0, card["x"] - toast["right"], toast["x"] - card["right"])
    gap_y = max(0, card["y"] - toast["bottom"], toast["y"] - card["bottom"])
    dx = card["x"] + card["w"] / 2 - toast["x"] - toast["w"] / 2
    dy = card["y"] + card["h"] / 2 - toast["y"] - toast["h"] / 2
    centres = (dx * dx + dy * dy) ** .5
    assert gap_x <= 20 and gap_y <= 20 and centres <= 120, (card, toast)
    assert toast["y"] > 60  # not at the top of the window
    assert page.evaluate(RECTS, "#board .tableau")[0]["y"] == board["y"]  # nothing moved
    assert not page.js_errors


@pytest.mark.parametrize("language,title", [("en", "Daily deal"), ("da", "Dagens kabale")])
def test_the_daily_deal_names_itself_with_its_day(server, new_page, language, title):
    page = new_page(390, 844, locale={"en": "en-GB", "da": "da-DK"}[language])
    page.goto(f"{server}/daily/pyramid")
    page.wait_for_selector("#board")
    assert page.title().startswith(title)
    head = page.inner_text("[data-daily-title]")
    assert head.startswith(title) and "2" in head  # the day, in the page's language
    assert page.is_visible('[data-daily-title] [data-stat="daily-streak"]')


def test_a_phones_stats_page_stays_within_three_screens(server, new_page):
    api = httpx.Client(base_url=server)
    auth = api_player(api)
    presets = list(PRESETS)[:7]
    for seed in (11, 12):
        for preset in presets:
            first_move(api, auth, preset, seed)
    link = urlsplit(api.post("/api/players/me/device-link", headers=auth).json()["url"]).path
    page = new_page(390, 844)
    page.goto(server + link)
    page.click('main form button[type="submit"]')
    page.wait_for_load_state()
    page.goto(f"{server}/stats")
    assert page.inner_text('[data-figures="total"] [data-stat="played"]') == "14"
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 3 * 844, height
    # the three charts one under the other, each whole on the screen's width (side by side, the
    # second was cut off)
    charts = page.evaluate(RECTS, ".chart")
    assert len(charts) == 3 and all(c["x"] >= 0 and c["right"] <= 390 for c in charts), charts
    assert all(a["bottom"] <= b["y"] for a, b in zip(charts, charts[1:])), charts
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # each game's line of figures is one line
    folds = page.evaluate(RECTS, ".figures.fold summary")
    assert len(folds) == 7 and all(f["h"] < 34 for f in folds), folds
    shot(page, "table-stats-390")


def test_the_stock_is_one_pile_with_its_count_on_it_and_the_waste_beside_it(server, new_page):
    page = new_page(1280, 800)
    page.goto(f"{server}/play/pyramid/5")
    settled(page)
    pile = page.locator("#board .piles > .pile")
    assert pile.count() == 2  # the stock, the waste
    stock = page.locator("#board .pile-stock")
    assert stock.locator('.pile-cards [data-loc="S"]').count() == 1  # its face-up top card lies on it
    assert stock.locator('.pile-cards [data-count="stock"]').inner_text() == "24"
    count = page.evaluate(RECTS, '#board .pile-stock [data-count="stock"]')[0]
    top = page.evaluate(RECTS, '#board [data-loc="S"]')[0]
    assert top["x"] < count["x"] + count["w"] / 2 < top["right"] + 12 and top["y"] - 12 < count["y"] < top["bottom"]
    draw = page.evaluate(RECTS, '#board .pile-stock [data-action="draw"]')[0]
    assert draw["h"] >= 44 and draw["y"] >= top["bottom"] - 1  # the pile's foot draws
    waste = page.evaluate(RECTS, "#board .pile-waste")[0]
    assert waste["x"] > top["right"] and abs(waste["y"] - top["y"]) < 20  # beside it
    # one pass through the stock: no pass or turnover to count
    assert page.locator('[data-stat="passes-left"]').count() == 0
    page.goto(f"{server}/play/pyramid-3/5")
    assert page.inner_text('[data-stat="passes-left"]') == "2"
    page.click('#board [data-action="draw"]')
    wait_ply(page, 1)
    assert page.inner_text('#board [data-count="stock"]') == "23"


def test_escape_cancels_the_new_deal_question(server, new_page):
    page = new_page(1280, 800)
    page.goto(f"{server}/play/pyramid/777")
    page.click('#board [data-action="draw"]')
    wait_ply(page, 1)
    page.click('#board [data-action="new"]')
    page.wait_for_selector('#board [data-confirm="new"]', state="visible")
    page.keyboard.press("Escape")
    page.wait_for_selector('#board [data-confirm="new"]', state="detached")
    assert page.get_attribute("#board", "data-ply") == "1"


def test_without_javascript_no_copy_button_and_no_keys_help(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{server}/play/pyramid/5")
    assert page.locator("[data-share]").count() == 1 and not page.is_visible("[data-share]")
    assert not page.is_visible(".keys-help")
    context.close()


def test_after_d_the_focus_stays_on_the_table(server, new_page):
    page = new_page(1280, 800)
    page.goto(f"{server}/play/pyramid/5")
    page.keyboard.press("d")
    wait_ply(page, 1)
    page.wait_for_function("() => document.activeElement && document.activeElement.closest('#board')")


@pytest.mark.motion
def test_a_new_deal_is_dealt_from_the_stock_quickly(server, new_page):
    page = new_page(1280, 800)
    page.goto(f"{server}/play/pyramid/0")
    page.click('#board [data-action="draw"]')
    wait_ply(page, 1)
    slow_animations(page)
    page.click('#board [data-action="new"]')
    page.click('#board [data-action="confirm-new"]')
    page.wait_for_selector('#board[data-ply="0"]')
    pile = page.evaluate(RECTS, "#board .pile-stock .pile-cards")[0]
    # where each card flies from: its place (the animation held at its end) moved by the first frame
    flights = page.evaluate("""() => document.getAnimations().filter(a => a.id === 'motion-came').map(a => {
        const t = a.effect.getTiming(); a.pause(); a.currentTime = t.delay + t.duration - 0.001;
        const r = a.effect.target.getBoundingClientRect();
        const m = /translate\\(([-\\d.]+)px, ([-\\d.]+)px\\)/.exec(a.effect.getKeyframes()[0].transform);
        return {x: r.x + r.width / 2 + parseFloat(m[1]), y: r.y + r.height / 2 + parseFloat(m[2]),
                end: t.delay + t.duration}; })""")
    assert len(flights) == page.locator("#board [data-card]").count()
    # each from the stock pile, all of them in place within 600 ms
    x, y = pile["x"] + pile["w"] / 2, pile["y"] + pile["h"] / 2
    assert all(abs(f["x"] - x) < 2 and abs(f["y"] - y) < 2 for f in flights)
    assert max(f["end"] for f in flights) < 600
    page.mouse.click(5, 795)  # a tap: dealt at once
    assert page.evaluate("() => document.getAnimations().filter(a => a.id === 'motion-came').length") == 0


def test_a_phone_shows_the_replacing_notice_before_the_first_tap(server, new_page):
    page = new_page(390, 844)
    page.goto(f"{server}/play/double-pyramid/41")
    page.click('#board [data-action="draw"]')
    wait_ply(page, 1)
    page.goto(f"{server}/play/double-pyramid/42")
    note = page.evaluate(RECTS, "#board [data-replacing]")[0]
    assert note["y"] >= 0 and note["bottom"] <= 844
    top = min(c["y"] for c in page.evaluate(RECTS, "#board [data-loc]"))
    assert note["bottom"] <= top  # above the board


def test_someone_elses_game_is_a_still_picture_once_it_is_finished(server, new_page):
    page = new_page(390, 844)
    page.goto(f"{server}/play/pyramid/5")
    page.click('#board [data-action="draw"]')
    wait_ply(page, 1)
    game_id = page.get_attribute("#board", "data-game-id")
    other = new_page(390, 844)
    refused = other.goto(f"{server}/games/{game_id}")  # in play: the player's alone, no board
    assert refused.status == 403 and other.locator("#board").count() == 0
    csrf = page.get_attribute('input[name="csrf_token"]', "value")
    counted = page.request.post(f"{server}/games/{game_id}/act", form={"csrf_token": csrf, "action": "confirm-restart"},
                                max_redirects=0)
    assert counted.status == 303  # the game counts as lost: finished
    other.goto(f"{server}/games/{game_id}")
    assert other.is_visible("#board .spectator-note")
    assert other.locator("#board button").count() == 0  # no card, gap or button to tap
    assert other.locator("#board [data-card]").count() > 20
    assert other.evaluate("() => getComputedStyle(document.querySelector('#board [data-card]')).cursor") == "default"


# Every J, Q and K of the pyramid: its figure (an image of static/cards/KH.svg and so on) and its box,
# and for a covered one the gap between the two cards lying on it, below its visible strip
COURTS = """() => [...document.querySelectorAll('#board .prow .card[data-card]')]
  .filter(card => 'JQK'.includes(card.dataset.card[0])).map(card => {
    const box = el => { const r = el.getBoundingClientRect();
      return {x: r.x, y: r.y, width: r.width, height: r.height}; };
    const fig = card.querySelector('.art.court img.fig');
    const row = card.parentElement.nextElementSibling;
    const c = card.getBoundingClientRect();
    let gap = null;
    if (card.classList.contains('covered') && row) {
      const below = [...row.children].map(el => el.getBoundingClientRect())
        .filter(r => r.right > c.left && r.left < c.right).sort((a, b) => a.left - b.left);
      gap = {x: below[0].right + 1, y: below[0].top + 2,
             width: below[1].left - below[0].right - 2, height: c.bottom - below[0].top - 4,
             strip: {x: c.left + c.width * .3, y: c.top + 2, width: c.width * .4, height: below[0].top - c.top - 4}};
    }
    return {code: card.dataset.card, covered: card.classList.contains('covered'),
            src: fig && fig.getAttribute('src'), loaded: fig && fig.complete && fig.naturalWidth > 0,
            fig: fig && box(fig), card: box(card), gap};
  })"""


def pixels(page, box: dict) -> list[tuple[int, ...]]:
    """The colours the window shows in a box of it."""
    png = page.screenshot(clip={key: box[key] for key in ("x", "y", "width", "height")})
    data = Image.open(io.BytesIO(png)).convert("RGB").tobytes()
    return [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


def colourful(rgb: tuple[int, ...]) -> bool:
    return max(rgb) - min(rgb) > 60  # the figure's gold, red and blue; not the paper, an edge or a shadow


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_court_cards_show_their_figure_and_a_covered_one_a_clean_strip(server, browser, size, scheme):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{server}/play/pyramid/197")  # JH QC JD KD JC covered, QH KC JS QD in the last row
    settled(page)
    page.wait_for_load_state("networkidle")  # the figures' file
    courts = page.evaluate(COURTS)
    assert [c["code"] for c in courts] == ["JH", "QC", "JD", "KD", "JC", "QH", "KC", "JS", "QD"]
    for court in courts:
        assert court["src"].startswith(f"/static/cards/{court['code']}.svg?v=") and court["loaded"], court
        figure = httpx.get(server + court["src"])
        assert figure.status_code == 200 and figure.headers["content-type"].startswith("image/svg+xml")
        assert "immutable" in figure.headers["cache-control"]  # fetched once, for every board after
        if not court["covered"]:
            # the figure is drawn: a good part of its box in the figure's colours
            shown = pixels(page, court["fig"])
            assert sum(map(colourful, shown)) > 0.15 * len(shown), (court["code"], size, scheme)
            # between the corners, on the card
            fig, card = court["fig"], court["card"]
            assert card["x"] < fig["x"] and fig["x"] + fig["width"] < card["x"] + card["width"]
    covered = [court for court in courts if court["covered"]]
    assert [c["code"] for c in covered] == ["JH", "QC", "JD", "KD", "JC"]
    for court in covered:
        # the top of the figure shows in the card's strip, as on a real table …
        assert any(map(colourful, pixels(page, court["gap"]["strip"]))), court["code"]
        # … and nothing of it between the two cards lying on it: their gap shows plain paper
        assert court["gap"]["width"] >= 1
        assert not any(map(colourful, pixels(page, court["gap"]))), (court["code"], size, scheme)
    assert not errors
    shot(page, f"table-courts-{size[0]}-{scheme}")
    context.close()


def test_a_phones_gaps_board_fetches_no_court_figure_it_does_not_show(server, new_page):
    # Gaps on a phone shows each card's rank and suit only (cards.css hides the middle): its
    # figures are lazy images, so none is fetched; a desktop's shows all twelve, from their one
    # sheet (static/cards/courts.svg, a view each): one fetch
    for size, expected in (((390, 844), 0), ((1280, 800), 1)):
        page = new_page(*size)
        page.goto(f"{server}/play/gaps/3")
        settled(page)
        page.wait_for_load_state("networkidle")
        fetched = page.evaluate("""() => performance.getEntriesByType('resource')
            .filter(e => e.name.includes('/static/cards/')).length""")
        assert fetched == expected, (size, fetched)


@pytest.mark.parametrize("size", SIZES)
def test_a_lost_game_shows_its_final_position_first_and_its_analysis_under_it(server, new_page, size):
    """A game lost: the end panel says so above the table, the final position is on the first
    screen, and the analysis (with its move list) comes under the table, where its arrival moves
    nothing (on a phone it once pushed the position 1,500 px down)."""
    from .test_words import _api_game, _browse_as, _pyramid_lost_at

    game, info = _api_game(server, "pyramid", WIN_SEED, _pyramid_lost_at(), give_up=True)
    assert game["status"] == "lost"
    page = new_page(*size)
    _browse_as(page, server, info["link"])
    page.goto(f"{server}/games/{game['id']}")
    top = page.evaluate(RECTS, "#board .pyramid")[0]
    assert 0 <= top["y"] < size[1] / 2, top
    page.wait_for_selector('#analysis[data-analysis-kind="lost_at"]')
    assert page.evaluate(RECTS, "#board .pyramid")[0]["y"] == top["y"]
    order = page.evaluate("""() => ['[data-banner="lost"]', '#board .table', '#analysis', '#share-result']
        .map(sel => document.querySelector(sel).getBoundingClientRect().top)""")
    assert order == sorted(order), order
    shot(page, f"table-lost-{size[0]}")
