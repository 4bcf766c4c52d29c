"""Post-game analysis: where a lost game could no longer be won; how short a won one can be.

Whether the deal is still winnable after k moves is monotone: once no continuation wins, none
does later. So a binary search over the plies finds the first move after which the deal could
no longer be won, with about log2(moves) solver probes, each within a budget and cached per
position (``solver_cache``), so the analysis is computed once and then read. An undecided probe
(Gaps, Double Pyramid, or a budget run out) makes the answer "unknown", never a guess.

For a won game of the Pyramid family the solver proves the shortest win from the deal (an exact
search, budgeted and kept per deal: ``solver_cache.shortest``); elsewhere, or when that budget
runs out, the words say only that the solver knows a win of that length, never "shortest".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.db.models import Game, Player
from app.engine import GameRecord, Status
from app.engine.announcements import Announcement, said_moves

from ..errors import InputError
from ..play import games, lifecycle, moves
from ..play.games import record_of
from . import par, solver_cache


@dataclass(frozen=True)
class GameAnalysis:
    kind: str                   # lost_at | lost_from_start | won | unknown | still_winnable
    total: int                  # moves played in the game
    ply: int | None = None      # lost_at: the move (from 1) after which no win was possible
    shortest: int | None = None  # won: moves in the shortest win the solver knows
    proven: bool = False        # won: no win is shorter than ``shortest``
    bound: int = 0              # won, not proven: every win needs at least this many moves (0: not known)
    moves: tuple[str, ...] = ()  # the game's moves in notation (page hooks, never shown)
    said: tuple[Announcement, ...] = ()  # the same moves in words and card symbols, for the move list
    best_line: tuple[str, ...] = ()  # won: the deal's par line (app.services.assist.par), in notation
    best_said: tuple[Announcement, ...] = ()  # that line in words and card symbols

    @property
    def retry_ply(self) -> int | None:
        """How many moves "try again from here" keeps (those before the losing move)."""
        return self.ply - 1 if self.kind == "lost_at" and self.ply else None

    def winnable_after(self, ply: int) -> bool | None:
        """Whether the deal could still be won after ``ply`` moves (None: not known)."""
        if self.kind == "lost_at" and self.ply is not None:
            return ply < self.ply
        if self.kind == "lost_from_start":
            return False
        if self.kind in ("won", "still_winnable"):
            return True
        return None


def analysable(game: Game) -> bool:
    """Games that are over only (won, or lost for good: ``lifecycle.Phase.over``): no spoilers
    while a game is played, nor while one with no moves left may still be undone."""
    return lifecycle.phase_of(game).over


class _NotKept(Exception):
    """A probe the analysis would have to search for, asked without searching."""


def analyse(session: Session, game: Game, player_id: str | None, *, search: bool = True) -> GameAnalysis | None:
    """The analysis of a finished game, asked for by ``player_id``. The end screen asks for it by
    itself as the game ends, so its searches are admitted apart from the player's own (one at a
    time each: app.services.assist.searches): a hint asked in the next game while this still
    searches (a Double Pyramid's par takes seconds) is not refused. With ``search`` False only
    what is kept is read (a replay's frames: None while the end screen's search is under way)."""
    if not analysable(game):
        return None
    player_id = None if player_id is None else f"{player_id}/analysis"
    record = record_of(game)
    total = record.cursor
    moves = tuple(str(m) for m in record.moves[:total])
    said = said_moves(record)
    status = record.at(total).position.status

    def probe(ply: int) -> solver_cache.Verdict:
        if search:
            return solver_cache.verdict(session, record.at(ply), player_id=player_id,
                                        nodes=solver_cache.ANALYSIS_NODES, seconds=solver_cache.ANALYSIS_SECONDS)
        found = solver_cache.kept_verdict(session, record.at(ply), nodes=solver_cache.ANALYSIS_NODES)
        if found is None:
            raise _NotKept
        return found

    if status is Status.WON:
        found = (par.par_of(session, record.at(0), player_id=player_id) if search
                 else par.known(session, record.at(0)))
        return _won(record, total, moves, said, found)
    try:
        return _lost(record, total, moves, said, status, probe)
    except _NotKept:
        return None


def _lost(record: GameRecord, total: int, moves: tuple[str, ...], said: tuple[Announcement, ...],
          status: Status, probe: Callable[[int], solver_cache.Verdict]) -> GameAnalysis:
    """A game not won: where the deal could no longer be won (a binary search of ``probe``)."""
    start = probe(0)
    if start.winnable is None:
        return GameAnalysis("unknown", total, moves=moves, said=said)
    if start.winnable is False:
        return GameAnalysis("lost_from_start", total, moves=moves, said=said)
    end = False if status is Status.LOST else probe(total).winnable
    if end is None:
        return GameAnalysis("unknown", total, moves=moves, said=said)
    if end:
        return GameAnalysis("still_winnable", total, moves=moves, said=said)
    low, high = 0, total  # winnable after `low` moves, not after `high`
    while high - low > 1:
        middle = (low + high) // 2
        found = probe(middle).winnable
        if found is None:
            return GameAnalysis("unknown", total, moves=moves, said=said)
        if found:
            low = middle
        else:
            high = middle
    return GameAnalysis("lost_at", total, ply=high, moves=moves, said=said)


def _won(record: GameRecord, total: int, moves: tuple[str, ...], said: tuple[Announcement, ...],
         found: par.Par | None) -> GameAnalysis:
    """A won game against the deal's par ``found`` (app.services.assist.par): proven where the
    solver can prove it, else the best line it knows; the same number the deal page and the
    share text give."""
    if found is not None:
        line = record.at(0)
        for token in found.line:
            line = line.play(token)
        return GameAnalysis("won", total, shortest=found.moves, proven=found.proven, bound=found.bound,
                            moves=moves, said=said,
                            best_line=found.line, best_said=said_moves(line))
    return GameAnalysis("won", total, shortest=total, moves=moves, said=said)


def retry_from(session: Session, game: Game, player: Player, ply: int, *,
               limits: games.Limits = games.Limits()) -> Game:
    """"Try again from here": a new game of the same deal with the game's first ``ply`` moves.
    It goes on where the game was: its hints, undos and auto-finish, where its moves came from,
    and its clock (from the game's first move) are the new game's too, so a retry never makes
    a game look played with less help, or faster, than it was. Only a game that is over has
    one (``analysable``): a game in play, or one with no moves left that may still be undone,
    would be counted lost by the new game, unasked."""
    lifecycle.check_owner(game, player)
    if not analysable(game):
        raise InputError("only a game that is over is tried again from a point", "retry_in_play")
    record = record_of(game)
    if not 0 <= ply < record.cursor:
        raise InputError("there is no such point in this game", "no_retry")
    new = games.start_game(session, player, game.preset, seed=game.seed,
                           deal_text=None if game.seed is not None else game.deal, limits=limits,
                           via=game.played_via)
    new.hint_count, new.undo_count, new.auto_finished = game.hint_count, game.undo_count, game.auto_finished
    new.winnable_shown, new.played_offline = game.winnable_shown, game.played_offline
    if ply:
        moves.store(session, new, moves.played(record_of(new), list(record.moves[:ply]), limits), "retry")
        new.started_at = game.started_at or new.started_at  # after the store: its first move replaced the game
    return new
