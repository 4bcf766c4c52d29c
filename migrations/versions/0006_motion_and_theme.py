"""players.theme ("auto" follows the device, or "light"/"dark") and players.animations (cards
move, deal in and celebrate; off, the board changes at once)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('theme', sa.String(length=8), server_default='auto', nullable=False))
        batch_op.add_column(sa.Column('animations', sa.Boolean(), server_default=sa.true(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('animations')
        batch_op.drop_column('theme')
