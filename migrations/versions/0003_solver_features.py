"""solver features: cached position verdicts, grouped actions (auto-finish), two preferences

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-08
"""

from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('groups', sa.Text(), server_default='', nullable=False))

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('winnable_only', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('winnable_indicator', sa.Boolean(), server_default=sa.false(), nullable=False))

    op.create_table('position_verdicts',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('game', sa.String(length=40), nullable=False),
    sa.Column('ply', sa.Integer(), nullable=False),
    sa.Column('winnable', sa.Boolean(), nullable=True),
    sa.Column('moves', sa.Text(), nullable=False),
    sa.Column('nodes', sa.Integer(), nullable=False),
    sa.Column('budget', sa.Integer(), nullable=False),
    sa.Column('solved_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )


def downgrade() -> None:
    op.drop_table('position_verdicts')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('winnable_indicator')
        batch_op.drop_column('winnable_only')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('groups')
