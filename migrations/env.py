"""Alembic environment: the URL comes from app settings, never from alembic.ini."""

from __future__ import annotations

from alembic import context

from app.db.models import Base
from app.db.session import build_engine
from app.settings import get_settings

config = context.config
url = config.attributes.get("database_url") or get_settings().database_url


def run_offline() -> None:
    context.configure(url=url, target_metadata=Base.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    engine = build_engine(url)
    with engine.connect() as connection:
        if url.startswith("sqlite"):
            # batch mode copies a table and drops the old one; with foreign keys on, dropping
            # `players` would cascade-delete every game. Off for the migration (this
            # connection only; pysqlite runs a PRAGMA outside any transaction).
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        context.configure(
            connection=connection,
            target_metadata=Base.metadata,
            render_as_batch=url.startswith("sqlite"),  # SQLite can only ALTER by copying tables
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
