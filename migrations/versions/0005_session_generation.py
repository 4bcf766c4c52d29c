"""players.session_generation: revoking a device link or "log out other devices" ends the
sessions of the devices that used the profile (their signed cookies carry the old generation);
games.groups goes (an auto-finish wins, and a win is final: nothing is undone as a group)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_generation', sa.Integer(), server_default='0', nullable=False))
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('groups')


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('groups', sa.Text(), server_default='', nullable=False))
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('session_generation')
