"""The last hint counted on a game (games.last_hint), kept with the ply it was given at
(games.hinted_ply): the game's page shows it again while the game is still there (a reload, a
language switch), as it shows the hint's count. Before, a reload lost the hint and kept its cost.

Revision ID: shown_0001
Revises: honest_0002
Create Date: 2026-12-07
"""

from alembic import op
import sqlalchemy as sa


revision = 'shown_0001'
down_revision = 'honest_0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_hint', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('last_hint')
