"""A game's deal up to what its rules ignore (games.deal_key, app.engine's Variant.deal_key):
Pyramid reads only ranks, Gaps which suit is which not at all, so a deal with its suits
swapped is the same game to a player, and a line found on one plays on the other. A player's
first game of a deal (games.first_of_deal: only a first game is a clean win) is the first of
its key; the index that finds it is on the key.

Revision ID: honest_0002
Revises: honest_0001
Create Date: 2026-12-07
"""

from alembic import op
import sqlalchemy as sa

from app.engine import get_game


revision = 'honest_0002'
down_revision = 'honest_0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deal_key', sa.Text(), nullable=True))
    games = sa.table('games', sa.column('id', sa.String), sa.column('game', sa.String),
                     sa.column('deal', sa.Text), sa.column('deal_key', sa.Text))
    bind = op.get_bind()
    rows = bind.execute(sa.select(games.c.id, games.c.game, games.c.deal)).all()
    for game_id, name, deal in rows:
        variant = get_game(name)
        bind.execute(games.update().where(games.c.id == game_id)
                     .values(deal_key=variant.deal_key(variant.parse_deal(deal))))
    op.drop_index('ix_games_player_deal', table_name='games')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.alter_column('deal_key', existing_type=sa.Text(), nullable=False)
    op.create_index('ix_games_player_deal', 'games', ['player_id', 'game', 'deal_key'])


def downgrade() -> None:
    op.drop_index('ix_games_player_deal', table_name='games')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('deal_key')
    op.create_index('ix_games_player_deal', 'games', ['player_id', 'game', 'deal'])
