"""games.last_mid: the id the page gave the game's last stored change (issue 39), so a move the
page sends again after its answer was lost is recognised and answered, never applied twice

Revision ID: client_0001
Revises: 0009
Create Date: 2026-12-05
"""

from alembic import op
import sqlalchemy as sa


revision = 'client_0001'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_mid', sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('last_mid')
