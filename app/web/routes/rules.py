from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import RedirectResponse, Response

from app.engine import GAMES, presets_of
from app.services.errors import NotFoundError
from app.web.http.deps import PlayerDep
from app.web.views.templating import render

router = APIRouter(include_in_schema=False)


@router.get("/rules")
def rules_index() -> Response:
    """The address a player guesses: the first game's rules, which lead to the others'."""
    return RedirectResponse(f"/rules/{next(iter(GAMES))}", status_code=303)


@router.get("/rules/{game}")
def rules_page(game: str, request: Request, player: PlayerDep) -> Response:
    if game not in GAMES:
        raise NotFoundError("no such game", "not_found")
    return render(request, "rules.html", {"rules_game": game, "variant": GAMES[game], "presets": presets_of(game),
                                          "games": list(GAMES.values())})
