"""Post-game analysis: where a lost game could no longer be won; how short a won one can be.

Whether the deal is still winnable after k moves is monotone: once no continuation wins, none
does later. So a binary search over the plies finds the first move after which the deal could
no longer be won, with about log2(moves) solver probes, each within a budget and cached per
position (``solver_cache``), so the analysis is computed once and then read. An undecided probe
(Gaps, Double Pyramid, or a budget run out) makes the answer "unknown", never a guess.

For a won game the solver's winning line from the deal is the shortest win *known* (the solver
does not promise the shortest one).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.db.models import Game, Player
from app.engine import GameRecord

from . import games, solver_cache
from .errors import InputError


@dataclass(frozen=True)
class GameAnalysis:
    kind: str                   # lost_at | lost_from_start | won | unknown | still_winnable
    total: int                  # moves played in the game
    ply: int | None = None      # lost_at: the move (from 1) after which no win was possible
    shortest: int | None = None  # won: moves in the shortest win known to the solver
    moves: tuple[str, ...] = ()  # the game's moves, for the move list

    @property
    def retry_ply(self) -> int | None:
        """How many moves "try again from here" keeps (those before the losing move)."""
        return self.ply - 1 if self.kind == "lost_at" and self.ply else None


def analysable(game: Game) -> bool:
    """Finished games only (won, lost, or abandoned): no spoilers while a game is played."""
    return game.status != "playing" or bool(game.abandoned)


def _probe(session: Session, record: GameRecord, ply: int) -> bool | None:
    return solver_cache.verdict(session, record.at(ply), nodes=solver_cache.ANALYSIS_NODES,
                                seconds=solver_cache.ANALYSIS_SECONDS).winnable


def analyse(session: Session, game: Game) -> GameAnalysis | None:
    if not analysable(game):
        return None
    record = games.record_of(game)
    total = record.cursor
    moves = tuple(str(m) for m in record.moves[:total])
    status = record.at(total).position.status
    start = solver_cache.verdict(session, record.at(0), nodes=solver_cache.ANALYSIS_NODES,
                                 seconds=solver_cache.ANALYSIS_SECONDS)
    if status == "won":
        if start.winnable and start.moves:
            return GameAnalysis("won", total, shortest=min(len(start.moves), total), moves=moves)
        return GameAnalysis("won", total, shortest=total, moves=moves)
    if start.winnable is None:
        return GameAnalysis("unknown", total, moves=moves)
    if start.winnable is False:
        return GameAnalysis("lost_from_start", total, moves=moves)
    end = False if status == "lost" else _probe(session, record, total)
    if end is None:
        return GameAnalysis("unknown", total, moves=moves)
    if end:
        return GameAnalysis("still_winnable", total, moves=moves)
    low, high = 0, total  # winnable after `low` moves, not after `high`
    while high - low > 1:
        middle = (low + high) // 2
        found = _probe(session, record, middle)
        if found is None:
            return GameAnalysis("unknown", total, moves=moves)
        if found:
            low = middle
        else:
            high = middle
    return GameAnalysis("lost_at", total, ply=high, moves=moves)


def retry_from(session: Session, game: Game, player: Player, ply: int, *,
               limits: games.Limits = games.Limits()) -> Game:
    """"Try again from here": a new game of the same deal with the game's first ``ply`` moves."""
    games.check_owner(game, player)
    record = games.record_of(game)
    if not 0 <= ply < record.cursor:
        raise InputError("there is no such point in this game", "no_retry")
    new = games.restart(session, game, player, limits=limits)
    moves = [str(m) for m in record.moves[:ply]]
    if moves:
        # the kept moves are ordinary moves: each undoes alone
        games.play_moves(session, new, player, moves, limits=limits, action="retry", group=False)
    return new


def replay_analysis(session: Session, game: Game):
    """The replay page's hook (app.services.replays.analysis_for): a summary, and for every
    ply whether the deal could still be won from there."""
    from app.i18n import gettext as _, ngettext

    from .replays import Analysis, PlyNote

    found = analyse(session, game)
    if found is None:
        return None
    plies: dict[int, PlyNote] = {}
    if found.kind == "lost_at":
        summary = _("The deal could be won until move {n}; after it, it could not.").format(n=found.ply)
        for k in range(found.total + 1):
            plies[k] = PlyNote(winnable=k < found.ply,
                               text=_("This move lost the game.") if k == found.ply else None)
    elif found.kind == "lost_from_start":
        summary = _("This deal could not be won from the start.")
        plies = {k: PlyNote(winnable=False) for k in range(found.total + 1)}
    elif found.kind == "won":
        summary = ngettext("Won. The shortest win known to the solver needs %(num)d move.",
                           "Won. The shortest win known to the solver needs %(num)d moves.", found.shortest)
        summary = summary % {"num": found.shortest}
        plies = {k: PlyNote(winnable=True) for k in range(found.total + 1)}
    elif found.kind == "still_winnable":
        summary = _("The deal could still be won when the game was left.")
        plies = {k: PlyNote(winnable=True) for k in range(found.total + 1)}
    else:
        summary = _("Unknown: the solver could not decide this deal within its time budget.")
    return Analysis(summary=summary, plies=plies)
