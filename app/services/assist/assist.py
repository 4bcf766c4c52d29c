"""Help during a game, from the solver: hints, "still winnable?", and auto-finish.

All three read the cached verdict of the current position (``solver_cache``) or search it now
within a budget, so none of them can hang a request. The move response never waits for them:
the board carries a placeholder that asks for the status with its own request.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from sqlalchemy import update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from app.db.models import Game, Player
from app.engine import GameRecord, Status, get_game
from app.solver import hint_shortest, line_from, quick_shortest

from ..errors import ConflictError, InputError
from ..play import games, lifecycle, moves
from ..play.games import record_of
from . import par, searches, solver_cache

HINT_NODES, HINT_SECONDS = 200_000, 1.5   # the winning line behind a hint
SCORE_NODES = 8_000                       # the best-score fallback when no win is known
ALTERNATIVES = 3                          # first moves tried when the line leads back


@dataclass(frozen=True)
class Hint:
    move: str
    winning: bool         # the next move of a known winning line (False: the best score found)
    steps: int = 0        # winning: the moves of that line from here, this one included
    lost: bool = False    # not winning: proven that no win is possible from here (else: unknown)


@dataclass(frozen=True)
class StillWinnable:
    """The answer to "still winnable?"."""

    winnable: bool | None       # the indicator: True ✓, False ✗, None ?
    auto_finish: bool           # offer auto-finish (proven win, near the end)
    remaining: int = 0          # moves auto-finish would play


def _playing(record: GameRecord) -> None:
    if record.position.status is not Status.PLAYING:
        raise InputError("the game is over", "game_over")


def _kept_line(session: Session, line_ply: int | None, record: GameRecord) -> tuple[str, ...] | None:
    """The rest, from the position now, of the winning line the game's hints follow (kept from
    the position at ``line_ply``: its shortest line where a hint searched one, else the solver's
    verdict's): None when there is none, or the player has left it."""
    if line_ply is None or not 0 <= line_ply <= record.cursor:
        return None
    at = record.at(line_ply)
    line = solver_cache.kept_shortest(session, at)
    if not line:
        kept = solver_cache.cached(session, at)
        if kept is None or not kept.winnable or not kept.moves:
            return None
        line = kept.moves
    positions = record.positions()
    return line_from(positions[line_ply], line, record.position) or None


def _new_line(session: Session, record: GameRecord, player_id: str) -> tuple[str, ...]:
    """A winning line from the record's position, searched now within a hint's budget and kept.
    First the solver's exact search (quick, often kept already by the page's "still winnable?"),
    which says whether any win is left; where one is, the shortest known where that search gives
    one in time (the Pyramid family: from a deal's start, its par or its best known line), so a
    player who follows the hints from anywhere wins in the fewest moves left the solver knows.
    () when no win is known."""
    found = solver_cache.verdict(session, record, player_id=player_id, nodes=HINT_NODES, seconds=HINT_SECONDS)
    if not (found.winnable and found.moves):
        return ()
    if hint_shortest(record.position):
        best = solver_cache.shortest(session, record, player_id=player_id, seconds=HINT_SECONDS)
        if best is not None and best.winnable and best.moves:
            return best.moves
    return found.moves


def line_to_finish(session: Session, game: Game) -> GameRecord | None:
    """The position the game's hints keep their line from, where the hint's wait cut its
    shortest-win search short and the search in full is quick (``quick_shortest``): searched in
    full in the solver's spare time, the next hints follow a shorter line. None otherwise (two
    pyramids' search in full takes its whole budget; the end screen does it for the deal)."""
    if game.line_ply is None or not solver_cache.cut_short(session, solver_cache.key_at(game, game.line_ply)):
        return None
    record = record_of(game).at(game.line_ply)  # replayed only where a line was cut short
    return record if quick_shortest(record.position) else None


def _away_from(record: GameRecord, line: tuple[str, ...], seen: set) -> bool:
    """Whether the line's first move leads to a position the game has not been in before."""
    return record.position.apply(line[0]) not in seen


def _par_line(session: Session, record: GameRecord) -> tuple[str, ...] | None:
    """The rest of the deal's kept par line (its shortest win, or the best line known) when the
    game is on it: a player who follows the hints from the start then wins in par, not in
    however many moves the first winning line the solver found happens to take."""
    start = record.at(0)
    kept = par.known(session, start)
    if kept is None:
        return None
    return line_from(start.position, kept.line, record.position) or None


def _winning_step(
    session: Session, record: GameRecord, line_ply: int | None, player_id: str, seen: set
) -> tuple[str, tuple[str, ...], int | None] | None:
    """(move, the winning line from here that starts with it, the ply its line is kept at): the
    deal's par line while the game is on it (kept with the deal: no ply), else the kept line's
    next move, else a new search's; a line that would lead back to a position the game has been
    in is passed over for a first move that does not (a few tried, each searched on a share of
    the budget)."""
    on_par = _par_line(session, record)
    if on_par is not None and _away_from(record, on_par, seen):
        return on_par[0], on_par, None
    rest = _kept_line(session, line_ply, record)
    if rest is not None and line_ply is not None and _away_from(record, rest, seen):
        return rest[0], rest, line_ply
    line = _new_line(session, record, player_id)
    if not line:
        return None
    if _away_from(record, line, seen):
        return line[0], line, record.cursor
    others = [m for m in record.position.legal_moves() if str(m) != line[0]
              and record.position.apply(m) not in seen][:ALTERNATIVES]
    for move in others:
        after = record.play(move)
        tried = solver_cache.verdict(session, after, player_id=player_id, nodes=HINT_NODES // ALTERNATIVES,
                                     seconds=HINT_SECONDS / ALTERNATIVES)
        if tried.winnable:
            return str(move), (str(move), *tried.moves), record.cursor + 1  # kept from the position it leads to
    return None


def _found(session: Session, record: GameRecord, line_ply: int | None, player_id: str) -> tuple[Hint, int | None]:
    """The hint at the record's position, and the ply its winning line is then kept at (the
    searches come first: nothing is written before they are done, app.db.session)."""
    _playing(record)
    seen = set(record.positions()[:record.cursor])
    step = _winning_step(session, record, line_ply, player_id, seen)
    if step is not None:
        move, line, kept_at = step
        return Hint(move, True, steps=len(line)), kept_at
    known = solver_cache.cached(session, record)
    best = known.best_move if known is not None else None
    if best is not None and record.position.apply(best) in seen:
        best = None  # kept for this position in another game, it leads back to where this one has been
    if best is None:  # searched once per position (a node budget: the same answer each time), then kept
        best = searches.best_score_move(record.position, SCORE_NODES, player_id=player_id, avoid=frozenset(seen))
        if best is None:
            raise InputError("no move is possible", "no_hint")
        if known is None or known.best_move is None:
            solver_cache.keep_best_move(session, record, best)
    return Hint(best, False, lost=bool(known is not None and known.winnable is False)), None


def _counted(session: Session, game: Game, cursor: int, found: Hint, line_ply: int | None) -> None:
    """A hint counted on the game, once per position, with the ply its line is kept at, and kept
    to be shown again there (``shown_hint``). Asked again there (a double click) it is not
    counted again, nor is the game written: its version stays, and the player's other tab is
    not made stale by a question."""
    if game.hinted_ply == cursor:
        return
    game.line_ply = line_ply
    game.hint_count += 1
    game.hinted_ply = cursor
    game.last_hint = json.dumps(dataclasses.asdict(found))
    try:
        session.flush()
    except StaleDataError:
        raise ConflictError("this game moved on in another tab", "stale") from None


def hint(session: Session, game: Game, player: Player | None, *, ply: int | None = None,
         version: int | None = None) -> Hint:
    """The next move of one winning line: the deal's par line while the game is on it (the
    shortest win, where one is kept), else a line kept from hint to hint (``games.line_ply``):
    it follows the line the last hint came from while the player does, and searches again when
    they leave it. Never a move back to a position the game has been in. When no win is known,
    the move reaching the best score found, saying whether a win is proven impossible. Counted
    on the game (``hint_count``), once per position."""
    lifecycle.check(game, player, ply=ply, version=version)
    record = record_of(game)
    found, line_ply = _found(session, record, game.line_ply, game.player_id)
    _counted(session, game, record.cursor, found, line_ply if found.winning else game.line_ply)
    return found


def hint_on_deal(session: Session, player: Player, draft: Game, *,
                 limits: games.Limits = games.Limits()) -> tuple[Game, Hint]:
    """A hint on a deal ready to play: searched first, then the game is stored with the hint
    counted (its first move is still to come: the game it then stores goes on with this one,
    games.game_to_start). A refused search stores nothing; a new game the player may not start
    now is refused before the search (whose facts are kept whatever the request's end). The
    player's game of this deal in play (another tab's, the day's deal opened again) is the
    answer instead, as to a first move (``moves.first_move``): a hint here would go on a second
    game of the same cards, not counted on the one played."""
    _not_in_play(session, player, draft)
    record = record_of(draft)
    if games.waiting_game(session, player, draft) is None:
        games.check_rate(session, player, limits)
    found, line_ply = _found(session, record, None, player.id)
    # the search let the transaction go: a first move may have come meanwhile. (What is left, the
    # few writes after this, is not locked: no index holds a game a hint stored, not yet played)
    _not_in_play(session, player, draft)
    game = games.game_to_start(session, player, draft.preset, seed=draft.seed,
                               deal_text=draft.deal if draft.seed is None else None, limits=limits)
    _counted(session, game, record.cursor, found, line_ply if found.winning else None)
    return game, found


def _not_in_play(session: Session, player: Player, draft: Game) -> None:
    if games.game_of_deal(session, player, draft) is not None:
        raise moves.RacedError("this deal is already in play in another tab", "raced")


def shown_hint(game: Game) -> Hint | None:
    """The last hint counted on ``game`` while the game is where it was given (a change clears
    its ply: ``moves``) and still in play (not counted as lost: a new hint would be refused),
    for its page drawn again; None otherwise, or for a hint kept in an older form."""
    if game.last_hint is None or game.hinted_ply != game.cursor \
            or lifecycle.phase_of(game) not in (lifecycle.Phase.NEW, lifecycle.Phase.PLAYING):
        return None
    try:
        return Hint(**json.loads(game.last_hint))
    except (TypeError, ValueError):
        return None


def near_end(record: GameRecord) -> bool:
    """Few enough cards left that an auto-finish offer is no great spoiler (the variant says
    how few)."""
    return get_game(record.game).near_end(record.position)


def still_winnable(session: Session, game: Game, player: Player | None) -> StillWinnable:
    record = record_of(game)
    if record.position.status is not Status.PLAYING:
        return StillWinnable(record.position.status is Status.WON, False)
    if not lifecycle.asks_still_winnable(game, record, player):
        return StillWinnable(None, False)
    assert player is not None
    show = bool(player.winnable_indicator)
    near = near_end(record)
    # the page asks for this by itself after each move: counted apart from the player's own
    # searches (one at a time), so it never makes their hint wait or be refused
    found = solver_cache.verdict(session, record, player_id=f"{game.player_id}/status")
    if show and found.winnable is not None and not game.winnable_shown:
        # the solver's verdict is shown to the player: the game was helped for good (a clean win
        # is one no shortcut made: app.services.stats.clean), whatever the setting is later.
        # Written beside the game's moves, not as a change of them: its version (what a tab's
        # next move is checked against) stays, or the page's next move would be refused as stale;
        # so does its last change's time (a game idle for a day is lost: looking is no move)
        session.execute(update(Game).where(Game.id == game.id)
                        .values(winnable_shown=True, updated_at=Game.updated_at))
        set_committed_value(game, "winnable_shown", True)
    offer = bool(near and found.winnable and found.moves)
    return StillWinnable(found.winnable if show else None, offer, len(found.moves) if offer else 0)


def auto_finish(session: Session, game: Game, player: Player | None, *, ply: int | None = None,
                version: int | None = None, limits: games.Limits = games.Limits()) -> GameRecord:
    """Play the proven winning line to the end, in one write (a win: final)."""
    lifecycle.check(game, player, ply=ply, version=version)
    record = record_of(game)
    _playing(record)
    found = solver_cache.verdict(session, record, player_id=game.player_id)
    if not (found.winnable and found.moves):
        raise InputError("auto-finish needs a proven win from here", "no_auto_finish")
    trial = record
    for move in found.moves:  # the engine checks the solver's line before anything is stored
        trial = trial.play(move)
    if trial.position.status is not Status.WON:
        raise InputError("auto-finish needs a proven win from here", "no_auto_finish")
    game.auto_finished = True  # stored with the moves, in the same write
    return moves.store(session, game, moves.played(record, list(found.moves), limits), "auto-finish")
