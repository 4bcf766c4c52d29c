"""Games played offline (games.played_offline): set for good once a move made while the page
had no network is stored. The server times a game from its first stored move to its last; an
offline game's moves arrive together when the network is back, so its time says nothing about
the player and never counts (no best time, no timed score's bonus; the daily table ranks it by
its moves and says it was played offline).

Revision ID: offline_return_0001
Revises: trust_0001
Create Date: 2026-12-05
"""

from alembic import op
import sqlalchemy as sa


revision = 'offline_return_0001'
down_revision = 'trust_0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('played_offline', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('played_offline')
