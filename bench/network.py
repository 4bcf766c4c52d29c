"""Network: how soon a tap shows its answer on a phone's connection, in Debian's Chromium.

Chromium's DevTools network emulation (Network.emulateNetworkConditions through a CDP session)
adds a round trip to every request on loopback. At each round trip and each screen (1280x800
with a mouse, 390x844 touch) it plays, by the public hooks (data-loc, data-pos, data-card,
data-action, #board data-ply):

  - a whole Pyramid game (the deal of issue 26 and its winning line): kings, pairs (the first
    tap selects, the second removes), draws and turnovers;
  - Gaps: cards that fit one gap, tapped (the engine, here in the bench, picks them).

Each tap waits for the last one's board, or with --quick only for its answer to show (a
player tapping on as fast as the page answers).

For each tap, measured in the page (requestAnimationFrame and performance.now, from the
pointerdown's timestamp):
  shown  - the first frame that shows the answer: the card selected (.selected), or the tapped
           card gone from its place (removed, moved, fading away);
  laid   - the first frame with the server's board laid in (#board data-ply one more; for a
           selection, data-selected naming the card).
After the game the page's cards, ply and status must equal a fresh load of the game.

  .venv/bin/python bench/network.py                  # 0/150/300 ms, both screens
  options: --rtts 0,150 --sizes desktop,phone --gaps-fills 12 --base-url URL --quick

Only 127.0.0.1 is contacted; every loop ends by itself.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.engine import Fill, GameRecord, deal_for_seed, get_preset  # noqa: E402
from bench.browser import CHROMIUM_ARGS, start_server  # noqa: E402

ISSUE_DEAL = ("KD TD KH 2C JD 5C QH QD 6S AD 8S 3S 9D 7D 3D 2H 4C AH 7H 4D 6H 8D TC KC 9S 3H 2S 4H 2D TH "
              "4S 3C 7C 9H 5H AS 7S AC 6D TS JS QS KS 6C JC 5S JH 9C 8H 5D QC 8C")
ISSUE_LINE = ("P23 P22+P25 P16+P24 D D D D D P27+S P21+S D D D P18+S D P15+S P17+S S P11+W D P26+S "
              "P12+P19 P10+S P13+W P6+W P8+W P7+W P3+P4 P20+W P1+P14 D D D S+W P9+S P5+S P2 P0")
GAPS_SEED = 21
SIZES: dict[str, dict] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2},
}

# In every document: the time of each pointerdown, and a frame-by-frame watch for what the
# bench expects (window.__expect, set just before the tap).
PROBE = """
(() => {
  window.__taps = [];  // {kind, place, card, ply, sel, t0, shown, laid}, in the order tapped
  document.addEventListener("pointerdown", (e) => {
    const x = window.__taps.find(x => x.t0 == null);
    if (x) x.t0 = e.timeStamp;
  }, true);
  const absent = (q) => !document.querySelector(q);
  function check() {
    const now = performance.now(), board = document.getElementById("board");
    for (const x of window.__taps) {
      if (x.t0 == null || (x.shown != null && x.laid != null)) continue;
      const shown = x.kind === "select" ? !!document.querySelector(x.place + ".selected") : absent(x.place + x.card);
      if (shown && x.shown == null) x.shown = now - x.t0;
      const laid = board && (x.kind === "select" ? x.shown != null && board.getAttribute("data-selected") === x.sel
                                                  : Number(board.getAttribute("data-ply")) >= x.ply);
      if (laid && x.laid == null) x.laid = now - x.t0;
    }
    requestAnimationFrame(check);
  }
  requestAnimationFrame(check);
})();
"""

SNAPSHOT = """() => { const b = document.getElementById('board');
  const cards = [...b.querySelectorAll('[data-card]')].map(e => (e.dataset.loc || e.dataset.pos) + '=' + e.dataset.card).sort();
  return {ply: b.dataset.ply, status: b.dataset.status, cards: cards.join(' ')}; }"""


class Run:
    def __init__(self, page, touch: bool, quick: bool = False):
        self.page, self.touch, self.quick = page, touch, quick
        self.moves = 0  # the game's ply after the moves tapped so far
        self.pending = 0
        page.on("request", self._start)
        page.on("requestfinished", self._end)
        page.on("requestfailed", self._end)
        self.samples: dict[str, list[tuple[float, float]]] = {}

    def _start(self, request):
        self.pending += 1

    def _end(self, request):
        self.pending -= 1

    def idle(self) -> None:
        self.page.wait_for_function("() => true")  # lets the request events arrive
        while self.pending > 0:
            self.page.wait_for_timeout(5)

    def tap(self, kind: str, selector: str, place: str, card: str = "", sel: str = "") -> None:
        """Tap ``selector`` expecting ``kind`` (select, pair, king, draw, fill): the answer shows
        when ``place`` is selected, or no longer holds ``card``. Waits for the answer to show,
        and unless ``quick``, for the server's board and an idle network too."""
        if kind != "select":
            self.moves += 1
        self.page.evaluate("x => { window.__taps.push(x); }",
                           {"kind": kind, "place": place, "card": f'[data-card="{card}"]' if card else "",
                            "ply": self.moves, "sel": sel})
        if self.touch:
            self.page.tap(selector)
        else:
            self.page.click(selector)
        try:
            self.page.wait_for_function("() => window.__taps[window.__taps.length - 1].shown != null")
        except Exception:
            print("no answer shown:", selector, self.page.evaluate("""() => [window.__taps.slice(-1), window.TrettenBoard.debug && window.TrettenBoard.debug(),
              document.querySelector('#board [data-pos=\"' + window.__taps.slice(-1)[0].place.split('\"')[1] + '\"]').outerHTML.slice(0, 300)]"""))
            raise
        if not self.quick:
            self.finish()

    def finish(self) -> None:
        """Every answer shown and every board laid in: the samples."""
        self.page.wait_for_function("() => window.__taps.every(x => x.shown != null && x.laid != null)")
        self.idle()
        for x in self.page.evaluate("() => window.__taps.splice(0)"):
            self.samples.setdefault(x["kind"], []).append((x["shown"], x["laid"]))


def card_at(page, attr: str, place: str) -> str:
    return page.get_attribute(f'#board [data-{attr}="{place}"][data-card]', "data-card")


def play_pyramid(run: Run, base: str) -> str:
    page = run.page
    page.goto(f"{base}/play/pyramid?deal={quote(ISSUE_DEAL)}")
    run.moves = 0
    for move in ISSUE_LINE.split():
        places = move.split("+")
        if run.quick and ("D" in places or "S" in places or "W" in places):
            run.finish()  # the stock's and waste's next cards show with the server's board
        if move == "D":
            action = "recycle" if page.query_selector('#board [data-action="recycle"]') else "draw"
            place = "W" if action == "recycle" else "S"  # the card that leaves its place
            run.tap("draw", f'#board [data-action="{action}"]', f'#board [data-loc="{place}"]',
                    card_at(page, "loc", place))
            continue
        first = places[0]
        code = card_at(page, "loc", first)
        if len(places) == 1:
            run.tap("king", f'#board [data-loc="{first}"][data-card]', f'#board [data-loc="{first}"]', code)
            continue
        run.tap("select", f'#board [data-loc="{first}"][data-card]', f'#board [data-loc="{first}"]', sel=first)
        second = card_at(page, "loc", places[1])
        run.tap("pair", f'#board [data-loc="{places[1]}"][data-card]', f'#board [data-loc="{places[1]}"]', second)
    run.finish()
    page.wait_for_selector('#board[data-status="won"]')
    return page.url


def play_gaps(run: Run, base: str, fills: int) -> str:
    page = run.page
    preset = get_preset("gaps")
    record = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, GAPS_SEED))
    page.goto(f"{base}/play/gaps/{GAPS_SEED}")
    run.moves = 0
    for _ in range(fills):
        position = record.position
        prefix = position.correct_prefix_lengths()
        choice = next((m for m in position.legal_moves() if isinstance(m, Fill)
                       and len(position.moves_of_card(m.card)) == 1
                       and position.grid.index(m.card) % 13 >= prefix[position.grid.index(m.card) // 13]), None)
        if choice is None:
            break
        at = position.grid.index(choice.card)
        pos = f"{at // 13}.{at % 13}"
        run.tap("fill", f'#board [data-pos="{pos}"][data-card]', f'#board [data-pos="{pos}"]', choice.card.code)
        record = record.play(choice)
    run.finish()
    return page.url


def same_as_fresh(page) -> bool:
    mine = page.evaluate(SNAPSHOT)
    fresh = page.context.new_page()
    fresh.goto(page.url)
    theirs = fresh.evaluate(SNAPSHOT)
    fresh.close()
    return mine == theirs


def quantiles(values: list[float]) -> str:
    if not values:
        return "-"
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(round(0.9 * (len(values) - 1))))]
    return f"{statistics.median(values):6.0f} {p90:6.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rtts", default="0,150,300")
    parser.add_argument("--sizes", default="desktop,phone")
    parser.add_argument("--gaps-fills", type=int, default=12)
    parser.add_argument("--base-url", default="")
    parser.add_argument("--quick", action="store_true",
                        help="tap again as soon as the last answer shows, not waiting for the server's board")
    args = parser.parse_args()
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        raise SystemExit("Chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    process = None
    with tempfile.TemporaryDirectory() as data_dir:
        base = args.base_url
        if not base:
            process, base = start_server(data_dir)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
                print(f"{'rtt':>4} {'screen':8} {'tap':7} {'n':>3}  {'shown p50 p90':>14}  {'laid p50 p90':>14}  equal")
                for rtt in (int(x) for x in args.rtts.split(",")):
                    for size in args.sizes.split(","):
                        context = browser.new_context(locale="en-GB", **SIZES[size])
                        context.add_init_script(PROBE)
                        page = context.new_page()
                        page.set_default_timeout(30_000)
                        cdp = context.new_cdp_session(page)
                        cdp.send("Network.enable")
                        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": rtt,
                                                                      "downloadThroughput": -1, "uploadThroughput": -1})
                        run = Run(page, touch=size == "phone", quick=args.quick)
                        equal = []
                        play_pyramid(run, base)
                        equal.append(same_as_fresh(page))
                        play_gaps(run, base, args.gaps_fills)
                        equal.append(same_as_fresh(page))
                        for kind, samples in run.samples.items():
                            print(f"{rtt:4d} {size:8} {kind:7} {len(samples):3d}  {quantiles([s for s, _ in samples]):>14}"
                                  f"  {quantiles([laid for _, laid in samples]):>14}  {'yes' if all(equal) else 'NO'}")
                        context.close()
                browser.close()
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
