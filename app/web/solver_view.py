"""What the game page shows from the solver: the hint button and hint, the placeholder that
loads "still winnable?" and the auto-finish offer after the move, and the post-game analysis.

Nothing here runs the solver: the board only carries links that load it with their own request.
"""

from __future__ import annotations

from app.db.models import Game, Player
from app.engine import GameRecord
from app.services import assist


def solver_context(game: Game, record: GameRecord, player: Player | None) -> dict:
    playing = record.position.status == "playing"
    is_owner = player is not None and player.id == game.player_id
    return {
        "can_hint": bool(is_owner and playing),
        "status_placeholder": assist.wants_status(game, player, record),
        "winnable_indicator": bool(is_owner and player.winnable_indicator),
        "analysis_placeholder": not playing,
        "hint": None,          # set by the hint response: app.web.routes.solver
        "solver_status": None,  # set when the status is rendered inline (no JavaScript)
        "analysis": None,
    }


def hint_targets(move: str, position) -> dict:
    """What the page highlights for a hint: card locations, a Gaps card and gap, or a button."""
    if move in ("D", "R", "N"):
        return {"action": {"D": "draw", "R": "recycle", "N": "redeal"}[move]}
    if ">" in move:
        card, _, pos = move.partition(">")
        return {"cards": card.strip(), "pos": pos.strip()}
    return {"locs": " ".join(part.strip() for part in move.split("+"))}
