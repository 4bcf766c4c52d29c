"""Where a game was played from (games.played_via: the pages, or the API, for good once any of
its moves came through the API), the best-score move a hint found where no win is known
(position_verdicts.best_move), and the row /healthz writes (health_checks).

Games stored before this revision by a player who holds an API token count as played through
the API: the pages never gave such a player one, so their games were the API's.

Revision ID: trust_0001
Revises: client_0001
Create Date: 2026-12-05
"""

from alembic import op
import sqlalchemy as sa


revision = 'trust_0001'
down_revision = 'client_0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('played_via', sa.String(length=8), nullable=False, server_default='page'))
        batch_op.create_check_constraint('ck_games_played_via', "played_via IN ('page', 'api')")
    op.execute("UPDATE games SET played_via = 'api' WHERE player_id IN "
               "(SELECT id FROM players WHERE token_hash IS NOT NULL)")
    with op.batch_alter_table('position_verdicts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('best_move', sa.String(length=64), nullable=True))
    op.create_table(
        'health_checks',
        sa.Column('name', sa.String(length=40), primary_key=True),
        sa.Column('checked_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.execute("INSERT INTO health_checks (name, checked_at) VALUES ('healthz', CURRENT_TIMESTAMP)")


def downgrade() -> None:
    op.drop_table('health_checks')
    with op.batch_alter_table('position_verdicts', schema=None) as batch_op:
        batch_op.drop_column('best_move')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_constraint('ck_games_played_via', type_='check')
        batch_op.drop_column('played_via')
