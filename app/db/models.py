"""The stored schema. Alembic migrations in migrations/ are the only way it changes."""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Enum,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

from app.engine import Status

SEED_DIGITS = 20  # 2**64 - 1 = 18446744073709551615 has 20 digits


class SeedType(TypeDecorator):
    """A deal seed, 0 ≤ seed < 2**64, stored as its decimal text.

    Neither SQLite nor PostgreSQL has an unsigned 64-bit integer (both stop at 2**63 − 1,
    and SQLite's NUMERIC turns larger values into floats), so the column is a short string;
    Python code sees an int. Only equality is ever asked of it (a deal is a preset and a seed).
    """

    impl = String(SEED_DIGITS)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        return None if value is None else str(int(value))

    def process_result_value(self, value, dialect):
        return None if value is None else int(value)


# A game's status as the engine's ``Status``, stored as its text in the same VARCHAR(16) as
# ever (no database enum type, no CHECK constraint: no migration)
STATUS_TYPE = Enum(Status, native_enum=False, create_constraint=False, length=16,
                   values_callable=lambda members: [m.value for m in members])


def utcnow() -> datetime:
    return datetime.now(UTC)


class Moment(TypeDecorator):
    """A moment in time, stored in UTC and read back aware, from either database: PostgreSQL's
    ``timestamptz`` hands back aware datetimes, SQLite keeps no zone and hands back naive ones
    (always UTC here), so every comparison and difference in Python needs no conversion.
    Written in UTC, so that SQLite, which keeps the wall-clock time it is given, reads it back
    right; a naive value is taken as UTC (PostgreSQL would read it in the connection's zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    def process_result_value(self, value, dialect):
        return value if value is None or value.tzinfo is not None else value.replace(tzinfo=UTC)


def new_public_id() -> str:
    # random, unguessable ids: a game link is the capability to watch it once it is finished (a game
    # in play is its player's alone: app.services.stats.leaderboard.check_may_watch)
    return secrets.token_urlsafe(9)


UNFINISHED = f"status = '{Status.PLAYING}' AND abandoned = false AND started_at IS NOT NULL"


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
    # the page's colours: "auto" follows the device (prefers-color-scheme), or "light"/"dark"
    theme: Mapped[str] = mapped_column(String(8), default="auto", server_default="auto")
    # cards move, deal in and celebrate a win; off (or the device's reduced motion) they don't
    animations: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # "new deal" gives only deals the solver proves winnable (app.services.assist.winnable)
    winnable_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # the "still winnable?" indicator on the game page (off by default: it is a spoiler)
    winnable_indicator: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(Moment, default=utcnow)
    # shown on deal pages beside the player's results (escaped); NULL = "anonymous"
    display_name: Mapped[str | None] = mapped_column(String(40))
    # the player's daily wins appear on the day's table (app.services.stats.leaderboard), under
    # ``display_name`` or as anonymous; off, only the player sees them there
    on_daily_table: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # "use this profile on another device": the link is an HMAC of this nonce (see
    # app.services.accounts.profiles); NULL = no link, and a new nonce revokes the old link
    device_nonce: Mapped[str | None] = mapped_column(String(32))
    # the browser sessions of this profile: a signed cookie of an older generation is logged out
    # (revoking the device link, or "log out other devices", moves it on)
    session_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    games: Mapped[list[Game]] = relationship(back_populates="player", passive_deletes=True)


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_player_status", "player_id", "status", "updated_at"),
        Index("ix_games_player_preset_seed", "player_id", "preset", "seed"),
        Index("ix_games_preset_seed", "preset", "seed"),          # deal pages
        Index("ix_games_player_started", "player_id", "started_at"),  # stats, history
        Index("ix_games_player_deal", "player_id", "game", "deal_key"),  # a player's first game of its cards
        # one unfinished game per player and preset: a first move replaces the one in play, and
        # of two first moves racing (two tabs, two instances) only one can store its game
        Index("uq_games_one_unfinished", "player_id", "preset", unique=True,
              sqlite_where=text(UNFINISHED), postgresql_where=text(UNFINISHED)),
        CheckConstraint("played_via IN ('page', 'api')", name="ck_games_played_via"),
    )

    id: Mapped[str] = mapped_column(String(24), primary_key=True, default=new_public_id)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    preset: Mapped[str] = mapped_column(String(40))
    game: Mapped[str] = mapped_column(String(40))
    rules: Mapped[dict] = mapped_column(JSON)
    deal: Mapped[str] = mapped_column(Text)
    # the deal up to what the game's rules ignore (Variant.deal_key: Pyramid's ranks, Gaps'
    # suits renamed): the same cards to a player, whatever preset dealt them or their suits
    deal_key: Mapped[str] = mapped_column(Text)
    seed: Mapped[int | None] = mapped_column(SeedType)  # 0 ≤ seed < 2**64, stored as text
    moves: Mapped[str] = mapped_column(Text, default="")
    cursor: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[Status] = mapped_column(STATUS_TYPE, default=Status.PLAYING)
    scoring: Mapped[str] = mapped_column(String(16), default="simple")
    score: Mapped[int] = mapped_column(Integer, default=0)
    undo_count: Mapped[int] = mapped_column(Integer, default=0)
    hint_count: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(Moment, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(Moment, default=utcnow, onupdate=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(Moment)  # first move: the timer starts
    finished_at: Mapped[datetime | None] = mapped_column(Moment)
    seconds: Mapped[int | None] = mapped_column(Integer)  # first move to the end, set when it ends
    # replaced by a new game of the same preset, or moved on after a day idle: counts as lost
    abandoned: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    auto_finished: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    daily_on: Mapped[date | None] = mapped_column(Date)  # the UTC day whose daily deal this is
    # the ply of the position whose cached winning line the hints follow (app.services.assist.assist)
    line_ply: Mapped[int | None] = mapped_column(Integer)
    # the ply of the last hint counted: asking again for the same position is not counted again
    hinted_ply: Mapped[int | None] = mapped_column(Integer)
    # that hint (app.services.assist.Hint as JSON): the page shows it again while the game is
    # still at that ply (any change clears the ply), so a reload does not lose what it cost
    last_hint: Mapped[str | None] = mapped_column(Text)
    # the id the page gave the last stored change (a move, undo, redo: ``mid``): the page sends a
    # change again when its answer was lost, and this tells that it is stored (lifecycle.check)
    last_mid: Mapped[str | None] = mapped_column(String(32))
    # where its moves came from: "page" (a person at the board), or "api" for good once any
    # move, undo or redo came through the API, or the game was made there: a program's game,
    # never ranked among the daily table's clean wins (app.services.stats.leaderboard)
    played_via: Mapped[str] = mapped_column(String(8), default="page", server_default="page")
    # a move made while the page had no network was stored (for good): the server's clock saw
    # only the moves arriving together, so the game's time never counts (lifecycle.finish_time)
    played_offline: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # a move was stored while its player showed "still winnable?" (for good): the solver said
    # after each move whether the deal could still be won, an aid like a hint (not a clean win)
    winnable_shown: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # optimistic concurrency: every UPDATE is conditional on the version it read
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)

    player: Mapped[Player] = relationship(back_populates="games")

    # read from the class by SQLAlchemy, whose typing declares it without ClassVar (mypy refuses one here)
    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012


class DailyDeal(Base):
    """The deal of the day, chosen once per preset and UTC day (docs/daily-deal.md)."""

    __tablename__ = "daily_deals"

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    preset: Mapped[str] = mapped_column(String(40), primary_key=True)
    seed: Mapped[int] = mapped_column(SeedType, nullable=False)
    candidate: Mapped[int] = mapped_column(Integer, default=0)  # k of the rule's k-th candidate
    proven: Mapped[bool] = mapped_column(Boolean, default=True)  # the solver proved it winnable
    created_at: Mapped[datetime] = mapped_column(Moment, default=utcnow)


class DealVerdict(Base):
    """The solver's verdict on a seeded deal of a preset, computed once and kept."""

    __tablename__ = "deal_verdicts"

    preset: Mapped[str] = mapped_column(String(40), primary_key=True)
    seed: Mapped[int] = mapped_column(SeedType, primary_key=True)
    winnable: Mapped[bool | None] = mapped_column(Boolean)  # None: undecided within the budget
    moves: Mapped[str] = mapped_column(Text, default="")   # a winning line, when winnable
    nodes: Mapped[int] = mapped_column(Integer, default=0)
    solved_at: Mapped[datetime] = mapped_column(Moment, default=utcnow)


class PositionVerdict(Base):
    """The solver's verdict on one position, shared by every game and instance that reaches it.

    ``key`` is the SHA-256 of the game, its rules, the deal and the moves played
    (app.services.assist.solver_cache.position_key). ``budget`` is the node budget the verdict was
    searched with: an undecided verdict (``winnable`` NULL) may be searched again with more.
    """

    __tablename__ = "position_verdicts"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    ply: Mapped[int] = mapped_column(Integer, default=0)
    winnable: Mapped[bool | None] = mapped_column(Boolean)
    moves: Mapped[str] = mapped_column(Text, default="")   # a winning continuation, when winnable
    nodes: Mapped[int] = mapped_column(Integer, default=0)
    budget: Mapped[int] = mapped_column(Integer, default=0)
    # not winnable or undecided: the move reaching the best score a hint's search found (a node
    # budget, so the same for every asker), kept so a hint asked again is not searched again
    best_move: Mapped[str | None] = mapped_column(String(64))
    solved_at: Mapped[datetime] = mapped_column(Moment, default=utcnow)


class ShortestLine(Base):
    """The shortest win the solver found from a position (a deal's start, for the end screen),
    and whether it is proven shortest; keyed as ``position_verdicts`` are."""

    __tablename__ = "shortest_lines"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    winnable: Mapped[bool | None] = mapped_column(Boolean)
    moves: Mapped[str] = mapped_column(Text, default="")
    proven: Mapped[bool] = mapped_column(Boolean, default=False)
    lower_bound: Mapped[int] = mapped_column(Integer, default=0)
    nodes: Mapped[int] = mapped_column(Integer, default=0)
    solved_at: Mapped[datetime] = mapped_column(Moment, default=utcnow)


class HealthCheck(Base):
    """The row ``/healthz`` writes: the database answers only if it also takes a write."""

    __tablename__ = "health_checks"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    checked_at: Mapped[datetime] = mapped_column(Moment, default=utcnow)
