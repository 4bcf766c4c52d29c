"""The game page and its board fragment: what they show, gathered for game.html."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import Request
from starlette.responses import Response

from app.db.models import Game, Player
from app.engine import PRESETS, get_game
from app.services import assist
from app.services.actions import ActionResult
from app.services.boards import BOARDS
from app.services.games import elapsed_seconds
from app.services.records import record_of

from .templating import is_htmx, render

BOARD_BLOCKS = ["board", "announce_oob", "share"]  # share: out of band (hx-swap-oob)


def share_path(game: Game) -> str:
    if game.seed is not None:
        return f"/play/{game.preset}/{game.seed}"
    return f"/play/{game.preset}?deal={quote(game.deal)}"


def share_url(request: Request, game: Game, status: str) -> str:
    # after the game a seeded deal's link leads to its deal page (results, verdict, "play")
    return str(request.base_url).rstrip("/") + (
        f"/deal/{game.preset}/{game.seed}" if game.seed is not None and status != "playing" else share_path(game))


def render_game(request: Request, game: Game, player: Player | None, result: ActionResult | None = None, *,
                fragment: bool | None = None, extra: dict | None = None) -> Response:
    """The game page, or for htmx the board fragment with the live announcement and the share
    link out of band."""
    record = result.record if result is not None else record_of(game)
    result = result or ActionResult(record)
    preset = PRESETS[game.preset]
    language = request.state.language
    position = record.position
    status = position.status
    is_owner = player is not None and player.id == game.player_id
    as_fragment = is_htmx(request) if fragment is None else fragment
    context = {
        "game": game,
        "record": record,
        "result": result,
        "preset": preset,
        "preset_name": preset.name(language),
        "preset_summary": preset.summary.get(language, preset.summary["en"]),
        "board": BOARDS[get_game(game.game).family](position, result.selected if is_owner else None),
        "status": status,
        "end_reason": position.end_reason,
        "is_owner": is_owner,
        "zen": bool(is_owner and player is not None and player.zen),
        "elapsed": elapsed_seconds(game),
        "timer_running": game.started_at is not None and game.finished_at is None,
        "share_url": share_url(request, game, status),
        "share_oob": as_fragment,
        # the solver's part: hints, "still winnable?", auto-finish, post-game analysis
        "can_hint": bool(is_owner and status == "playing"),
        "status_placeholder": assist.wants_status(game, player, record),
        "winnable_indicator": bool(is_owner and player is not None and player.winnable_indicator),
        "analysis_placeholder": status != "playing",
        "hint": None,
        "solver_status": None,
        "analysis": None,
        **(extra or {}),
    }
    return render(request, "game.html", context, blocks=BOARD_BLOCKS if as_fragment else None,
                  status_code=result.status_code)
