"""Games: starting one (a seed, a deal, or a fresh random seed), finding one, the checks every
change of a game makes first, and the game's derived figures (time, score).

How a stored game is replayed is app.services.records; how a change is stored is
app.services.moves.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Game, Player, utcnow
from app.engine import MAX_SEED, PRESETS, GameRecord, InvalidDealError, Preset, format_deal, get_game, score

from . import daily, results, winnable
from .errors import ConflictError, ForbiddenError, InputError, NotFoundError, RateLimitError
from .records import record_of

MAX_DEAL_TEXT = 1000


@dataclass(frozen=True)
class Limits:
    games_per_minute: int = 60
    max_moves: int = 5000


def get_preset_or_error(slug: str) -> Preset:
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


def parse_deal_text(preset: Preset, text: str) -> tuple:
    """An imported deal's cards, or InputError naming what is wrong with it."""
    if len(text) > MAX_DEAL_TEXT:
        raise InputError("that deal is far too long", "bad_deal")
    try:
        return get_game(preset.game).parse_deal(text)
    except InvalidDealError as exc:
        raise InputError(str(exc), "bad_deal", detail=str(exc)) from None


# ---------------------------------------------------------------- queries

def get_game_row(session: Session, game_id: str) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFoundError("no such game", "no_such_game")
    return game


def unfinished_games(session: Session, player: Player, limit: int = 20) -> list[Game]:
    query = (
        select(Game)
        .where(Game.player_id == player.id, Game.status == "playing")
        .order_by(Game.updated_at.desc())
        .limit(limit)
    )
    return list(session.scalars(query))


def elapsed_seconds(game: Game, now: datetime | None = None) -> int:
    if game.started_at is None:
        return 0
    end = game.finished_at or now or utcnow()
    started = game.started_at if game.started_at.tzinfo else game.started_at.replace(tzinfo=timezone.utc)
    end = end if end.tzinfo else end.replace(tzinfo=timezone.utc)
    return max(0, int((end - started).total_seconds()))


def current_score(game: Game, record: GameRecord | None = None) -> int:
    return score(record or record_of(game), game.scoring, elapsed_seconds(game))


# ---------------------------------------------------------------- checks

def check_owner(game: Game, player: Player | None) -> None:
    if player is None or game.player_id != player.id:
        raise ForbiddenError("only the player who started this game can change it", "not_owner")


def check_fresh(game: Game, ply: int | None, version: int | None) -> None:
    if (ply is not None and ply != game.cursor) or (version is not None and version != game.version):
        raise ConflictError("this game moved on in another tab", "stale")


# ---------------------------------------------------------------- starting

def _check_rate(session: Session, player: Player, limits: Limits) -> None:
    since = utcnow() - timedelta(minutes=1)
    recent = session.scalar(
        select(func.count()).select_from(Game).where(Game.player_id == player.id, Game.created_at >= since)
    )
    if (recent or 0) >= limits.games_per_minute:
        raise RateLimitError("too many new games in one minute; wait a little", "rate_limited")


def start_game(
    session: Session,
    player: Player,
    preset_slug: str,
    *,
    seed: int | None = None,
    deal_text: str | None = None,
    limits: Limits = Limits(),
) -> Game:
    """A new game of the preset: the given deal, the seed's deal, or a fresh random seed
    (a proven-winnable one if the player asked for those)."""
    preset = get_preset_or_error(preset_slug)
    variant = get_game(preset.game)
    if deal_text is not None:
        deal = parse_deal_text(preset, deal_text)
        seed = None
    else:
        if seed is None and player.winnable_only:
            seed = winnable.winnable_seed(session, preset.slug, random_seed())
        seed = random_seed() if seed is None else seed
        deal = variant.deal(seed)
    _check_rate(session, player, limits)
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
        canonical = format_deal(parse_deal_text(preset, deal_text))
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
