"""games.line_ply (the hints follow one kept winning line) and shortest_lines (the proven
shortest win of a deal, for the end screen); the position verdicts cached before the solver
cleaned its lines are dropped (a cache: they are searched again when asked)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('line_ply', sa.Integer(), nullable=True))
    op.create_table('shortest_lines',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('game', sa.String(length=40), nullable=False),
    sa.Column('winnable', sa.Boolean(), nullable=True),
    sa.Column('moves', sa.Text(), nullable=False),
    sa.Column('proven', sa.Boolean(), nullable=False),
    sa.Column('lower_bound', sa.Integer(), nullable=False),
    sa.Column('nodes', sa.Integer(), nullable=False),
    sa.Column('solved_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    op.execute("DELETE FROM position_verdicts")


def downgrade() -> None:
    op.drop_table('shortest_lines')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('line_ply')
