"""The end screen's share text once the deal's par is known: par and the day's place added; and
what a page that shows a deal's par leaves to the solver's spare time."""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.orm import Session

from app.db.models import Game, Player
from app.services.assist import assist, par, searches, solver_cache
from app.services.play import lifecycle
from app.services.play.games import record_of
from app.services.stats import deals, leaderboard
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
    return {**shared, "unranked": mine.why if mine is not None else None}


def search_later(request: Request, preset_slug: str, seed: int) -> None:
    """A page showed a deal without its par (or a finished viewer without its verdict): search
    them in the solver's spare time, in a unit of work of their own, for the next look. The page
    never waits for it, and no player's hint waits behind it (app.services.assist.searches)."""
    sessions = request.app.state.sessionmaker

    def job() -> None:
        with sessions() as session:
            deals.prepare(session, preset_slug, seed)
            session.commit()

    searches.in_spare_time(f"deal:{preset_slug}:{seed}", job)


def finish_hint_line_later(request: Request, session: Session, game: Game) -> None:
    """A hint whose line's search the hint's wait cut short (a loaded machine): that search is
    done in full in the solver's spare time (``assist.line_to_finish``), so the next hints
    follow a shorter line from wherever the player is then."""
    record = assist.line_to_finish(session, game)
    if record is None:
        return
    sessions = request.app.state.sessionmaker

    def job() -> None:
        with sessions() as later:
            solver_cache.shortest(later, record, player_id=None)
            later.commit()

    searches.in_spare_time(f"line:{solver_cache.key_of(record)}", job)
