"""One unfinished game per player and preset, held by the database (a partial unique index),
and games.hinted_ply (a hint asked again for the same position is not counted twice)

Rows stored before this rule (racing first moves could store several) are settled first: of a
player's unfinished games of one preset the newest stays, the others count as lost, as a
first move would have counted them.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

UNFINISHED = "status = 'playing' AND abandoned = false AND started_at IS NOT NULL"


def upgrade() -> None:
    op.execute(f"""
        UPDATE games SET abandoned = true
        WHERE {UNFINISHED} AND EXISTS (
            SELECT 1 FROM games AS newer
            WHERE newer.player_id = games.player_id AND newer.preset = games.preset
              AND newer.status = 'playing' AND newer.abandoned = false AND newer.started_at IS NOT NULL
              AND (newer.updated_at > games.updated_at
                   OR (newer.updated_at = games.updated_at AND newer.id > games.id)))
    """)
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hinted_ply', sa.Integer(), nullable=True))
    op.create_index('uq_games_one_unfinished', 'games', ['player_id', 'preset'], unique=True,
                    sqlite_where=sa.text(UNFINISHED), postgresql_where=sa.text(UNFINISHED))


def downgrade() -> None:
    op.drop_index('uq_games_one_unfinished', table_name='games')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('hinted_ply')
