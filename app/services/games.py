"""Starting, loading and changing stored games. Every change is committed before it returns.

A game row stores the canonical deal, the whole move list (redo tail included) and the
cursor; the engine's GameRecord is rebuilt from that text. Writes are conditional on
the row's version (SQLAlchemy's version_id_col, and the same condition in the statement
that stores an action), so two tabs can never fork a history.
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from collections import OrderedDict
from threading import Lock

from sqlalchemy import and_, bindparam, func, inspect, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from app.db.models import Game, Player, utcnow
from app.engine import (
    PRESETS,
    GameRecord,
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    deal_for_seed,
    format_deal,
    get_game,
    score,
)

from . import daily, results
from .errors import ConflictError, ForbiddenError, InputError, NotFoundError, RateLimitError
from .ratelimit import Arrivals

move_log = logging.getLogger("tretten.move")

MAX_SEED = (1 << 64) - 1  # every seed the engine deals; stored as text (app.db.types.SeedType)
MAX_DEAL_TEXT = 1000


@dataclass(frozen=True)
class Limits:
    """What one request may do: the per-player limits, and the limits on new games per client
    address and in total (``new_games``, counted against ``address``; None: none)."""

    games_per_minute: int = 60
    max_moves: int = 5000
    new_games: Arrivals | None = None
    address: str = ""


def get_preset_or_error(slug: str):
    preset = PRESETS.get(slug)
    if preset is None:
        raise NotFoundError(f"unknown preset {slug!r}", "unknown_preset", preset=slug)
    return preset


def parse_seed(text: str | int) -> int:
    try:
        seed = int(str(text).strip())
    except ValueError:
        raise InputError(f"a seed is a whole number, not {str(text)[:40]!r}", "bad_seed") from None
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"a seed is a whole number from 0 to {MAX_SEED}", "bad_seed")
    return seed


def random_seed() -> int:
    # short enough to read aloud and type into the lobby's seed field
    return secrets.randbelow(1_000_000_000)


# ---------------------------------------------------------------- records

def _rules_key(options: dict) -> tuple:
    return tuple(sorted((str(k), str(v)) for k, v in options.items()))


class _RecordCache:
    """Replayed records keyed by the stored text itself, so a stale entry can never be
    served and losing the cache costs only a replay (safe with several instances)."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self.items: OrderedDict[tuple, GameRecord] = OrderedDict()
        self.lock = Lock()

    def get(self, key: tuple) -> GameRecord | None:
        with self.lock:
            record = self.items.get(key)
            if record is not None:
                self.items.move_to_end(key)
            return record

    def put(self, key: tuple, record: GameRecord) -> None:
        with self.lock:
            self.items[key] = record
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_records = _RecordCache()


def _key(game: Game) -> tuple:
    return (game.game, _rules_key(game.rules), game.deal, game.moves, game.cursor)


def record_of(game: Game) -> GameRecord:
    key = _key(game)
    record = _records.get(key)
    if record is None:
        variant = get_game(game.game)
        record = GameRecord.from_text(game.game, variant.parse_rules(game.rules), game.deal, game.moves, game.cursor)
        _records.put(key, record)
    return record


def elapsed_seconds(game: Game, now: datetime | None = None) -> int:
    if game.started_at is None:
        return 0
    end = game.finished_at or now or utcnow()
    started = game.started_at if game.started_at.tzinfo else game.started_at.replace(tzinfo=timezone.utc)
    end = end if end.tzinfo else end.replace(tzinfo=timezone.utc)
    return max(0, int((end - started).total_seconds()))


def current_score(game: Game, record: GameRecord | None = None) -> int:
    return score(record or record_of(game), game.scoring, elapsed_seconds(game))


# ---------------------------------------------------------------- queries

def get_game_row(session: Session, game_id: str) -> Game:
    game = session.get(Game, game_id) if len(game_id) <= 24 else None
    if game is None:
        raise NotFoundError("no such game", "no_such_game")
    return game


# built once: making the statement (not running it) was a third of the lookup's CPU
_PLAYER_AND_GAME = (
    select(Player, Game)
    .outerjoin(Game, Game.id == bindparam("game_id"))
    .where(Player.id == bindparam("player_id"))
)


def player_and_game(session: Session, player_id: str | None, game_id: str) -> tuple[Player | None, Game | None]:
    """A player (by id) and a game (by id), either or both possibly missing, in one query:
    a board action needs both, and one round trip costs less than two."""
    if not player_id:
        return None, session.get(Game, game_id) if len(game_id) <= 24 else None
    if len(game_id) > 24:
        return session.get(Player, player_id), None
    row = session.execute(_PLAYER_AND_GAME, {"player_id": player_id, "game_id": game_id}).first()
    if row is None:
        return None, session.get(Game, game_id)
    return row[0], row[1]


def unfinished_games(session: Session, player: Player, limit: int = 20) -> list[Game]:
    query = (
        select(Game)
        .where(Game.player_id == player.id, Game.status == "playing")
        .order_by(Game.updated_at.desc())
        .limit(limit)
    )
    return list(session.scalars(query))


# ---------------------------------------------------------------- starting

def _check_rate(session: Session, player: Player, limits: Limits) -> None:
    now = utcnow()
    since = now - timedelta(minutes=1)
    recent, oldest = session.execute(
        select(func.count(), func.min(Game.created_at)).where(Game.player_id == player.id, Game.created_at >= since)
    ).one()
    if recent >= limits.games_per_minute:
        wait = 60.0
        if oldest is not None:  # the oldest of them leaves the minute first
            oldest = oldest if oldest.tzinfo else oldest.replace(tzinfo=timezone.utc)
            wait = 60 - (now - oldest).total_seconds()
        raise RateLimitError("too many new games in one minute; wait a little", "rate_limited",
                             retry_after=max(1, math.ceil(wait)))


def start_game(
    session: Session,
    player: Player,
    preset_slug: str,
    *,
    seed: int | None = None,
    deal_text: str | None = None,
    limits: Limits = Limits(),
) -> Game:
    """A new game of the preset: the given deal, the seed's deal, or a fresh random seed."""
    preset = get_preset_or_error(preset_slug)
    variant = get_game(preset.game)
    if deal_text is not None:
        if len(deal_text) > MAX_DEAL_TEXT:
            raise InputError("that deal is far too long", "bad_deal")
        try:
            deal = variant.parse_deal(deal_text)
        except InvalidDealError as exc:
            raise InputError(str(exc), "bad_deal", detail=str(exc)) from None
        seed = None
    else:
        if seed is None and player.winnable_only:
            from .winnable import winnable_seed  # the solver only when the player asked for it

            seed = winnable_seed(session, preset.slug)
        seed = random_seed() if seed is None else seed
        deal = deal_for_seed(variant.name, seed)
    _check_rate(session, player, limits)
    if limits.new_games is not None:
        limits.new_games.check(limits.address)  # per client address and in total (ratelimit.py)
    game = Game(
        player_id=player.id,
        preset=preset.slug,
        game=variant.name,
        rules=preset.rules.to_options(),
        deal=format_deal(deal),
        seed=seed,
        moves="",
        cursor=0,
        status="playing",
        scoring=player.scoring,
    )
    game.score = current_score(game)
    game.daily_on = daily.day_of_daily(session, preset.slug, seed)
    session.add(game)
    session.flush()
    results.abandon_unfinished(session, game)  # a new deal replaces an unfinished one: lost
    session.commit()
    return game


def find_or_start(
    session: Session, player: Player, preset_slug: str, *, seed: int | None = None,
    deal_text: str | None = None, limits: Limits = Limits(),
) -> Game:
    """A share link: the player's unfinished game of that deal, or a new one."""
    preset = get_preset_or_error(preset_slug)
    query = select(Game).where(Game.player_id == player.id, Game.preset == preset.slug, Game.status == "playing")
    if seed is not None:
        query = query.where(Game.seed == seed)
    elif deal_text is not None:
        try:
            canonical = format_deal(get_game(preset.game).parse_deal(deal_text[:MAX_DEAL_TEXT]))
        except InvalidDealError as exc:
            raise InputError(str(exc), "bad_deal", detail=str(exc)) from None
        query = query.where(Game.seed.is_(None), Game.deal == canonical)
    existing = session.scalar(query.order_by(Game.updated_at.desc()).limit(1))
    if existing is not None:
        return existing
    return start_game(session, player, preset_slug, seed=seed, deal_text=deal_text, limits=limits)


def restart(session: Session, game: Game, player: Player, *, limits: Limits = Limits()) -> Game:
    """Try the same deal again, as a new game (the old one stays as it was)."""
    check_owner(game, player)
    deal = None if game.seed is not None else game.deal
    return start_game(session, player, game.preset, seed=game.seed, deal_text=deal, limits=limits)


# ---------------------------------------------------------------- changing

def check_owner(game: Game, player: Player | None) -> None:
    if player is None or game.player_id != player.id:
        raise ForbiddenError("only the player who started this game can change it", "not_owner")


def check_fresh(game: Game, ply: int | None, version: int | None) -> None:
    if (ply is not None and ply != game.cursor) or (version is not None and version != game.version):
        raise ConflictError("this game moved on in another tab", "stale")


def _store(session: Session, game: Game, record: GameRecord, action: str = "move",
           started: float | None = None) -> GameRecord:
    now = utcnow()
    results.mark_idle(game, now)
    if game.groups and action not in ("undo", "redo"):
        game.groups = kept_groups(game.groups, record.cursor, len(record.moves))
    game.moves = record.moves_text
    game.cursor = record.cursor
    game.status = record.position.status
    if game.started_at is None and record.cursor > 0:
        game.started_at = now
    game.finished_at = now if game.status != "playing" else None
    game.seconds = results.finish_time(game)
    game.score = current_score(game, record)
    try:
        _write_state(session, game, now)
        session.commit()
    except StaleDataError:
        session.rollback()
        _log_move(game.id, action, record, "stale", started)
        raise ConflictError("this game moved on in another tab", "stale") from None
    _records.put(_key(game), record)  # the response renders this record: no replay
    _log_move(game.id, action, record, "stored", started)
    return record


# What a stored action may change in a game row, written by one statement built once: the
# ORM's flush of the same row (unit of work, history per attribute, version check) made a
# move cost 4 % more instructions (bench/instructions.py: 7.06 M against 6.78 M). Most moves
# change only the first four columns, and have a statement of their own.
_STATE_COLUMNS = ("moves", "cursor", "status", "score", "started_at", "finished_at", "seconds", "groups",
                  "undo_count", "hint_count", "abandoned", "auto_finished")
_MOVE_COLUMNS = _STATE_COLUMNS[:4]
_STATE_KEYS = frozenset(_STATE_COLUMNS)
_MOVE_KEYS = frozenset(_MOVE_COLUMNS)
_GAMES = Game.__table__


def _conditional_update(columns: tuple[str, ...]):
    return (
        update(_GAMES)
        .where(and_(_GAMES.c.id == bindparam("b_id"), _GAMES.c.version == bindparam("b_seen")))
        .values({name: bindparam(name, type_=_GAMES.c[name].type) for name in (*columns, "updated_at", "version")})
    )


_WRITE_STATE = _conditional_update(_STATE_COLUMNS)
_WRITE_MOVE = _conditional_update(_MOVE_COLUMNS)


def _write_state(session: Session, game: Game, now: datetime) -> None:
    """The game's state, conditional on the version it was read at (StaleDataError if
    another write came first); the object then leaves the session, holding what is stored.
    A game with other changes (no action makes any) is left whole to the ORM's flush."""
    state = inspect(game)
    set_columns = state.committed_state
    if not state.persistent or not set_columns.keys() <= _STATE_KEYS:
        return
    changed = {name for name, before in set_columns.items() if getattr(game, name) != before}
    columns, statement = (_MOVE_COLUMNS, _WRITE_MOVE) if changed <= _MOVE_KEYS else (_STATE_COLUMNS, _WRITE_STATE)
    seen = game.version
    values = {name: getattr(game, name) for name in columns}
    with session.no_autoflush:  # an autoflush would write the same changes through the ORM first
        result = session.execute(statement, {**values, "updated_at": now, "version": seen + 1,
                                             "b_id": game.id, "b_seen": seen})
    if result.rowcount != 1:
        raise StaleDataError(f"game {game.id} is no longer at version {seen}")
    # out of the session, nothing is left for the ORM to flush; the response reads the object
    session.expunge(game)
    set_committed_value(game, "updated_at", now)
    set_committed_value(game, "version", seen + 1)


def _log_move(game_id: str, action: str, record: GameRecord, outcome: str, started: float | None) -> None:
    """One JSON line per stored (or refused as stale) move: see app.web.logs."""
    if not move_log.isEnabledFor(logging.INFO):
        return
    fields = {"game": game_id, "action": action, "outcome": outcome, "ply": record.cursor,
              "status": record.position.status}
    if action == "move" and record.cursor:
        fields["move"] = str(record.moves[record.cursor - 1])
    if started is not None:
        fields["ms"] = round((time.perf_counter() - started) * 1000, 2)
    move_log.info(action, extra={"fields": fields})


def play_move(
    session: Session, game: Game, player: Player | None, move_text: str, *,
    ply: int | None = None, version: int | None = None, limits: Limits = Limits(),
) -> GameRecord:
    started = time.perf_counter()
    check_owner(game, player)
    check_fresh(game, ply, version)
    record = record_of(game)
    if record.cursor >= limits.max_moves:
        raise InputError("this game has reached the longest move list allowed", "too_many_moves")
    try:
        record = record.play(move_text.strip()[:64])
    except InvalidMoveError as exc:
        raise InputError(str(exc), "bad_move", detail=str(exc)) from None
    except IllegalMoveError as exc:
        raise InputError(str(exc), "illegal_move", detail=str(exc)) from None
    return _store(session, game, record, "move", started)


def undo(session: Session, game: Game, player: Player | None, *, ply: int | None = None, version: int | None = None) -> GameRecord:
    check_owner(game, player)
    check_fresh(game, ply, version)
    record = record_of(game)
    if not record.can_undo:
        raise InputError("there is nothing to undo", "nothing_to_undo")
    game.undo_count += 1
    # one undo takes back one action: an auto-finish's moves go back together
    return _store(session, game, record.at(group_start(game.groups, record.cursor)), "undo")


def redo(session: Session, game: Game, player: Player | None, *, ply: int | None = None, version: int | None = None) -> GameRecord:
    check_owner(game, player)
    check_fresh(game, ply, version)
    record = record_of(game)
    if not record.can_redo:
        raise InputError("there is nothing to redo", "nothing_to_redo")
    return _store(session, game, record.at(group_end(game.groups, record.cursor)), "redo")


# ---------------------------------------------------------------- grouped actions

def parse_groups(text: str) -> list[tuple[int, int]]:
    """``games.groups``: "start:count" tokens, one per action that played several moves."""
    out = []
    for token in (text or "").split():
        start, _, count = token.partition(":")
        if start.isdigit() and count.isdigit() and int(count) > 1:
            out.append((int(start), int(count)))
    return out


def format_groups(groups: list[tuple[int, int]]) -> str:
    return " ".join(f"{start}:{count}" for start, count in sorted(groups))


def group_start(text: str, cursor: int) -> int:
    """Where one undo from ``cursor`` lands: the start of the action that ended there."""
    for start, count in parse_groups(text):
        if start + count == cursor:
            return start
    return cursor - 1


def group_end(text: str, cursor: int) -> int:
    """Where one redo from ``cursor`` lands: the end of the action that starts there."""
    for start, count in parse_groups(text):
        if start == cursor:
            return start + count
    return cursor + 1


def kept_groups(text: str, cursor: int, length: int) -> str:
    """The groups still inside the move list after a new move dropped the redo tail."""
    return format_groups([(s, c) for s, c in parse_groups(text) if s + c <= min(cursor, length)])


def play_moves(session: Session, game: Game, player: Player | None, moves: list[str], *,
               ply: int | None = None, version: int | None = None, limits: Limits = Limits(),
               action: str = "auto-finish", group: bool = True) -> GameRecord:
    """Several moves as ONE action (one undo step; ``group=False``: each its own step): all
    legal, or none stored."""
    started = time.perf_counter()
    check_owner(game, player)
    check_fresh(game, ply, version)
    record = record_of(game)
    start = record.cursor
    if start + len(moves) > limits.max_moves:
        raise InputError("this game has reached the longest move list allowed", "too_many_moves")
    try:
        for move_text in moves:
            record = record.play(move_text)
    except InvalidMoveError as exc:
        raise InputError(str(exc), "bad_move", detail=str(exc)) from None
    except IllegalMoveError as exc:
        raise InputError(str(exc), "illegal_move", detail=str(exc)) from None
    groups = [(s, c) for s, c in parse_groups(game.groups) if s + c <= start]
    if group and len(moves) > 1:
        groups.append((start, len(moves)))
    game.groups = format_groups(groups)
    return _store(session, game, record, action, started)


# ---------------------------------------------------------------- JSON

def game_json(game: Game, record: GameRecord | None = None) -> dict:
    """What the API returns: the stored game plus what `tretten replay` prints for it."""
    record = record or record_of(game)
    position = record.position
    return {
        "id": game.id,
        "preset": game.preset,
        "game": game.game,
        "rules": game.rules,
        "deal": game.deal,
        "seed": game.seed,
        "moves": game.moves,
        "cursor": game.cursor,
        "ply": game.cursor,
        "version": game.version,
        "status": position.status,
        "legal": sorted(str(m) for m in position.legal_moves()),
        "score": position.simple_score,
        "scoring": {"system": game.scoring, "points": game.score},
        "position": position.to_json(),
    }


def previous_position(record: GameRecord):
    """The position one move before the cursor."""
    return record.at(record.cursor - 1).position
