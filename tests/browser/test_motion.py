"""Motion (static/js/motion.js, static/css/motion.css): a removal, a Gaps fill and a win animate;
the animations setting and reduced motion turn it all off; a tap during an animation plays at once."""

from __future__ import annotations

from urllib.parse import quote, urlsplit

import httpx
import pytest

from app.engine import GameRecord, deal_for_seed, get_preset

from ..web.play import WIN_LINE, WIN_SEED, api_player, move, new_game
from .test_play import click_move, first_pair, wait_ply

pytestmark = pytest.mark.motion  # the motion is the subject

# Gaps one fill from the end but for the king: QC then KC win it
GAPS_NEAR_WON = ("2C 3C 4C 5C 6C 7C 8C 9C TC JC AC QC KC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD "
                 "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")

# what is animating now: the cards motion.js animates (by what they do: motion-moved, -gone,
# -covered, -came) and any CSS animation
ANIMATING = """() => {
  const ids = document.getAnimations().map(a => a.id || '').filter(id => id.startsWith('motion-'));
  const count = (id) => ids.filter(x => x === id).length;
  return {
    kind: document.documentElement.dataset.motion || null,
    runs: parseInt(document.documentElement.dataset.motionRuns || '0', 10),
    animations: document.getAnimations().length,
    cards: ids.length, moved: count('motion-moved'), gone: count('motion-gone'), came: count('motion-came'),
  };
}"""


def slow_animations(page, rate: float = 0.1) -> None:
    """Every animation of the page plays `rate` times as fast (Chromium's DevTools protocol): an
    animation is then surely still running when the test looks or taps."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": rate})


def remove_first_pair(page, seed: int = 0) -> None:
    first, second = first_pair(seed)
    page.click(f'#board [data-loc="{first}"][data-card]')
    page.wait_for_selector(f'#board[data-selected="{first}"]')
    page.click(f'#board [data-loc="{second}"][data-card]')
    wait_ply(page, 1)


def gaps_fill(seed: int = 21):
    preset = get_preset("gaps")
    position = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed)).position
    return next(m for m in position.legal_moves() if str(m) != "N" and len(position.moves_of_card(m.card)) == 1)


def test_a_removed_pair_leaves_the_board_lifting_and_fading(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/pyramid/0")
    page.wait_for_function("() => document.getAnimations().length === 0")  # dealt in
    slow_animations(page)
    cards = page.locator('#board [data-card]').count()
    first, second = first_pair(0)
    places = page.evaluate("""(locs) => locs.map(l => { const r = document.querySelector(`#board [data-loc="${l}"]`).getBoundingClientRect();
      return [r.x + scrollX, r.y + scrollY]; })""", [first, second])
    remove_first_pair(page)
    seen = page.evaluate(ANIMATING)
    assert seen["kind"] == "remove" and seen["runs"] == 1
    assert seen["gone"] == 2  # the two cards, lifted as they fade, from where they were
    page.evaluate("document.getAnimations().forEach(a => a.pause() || (a.currentTime = 0))")
    ghosts_at = page.evaluate("""() => [...document.querySelectorAll('#board .motion-ghosts > .card')].map(el => {
      const r = el.getBoundingClientRect(); return [r.x + scrollX, r.y + scrollY]; })""")
    # (in page coordinates; the selected card is lifted a little and the tapped one pressed)
    assert all(abs(g[0] - p[0]) < 8 and abs(g[1] - p[1]) < 12 for g, p in zip(sorted(ghosts_at), sorted(places)))
    # over the new board, where they were, and out of every tap's way
    ghosts = page.evaluate("""() => [...document.querySelectorAll('#board .motion-ghosts > .card')]
      .map(el => [getComputedStyle(el.parentElement).pointerEvents, el.hasAttribute('data-card'), el.tabIndex])""")
    assert ghosts == [["none", False, -1]] * 2
    assert page.locator('#board [data-card]').count() == cards - 2  # the live board's cards only
    assert not page.js_errors


def test_a_gaps_card_slides_into_its_gap_and_a_redeal_gathers_them(server, new_page):
    fill = gaps_fill()
    page = new_page()
    page.goto(f"{server}/play/gaps/21")
    slow_animations(page)
    page.click(f'#board [data-card="{fill.card.code}"]')
    wait_ply(page, 1)
    seen = page.evaluate(ANIMATING)
    assert seen["kind"] == "move" and seen["moved"] >= 1
    moving = page.evaluate("""() => document.getAnimations().filter(a => a.id === 'motion-moved')
      .map(a => a.effect.target.getAttribute('data-card'))""")
    assert fill.card.code in moving
    page.click('[data-action="redeal"]')
    page.click('[data-action="confirm-redeal"]')
    wait_ply(page, 2)
    seen = page.evaluate(ANIMATING)
    assert seen["kind"] == "redeal" and seen["moved"] > 20
    # through the pile in the middle: the cards' paths have three points, one after another
    paths = page.evaluate("""() => document.getAnimations()
      .filter(a => a.id === 'motion-moved')
      .map(a => [a.effect.getKeyframes().length, a.effect.getTiming().delay])""")
    assert paths and all(frames == 3 for frames, _ in paths)
    assert len({delay for _, delay in paths}) > 5
    assert not page.js_errors


def test_a_gaps_win_celebrates(server, new_page):
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/gaps?deal={quote(GAPS_NEAR_WON)}")
    page.click('#board [data-card="QC"]')
    wait_ply(page, 1)
    slow_animations(page)
    page.click('#board [data-card="KC"]')
    page.wait_for_selector('#board[data-status="won"]')
    seen = page.evaluate(ANIMATING)
    assert seen["kind"] == "win move" and seen["animations"] > 0
    names = page.evaluate("() => document.getAnimations().map(a => a.animationName).filter(Boolean)")
    assert "motion-pop" in names and "motion-burst" in names and "motion-wave" in names
    assert page.locator('[data-banner="won"] .motion-burst i').count() > 10
    assert not page.js_errors


def near_won_pyramid(server, page, left: int = 1) -> list[str]:
    """The page's player (by a device link) at seed 250 `left` moves from the win; those moves."""
    api = httpx.Client(base_url=server)
    auth = api_player(api)
    game = new_game(api, auth, "pyramid", WIN_SEED)
    for text in WIN_LINE[:-left]:
        game = move(api, auth, game, text)
    link = urlsplit(api.post("/api/players/me/device-link", headers=auth).json()["url"]).path
    page.goto(server + link)
    page.click('main form button[type="submit"]')
    page.wait_for_load_state()
    page.goto(f"{server}/games/{game['id']}")
    return list(WIN_LINE[-left:])


def test_a_pyramid_win_celebrates(server, new_page):
    page = new_page()
    last = near_won_pyramid(server, page)
    slow_animations(page)
    click_move(page, last[0])
    leaving = page.evaluate(ANIMATING)  # the last cards leave at the tap, before the server's board
    page.wait_for_selector('#board[data-status="won"]')
    seen = page.evaluate(ANIMATING)
    assert seen["kind"] == "win remove"
    # the end panel pops in over the last cards as they leave, and the suits burst from it
    names = page.evaluate("() => document.getAnimations().map(a => a.animationName).filter(Boolean)")
    assert "motion-pop" in names and max(leaving["gone"], seen["gone"]) >= 1
    assert page.evaluate("""() => { const panel = document.querySelector('#board .banner.won');
      const ghosts = document.querySelector('#board .motion-ghosts');
      return +getComputedStyle(panel).zIndex > +getComputedStyle(ghosts).zIndex; }""")
    assert page.locator('[data-banner="won"] .motion-burst i').count() > 10
    assert not page.js_errors


def test_auto_finish_plays_its_moves_one_after_another(server, new_page):
    page = new_page()
    near_won_pyramid(server, page, left=6)
    slow_animations(page)  # still running when looked at, however long the won board took to come
    page.click('[data-action="auto-finish"]', timeout=20_000)  # once the solver has proved the win
    page.wait_for_selector('#board[data-status="won"]')
    page.evaluate("document.getAnimations().forEach(a => a.pause())")
    seen = page.evaluate(ANIMATING)
    assert seen["kind"] == "win steps" and seen["cards"] >= 6
    steps = page.get_attribute("#board [data-motion-steps]", "data-motion-steps")
    assert len({pair.split(":")[1] for pair in steps.split()}) == 6  # the server's word: six moves
    delays = page.evaluate("""() => document.getAnimations()
      .filter(a => a.id === 'motion-gone' || a.id === 'motion-covered')
      .map(a => a.effect.getTiming().delay)""")
    assert len(set(delays)) >= 4 and max(delays) >= 4 * 160  # the visible cards leave step by step
    assert not page.js_errors


def test_a_new_deal_deals_in_on_the_first_board_only(server, new_page):
    page = new_page()
    slow_animations(page)
    page.goto(f"{server}/play/pyramid/5")
    dealing = page.evaluate("() => document.getAnimations().filter(a => a.animationName === 'motion-deal')"
                            ".map(a => a.effect.getComputedTiming().delay)")
    assert len(dealing) == 28 + 1 and len(set(dealing)) > 10  # the pyramid's cards, one after another
    page.click('[data-action="draw"]')
    wait_ply(page, 1)
    page.click('[data-action="undo"]')  # back at the deal: no second deal-in
    wait_ply(page, 0)
    again = page.evaluate("() => document.getAnimations().filter(a => a.animationName === 'motion-deal').length")
    assert again == 0
    assert not page.js_errors


def turn_animations_off(page) -> None:
    page.click(".settings summary")
    page.uncheck('input[name="animations"]')
    page.click('.settings button[type="submit"]')
    page.wait_for_selector('html[data-animations="off"]', state="attached")


def assert_still(page) -> None:
    page.wait_for_timeout(50)
    seen = page.evaluate(ANIMATING)
    assert seen["kind"] is None and seen["runs"] == 0
    assert seen["cards"] == 0 and seen["animations"] == 0


def test_the_animations_setting_off_means_no_motion(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/pyramid/0")
    turn_animations_off(page)
    plays_without_motion(page, server)


def plays_without_motion(page, server) -> None:
    """A deal, a removal, a Gaps fill and a win, with nothing moving at any point."""
    page.goto(f"{server}/play/pyramid/0")  # a deal: not dealt in either
    assert page.evaluate("document.getAnimations().length") == 0
    remove_first_pair(page)
    assert_still(page)
    page.goto(f"{server}/play/gaps?deal={quote(GAPS_NEAR_WON)}")
    page.click('#board [data-card="QC"]')
    wait_ply(page, 1)
    assert_still(page)
    page.click('#board [data-card="KC"]')
    page.wait_for_selector('#board[data-status="won"]')
    assert_still(page)
    assert page.locator(".motion-burst").count() == 0
    assert not page.js_errors


def test_reduced_motion_means_no_motion(server, new_page):
    page = new_page()
    page.emulate_media(reduced_motion="reduce")
    plays_without_motion(page, server)


def test_a_tap_during_an_animation_plays_at_once(server, new_page):
    page = new_page(width=390, height=844)
    page.goto(f"{server}/play/pyramid/0")
    page.wait_for_function("() => document.getAnimations().length === 0")  # dealt in
    slow_animations(page, 0.01)  # the removal would now take 22 s
    draw = page.locator('[data-action="draw"]').bounding_box()
    remove_first_pair(page)
    assert page.evaluate(ANIMATING)["gone"] == 2
    # a plain tap where the button is (no waiting for the page to be still, as a player would)
    page.mouse.click(draw["x"] + draw["width"] / 2, draw["y"] + draw["height"] / 2)
    page.wait_for_selector('#board[data-ply="2"]', timeout=8000)  # a busy machine's answer, not the 22 s
    assert page.evaluate("document.documentElement.dataset.motionRuns") == "2"
    assert not page.js_errors


def test_a_replay_steps_with_the_same_motion(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/pyramid/0")
    remove_first_pair(page)
    game_id = page.get_attribute("#board", "data-game-id")
    page.goto(f"{server}/g/{game_id}/replay?ply=0")
    slow_animations(page)
    page.click('#replay a[data-replay="next"]')
    page.wait_for_selector('#replay[data-ply="1"]')
    seen = page.evaluate(ANIMATING)
    assert seen["kind"] == "remove" and seen["gone"] == 2
    assert not page.js_errors


def test_double_pyramids_two_decks_glide_without_a_mix_up(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/double-pyramid/3")
    slow_animations(page)
    page.click('[data-action="draw"]')
    wait_ply(page, 1)
    # each card that changed place is animated once, the two copies of a card apart
    targets = page.evaluate("""() => { const moved = document.getAnimations().filter(a => a.id && a.id.startsWith('motion-'));
      return [moved.length, new Set(moved.map(a => a.effect.target)).size]; }""")
    assert targets[0] > 0 and targets[0] == targets[1]
    page.click('[data-action="draw"]')  # during the first one's glide: it ends, this one plays
    wait_ply(page, 2)
    assert page.evaluate("document.documentElement.dataset.motionRuns") == "2"
    assert not page.js_errors


def test_a_removed_card_of_double_pyramid_leaves_without_moving_its_twin(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/double-pyramid/3")
    slow_animations(page)
    page.click('#board [data-loc="P21"][data-card]')  # the first pyramid's 5♣; the second holds one too
    page.wait_for_selector('#board[data-selected="P21"]')
    page.click('#board [data-loc="P26"][data-card]')
    wait_ply(page, 1)
    seen = page.evaluate(ANIMATING)
    assert seen["kind"] == "remove" and seen["gone"] == 2 and seen["moved"] == 0
    assert not page.js_errors


def test_new_deal_in_place_deals_the_cards_in(server, new_page):
    page = new_page()
    page.goto(f"{server}/play/pyramid/0")
    remove_first_pair(page)
    slow_animations(page)
    page.click('#board [data-action="new"]')
    page.click('#board [data-action="confirm-new"]')
    page.wait_for_selector('#board[data-ply="0"]')
    seen = page.evaluate(ANIMATING)
    cards = page.locator("#board [data-card]").count()
    assert seen["kind"] == "deal" and seen["came"] == cards and seen["moved"] == seen["gone"] == 0
    delays = page.evaluate("() => document.getAnimations().filter(a => a.id === 'motion-came').map(a => a.effect.getTiming().delay)")
    assert len(set(delays)) == cards  # one after another
    assert page.locator("#board .motion-ghosts").count() == 0
    assert not page.js_errors
