"""Bring a database to the newest schema; `tretten serve` calls this before serving."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from app.settings import PROJECT_ROOT, Settings


def alembic_config(settings: Settings) -> Config:
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    config.attributes["database_url"] = settings.database_url
    return config


def upgrade_to_head(settings: Settings) -> None:
    command.upgrade(alembic_config(settings), "head")
