"""A deal page opened from a shared result (``/deal/{preset}/{seed}?from={game}``): that game's
result leads ("won in 35 moves, 2 undos: can you do better?"), and the viewer's own result
stands beside "Play this deal" once they have finished the deal.

A ``from`` that is not a finished game of this very deal (another deal's, one still in play,
the viewer's own, or no game at all) leads with nothing: the page is the plain deal page.
Results are the ones the statistics count (app.services.play.lifecycle).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Game, Player
from app.engine import Status

from .lifecycle import Phase, phase_of, result_expression


@dataclass(frozen=True)
class PlayedResult:
    game_id: str
    name: str | None        # the player's display name; None: anonymous
    won: bool
    left_unfinished: bool   # counted as lost: replaced, or idle for a day
    moves: int
    seconds: int | None
    undos: int
    hints: int
    auto_finished: bool
    offline: bool = False   # played offline: its time is not known


def _played(game: Game, name: str | None) -> PlayedResult:
    phase = phase_of(game)
    return PlayedResult(game.id, name, phase is Phase.WON, phase is Phase.ABANDONED,
                        game.cursor, game.seconds, game.undo_count, game.hint_count, game.auto_finished,
                        game.played_offline)


def origin_result(session: Session, preset: str, seed: int, game_id: str, viewer_id: str | None) -> PlayedResult | None:
    """The result of the game a shared link names, if it is another player's finished game of
    the deal (one with no moves left is shared from its end screen as it is)."""
    game = session.get(Game, game_id)
    if game is None or game.preset != preset or game.seed != seed or game.player_id == viewer_id:
        return None
    if not phase_of(game).finished:
        return None
    return _played(game, session.scalar(select(Player.display_name).where(Player.id == game.player_id)))


def viewer_result(session: Session, preset: str, seed: int, viewer_id: str | None) -> PlayedResult | None:
    """The viewer's best finished game of the deal: the win in the fewest moves (then the
    quickest), else the latest loss."""
    if viewer_id is None:
        return None
    result = result_expression()
    rows = session.execute(
        select(Game, result).where(Game.player_id == viewer_id, Game.preset == preset, Game.seed == seed,
                                   Game.started_at.is_not(None))
    ).all()
    wins = [game for game, r in rows if r == Status.WON]
    if wins:
        best = min(wins, key=lambda g: (g.cursor, g.seconds if g.seconds is not None else float("inf")))
        return _played(best, None)
    losses = [game for game, r in rows if r == Status.LOST]
    if losses:
        return _played(max(losses, key=lambda g: (g.updated_at, g.id)), None)
    return None
