"""What a page leaves to the solver's spare time (``app.services.assist.searches.in_spare_time``):
a search and what keeps its answer, for the next look. Each job is a unit of work of its own
(``app.db.session.unit_of_work``), committed when it is done, never the request's: the page
that asked never waits for it, and no player's hint waits behind it."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Game
from app.db.session import unit_of_work

from .assist import ahead, assist, searches, solver_cache
from .stats import deals


def _unit(sessions: sessionmaker[Session], work: Callable[[Session], object]) -> Callable[[], None]:
    """The job that does ``work`` in a unit of work of its own, later."""
    def job() -> None:
        with unit_of_work(sessions) as session:
            work(session)
    return job


def deal(sessions: sessionmaker[Session], preset_slug: str, seed: int) -> None:
    """A page showed a deal without its par (or a finished viewer without its verdict): both are
    searched and kept (``deals.prepare``)."""
    searches.in_spare_time(f"deal:{preset_slug}:{seed}",
                           _unit(sessions, lambda session: deals.prepare(session, preset_slug, seed)))


def winnable_par(sessions: sessionmaker[Session], preset_slug: str, seed: int) -> None:
    """A winnable-only new deal's par, so that its hints follow the par line
    (``ahead.prepare_winnable``). Not in the players' solver process: a Gaps par takes seconds,
    and the player's next "New deal" and hints waited behind it."""
    searches.in_spare_time(f"par:{preset_slug}:{seed}",
                           _unit(sessions, lambda session: ahead.prepare_winnable(session, preset_slug, seed)))


def hint_line(sessions: sessionmaker[Session], session: Session, game: Game) -> None:
    """A hint whose line's search the hint's wait cut short (a loaded machine): that search done
    in full (``assist.line_to_finish``), so the next hints follow a shorter line from wherever
    the player is then."""
    record = assist.line_to_finish(session, game)
    if record is None:
        return
    searches.in_spare_time(f"line:{solver_cache.key_of(record)}",
                           _unit(sessions, lambda later: solver_cache.shortest(later, record, player_id=None)))
