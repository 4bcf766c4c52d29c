"""The game on the table (app.services.play.games.OnTable): a deal ready to play and a stored game read
the same way, with one rule for what a game counts as."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.db.models import Player
from app.engine import Status
from app.services.play import games
from app.services.play.lifecycle import Abandonment, Phase
from app.services.play.games import OnTable


def test_a_deal_ready_to_play_is_a_new_game_on_the_table_and_never_stored():
    player = Player(id="p1", scoring="pairs")
    table = OnTable.of(games.pending(player, "pyramid", seed=5))
    assert not table.stored and table.phase is Phase.NEW and table.status is Status.PLAYING
    assert not table.finished and table.open and not table.can_undo and not table.can_redo
    assert table.game.scoring == "pairs" and table.game.score == 0 and table.elapsed == 0


def test_a_gaps_deal_ready_to_play_scores_the_cards_it_deals_in_place():
    """Before the first move the page said "in place 1/48 · score 0", and the move after "2"."""
    for scoring, per_card in (("simple", 1), ("pairs", 5)):
        game = games.pending(Player(id="p4", scoring=scoring), "gaps", seed=692715718)
        in_place = OnTable.of(game).record.position.simple_score
        assert in_place > 0 and game.score == per_card * in_place


def test_a_game_counted_as_lost_stays_lost_whatever_its_row_says_after():
    player = Player(id="p2")
    game = games.pending(player, "pyramid", seed=5)
    game.id, game.started_at, game.updated_at = "g1", datetime.now(UTC), datetime.now(UTC)
    game.status, game.abandoned = Status.WON, True  # a move that raced the abandon, before versions
    table = OnTable.of(game)
    assert table.phase is Phase.ABANDONED and table.status is Status.LOST and table.finished
    assert table.end_reason is Abandonment.REPLACED and not table.open


def test_a_game_left_for_a_day_counts_as_lost_but_a_win_is_final():
    player = Player(id="p3")
    game = games.pending(player, "pyramid", seed=5)
    long_ago = datetime.now(UTC) - timedelta(days=2)
    game.id, game.started_at, game.updated_at = "g2", long_ago, long_ago
    assert OnTable.of(game).end_reason is Abandonment.IDLE
    game.status = Status.WON
    table = OnTable.of(game)
    assert table.phase is Phase.WON and table.status is Status.WON and not table.open
