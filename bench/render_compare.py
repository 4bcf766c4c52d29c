"""Every page and htmx fragment renders the same before and after a refactor.

Run: .venv/bin/python bench/render_compare.py --before e46d780 [--after REF_OR_FOLDER] [--keep]
(about 45 s a side; --after defaults to the working tree this file is in; --keep keeps the
exported trees and both JSON files and prints where)

Each side is a git ref (exported with `git archive`) or a folder (copied, so the folder itself
is never written to: no catalogs, no __pycache__, no database). For each side a subprocess, with
that tree first on sys.path, builds the app on a fresh SQLite database per language and plays a
fixed script of requests (pages, htmx fragments of taps, undo/redo, a hint, auto-finish to a
win, a loss through the API, the stats, daily, deal, profile, replay and error pages) in en, da
and sv, writing every response (status, a few headers, body) to a JSON file. The two files are
then compared: "N responses, all identical" (exit 0), or each differing response's name with a
short unified diff (exit 1); a change seen before (one edit to the base template shows on every
page) is named, not shown again.

Both sides run the same driver (this file), so only the app's code differs. What would differ
between two runs of the same code is pinned or normalised:
- the clock: every `datetime`/`date` name in the app's modules is replaced by one whose now()
  and today() read a clock the driver moves on by a fixed step before each request, so the
  times shown depend on the script, not on how many times the code asks for the time;
- randomness: `secrets.token_bytes` and `secrets.randbelow` (ids, tokens, new seeds) come from
  a seeded generator, and solver searches run in the request's thread (SOLVER_PROCESSES=0);
- what is random by nature (game and player ids, CSRF tokens, device-link and API tokens) is
  still replaced by labels in order of first appearance, so one extra id drawn somewhere does
  not shift every id after it. Asset URLs keep their ?v= hash: equal static files, equal hash
  (htmx and Swagger UI come from node_modules, not git: both sides get the main checkout's).
"""

from __future__ import annotations

import argparse
import base64
import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", "da", "sv")
# a folder side is copied without these at its top: not the app, or big (data: the dev database)
NOT_COPIED_AT_TOP = {".git", ".venv", "node_modules", "data", ".pytest_cache", ".ruff_cache", ".mypy_cache",
                     ".hypothesis", "tretten.egg-info"}


# ------------------------------------------------------------------------------------ the sides

def main_checkout() -> Path:
    """The repository's main working tree (this file may be in a linked worktree)."""
    common = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--path-format=absolute", "--git-common-dir"],
                            check=True, capture_output=True, text=True).stdout.strip()
    return Path(common).parent


def export(side: str, into: Path) -> Path:
    """The side's tree in `into`: a copy of a folder, or the files of a git ref."""
    tree = into / "tree"
    if Path(side).is_dir():
        top = Path(side).resolve()

        def not_copied(folder: str, names: list[str]) -> set[str]:
            # build output anywhere: bytecode, and catalogs (compiled below from the .po files)
            return {n for n in names if n == "__pycache__" or n.endswith((".pyc", ".mo"))
                    or (Path(folder).resolve() == top and n in NOT_COPIED_AT_TOP)}

        shutil.copytree(side, tree, ignore=not_copied, symlinks=True)
    else:
        tree.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", side],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    # htmx and Swagger UI are served from node_modules (npm, not git; app/web/views/assets.py): both
    # sides get the main checkout's, so pages name them by hash and not as "missing"
    node_modules = main_checkout() / "node_modules"
    if node_modules.is_dir() and not (tree / "node_modules").exists():
        (tree / "node_modules").symlink_to(node_modules)
    # the .mo catalogs are build output, not in git: compiled here, from the side's own .po files
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run([str(pybabel), "-q", "compile", "-d", str(tree / "app" / "locale")], check=True)
    return tree


def render_side(side: str, work: Path) -> dict:
    tree = export(side, work)
    out = work / "responses.json"
    # a bare environment: Settings reads its fields from variables of the same names (PUBLIC_URL…)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8",
           "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    run = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--render", str(tree), "--out", str(out)],
                         cwd=tree, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stderr[-6000:])
        raise SystemExit(f"rendering {side} failed (exit {run.returncode})")
    return json.loads(out.read_text())


# ------------------------------------------------------------------------------------ comparing

def as_lines(response: dict) -> list[str]:
    head = [f"{k}: {v}" for k, v in sorted(response["headers"].items())]
    return [f"status: {response['status']}", *head, "", *response["body"].splitlines()]


def compare(before: dict, after: dict, context: int = 2, max_lines: int = 40) -> int:
    names = list(dict.fromkeys([*before, *after]))
    differing = [n for n in names if before.get(n) != after.get(n)]
    if not differing:
        print(f"{len(names)} responses, all identical")
        return 0
    seen: dict[tuple, str] = {}  # a change already shown (its -/+ lines) -> the first response with it
    for name in differing:
        if name not in before or name not in after:
            print(f"--- {name}: only {'after' if name in after else 'before'}")
            continue
        diff = list(difflib.unified_diff(as_lines(before[name]), as_lines(after[name]), "before", "after",
                                         n=context, lineterm=""))
        # one edit to the base template changes every page alike: show it once, then name the pages
        change = tuple(line for line in diff[2:] if line[:1] in "+-")
        if change in seen:
            print(f"--- {name}: the same change as {seen[change]}")
            continue
        seen[change] = name
        print(f"--- {name}")
        for line in diff[2:max_lines + 2]:  # the ---/+++ lines name nothing useful
            print("   " + (line if len(line) <= 220 else line[:220] + " …"))
        if len(diff) > max_lines + 2:
            print(f"   … {len(diff) - max_lines - 2} more diff lines")
    print(f"{len(names)} responses, {len(differing)} differ")
    return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="git ref or folder")
    parser.add_argument("--after", default=str(REPO), help="git ref or folder (default: this working tree)")
    parser.add_argument("--keep", action="store_true", help="keep the exported trees and JSON files")
    parser.add_argument("--render", help=argparse.SUPPRESS)  # the child: render this tree
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.render:
        render(Path(args.render), Path(args.out))
        return 0
    if not args.before:
        parser.error("--before is required")
    work = Path(tempfile.mkdtemp(prefix="render-compare-"))
    try:
        before = render_side(args.before, work / "before")
        after = render_side(args.after, work / "after")
        return compare(before, after)
    finally:
        if args.keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------------------------------ the child
# Everything below runs in the subprocess, with the side's tree first on sys.path. It uses the
# app only over HTTP, plus its factory, Settings and migrations, so it runs on either side of a
# refactor that moves modules about.

HX = {"HX-Request": "true"}
KEPT_HEADERS = ("content-type", "location", "hx-push-url", "hx-redirect", "hx-trigger", "hx-retarget",
                "hx-reswap", "retry-after")
BASE_TIME = (2026, 3, 14, 10, 0, 0)  # a Saturday morning, UTC
STEP_SECONDS = 5  # the clock moves on this much before each request
# Pyramid (one pass) seed 250 is won by this line (tests/web/play.py); seed 1 cannot be won
WIN_SEED = 250
WIN_LINE = ["P21+P24", "P23+P25", "P22+P26", "P16+P17", "P11+P27", "P15+P20", "P19+S", "D", "D", "D", "P10+S",
            "P6+P18", "P12+P14", "P7+P13", "P8", "D", "P4+S", "D", "P3+S", "D", "P9+S", "P1+S", "S", "P5+S", "P2",
            "P0+S"]
LOSE_SEED = 1


class Clock:
    """The one clock of the app's modules; the driver moves it, never the code under test."""

    def __init__(self):
        from datetime import UTC, datetime, timedelta
        self.start = datetime(*BASE_TIME, tzinfo=UTC)
        self.step = timedelta(seconds=STEP_SECONDS)
        self.now = self.start

    def reset(self):
        self.now = self.start

    def tick(self):
        self.now += self.step


CLOCK: Clock


def frozen_types():
    """datetime and date with now()/today() on CLOCK; isinstance() still sees the real types."""
    import datetime as real

    class Meta(type):
        def __instancecheck__(cls, obj):
            return isinstance(obj, cls.__bases__[0])

        def __subclasscheck__(cls, sub):
            return issubclass(sub, cls.__bases__[0])

    class FrozenDatetime(real.datetime, metaclass=Meta):
        @classmethod
        def now(cls, tz=None):
            return CLOCK.now.astimezone(tz) if tz else CLOCK.now.replace(tzinfo=None)

        @classmethod
        def utcnow(cls):
            return CLOCK.now.replace(tzinfo=None)

        @classmethod
        def today(cls):
            return CLOCK.now.replace(tzinfo=None)

    class FrozenDate(real.date, metaclass=Meta):
        @classmethod
        def today(cls):
            return CLOCK.now.date()

    return {real.datetime: FrozenDatetime, real.date: FrozenDate}


def freeze_modules(replacements: dict) -> None:
    """Point every `datetime`/`date` name in the app's modules at the frozen types. Run before
    each request: a module imported late (inside a function) is caught the next time."""
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "app" or name.startswith("app.")):
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, type) and value in replacements:
                setattr(module, attr, replacements[value])


def seed_secrets(seed: str) -> None:
    """Ids, tokens and new seeds from a seeded generator (token_hex and token_urlsafe call
    token_bytes)."""
    import random
    import secrets
    rng = random.Random(seed)
    secrets.token_bytes = lambda nbytes=None: rng.randbytes(32 if nbytes is None else nbytes)
    secrets.randbelow = lambda n: rng.randrange(n)


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([0-9a-f]+)"', html)
    assert match, "page has no CSRF token"
    return match.group(1)


def board_of(html: str) -> dict:
    """ply and version of the board, as the form posts them back."""
    ply = re.search(r'id="board"[^>]*data-ply="(\d+)"', html)
    version = re.search(r'id="board"[^>]*data-version="(\d+)"', html)
    return {"ply": ply.group(1) if ply else "", "version": version.group(1) if version else ""}


BUTTON = re.compile(r'<button type="submit" name="(target|action)" value="([^"]+)"([^>]*)>')


def next_tap(html: str) -> dict | None:
    """The first move the board offers: a one-tap move, else a pair (two taps), else a draw."""
    buttons = [(name, value, attrs) for name, value, attrs in BUTTON.findall(html) if " disabled" not in attrs]
    playable = [(value, attrs) for name, value, attrs in buttons
                if name == "target" and re.search(r'class="[^"]*\bplayable\b', attrs)]
    for value, attrs in playable:
        if "data-move=" in attrs:
            return {"target": value}
    for value, attrs in playable:
        partners = re.search(r'data-partners="([^"]+)"', attrs)
        if partners:
            return {"target": value, "then": partners.group(1).split()[0]}
    if any(name == "action" and value == "draw" for name, value, _ in buttons):
        return {"action": "draw"}
    return None


class Board:
    """One board in one browser: a deal ready to play (its posts go to its share link) until
    the first move stores the game (its posts go to /games/{id}/act)."""

    def __init__(self, run: Run, client, url: str, html: str):
        self.run, self.client, self.url, self.html, self.game_id = run, client, url, html, None

    def post(self, name: str, *, htmx: bool = True, **fields):
        data = {"csrf_token": csrf_of(self.html), **fields}
        url = self.url
        if self.game_id is not None:
            url = f"/games/{self.game_id}/act"
            data = {**board_of(self.html), **data}
        response = self.run.request(name, self.client, "POST", url, data=data, htmx=htmx)
        pushed = re.match(r"/games/([\w-]+)$", response.headers.get("hx-push-url", ""))
        if pushed:
            self.game_id = pushed.group(1)
        if htmx and response.status_code < 500 and 'id="board"' in response.text:
            self.html = response.text
        return response

    def page(self, name: str):
        response = self.run.request(name, self.client, "GET", f"/games/{self.game_id}")
        self.html = response.text
        return response

    def play(self, name: str, move: str):
        """A move in the engine's notation, tapped as a player would: D draws, A+B taps A then
        B, a single location taps it."""
        if move == "D":
            return self.post(f"{name} draw", action="draw")
        first, _, second = move.partition("+")
        response = self.post(f"{name} tap {first}", target=first)
        if second:
            response = self.post(f"{name} tap {second}", target=second, sel=first)
        return response

    def step(self, name: str) -> bool:
        """The board's first offered move; False when it offers none."""
        tap = next_tap(self.html)
        if tap is None:
            return False
        if "action" in tap:
            self.post(f"{name} draw", action="draw")
        elif "then" in tap:
            self.post(f"{name} select {tap['target']}", target=tap["target"])
            self.post(f"{name} pair {tap['then']}", target=tap["then"], sel=tap["target"])
        else:
            self.post(f"{name} tap {tap['target']}", target=tap["target"])
        return True


class Run:
    """The responses of one language, on an app and database of its own."""

    def __init__(self, app, language: str, responses: dict, frozen: dict):
        self.app, self.language, self.responses, self.frozen = app, language, responses, frozen
        self.clients: list = []

    def client(self, stack):
        """A browser-like client with its own cookie jar: a new anonymous player."""
        from fastapi.testclient import TestClient
        client = stack.enter_context(TestClient(self.app, base_url="http://testserver", follow_redirects=False,
                                                headers={"Accept-Language": self.language}))
        self.clients.append(client)
        return client

    def request(self, name: str, client, method: str, url: str, *, htmx: bool = False, record: bool = True,
                headers: dict | None = None, **kwargs):
        CLOCK.tick()
        freeze_modules(self.frozen)
        response = client.request(method, url, headers={**(headers or {}), **(HX if htmx else {})}, **kwargs)
        if record:
            key = f"{self.language}/{name}"
            assert key not in self.responses, f"two responses named {key}"
            self.responses[key] = recorded(response)
        return response

    def get(self, name: str, client, url: str, **kwargs):
        return self.request(name, client, "GET", url, **kwargs)

    def post(self, name: str, client, url: str, **kwargs):
        return self.request(name, client, "POST", url, **kwargs)

    def follow(self, name: str, client, response):
        """The page a redirect leads to (a plain form post's post/redirect/get)."""
        assert response.status_code in (302, 303, 307), (name, response.status_code)
        return self.get(name, client, response.headers["location"])

    def open_board(self, name: str, client, url: str) -> Board:
        return Board(self, client, url, self.get(name, client, url).text)

    # -------------------------------------------------------------------- the script

    def script(self) -> None:
        from contextlib import ExitStack

        from app.engine import PRESETS  # in app/engine/__init__.py on both sides of the layout change

        with ExitStack() as stack:
            me, other, api = self.client(stack), self.client(stack), self.client(stack)
            self.site_pages(me)
            for slug in PRESETS:
                self.deals(me, slug)
            won = self.win(me)
            lost, api_auth = self.lose_through_the_api(api)
            for slug in PRESETS:
                self.other_preset(me, slug)
            self.finished_games(me, other, won, lost)
            self.daily(me, other, list(PRESETS))
            self.profile_and_settings(me, other, won)
            self.api(api, api_auth, won, lost)
            self.errors(me, other, won)
            self.get("home, at the end", me, "/")
            self.get("stats, at the end", me, "/stats")

    def site_pages(self, me) -> None:
        self.get("home, first visit", me, "/")
        for game in ("pyramid", "giza", "double-pyramid", "gaps"):
            self.get(f"rules {game}", me, f"/rules/{game}")
        self.get("odds", me, "/odds")
        self.get("stats, no games", me, "/stats")
        self.get("profile, a visitor", me, "/profile")
        self.get("api docs", me, "/api/docs")
        self.get("healthz", me, "/healthz")
        self.get("manifest", me, "/manifest.webmanifest")
        self.get("favicon", me, "/favicon.ico")

    def deals(self, me, slug: str) -> None:
        for seed in (11, WIN_SEED):
            self.get(f"deal ready {slug}/{seed}", me, f"/play/{slug}/{seed}")
        self.get(f"deal ready {slug}/11, htmx", me, f"/play/{slug}/11", htmx=True)
        self.get(f"new deal {slug}", me, f"/play/{slug}")  # a redirect to a (seeded) random seed
        self.get(f"deal page {slug}/11", me, f"/deal/{slug}/11")
        self.get(f"daily table {slug}, before", me, f"/daily/{slug}/table")

    def win(self, me) -> str:
        """Seed 250 along the known win, tapped in the browser, with the side trips a player
        takes; the last moves by auto-finish."""
        board = self.open_board("win: the deal", me, f"/play/pyramid/{WIN_SEED}")
        board.post("win: tap a covered card before the first move", target="P0")
        board.post("win: select before the first move", target="P21")
        board.post("win: a pair that does not make 13, before the first move", target="P22", sel="P21")
        board.post("win: first move", target="P24", sel="P21")
        assert board.game_id, "the first move stored no game"
        keep = len(WIN_LINE) - 6
        for index, move in enumerate(WIN_LINE[1:keep], start=1):
            board.play(f"win: move {index:02d} {move}:", move)
            if index == 2:
                board.page("win: the game page after 2 moves")
                board.post("win: tap a covered card", target="P0")
                board.post("win: tap nothing", target="P99")
                board.post("win: undo", action="undo")
                board.post("win: redo", action="redo")
                board.post("win: nothing to redo", action="redo")
                stale = board.html  # a second tab's page, left behind by the two moves below
                board.post("win: a draw", action="draw")
                board.post("win: undo the draw", action="undo")
                current, board.html = board.html, stale
                board.post("win: from a stale page (another tab moved on)", action="draw")
                board.html = current
                board.post("win: restart asks first", action="restart")
                board.html = current  # not confirmed: the game goes on from before the question
            if index == 4:
                hint = self.post("win: hint", me, f"/games/{board.game_id}/hint",
                                 data={"csrf_token": csrf_of(board.html), **board_of(board.html)}, htmx=True)
                board.html = hint.text
                board.page("win: the game page after a hint")
                plain = self.post("win: hint without javascript", me, f"/games/{board.game_id}/hint",
                                  data={"csrf_token": csrf_of(board.html), **board_of(board.html)})
                board.html = self.follow("win: the page a hint without javascript leads to", me, plain).text
            if index == 6:
                plain = board.post("win: a draw without javascript", htmx=False, action="draw")
                board.html = self.follow("win: the page a draw without javascript leads to", me, plain).text
                board.post("win: undo that draw", action="undo")
                select = board.post("win: select without javascript", htmx=False, target="P6")
                board.html = self.follow("win: the page a selection without javascript leads to", me, select).text
            if index == 8:  # the "still winnable?" indicator
                self.post("win: indicator on", me, "/prefs", data={"csrf_token": csrf_of(board.html),
                          "scoring": "simple", "winnable_indicator": "true", "animations": "true", "next": "/"})
                board.page("win: the game page, indicator on")
                self.get("win: still winnable, htmx", me, f"/games/{board.game_id}/solver", htmx=True)
                self.get("win: still winnable, page", me, f"/games/{board.game_id}/solver")
        board.page("win: the game page near the end")
        self.get("win: the auto-finish offer", me, f"/games/{board.game_id}/solver", htmx=True)
        finished = self.post("win: auto-finish", me, f"/games/{board.game_id}/autofinish",
                             data={"csrf_token": csrf_of(board.html), **board_of(board.html)}, htmx=True)
        board.html = finished.text
        board.post("win: undo after the win", action="undo")
        board.page("win: the end screen")
        self.get("win: analysis, htmx", me, f"/games/{board.game_id}/analysis", htmx=True)
        self.get("win: analysis, page", me, f"/games/{board.game_id}/analysis")
        return board.game_id

    def lose_through_the_api(self, api) -> tuple[str, dict]:
        """Seed 1 (unwinnable) played to its end through the JSON API: every answer recorded."""
        player = self.post("api: new player", api, "/api/players")
        auth = {"Authorization": f"Bearer {player.json()['token']}"}
        game = self.post("api: new game", api, "/api/games", json={"preset": "pyramid", "seed": LOSE_SEED},
                         headers=auth).json()
        for index in range(200):
            if game["status"] != "playing":
                break
            legal = sorted(game["legal"])
            move = "D" if "D" in legal else legal[0]
            game = self.post(f"api: move {index:02d} {move}", api, f"/api/games/{game['id']}/moves",
                             json={"move": move, "ply": game["cursor"]}, headers=auth).json()
            if index == 3:
                self.post("api: undo", api, f"/api/games/{game['id']}/undo", headers=auth)
                game = self.post("api: redo", api, f"/api/games/{game['id']}/redo", headers=auth).json()
                self.post("api: a stale ply", api, f"/api/games/{game['id']}/moves",
                          json={"move": "D", "ply": game["cursor"] - 1}, headers=auth)
                self.post("api: an illegal move", api, f"/api/games/{game['id']}/moves",
                          json={"move": "P0+P1", "ply": game["cursor"]}, headers=auth)
        self.get("api: the lost game", api, f"/api/games/{game['id']}", headers=auth)
        return game["id"], auth

    def other_preset(self, me, slug: str) -> None:
        """Each preset's first moves in the browser: whatever the board offers first."""
        board = self.open_board(f"{slug}: the deal", me, f"/play/{slug}/11")
        for index in range(4):
            if not board.step(f"{slug}: move {index}"):
                break
        if board.game_id is None:
            return
        board.page(f"{slug}: the game page")
        board.post(f"{slug}: undo", action="undo")
        board.post(f"{slug}: new deal asks first", action="new")
        if PRESET_GAMES.get(slug) == "gaps":
            board.post(f"{slug}: redeal asks first", action="redeal")
            board.post(f"{slug}: redeal confirmed", action="confirm-redeal")
        board.page(f"{slug}: the game page at the end")
        self.get(f"{slug}: replay", me, f"/g/{board.game_id}/replay")

    def finished_games(self, me, other, won: str, lost: str) -> None:
        self.get("replay of the win", me, f"/g/{won}/replay")
        self.get("replay of the win, start", me, f"/g/{won}/replay?ply=0")
        self.get("replay of the win, move 3", me, f"/g/{won}/replay?ply=3")
        self.get("replay of the win, move 5, htmx", me, f"/g/{won}/replay?ply=5", htmx=True)
        self.get("the lost game, watched", me, f"/games/{lost}")
        self.get("the lost game's analysis, watched", me, f"/games/{lost}/analysis", htmx=True)
        self.get("replay of the loss", me, f"/g/{lost}/replay")
        self.get("the won game, watched", other, f"/games/{won}")
        self.get("deal page of the win", me, f"/deal/pyramid/{WIN_SEED}")
        self.get("deal page of the win, shared", other, f"/deal/pyramid/{WIN_SEED}?from={won}")
        self.get("deal page of the loss", me, f"/deal/pyramid/{LOSE_SEED}")
        self.get("stats after games", me, "/stats")
        self.get("home after games", me, "/")

    def daily(self, me, other, slugs: list[str]) -> None:
        for slug in slugs:
            response = self.get(f"daily {slug}", me, f"/daily/{slug}")
            self.follow(f"daily {slug}: the deal", me, response)
        board = Board(self, me, self.responses[f"{self.language}/daily pyramid"]["headers"]["location"],
                      self.responses[f"{self.language}/daily pyramid: the deal"]["body"])
        for index in range(3):
            board.step(f"daily pyramid: move {index}")
        self.get("daily pyramid, played", me, "/daily/pyramid")
        self.get("daily table pyramid", me, "/daily/pyramid/table")
        self.get("daily table pyramid, watched", other, "/daily/pyramid/table")
        self.get("home with a daily deal in play", me, "/")

    def profile_and_settings(self, me, other, won: str) -> None:
        page = self.get("profile", me, "/profile").text
        self.post("profile: a name", me, "/profile/name", data={"csrf_token": csrf_of(page), "display_name": "Ada"})
        self.post("profile: a device link", me, "/profile/device-link", data={"csrf_token": csrf_of(page)})
        page = self.get("profile with a name and a link", me, "/profile").text
        link = re.search(r'value="http://testserver(/link/[^"]+)"', page)
        if link:
            self.get("the device link, opened elsewhere", other, link.group(1))
        self.get("deal page of the win, with a name", other, f"/deal/pyramid/{WIN_SEED}?from={won}")
        self.post("settings: four colours, zen, dark, timed", me, "/prefs",
                  data={"csrf_token": csrf_of(page), "scoring": "timed", "zen": "true", "four_colour": "true",
                        "theme": "dark", "next": "/profile"})
        self.get("profile with settings", me, "/profile")
        self.get("a deal with settings", me, "/play/giza/12")
        self.get("the end screen with settings", me, f"/games/{won}")
        self.get("home with settings", me, "/")
        self.post("settings: winnable-only", me, "/prefs/winnable-only",
                  data={"csrf_token": csrf_of(page), "winnable_only": "on", "next": "/"})
        self.get("home, winnable-only", me, "/")
        self.post("settings: language", me, "/prefs/language",
                  data={"csrf_token": csrf_of(page), "language": self.language, "next": "/stats"})

    def api(self, api, auth: dict, won: str, lost: str) -> None:
        self.get("api: the won game (another player's)", api, f"/api/games/{won}", headers=auth)
        self.get("api: my stats", api, "/api/players/me/stats", headers=auth)
        self.get("api: a deal", api, f"/api/deals/pyramid/{WIN_SEED}", headers=auth)
        self.get("api: the daily deal", api, "/api/daily/pyramid", headers=auth)
        self.get("api: no token", api, f"/api/games/{lost}")
        self.get("api: no such game", api, "/api/games/nope", headers=auth)

    def errors(self, me, other, won: str) -> None:
        self.get("404 page", me, "/no-such-page")
        self.get("404 rules", me, "/rules/chess")
        self.get("bad seed", me, "/play/pyramid/abc")
        self.get("no such game", me, "/games/does-not-exist")
        self.get("unknown preset", me, "/play/nope/1")
        self.get("bad deal", me, "/play/pyramid?deal=ZZ+4D")
        deck = [f"{rank}{suit}" for suit in "CDHS" for rank in "A23456789TJQK"]
        self.get("deal with a card twice", me, "/play/pyramid?deal=" + "+".join(["4D", *deck]))
        self.get("deal too short", me, "/play/pyramid?deal=" + "+".join(deck[:-3]))
        self.get("imported deal", me, "/play/pyramid?deal=" + "+".join(deck))
        self.get("lobby's seed form", me, "/play?preset=giza&seed=42")
        self.post("no CSRF token", me, "/prefs", data={"zen": "true"})
        page = self.get("the won game, watched again", other, f"/games/{won}").text
        self.post("another player's move", other, f"/games/{won}/act",
                  data={"csrf_token": csrf_of(page), "action": "undo", **board_of(page)}, htmx=True)


PRESET_GAMES: dict[str, str] = {}


def recorded(response) -> dict:
    kind = response.headers.get("content-type", "")
    text = kind.startswith(("text/", "application/json", "application/manifest")) or not response.content
    body = response.text if text else "sha256:" + hashlib.sha256(response.content).hexdigest()
    return {"status": response.status_code, "headers": {k: response.headers[k] for k in KEPT_HEADERS
                                                        if k in response.headers},
            "body": body}


def player_ids(client) -> set[str]:
    """The player ids the client's signed cookies name (itsdangerous: base64 JSON, then a dot)."""
    ids = set()
    for cookie in client.cookies.jar:
        if cookie.name == "tretten_player" and cookie.value:
            payload = cookie.value.split(".")[0]
            try:
                named = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            except ValueError:
                continue
            named = named[0] if isinstance(named, list) and named else named
            if isinstance(named, str) and re.fullmatch(r"[\w-]{12}", named):  # a public id (models.new_public_id)
                ids.add(named)
    return ids


# what is random by nature, found in the responses; a label replaces each, in order of appearance
RANDOM_VALUES = {
    "id": [r"/games/([\w-]{12})(?![\w-])", r"/g/([\w-]{12})(?![\w-])", r'data-game-id="([\w-]{12})"',
           r"from=([\w-]{12})(?![\w-])", r'"(?:id|player_id|game_id)": ?"([\w-]{12})"'],
    "token": [r'"token": ?"([\w-]{20,})"', r"/link/([\w.~-]{16,})"],
    "csrf": [r'name="csrf_token" value="([0-9a-f]{64})"', r'"X-CSRF-Token": ?"([0-9a-f]{64})"'],
}


def normalise(responses: dict, known_ids: set[str]) -> dict:
    found: dict[str, str] = {}  # value -> kind, in order of first appearance
    for response in responses.values():
        for text in [response["body"], *response["headers"].values()]:
            hits = []
            for kind, patterns in RANDOM_VALUES.items():
                for pattern in patterns:
                    hits += [(m.start(1), m.group(1), kind) for m in re.finditer(pattern, text)]
            hits += [(m.start(), m.group(0), "id") for value in known_ids for m in re.finditer(re.escape(value), text)]
            for _, value, kind in sorted(hits):
                found.setdefault(value, kind)
    if not found:
        return responses
    counts: dict[str, int] = {}
    labels = {}
    for value, kind in found.items():
        counts[kind] = counts.get(kind, 0) + 1
        labels[value] = f"<{kind}-{counts[kind]}>"
    pattern = re.compile("|".join(re.escape(v) for v in sorted(labels, key=len, reverse=True)))
    swap = lambda text: pattern.sub(lambda m: labels[m.group(0)], text)  # noqa: E731
    return {name: {"status": r["status"], "headers": {k: swap(v) for k, v in r["headers"].items()},
                   "body": swap(r["body"])} for name, r in responses.items()}


def render(tree: Path, out: Path) -> None:
    global CLOCK
    import logging
    import warnings
    warnings.simplefilter("ignore")
    sys.path.insert(0, str(tree))
    import app
    assert Path(app.__file__).resolve().is_relative_to(tree.resolve()), f"imported {app.__file__}, not {tree}"

    from app.db.migrate import upgrade_to_head
    from app.engine import PRESETS
    from app.settings import Settings
    from app.web.main import create_app

    PRESET_GAMES.update({slug: preset.game for slug, preset in PRESETS.items()})
    CLOCK = Clock()
    frozen = frozen_types()
    responses: dict = {}
    known_ids: set[str] = set()
    for language in LANGUAGES:
        CLOCK.reset()
        seed_secrets(f"render-compare {language}")
        data_dir = Path(tempfile.mkdtemp(prefix=f"render-{language}-"))
        settings = Settings(data_dir=data_dir, database_url=f"sqlite:///{data_dir / 'app.sqlite3'}",
                            secret_key="render-compare-secret-of-at-least-32-characters", solver_processes=0,
                            games_per_minute=1000, new_players_per_address=0, new_players_total=0,
                            new_games_per_address=0, new_games_total=0)
        freeze_modules(frozen)
        upgrade_to_head(settings)
        application = create_app(settings)
        logging.disable(logging.CRITICAL)  # the request log: noise here
        run = Run(application, language, responses, frozen)
        run.script()
        for client in run.clients:
            known_ids |= player_ids(client)
        shutil.rmtree(data_dir, ignore_errors=True)
    out.write_text(json.dumps(normalise(responses, known_ids), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    sys.exit(main())
