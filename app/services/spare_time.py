"""What a page leaves to the solver's spare time (``app.services.assist.searches.in_spare_time``):
a search and what keeps its answer, for the next look. Each job is a unit of work of its own
(``app.db.session.unit_of_work``), committed when it is done, never the request's: the page
that asked never waits for it, and no player's hint waits behind it."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Game
from app.db.session import unit_of_work

from .assist import ahead, analysis, assist, searches, solver_cache
from .play import games
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


def watched_analysis(sessions: sessionmaker[Session], session: Session, game: Game, *,
                     search_later: bool) -> analysis.GameAnalysis | None:
    """A finished game's analysis as someone other than its player sees it (a replay, a shared
    end screen): what is kept, and, if ``search_later`` (a browser that came back: a crawler
    keeps no cookie, and its jobs would push the players' out of the queue), what is not
    searched here in spare time for the next look. A visitor without a cookie is a new player
    at every request, so a search of theirs would pass the one-search-a-player rule every time,
    and a crawler on replays would take every slot the players' hints wait for."""
    found = analysis.analyse(session, game, None, search=False)
    # a win's shortest line kept unproven may have been cut short by a hint's wait: searched in full
    if search_later and analysis.analysable(game) and (found is None or (found.kind == "won" and not found.proven)):
        game_id = game.id
        searches.in_spare_time(f"analysis:{game_id}", _unit(sessions, lambda later: analysis.analyse(
            later, games.get_game_row(later, game_id), None)))
    return found
