"""The card faces as Chromium draws them: both corners, the pips, the court and ace middles, the
four-colour deck, and the cards' shape on a phone. The court figures' pixels are
tests/browser/test_table.py's."""

from __future__ import annotations

from app.engine import deal_for_seed

from .conftest import shot

RANKS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}

# Every card on the board, as drawn: its corners (rank text, suit shape, box, colour) and the
# boxes of the pips in its middle. Positions are relative to the card, in card widths.
DRAWN = """() => [...document.querySelectorAll('#board .card[data-card]')].map(card => {
  const box = card.getBoundingClientRect();
  const rel = el => { const r = el.getBoundingClientRect();
    return {x: (r.left - box.left) / box.width, y: (r.top - box.top) / box.height,
            w: r.width / box.width, h: r.height / box.height, cx: (r.left + r.width / 2 - box.left) / box.width,
            cy: (r.top + r.height / 2 - box.top) / box.height}; };
  const corners = [...card.querySelectorAll('.idx')].map(idx => {
    const suit = idx.querySelector('i'); const style = getComputedStyle(suit);
    return {rank: idx.querySelector('.r').dataset.r, box: rel(idx), suit: rel(suit),
            mask: style.maskImage || style.webkitMaskImage, colour: style.backgroundColor};
  });
  const art = card.querySelector('.art');
  return {code: card.dataset.card, width: box.width, height: box.height, corners,
          art: art.className, pips: [...card.querySelectorAll('.art > i')].map(rel),
          // a figure's file (KH.svg), or its view of a sheet of all twelve (courts.svg#KH)
          court: [...card.querySelectorAll('.court img')].map(img => img.getAttribute('src')).map(src =>
            src.includes('#') ? src.split('#')[1] : src.split('/').pop().split('.')[0])};
})"""


def seed_with_every_ace_in_the_pyramid() -> int:
    # the pyramid is the deal's first 28 cards: this seed shows all four aces on the board
    return next(seed for seed in range(1, 1000)
                if sum(card.rank == 1 for card in deal_for_seed("pyramid", seed)[:28]) == 4)


def check_face(card: dict) -> None:
    code = card["code"]
    rank = RANKS.get(code[0]) or int(code[0])
    label = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
    top, end = card["corners"]
    assert top["rank"] == end["rank"] == label, code
    for corner in (top, end):
        assert corner["suit"]["w"] > 0.1 and corner["suit"]["h"] > 0.05, (code, corner)  # drawn, not empty
        assert corner["mask"].startswith('url("data:image/svg+xml'), (code, corner["mask"][:40])
    assert top["mask"] == end["mask"] and top["colour"] == end["colour"], code
    assert top["box"]["x"] < 0.15 and top["box"]["y"] < 0.1, (code, top["box"])  # top left …
    assert end["box"]["x"] + end["box"]["w"] > 0.85 and end["box"]["y"] + end["box"]["h"] > 0.9, (code, end["box"])  # … bottom right
    pips = card["pips"]
    if 2 <= rank <= 10:
        assert card["art"] == f"art n{rank}" and len(pips) == rank, code
        spots = {(round(p["cx"], 2), round(p["cy"], 2)) for p in pips}
        assert len(spots) == rank, (code, spots)  # every pip in a place of its own
        for pip in pips:  # inside the card, clear of the corner indices
            assert 0.1 < pip["cx"] < 0.9 and 0.1 < pip["cy"] < 0.9, (code, pip)
            assert pip["x"] >= top["box"]["x"] + top["box"]["w"] - 0.01 or pip["y"] >= top["box"]["y"] + top["box"]["h"], (code, pip, top)
        xs = sorted(p["cx"] for p in pips)
        assert abs((xs[0] + xs[-1]) / 2 - 0.5) < 0.02, code  # the layout sits in the middle
    elif rank == 1:
        assert card["art"] == "art ace" and len(pips) == 1 and pips[0]["w"] > 0.4, code
    else:
        assert card["art"] == "art court" and card["court"] == [code], code  # the card's own figure


def test_every_card_shows_its_rank_and_suit_in_both_corners_and_its_pips(server, new_page):
    page = new_page(width=1280, height=900)
    cards = []
    for path in ("/play/gaps/3", f"/play/pyramid/{seed_with_every_ace_in_the_pyramid()}"):
        page.goto(server + path)
        cards += page.evaluate(DRAWN)
    by_code = {card["code"]: card for card in cards}
    assert len(by_code) == 52  # Gaps shows the 48 that are not aces; that pyramid has the aces
    for card in by_code.values():
        check_face(card)
    seven = next(card for code, card in by_code.items() if code[0] == "7")
    assert len(seven["pips"]) == 7
    masks = {code[1]: card["corners"][0]["mask"] for code, card in by_code.items()}
    assert len(set(masks.values())) == 4  # one shape per suit
    colours = {code[1]: card["corners"][0]["colour"] for code, card in by_code.items()}
    assert colours["H"] == colours["D"] != colours["S"] == colours["C"]
    assert not page.js_errors  # the CSP lets the masks load (img-src data:)
    shot(page, "cards-pyramid-aces-1280")


def test_the_four_colour_deck_gives_each_suit_its_colour(server, new_page):
    page = new_page(width=1280, height=900)
    page.goto(f"{server}/play/gaps/3")
    page.click(".settings summary")
    page.check('input[name="four_colour"]')
    page.click('.settings button[type="submit"]')
    page.wait_for_selector("body.deck-4")
    colours = {card["code"][1]: card["corners"][0]["colour"] for card in page.evaluate(DRAWN)}
    assert len(set(colours.values())) == 4, colours
    # the court figures of the four-colour deck: their own pips blue on diamonds, green on clubs
    figures = dict(page.eval_on_selector_all(
        "#board .card[data-card] .court .fig",
        "figs => figs.map(f => [f.closest('.card').dataset.card, f.getAttribute('src').replace(/\\?v=\\w+/, '')])"))
    assert len(figures) == 12  # a Gaps board's: views of the four-colour deck's sheet of all twelve
    assert all(src == f"/static/cards/courts-4.svg#{code}" for code, src in figures.items()), figures
    shot(page, "cards-gaps-four-colour-1280")


def test_on_a_phone_cards_keep_a_cards_shape_and_covered_cards_show_their_index(server, new_page):
    page = new_page(width=390, height=844)
    for path in ("/play/gaps/3", "/play/gaps-danish/3"):
        page.goto(server + path)
        page.wait_for_function("() => document.getAnimations().length === 0")  # dealt in
        sizes = page.eval_on_selector_all("#board .gaps-grid [data-pos]",
                                          "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])")
        assert len(sizes) == 52  # 48 cards and 4 gaps
        for width, height in sizes:
            # each row a column (test_table.py): 44 px targets, wider than high to fit 13 in a column
            assert 44 <= height <= width, (path, width, height)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        rank_px = page.eval_on_selector("#board .gaps-grid .card[data-card] .idx .r",
                                        "e => parseFloat(getComputedStyle(e).fontSize)")
        assert rank_px >= 13  # the index reads at a glance
        shot(page, "cards-phone-" + path.strip("/").replace("/", "-"))

    page.goto(f"{server}/play/pyramid/3")
    page.wait_for_function("() => document.getAnimations().length === 0")
    # a covered card shows its top-left index: the point at its middle is the card's own
    hidden = page.evaluate("""() => [...document.querySelectorAll('#board .prow .card')].filter(card => {
        const r = card.querySelector('.idx .r').getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !card.contains(hit);
    }).map(card => card.dataset.card)""")
    assert hidden == []
    width = page.eval_on_selector("#board .prow .card", "e => e.getBoundingClientRect().width")
    rank_px = page.eval_on_selector("#board .prow .card .idx .r", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert width >= 40 and rank_px >= 12  # legible: about the size of body text


def test_giza_reserves_are_the_size_of_the_pyramids_cards(server, new_page):
    for width in (1280, 390):
        page = new_page(width=width, height=900)
        page.goto(f"{server}/play/giza/3")
        pyramid = page.eval_on_selector("#board .pyramid .card", "e => [e.offsetWidth, e.offsetHeight]")
        reserves = page.eval_on_selector_all("#board .reserve .card", "els => els.map(e => [e.offsetWidth, e.offsetHeight])")
        assert reserves and all(size == pyramid for size in reserves), (width, pyramid, reserves)
        assert 1.35 <= pyramid[1] / pyramid[0] <= 1.45
        assert page.evaluate("document.documentElement.scrollWidth") <= width
