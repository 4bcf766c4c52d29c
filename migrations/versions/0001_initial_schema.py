"""initial schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-29
"""

from alembic import op
import sqlalchemy as sa


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('players',
    sa.Column('id', sa.String(length=24), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=True),
    sa.Column('language', sa.String(length=8), nullable=True),
    sa.Column('scoring', sa.String(length=16), nullable=False),
    sa.Column('zen', sa.Boolean(), nullable=False),
    sa.Column('four_colour', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_hash')
    )
    op.create_table('games',
    sa.Column('id', sa.String(length=24), nullable=False),
    sa.Column('player_id', sa.String(length=24), nullable=False),
    sa.Column('preset', sa.String(length=40), nullable=False),
    sa.Column('game', sa.String(length=40), nullable=False),
    sa.Column('rules', sa.JSON(), nullable=False),
    sa.Column('deal', sa.Text(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=True),
    sa.Column('moves', sa.Text(), nullable=False),
    sa.Column('cursor', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('scoring', sa.String(length=16), nullable=False),
    sa.Column('score', sa.Integer(), nullable=False),
    sa.Column('undo_count', sa.Integer(), nullable=False),
    sa.Column('hint_count', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index('ix_games_player_preset_seed', ['player_id', 'preset', 'seed'], unique=False)
        batch_op.create_index('ix_games_player_status', ['player_id', 'status', 'updated_at'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('ix_games_player_status')
        batch_op.drop_index('ix_games_player_preset_seed')

    op.drop_table('games')
    op.drop_table('players')
