"""The rules in the page: what the page's offline engine (Pyodide in a Web Worker,
static/js/engine-worker.js) runs, over the app's own ``app/engine`` and the board's own view
models and templates (app/web/views/boards.py, templates/boards/, templates/_cards.html).

Nothing here decides a rule: what a board action or a tap does is ``app.engine.actions.step``,
the one the server's board asks too (app/services/play/moves.py), a move is the engine's, the
board is ``boards.board_of`` drawn by the server's macros in an environment set up as the
server's (app/web/views/board_templates.py). It needs only the standard library,
the engine, Jinja2 and MarkupSafe (the bundle, app/web/views/offline_bundle.py, ships exactly these),
so the server's tests run it as it is (tests/web/views/test_offline_engine.py) and the browser's
(tests/browser/test_offline_rules.py) hold the two interpreters to the same answers.

Every call takes and returns JSON-ready values: a game is its preset, its deal (``{"seed": n}``
or ``{"text": "…"}``, the notation), its moves (notation, ``moves[:cursor]`` played) and, for a
stored game, its own ``rules`` (``GET /offline/games/{id}`` answers all of these).
"""

from __future__ import annotations

import hashlib
import json
import random
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment

from app import i18n
from app.engine import GameRecord, Move, actions, get_game, get_preset, trace

from . import board_templates, boards

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).resolve().parent / "offline_data.json"  # written into the bundle only


def page_data() -> dict[str, Any]:
    """What the board's templates take from the server's templating: the words pages say by key
    and the court figures' hashed addresses (the bundle carries them as JSON)."""
    if DATA.is_file():
        return json.loads(DATA.read_text(encoding="utf-8"))
    from . import templating  # the server: the same values, live

    return {"texts": {str(key): text for key, text in templating.TEXTS.items()},
            "figures": templating.COURT_FIGURES, "sheet": templating.COURT_SHEET}


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The board's environment as the server's is set up (``board_templates``), with the words
    and figures the bundle carries."""
    data = page_data()
    texts = data["texts"]
    return board_templates.environment(
        ROOT / "templates", figures=data["figures"], sheet=data["sheet"],
        message=lambda key, reason=None: i18n.gettext(texts[key]) if key in texts else (key or ""))


# one template that draws the parts of the board the game page draws with the family's macros
PARTS = """{% from "boards/" ~ board.family ~ ".html" import figures, layout, controls, cascade with context %}
{%- set parts = {"figures": figures(board)|string, "layout": layout(board, play)|string,
                 "controls": controls(board)|string, "cascade": cascade(board)|string} -%}
{{ parts|tojson }}"""


@lru_cache(maxsize=1)
def parts_template():
    return environment().from_string(PARTS)


def record_of(preset: str, deal: dict[str, Any], moves: list[str], cursor: int | None = None,
              rules: dict[str, str] | None = None) -> GameRecord:
    """The game after ``moves``, under its preset's rules or the stored game's own ``rules``
    (its options, as ``GET /offline/games/{id}`` says them); the page asks again and again about one
    game, a move longer each time, so the last game replayed is kept and only the moves after
    it are played."""
    key = (preset, json.dumps([deal, rules], sort_keys=True))
    kept = _last.get(key)
    if kept is not None and list(kept.played_text.split()) == moves[:kept.cursor] and kept.cursor == len(kept.moves):
        record = kept
    else:
        chosen = get_preset(preset)
        variant = chosen.variant
        cards = variant.deal(int(deal["seed"])) if "seed" in deal else variant.parse_deal(str(deal["text"]))
        record = GameRecord.new(variant.name, variant.parse_rules(rules) if rules else chosen.rules, cards)
    for token in moves[record.cursor:]:
        record = record.play(token)
    _last.clear()
    _last[key] = record
    return record if cursor is None else record.at(cursor)


_last: dict[tuple[str, str], GameRecord] = {}


def _state(record: GameRecord, selected: str | None, four_colour: bool, play: bool) -> dict[str, Any]:
    position = record.position
    board = boards.board_of(position, selected)
    context = {"board": board, "play": play and position.status == "playing",
               "player": {"four_colour": four_colour}}
    parts = json.loads(parts_template().render(context))
    return {
        "moves": [str(m) for m in record.moves],
        "cursor": record.cursor,
        "selected": board.selected,
        "status": str(position.status),
        "end_reason": str(position.end_reason) if position.end_reason else None,
        "legal": sorted(str(m) for m in position.legal_moves()),
        "can_undo": record.can_undo and not actions.final(record),  # a win is final
        "can_redo": record.can_redo and not actions.final(record),
        "board": parts,
    }


def legal(preset: str, deal: dict[str, Any], moves: list[str], rules: dict[str, str] | None = None) -> list[str]:
    """The legal moves after ``moves``, in notation, sorted."""
    return sorted(str(m) for m in record_of(preset, deal, moves, rules=rules).position.legal_moves())


def board(request: dict[str, Any]) -> dict[str, Any]:
    """The board after the request's moves (``cursor``: how many are played, all unless said)."""
    record = record_of(request["preset"], request["deal"], request.get("moves", []), request.get("cursor"),
                       request.get("rules"))
    with i18n.language_of(request.get("language", "en")):
        return _state(record, request.get("sel") or None, bool(request.get("four_colour")), True)


def apply(request: dict[str, Any]) -> dict[str, Any]:
    """What one tap does: ``tap`` is ``{"target": place}`` (a card or a gap, with the page's
    selection ``sel``), ``{"action": name}`` (a board action the page's engine answers,
    ``Action.offline``: "draw", "recycle", "redeal", "undo", "redo", "new", and "confirm-" and one
    that asks first, its yes) or ``{"move": notation}``. What an action does is the engine's
    (``app.engine.actions.step``), as the server's board asks it (app/services/play/moves.py):
    a redeal that gives up moves, or a new deal while the game is in play, plays nothing and
    answers its question as the note (``confirm_redeal``, ``confirm_new``) until it comes as
    "confirm-" and its name; a new deal plays nothing either way (the page deals it). Answers
    the new moves and cursor (a move drops the redo tail), the move played (``played``, None for
    a selection), the selection, the note (a message key and its words) and the board drawn as
    the server draws it. A tap the rules refuse raises (``actions.ActionRefused``)."""
    record = record_of(request["preset"], request["deal"], request.get("moves", []), request.get("cursor"),
                       request.get("rules"))
    tap = request["tap"]
    if "move" in tap:
        move = record.position.parse_move(str(tap["move"]))  # a move named, as the engine plays it
        done = actions.Step(actions.play(record, move), move=move)
    else:
        action, confirmed = actions.read_action(str(tap.get("action", "")), str(tap.get("target", "")),
                                                actions.OFFLINE_ACTIONS)
        done = actions.step(record, action, target=str(tap.get("target", "")), selected=request.get("sel") or None,
                            confirmed=confirmed)
    played: Move | None = done.move
    with i18n.language_of(request.get("language", "en")):
        state = _state(done.record, done.selected, bool(request.get("four_colour")), True)
        texts = page_data()["texts"]
        note = done.note
        return state | {"played": str(played) if played is not None else None, "note": note,
                        "note_words": i18n.gettext(texts[note]) if note in texts else None}


def digest(position) -> str:
    """One position as the replay's trace says it (status, sorted legal moves, score, the
    position's JSON: ``app.engine.trace``), hashed: what the equality test compares."""
    return _digested(trace(position))


def _digested(said: dict[str, Any]) -> str:
    text = json.dumps(said, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def random_games(preset: str, first_seed: int, count: int, max_plies: int = 400) -> list[dict[str, Any]]:
    """``count`` games of seeded deals ``first_seed``… played by random legal moves (a random
    generator seeded by the deal's seed, so a run is repeatable): each game's moves and the
    digest of every position on the way, its first included. The move is chosen from the legal
    moves the trace lists, so each position's rules are asked once."""
    games = []
    chosen = get_preset(preset)
    for seed in range(first_seed, first_seed + count):
        rng = random.Random(seed)  # nosec B311 - random play, no secret
        position = chosen.variant.new_position(chosen.variant.deal(seed), chosen.rules)
        said = trace(position)
        moves: list[str] = []
        digests = [_digested(said)]
        while said["status"] == "playing" and len(moves) < max_plies:
            token = said["legal"][rng.randrange(len(said["legal"]))]
            position = position.apply(position.parse_move(token))
            said = trace(position)
            moves.append(token)
            digests.append(_digested(said))
        games.append({"seed": seed, "moves": moves, "digests": digests})
    return games


def traces(cases: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The replay trace of each test vector (``game``, ``options``, ``deal``, ``moves``), as
    ``tretten replay --trace`` prints it."""
    out = []
    for case in cases:
        variant = get_game(case["game"])
        record = GameRecord.new(variant.name, variant.parse_rules(case["options"]), variant.parse_deal(case["deal"]))
        traced = [trace(record.position)]
        for token in case["moves"].split():
            record = record.play(token)
            traced.append(trace(record.position))
        out.append(json.loads(json.dumps(traced, default=str)))
    return out


def call(name: str, payload: str) -> str:
    """The worker's one entry: a function of this module by name, its argument and answer as JSON."""
    functions = {"legal": lambda p: legal(p["preset"], p["deal"], p.get("moves", []), p.get("rules")), "board": board,
                 "apply": apply, "random_games": lambda p: random_games(p["preset"], p["first_seed"], p["count"]),
                 "traces": lambda p: traces(p["cases"])}
    return json.dumps(functions[name](json.loads(payload)), default=str)
