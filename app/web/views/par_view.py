"""The end screen's share text once the deal's par is known: par and the day's place added
(what a page leaves to the solver's spare time: app.services.spare_time)."""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.orm import Session

from app.db.models import Game, Player
from app.services.assist import par
from app.services.play import lifecycle
from app.services.play.games import record_of
from app.services.stats import leaderboard
from app.web.views.game_view import share_result


def scored_share(request: Request, session: Session, game: Game, player: Player) -> dict[str, str | None] | None:
    """The owner's share box of a finished game with its par (kept, never searched here: the
    analysis has just searched it) and its place on the day's table; None when neither is known."""
    if player.id != game.player_id or not lifecycle.phase_of(game).finished:
        return None
    found = par.known(session, par.start_of_game(game))
    day = leaderboard.table_of_game(session, game)
    mine = day.mine if day is not None else None
    if found is None and mine is None:
        return None
    shared = share_result(request, game, record_of(game).position, request.state.language, par=found,
                          rank=day.place_of_mine() if day is not None else None)
    # a daily win with no place says why, beside the text it is missing from
    return {**shared, "unranked": unranked_key(mine) if mine is not None and mine.why else None}


def unranked_key(entry: leaderboard.Entry) -> str:
    """The message key that tells a player why their daily win has no place: the help they used,
    or the rule's reason."""
    return f"unranked.assisted.{entry.help}" if entry.help else f"unranked.{entry.why}"
