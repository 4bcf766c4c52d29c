"""The one answer to a refused board action (illegal move, stale tab, busy solver, a limit)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import Request
from sqlalchemy.orm import Session
from starlette.responses import Response

from app.db.models import Game, Player
from app.services.errors import ServiceError
from app.services.play.games import record_of
from app.services.play.moves import ActionResult
from app.web.http.deps import discard
from app.web.http.errors import headers_of, status_of
from app.web.views.game_view import render_game


def refused(request: Request, session: Session, player: Player, error: ServiceError,
            shown: Callable[[], Game], *, selected: str | None = None,
            headers: dict[str, str] | None = None) -> Response:
    """A refused action, answered the one way every board action is: what the request changed
    is rolled back (it changes no row), and the game as stored now (``shown``, read after the
    rollback) is drawn with the reason, in the status the refusal calls for (a stale tab's 409
    carries the current board)."""
    discard(session)
    game = shown()
    result = ActionResult(record_of(game), selected=selected, error=error.key)
    return render_game(request, game, player, result, status_code=status_of(error),
                       headers={**headers_of(error), **(headers or {})})
