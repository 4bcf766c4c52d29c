"""Tut's Tomb is Pyramid: its stored games, verdicts and daily deals become Pyramid's

Tut's Tomb had exactly Pyramid's rules under another slug; the preset is gone (its links open
Pyramid: app.engine.presets.ALIASES). Its games are Pyramid games, and a verdict on one of its
seeds is a verdict on Pyramid's. Its daily deals are dropped: Pyramid has its own each day,
and the games keep the day they were a daily deal on.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-09
"""

from alembic import op


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("UPDATE games SET preset = 'pyramid' WHERE preset = 'tuts-tomb'")
    op.execute("DELETE FROM deal_verdicts WHERE preset = 'tuts-tomb' AND seed IN "
               "(SELECT seed FROM deal_verdicts WHERE preset = 'pyramid')")
    op.execute("UPDATE deal_verdicts SET preset = 'pyramid' WHERE preset = 'tuts-tomb'")
    op.execute("DELETE FROM daily_deals WHERE preset = 'tuts-tomb'")


def downgrade() -> None:
    pass  # the games cannot be told apart again, and both names play the same rules
