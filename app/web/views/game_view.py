"""The game page and its board fragment: what they show, gathered for game.html."""

from __future__ import annotations

import dataclasses
from urllib.parse import quote

from fastapi import Request
from sqlalchemy.orm import Session
from starlette.responses import Response

from app.db.models import Game, Player
from app.engine import PRESETS, IllegalMoveError, InvalidMoveError, Status, get_game
from app.engine.announcements import Announcement, describe
from app.services.assist import assist
from app.services.play import daily, lifecycle
from app.services.play.games import OnTable, record_of
from app.services.play.moves import ActionResult
from app.services.stats import stats
from app.web.views import sharing
from app.web.views.boards import board_of, marks
from app.web.views.templating import absolute, is_htmx, render

BOARD_BLOCKS = ["board", "announce_oob", "share", "streak_oob"]  # the last two: out of band (hx-swap-oob)


def share_path(game: Game) -> str:
    """The deal's link, which shows it ready to play."""
    if game.seed is not None:
        return f"/play/{game.preset}/{game.seed}"
    return f"/play/{game.preset}?deal={quote(game.deal)}"


def hint_path(game: Game, stored: bool) -> str:
    """Where the board's Hint posts: the game's, or a deal's ready to play (the hint stores it)."""
    if stored:
        return f"/games/{game.id}/hint"
    if game.seed is not None:
        return f"/play/{game.preset}/{game.seed}/hint"
    return f"/play/{game.preset}/hint?deal={quote(game.deal)}"


def share_url(request: Request, game: Game, finished: bool) -> str:
    # after the game a seeded deal's link leads to its deal page (results, verdict, "play")
    return absolute(request, f"/deal/{game.preset}/{game.seed}" if game.seed is not None and finished
                    else share_path(game))


def share_result(request: Request, game: Game, position, language: str, **scored) -> dict[str, str]:
    """The end screen's result to share, and its link: the deal page with this game as its
    origin (it leads with this result), or an imported deal's own link (it has no deal page).
    ``scored``: the deal's par and the game's place on the day's table (sharing.share_text)."""
    path = f"/deal/{game.preset}/{game.seed}?from={game.id}" if game.seed is not None else share_path(game)
    url = absolute(request, path)
    return {"text": sharing.share_text(game, position, language, url, **scored), "url": url}


def render_game(request: Request, game: Game, player: Player | None, result: ActionResult | None = None, *,
                fragment: bool | None = None, extra: dict | None = None, replacing: Game | None = None,
                headers: dict[str, str] | None = None, status_code: int = 200) -> Response:
    """The game page, or for htmx the board fragment with the live announcement and the share
    link out of band. A deal ready to play (not stored yet: ``games.pending``) posts its board
    to its own share link; ``replacing`` is the player's game its first move counts as lost."""
    table = OnTable.of(game, result.record if result is not None else None)
    result = result or ActionResult(table.record)
    preset = PRESETS[game.preset]
    language = request.state.language
    is_owner = player is not None and player.id == game.player_id
    # a game that is over keeps its form for what comes after it ("Try again from here"): its
    # undo, redo and cards say themselves that they take nothing
    can_act = is_owner
    as_fragment = is_htmx(request) if fragment is None else fragment
    # the game on the table is one value: the templates read its phase, status, end reason,
    # record, time, undo and redo from ``table`` (table.phase, table.record.cursor, ...)
    context = {
        "game": game,
        "table": table,
        "act_url": f"/games/{game.id}/act" if table.stored else share_path(game),
        "hint_url": hint_path(game, table.stored),
        "replacing": replacing,
        "share_path": share_path(game),
        "can_act": can_act,
        "result": result,
        "preset": preset,
        "board": board_of(table.position, result.selected if can_act else None),
        "is_owner": is_owner,
        "zen": bool(is_owner and player is not None and player.zen),
        "share_url": share_url(request, game, table.finished),
        "share_oob": as_fragment,
        "share_result": share_result(request, game, table.position, language)
        if table.finished and is_owner else None,
        # the solver's part: hints, "still winnable?", auto-finish, post-game analysis
        "can_hint": bool(can_act and table.status is Status.PLAYING),
        # the page asks for "still winnable?" after the move (the lifecycle says when); the search decides
        "status_placeholder": table.stored and lifecycle.asks_still_winnable(game, table.record, player),
        "winnable_indicator": bool(is_owner and player is not None and player.winnable_indicator),
        "analysis_placeholder": table.phase.over,
        "hint": None,
        "solver_status": None,
        "analysis": None,
        "daily_name": None,   # a daily deal's full page: its name with the day, and the streak
        "daily_streak": None,
        "streak_missed": False,  # a daily win that is no day of the streak (``daily_streak``)
        "motion_steps": None,  # auto-finish: which card each of its moves took (static/js/motion.js)
        **(extra or {}),
    }
    response = render(request, "game.html", context, blocks=BOARD_BLOCKS if as_fragment else None,
                      status_code=status_code)
    response.headers.update(headers or {})
    return response


def streak_after(session: Session, game: Game) -> dict:
    """A daily deal that the owner's action (checked by the lifecycle) has just ended: the
    owner's daily streak as it is now, for the board's answer to put in the page's heading (out
    of band; a full page draws it anyway)."""
    if game.daily_on is None or game.status == Status.PLAYING:
        return {}
    return daily_streak(session, game.player_id, game)


def daily_streak(session: Session, player_id: str, game: Game | None = None) -> dict:
    """The player's daily streak for a daily deal's heading, and whether ``game``, a daily win,
    counted for no streak (a hint, say: the heading says so, and /stats says the rule)."""
    figures = stats.daily_figures(session, player_id, daily.utc_today())
    missed = game is not None and game.status == Status.WON and game.daily_on not in figures.counted_days
    return {"daily_streak": figures.current_streak, "streak_missed": missed}


def render_hinted(request: Request, game: Game, player: Player | None, found: assist.Hint,
                  headers: dict[str, str] | None = None, extra: dict | None = None) -> Response:
    """The board with a hinted move marked and announced (nothing marked if it is not a legal
    move now: a stale hint link)."""
    record = record_of(game)
    position = record.position
    try:
        move = get_game(game.game).parse_move(found.move)
        after = position.apply(move)
    except (InvalidMoveError, IllegalMoveError):
        return render_game(request, game, player, headers=headers, extra=extra)
    said = describe(move, position, after)
    if said.kind == "draw":  # a hint must not show the card under the stock's top
        said = Announcement("draw")
    hint = {"move": str(move), "winning": found.winning, "steps": found.steps, "lost": found.lost, "said": said,
            **marks(move, position)}
    return render_game(request, game, player, ActionResult(record, announcement=Announcement("hint")),
                       extra={"hint": hint, **(extra or {})}, headers=headers)


def hinted(found: assist.Hint) -> dict:
    """A hint as a plain form post's flash carries it to the page (post/redirect/get)."""
    return {"hint": dataclasses.asdict(found)}


def hint_of(said: dict) -> assist.Hint | None:
    """The hint a flash carries (``hinted``), if it carries one. The flash is signed, so it is
    one we wrote; one written by an older version that does not fit is no hint."""
    try:
        return assist.Hint(**said["hint"])
    except (KeyError, TypeError):
        return None
