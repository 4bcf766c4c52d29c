"""players.on_daily_table: whether a player's daily wins appear on the day's table (issue 28)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('on_daily_table', sa.Boolean(), server_default=sa.true(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('on_daily_table')
