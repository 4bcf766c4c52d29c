"""Games played with "still winnable?" shown (games.winnable_shown): set for good once a move is
stored while its player shows the indicator. The solver then says after every move whether the
deal can still be won, an aid like a hint: such a win is not clean
(app.services.stats.clean). And an index to find a player's first game of a deal's cards
(games.first_of_deal), whatever preset dealt them or whether they were imported.

Revision ID: honest_0001
Revises: offline_return_0001
Create Date: 2026-12-07
"""

from alembic import op
import sqlalchemy as sa


revision = 'honest_0001'
down_revision = 'offline_return_0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('winnable_shown', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index('ix_games_player_deal', 'games', ['player_id', 'game', 'deal'])


def downgrade() -> None:
    op.drop_index('ix_games_player_deal', table_name='games')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('winnable_shown')
