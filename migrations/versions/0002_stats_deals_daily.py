"""stats, deal pages, daily deals, profiles; seeds as text (the full 0 ≤ seed < 2**64)

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Seeds go from BIGINT (signed: at most 2**63 - 1) to their decimal text, so every seed
    # the engine deals (up to 2**64 - 1) can be stored. SQLite copies the table (batch mode)
    # and CASTs; PostgreSQL converts in place.
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.alter_column('seed', existing_type=sa.BigInteger(), type_=sa.String(length=20),
                              existing_nullable=True, postgresql_using='seed::text')
        batch_op.add_column(sa.Column('seconds', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('abandoned', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('auto_finished', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('daily_on', sa.Date(), nullable=True))
        batch_op.create_index('ix_games_preset_seed', ['preset', 'seed'], unique=False)
        batch_op.create_index('ix_games_player_started', ['player_id', 'started_at'], unique=False)

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('display_name', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('device_nonce', sa.String(length=32), nullable=True))

    op.create_table('daily_deals',
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('preset', sa.String(length=40), nullable=False),
    sa.Column('seed', sa.String(length=20), nullable=False),
    sa.Column('candidate', sa.Integer(), nullable=False),
    sa.Column('proven', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('day', 'preset')
    )
    op.create_table('deal_verdicts',
    sa.Column('preset', sa.String(length=40), nullable=False),
    sa.Column('seed', sa.String(length=20), nullable=False),
    sa.Column('winnable', sa.Boolean(), nullable=True),
    sa.Column('moves', sa.Text(), nullable=False),
    sa.Column('nodes', sa.Integer(), nullable=False),
    sa.Column('solved_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('preset', 'seed')
    )

    # finished games get their playing time (first move to the end) once, here
    games = sa.table('games', sa.column('id', sa.String), sa.column('started_at', sa.DateTime(timezone=True)),
                     sa.column('finished_at', sa.DateTime(timezone=True)), sa.column('seconds', sa.Integer))
    connection = op.get_bind()
    rows = connection.execute(sa.select(games.c.id, games.c.started_at, games.c.finished_at).where(
        games.c.started_at.is_not(None), games.c.finished_at.is_not(None))).all()
    for game_id, started, finished in rows:
        seconds = max(0, int((finished.replace(tzinfo=None) - started.replace(tzinfo=None)).total_seconds()))
        connection.execute(games.update().where(games.c.id == game_id).values(seconds=seconds))


def downgrade() -> None:
    op.drop_table('deal_verdicts')
    op.drop_table('daily_deals')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('device_nonce')
        batch_op.drop_column('display_name')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('ix_games_player_started')
        batch_op.drop_index('ix_games_preset_seed')
        batch_op.drop_column('daily_on')
        batch_op.drop_column('auto_finished')
        batch_op.drop_column('abandoned')
        batch_op.drop_column('seconds')
        # seeds of 2**63 and more do not fit a BIGINT: they are dropped (the deal text stays)
        op.execute("UPDATE games SET seed = NULL WHERE length(seed) > 19 OR (length(seed) = 19 AND seed > '9223372036854775807')")
        batch_op.alter_column('seed', existing_type=sa.String(length=20), type_=sa.BigInteger(),
                              existing_nullable=True, postgresql_using='seed::bigint')
