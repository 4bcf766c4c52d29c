"""The rules in the page: what the page's offline engine (Pyodide in a Web Worker,
static/js/engine-worker.js) runs, over the app's own ``app/engine`` and the board's own view
models and templates (app/web/views/boards.py, templates/boards/, templates/_cards.html).

Nothing here decides a rule: a tap means what ``Variant.tap`` says, a move is the engine's, the
board is ``boards.board_of`` drawn by the server's macros. It needs only the standard library,
the engine, Jinja2 and MarkupSafe (the bundle, app/web/views/offline_bundle.py, ships exactly these),
so the server's tests run it as it is (tests/web/test_offline_engine.py) and the browser's
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

from jinja2 import Environment, FileSystemLoader

from app import i18n
from app.engine import DRAW, RECYCLE, REDEAL, GameRecord, IllegalMoveError, Move, Status, get_game, get_preset, trace
from app.engine.pyramid import PAIR_TOTAL, pair_total, value

from . import boards
from .card_words import card_name, card_symbol, rank_label, suit_name, suit_symbol

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).resolve().parent / "offline_data.json"  # written into the bundle only

# the board's buttons that play a move, as app/services/play/moves.py names them
# (tests/web/test_offline_engine.py holds the two equal)
MOVE_OF_ACTION: dict[str, Move] = {"draw": DRAW, "recycle": RECYCLE, "redeal": REDEAL}


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
    data = page_data()
    texts = data["texts"]
    env = Environment(loader=FileSystemLoader(str(ROOT / "templates")), extensions=["jinja2.ext.i18n"],
                      autoescape=True, trim_blocks=True, lstrip_blocks=True, auto_reload=False)
    env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext, npgettext=i18n.npgettext)
    env.globals.update(
        COURT_FIGURES=data["figures"], COURT_SHEET=data["sheet"],
        message=lambda key, reason=None: i18n.gettext(texts[key]) if key in texts else (key or ""),
        card_name=card_name, card_symbol=card_symbol, suit_name=suit_name, rank_label=rank_label,
        suit_symbol=suit_symbol, card_value=value, pair_total=pair_total, PAIR_TOTAL=PAIR_TOTAL,
    )
    return env


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


def _final(record: GameRecord) -> bool:
    """A won game takes no undo or redo: a win is final, as the server refuses them
    (``app.services.play.lifecycle.check``) and greys its buttons."""
    return record.position.status is Status.WON


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
        "can_undo": record.can_undo and not _final(record),
        "can_redo": record.can_redo and not _final(record),
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
    selection ``sel``), ``{"action": "draw" | "recycle" | "redeal" | "confirm-redeal" | "undo" |
    "redo"}`` or ``{"move": notation}``; a redeal that gives up moves plays nothing and answers
    the note ``confirm_redeal`` (its question), until it comes as ``confirm-redeal``; ``new``
    (a new deal) plays nothing, and answers the note ``confirm_new`` where it would count a game
    in play as lost, until it comes as ``confirm-new``. Answers
    the new moves and cursor (a move drops the redo tail), the move played (``played``, None for
    a selection), the selection, the note (a message key and its words) and the board drawn as
    the server draws it. A tap the rules refuse raises."""
    record = record_of(request["preset"], request["deal"], request.get("moves", []), request.get("cursor"),
                       request.get("rules"))
    tap = request["tap"]
    selected = request.get("sel") or None
    played: Move | None = None
    note = None
    if "target" in tap:
        answer = record.variant.tap(record.position, selected, str(tap["target"]))
        if answer.move is not None:
            played, selected = answer.move, None
        else:
            selected, note = answer.selected, answer.note
    elif tap.get("action") in ("new", "confirm-new"):
        # a new deal counts a game in play (moves made, still playing) as lost, so it asks first,
        # as the server's board does (``moves._asks_first``); the answer plays nothing either way:
        # without the question the page goes on to its new deal
        if tap["action"] == "new" and record.moves and record.position.status is Status.PLAYING:
            note = "confirm_new"
        selected = None
    elif tap.get("action") in ("undo", "redo") and _final(record):
        raise IllegalMoveError("the game is won: a win is final")
    elif tap.get("action") == "undo":
        record, selected = record.undo(), None
    elif tap.get("action") == "redo":
        record, selected = record.redo(), None
    elif "move" in tap:
        played, selected = record.position.parse_move(str(tap["move"])), None
    else:
        # ``confirm-redeal``: the player said yes to the question a redeal that gives up moves
        # asks first (``gives_up_moves``), as the server's board asks it
        action = str(tap["action"])
        move, selected = MOVE_OF_ACTION[action.removeprefix("confirm-")], None
        if action in MOVE_OF_ACTION and record.position.gives_up_moves(move):
            note = f"confirm_{action}"
        else:
            played = move
    if played is not None:
        record = record.play(played)
    with i18n.language_of(request.get("language", "en")):
        state = _state(record, selected, bool(request.get("four_colour")), True)
        texts = page_data()["texts"]
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
