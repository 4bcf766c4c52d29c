"""The end screen's share text once the deal's par is known: par and the day's place added."""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.orm import Session

from app.db.models import Game, Player
from app.services.assist import par
from app.services.play import lifecycle
from app.services.play.games import record_of
from app.services.stats import leaderboard

from .game_view import share_result


def scored_share(request: Request, session: Session, game: Game, player: Player) -> dict[str, str] | None:
    """The owner's share box of a finished game with its par (kept, never searched here: the
    analysis has just searched it) and its place on the day's table; None when neither is known."""
    if player.id != game.player_id or not lifecycle.phase_of(game).finished:
        return None
    found = par.known(session, par.start_of_game(game))
    place = leaderboard.place_of_game(session, game)
    if found is None and place is None:
        return None
    return share_result(request, game, record_of(game).position, request.state.language, par=found, rank=place)
