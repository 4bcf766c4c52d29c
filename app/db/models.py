"""The stored schema. Alembic migrations in migrations/ are the only way it changes."""

from __future__ import annotations

import secrets
from datetime import datetime, timezone

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def new_public_id() -> str:
    # random, unguessable ids: a game link is the capability to watch it
    return secrets.token_urlsafe(9)


class Base(DeclarativeBase):
    pass


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(24), primary_key=True, default=new_public_id)
    # sha256 of the API bearer token; NULL for browser-only players
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    language: Mapped[str | None] = mapped_column(String(8))
    scoring: Mapped[str] = mapped_column(String(16), default="simple")
    zen: Mapped[bool] = mapped_column(default=False)
    four_colour: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    games: Mapped[list["Game"]] = relationship(back_populates="player")


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_player_status", "player_id", "status", "updated_at"),
        Index("ix_games_player_preset_seed", "player_id", "preset", "seed"),
    )

    id: Mapped[str] = mapped_column(String(24), primary_key=True, default=new_public_id)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    preset: Mapped[str] = mapped_column(String(40))
    game: Mapped[str] = mapped_column(String(40))
    rules: Mapped[dict] = mapped_column(JSON)
    deal: Mapped[str] = mapped_column(Text)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    moves: Mapped[str] = mapped_column(Text, default="")
    cursor: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    scoring: Mapped[str] = mapped_column(String(16), default="simple")
    score: Mapped[int] = mapped_column(Integer, default=0)
    undo_count: Mapped[int] = mapped_column(Integer, default=0)
    hint_count: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # first move: the timer starts
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # optimistic concurrency: every UPDATE is conditional on the version it read
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)

    player: Mapped[Player] = relationship(back_populates="games")

    __mapper_args__ = {"version_id_col": version}
