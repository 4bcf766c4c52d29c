"""Everything a game page or board fragment shows, gathered for the template."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from fastapi import Request
from starlette.responses import Response

from app.db.models import Game, Player
from app.engine import PRESETS, GameRecord
from app.services import board as board_service
from app.services.board import Announcement
from app.services.games import elapsed_seconds, record_of

from .solver_view import solver_context
from .templating import is_htmx, render

BOARD_BLOCKS = ["board", "announce_oob", "share"]  # share: out of band (hx-swap-oob)
SAME_SHARE_BLOCKS = BOARD_BLOCKS[:-1]


@dataclass(frozen=True)
class Feedback:
    """What to tell the player along with the board."""

    note: str | None = None          # message key
    error: str | None = None         # message key of a refused action
    detail: str | None = None        # the engine's precise reason, if any
    announcement: Announcement | None = None
    confirm_redeal: bool = False


def share_path(game: Game) -> str:
    if game.seed is not None:
        return f"/play/{game.preset}/{game.seed}"
    return f"/play/{game.preset}?deal={quote(game.deal)}"


def share_url(request: Request, game: Game, status: str) -> str:
    # after the game a seeded deal's link leads to its deal page (results, verdict, "play")
    return str(request.base_url).rstrip("/") + (
        f"/deal/{game.preset}/{game.seed}" if game.seed is not None and status != "playing" else share_path(game))


def game_context(request: Request, game: Game, record: GameRecord, player: Player | None,
                 selected: str | None, feedback: Feedback, with_share: bool = True) -> dict:
    """``with_share``: the share block is drawn (a page, or a fragment whose link changed)."""
    preset = PRESETS[game.preset]
    language = request.state.language
    position = record.position
    is_owner = player is not None and player.id == game.player_id
    return {
        "game": game,
        "record": record,
        "preset": preset,
        "preset_name": preset.name(language),
        "preset_summary": preset.summary.get(language, preset.summary["en"]),
        "board": board_service.board_for(position, selected if is_owner else None),
        "status": position.status,
        "end_reason": board_service.end_reason(position),
        "is_owner": is_owner,
        "zen": bool(is_owner and player.zen),
        "elapsed": elapsed_seconds(game),
        "timer_running": game.started_at is not None and game.finished_at is None,
        # also in the board of a watcher ("play this deal yourself")
        "share_url": share_url(request, game, position.status) if with_share or not is_owner else "",
        "feedback": feedback,
    }


def render_game(request: Request, game: Game, player: Player | None, *, selected: str | None = None,
                feedback: Feedback = Feedback(), status_code: int = 200, fragment: bool | None = None,
                extra: dict | None = None, share_changed: bool = True) -> Response:
    """The game page, or for htmx the board fragment with the live announcement and, unless
    the caller knows it is unchanged (``share_changed``), the share link out of band."""
    record = record_of(game)
    as_fragment = is_htmx(request) if fragment is None else fragment
    blocks = (BOARD_BLOCKS if share_changed else SAME_SHARE_BLOCKS) if as_fragment else None
    context = game_context(request, game, record, player, selected, feedback,
                           with_share=blocks is None or "share" in blocks)
    # hints, "still winnable?", auto-finish, post-game analysis (app/web/solver_view.py)
    context.update(solver_context(game, record, player))
    context.update(extra or {})
    context["share_oob"] = as_fragment
    return render(request, "game.html", context, blocks=blocks, status_code=status_code)
