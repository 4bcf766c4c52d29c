"""The offline engine (docs/architecture.md, "Offline") as the server's Python runs it: the board
it draws is the server's to the byte, its bundle runs alone (no Babel, no FastAPI, nothing of
the virtualenv), and the service worker's files are all there. The browser half, Pyodide against
the server's engine, is tests/browser/test_offline_rules.py."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile

import pytest
from fastapi.testclient import TestClient

from app import i18n
from app.engine import PRESETS, actions
from app.settings import PROJECT_ROOT
from app.web.views import offline_engine, templating
from app.web.views.offline_bundle import engine_url, engine_zip

from ..helpers import HX, csrf_of, first_move
from ..play import WIN_LINE, WIN_SEED

pytestmark = pytest.mark.sqlite_only  # what is drawn, not how it is stored


@pytest.fixture
def client(app):
    with TestClient(app) as client:
        yield client


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_offline_board_is_the_servers_board(client, preset, language):
    page = client.get(f"/play/{preset}/42", headers={"Accept-Language": language}).text
    state = offline_engine.board({"preset": preset, "deal": {"seed": 42}, "language": language})
    for part in ("figures", "layout", "controls"):
        assert state["board"][part] in page, part


def test_the_offline_engine_leaves_the_language_as_it_found_it():
    """It draws in the language it is asked for, and only while it draws: a language left set
    would write the next work done outside a request in it (a test's "99,6" for "99.6")."""
    with i18n.language_of("en"):
        offline_engine.board({"preset": "pyramid", "deal": {"seed": 42}, "language": "da"})
        offline_engine.apply({"preset": "pyramid", "deal": {"seed": 42}, "language": "sv", "tap": {"action": "draw"}})
        assert i18n.current_language() == "en"


def test_a_tap_offline_plays_what_the_server_plays(client):
    """The same tap on the same deal: the server stores the move the offline engine answers,
    and draws the board the offline engine drew."""
    answer = offline_engine.apply({"preset": "pyramid", "deal": {"seed": 7}, "tap": {"action": "draw"}})
    _, response = first_move(client, "/play/pyramid/7", action="draw")
    assert answer["played"] == "D" and answer["moves"] == ["D"]
    assert answer["board"]["layout"] in response.text
    pair = next(m for m in answer["legal"] if "+" in m)
    first, second = pair.split("+")
    selected = offline_engine.apply({"preset": "pyramid", "deal": {"seed": 7}, "moves": ["D"],
                                     "tap": {"target": first}})
    assert selected["played"] is None and selected["selected"] == first
    removed = offline_engine.apply({"preset": "pyramid", "deal": {"seed": 7}, "moves": ["D"], "sel": first,
                                    "tap": {"target": second}})
    assert removed["played"] == pair and removed["cursor"] == 2 and removed["can_undo"]
    undone = offline_engine.apply({"preset": "pyramid", "deal": {"seed": 7}, "moves": removed["moves"],
                                   "tap": {"action": "undo"}})
    assert undone["cursor"] == 1 and undone["moves"] == removed["moves"] and undone["can_redo"]


def test_a_redeal_that_gives_up_moves_asks_first_offline_as_the_server_does(client):
    """Gaps seed 21 at the deal: cards can still be moved, so a redeal is a question (its words,
    nothing played), and its yes plays it; the server's board asks the same first."""
    deal = {"preset": "gaps", "deal": {"seed": 21}}
    asked = offline_engine.apply(deal | {"tap": {"action": "redeal"}})
    assert asked["played"] is None and asked["moves"] == [] and asked["note"] == "confirm_redeal"
    assert asked["note_words"] == "Cards can still be moved. Redeal anyway?"
    page = client.get("/play/gaps/21")
    response = client.post("/play/gaps/21", data={"csrf_token": csrf_of(page.text), "action": "redeal"}, headers=HX)
    assert response.status_code == 200 and 'data-confirm="redeal"' in response.text
    yes = offline_engine.apply(deal | {"tap": {"action": "confirm-redeal"}})
    assert yes["played"] == "N" and yes["moves"] == ["N"]


def test_a_won_game_takes_no_undo_offline_as_the_server_refuses_it(client):
    """A win is final: the offline engine greys undo and redo on the winning move's board and
    refuses an undo, as the server does (the board's buttons are the server's to the byte)."""
    deal = {"preset": "pyramid", "deal": {"seed": WIN_SEED}}
    won = offline_engine.apply(deal | {"moves": WIN_LINE[:-1], "tap": {"move": WIN_LINE[-1]}})
    assert won["status"] == "won" and not won["can_undo"] and not won["can_redo"]
    with pytest.raises(ValueError, match="a win is final"):
        offline_engine.apply(deal | {"moves": won["moves"], "tap": {"action": "undo"}})
    before = offline_engine.apply(deal | {"moves": WIN_LINE, "cursor": len(WIN_LINE) - 1, "tap": {"action": "redo"}})
    assert before["status"] == "won" and not before["can_undo"]
    assert offline_engine.board(deal | {"moves": WIN_LINE, "cursor": len(WIN_LINE) - 1})["can_undo"]


def test_a_new_deal_asks_first_offline_where_the_server_asks(client):
    """A new deal counts a game in play as lost: the offline engine answers the server's
    question where the server's board asks it (after a move, even undone), and nothing where it
    does not (before a move, after the game's end); it plays nothing either way."""
    deal = {"preset": "pyramid", "deal": {"seed": WIN_SEED}}
    cases = {(): False, (WIN_LINE[0],): True, tuple(WIN_LINE): False}
    for moves_made, asks in cases.items():
        answer = offline_engine.apply(deal | {"moves": list(moves_made), "tap": {"action": "new"}})
        assert (answer["note"] == "confirm_new") is asks, moves_made
        assert answer["played"] is None and answer["moves"] == list(moves_made)
        yes = offline_engine.apply(deal | {"moves": list(moves_made), "tap": {"action": "confirm-new"}})
        assert yes["note"] is None and yes["played"] is None
    undone = offline_engine.apply(deal | {"moves": WIN_LINE[:1], "cursor": 0, "tap": {"action": "new"}})
    assert undone["note"] == "confirm_new"
    assert undone["note_words"] == "Start a new deal? This game is not finished: it counts as lost."
    page = client.get(f"/play/pyramid/{WIN_SEED}")
    first, second = WIN_LINE[0].split("+")
    client.post(f"/play/pyramid/{WIN_SEED}", data={"csrf_token": csrf_of(page.text), "target": first}, headers=HX)
    moved = client.post(f"/play/pyramid/{WIN_SEED}", data={"csrf_token": csrf_of(page.text), "target": second,
                                                            "sel": first}, headers=HX)
    game_id = re.search(r'data-game-id="([^"]+)"', moved.text).group(1)
    asked = client.post(f"/games/{game_id}/act", data={"csrf_token": csrf_of(page.text), "action": "new"}, headers=HX)
    assert asked.status_code == 200 and 'data-confirm="new"' in asked.text


def test_the_board_actions_are_the_engines_for_the_server_and_the_page():
    """One definition of what a board action does (app.engine.actions), asked by the server's
    board and the page's engine alike: neither keeps a copy of it."""
    assert "MOVE_OF_ACTION" not in vars(offline_engine)
    assert "app/engine/actions.py" in zipfile.ZipFile(io.BytesIO(engine_zip())).namelist()


@pytest.mark.parametrize("name", ["restart", "give-up", "confirm-draw", "confirm-undo", "hint", ""])
def test_an_action_the_page_makes_only_online_is_refused_offline(name):
    """Restart and giving up wait for the network (docs/lifecycle.md), and a name no board posts
    is no action: the page's engine refuses them as the server refuses an unknown one."""
    with pytest.raises(actions.ActionRefused) as refused:
        offline_engine.apply({"preset": "pyramid", "deal": {"seed": 7}, "moves": ["D"], "tap": {"action": name}})
    assert refused.value.key == "unknown_action"


def test_the_board_is_drawn_in_one_environment_set_up_once():
    """The server's environment and the offline engine's are set up by one function
    (app/web/views/board_templates.py): every global the offline board has, the server's has, the
    same (the words by key apart: the bundle carries them as data)."""
    server, offline = templating.environment, offline_engine.environment()
    assert set(offline.globals) - set(server.globals) == set()
    wrapped = {"message", "gettext", "ngettext", "pgettext", "npgettext"}  # each environment's own callables
    assert {name for name in set(offline.globals) - wrapped if server.globals[name] != offline.globals[name]} == set()
    assert offline.globals["message"]("confirm_new") == server.globals["message"]("confirm_new")
    for option in ("autoescape", "trim_blocks", "lstrip_blocks", "auto_reload"):
        assert getattr(server, option) == getattr(offline, option), option
    assert set(server.extensions) == set(offline.extensions)


def test_a_refused_tap_raises():
    with pytest.raises(Exception, match="nothing to undo"):
        offline_engine.apply({"preset": "gaps", "deal": {"seed": 3}, "tap": {"action": "undo"}})


@pytest.mark.parametrize("language", ["da", "sv"])
def test_the_catalogs_read_without_babel_say_what_babel_reads(language):
    """app.i18n reads the compiled catalogs with the standard library (the offline engine ships
    it without Babel): every text, singular and plural, as Babel's own reader has it."""
    from babel.support import Translations

    catalog = (PROJECT_ROOT / "app" / "locale" / language / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    msgids = [json.loads(m) for m in re.findall(r'^msgid (".+")$', catalog, re.M)]
    plurals = [tuple(json.loads(m) for m in pair)
               for pair in re.findall(r'^msgid (".+")\nmsgid_plural (".+")$', catalog, re.M)]
    assert len(msgids) > 100 and len(plurals) > 5
    babel = Translations.load(str(i18n.LOCALE_DIR), [language], domain="messages")
    ours = i18n.translations_for(language)
    assert [ours.gettext(m) for m in msgids] == [babel.gettext(m) for m in msgids]
    assert ([ours.ngettext(one, many, n) for one, many in plurals for n in (1, 2, 5)]
            == [babel.ngettext(one, many, n) for one, many in plurals for n in (1, 2, 5)])
    assert ours.gettext(msgids[0]) != msgids[0] or language == "en"


def test_the_bundle_runs_alone_and_carries_the_engine_unchanged(tmp_path):
    """Unpacked and run by a Python that sees nothing but the bundle (-I -S: no site-packages),
    it draws what the server's Python draws, in Danish too; its engine is the repository's."""
    with zipfile.ZipFile(io.BytesIO(engine_zip())) as archive:
        archive.extractall(tmp_path)
        names = set(archive.namelist())
    for path in (PROJECT_ROOT / "app" / "engine").glob("*.py"):
        assert (tmp_path / "app" / "engine" / path.name).read_bytes() == path.read_bytes()
    assert (tmp_path / "app" / "i18n.py").read_bytes() == (PROJECT_ROOT / "app" / "i18n.py").read_bytes()
    assert not any(name.endswith(".so") for name in names)
    request = {"preset": "gaps-danish", "deal": {"seed": 11}, "language": "da", "tap": {"target": "0.0"}}
    script = ("import sys, json; sys.path.insert(0, sys.argv[1]); from app.web.views import offline_engine;"
              "print(offline_engine.call('apply', sys.argv[2]))")
    ran = subprocess.run([sys.executable, "-I", "-S", "-c", script, str(tmp_path), json.dumps(request)],
                         capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(ran.stdout) == json.loads(offline_engine.call("apply", json.dumps(request)))
    assert "<dt>Runde</dt>" in json.loads(ran.stdout)["board"]["figures"]  # in Danish


def test_the_service_worker_and_its_files(client):
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and sw.headers["content-type"].startswith("text/javascript")
    # an update waits for the page's word (static/js/offline.js), never takes over by itself
    assert "workbox.core.skipWaiting()" not in sw.text and '"SKIP_WAITING") self.skipWaiting()' in sw.text
    assert sw.headers["cache-control"] == "no-cache"
    workbox = re.search(r'importScripts\("([^"]+)"\)', sw.text).group(1)
    precached = [entry["url"] for entry in json.loads(re.search(r"precacheAndRoute\((\[.*?\])\)", sw.text).group(1))]
    files = client.get("/offline/files.json").json()
    assert files["engine_url"] == engine_url() and files["cache"] in sw.text
    modules = [f"/static/vendor/workbox/workbox-{name}.prod.js"
               for name in ("core", "precaching", "routing", "strategies", "expiration", "cacheable-response")]
    for url in [workbox, *precached, *files["art"], *files["engine"], *modules]:
        assert client.get(url).status_code == 200, url
    zipped = client.get(engine_url())
    assert zipped.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert client.get("/offline/engine.zip?v=old").headers["cache-control"] == "no-cache"
    worker = client.get(next(u for u in precached if "engine-worker" in u))
    assert "'wasm-unsafe-eval'" in worker.headers["content-security-policy"]
    page = client.get("/play/pyramid/1")
    assert "'wasm-unsafe-eval'" not in page.headers["content-security-policy"]
    # nothing of the offline engine on a first visit: only named, for app.js to load later
    assert not re.search(r'<script[^>]+engine', page.text)


def test_a_stored_game_as_the_page_gets_it_is_the_game_the_server_plays(client, app):
    """What the page gives the offline engine for a stored game (GET /offline/games/{id}, its
    player's cookie): the same legal moves and board as the server's; another player gets a 403."""
    deal = {"preset": "gaps-danish", "deal": {"seed": 21}}
    target = next(f"{r}.{c}" for r in range(4) for c in range(13)
                  if offline_engine.apply(deal | {"tap": {"target": f"{r}.{c}"}})["played"])
    game_id, _ = first_move(client, "/play/gaps-danish/21", target=target)
    answer = client.get(f"/offline/games/{game_id}")
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    game = answer.json()
    state = offline_engine.board(game)
    assert state["cursor"] == game["cursor"] == 1 and len(state["legal"]) > 0
    assert state["board"]["layout"] in client.get(f"/games/{game_id}").text
    with TestClient(app) as stranger:
        assert stranger.get(f"/offline/games/{game_id}").status_code == 403
    assert client.get("/offline/games/nosuchgame1").status_code == 404


def test_the_settings_words_come_in_the_pages_language_only_when_asked(client):
    danish = client.get("/offline/words", headers={"Accept-Language": "da"}).json()
    assert danish["ready"].startswith("Klar:") and set(danish) == {"label", "loading", "ready", "failed", "update",
                                                                   "update_label"}
    assert (danish["update"], danish["update_label"]) == ("Ny version", "Ny version: genindlæs")
    page = client.get("/play/pyramid/3").text
    assert "Getting offline play ready" not in page and "Play offline" not in page
