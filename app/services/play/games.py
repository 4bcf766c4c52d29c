"""Games: starting one (a seed, a deal, or a fresh random seed), finding one, the game on the
table as it stands (``OnTable``), and the game's derived figures (time, score).

A stored game is its GameRecord replayed from the row's text (``record_of``): a row is never
trusted further than the rules allow. How a change is stored is app.services.play.moves.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, case, exists, func, inspect, select, update
from sqlalchemy.orm import Session, aliased
from sqlalchemy.orm.exc import StaleDataError

from app.db.models import Game, Player, utcnow
from app.engine import (
    MAX_SEED,
    GameRecord,
    InvalidDealError,
    InvalidRulesError,
    Position,
    Preset,
    Scoring,
    Status,
    Termination,
    format_deal,
    get_game,
    get_preset,
    score,
)

from ..errors import ConflictError, InputError, NotFoundError, RateLimitError
from ..ratelimit import Arrivals
from . import daily, lifecycle
from .lifecycle import Abandonment, Phase


def replayed(game: str, rules: dict, deal: str, moves: str, cursor: int | None = None) -> GameRecord:
    """The record of a stored game: the canonical deal, the whole move list (redo tail
    included) and the cursor, every move checked again by the engine; raises the engine's
    errors if the text does not replay."""
    return GameRecord.from_text(game, get_game(game).parse_rules(rules), deal, moves, cursor)


def record_of(game: Game) -> GameRecord:
    return replayed(game.game, game.rules, game.deal, game.moves, game.cursor)

MAX_DEAL_TEXT = 1000
PAGE, API = "page", "api"  # where a game's moves come from (Game.played_via)


@dataclass(frozen=True)
class Limits:
    """What one request may do: the per-player limits, and the limits on new games per client
    address and in total (``new_games``, counted against ``address``; None: none)."""

    games_per_minute: int = 60
    max_moves: int = 5000
    new_games: Arrivals | None = None
    address: str = ""


def get_preset_or_error(slug: str) -> Preset:
    try:
        return get_preset(slug)  # a former name (presets.ALIASES) opens the preset itself
    except InvalidRulesError:
        raise NotFoundError(f"unknown preset {slug!r}", "unknown_preset", preset=slug) from None


def parse_seed(text: str | int) -> int:
    try:
        seed = int(str(text).strip())
    except ValueError:
        raise InputError(f"a seed is a whole number, not {str(text)[:40]!r}", "bad_seed") from None
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"a seed is a whole number from 0 to {MAX_SEED}", "bad_seed")
    return seed


def random_seed() -> int:
    # short enough to read aloud and type into the lobby's seed field (offline, the page picks a
    # new deal's seed the same way: static/js/offline-play.js, newSeed)
    return secrets.randbelow(1_000_000_000)


def parse_deal_text(preset: Preset, text: str) -> tuple:
    """An imported deal's cards, or InputError naming what is wrong with it."""
    if len(text) > MAX_DEAL_TEXT:
        raise InputError("that deal is far too long", "bad_deal")
    try:
        return get_game(preset.game).parse_deal(text)
    except InvalidDealError as exc:
        raise InputError(str(exc), "bad_deal", detail=str(exc), reason=(exc.reason, exc.params)) from None


# ---------------------------------------------------------------- queries

def get_game_row(session: Session, game_id: str) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFoundError("no such game", "no_such_game")
    return game


def unfinished_games(session: Session, player: Player, limit: int = 20, *, preset: str | None = None,
                     seed: int | None = None, deal: str | None = None) -> list[Game]:
    """The player's games in play (a move made, not finished, not counted as lost), newest first;
    of one preset, or one deal (a seed, or an imported deal's canonical text), if given."""
    if player.id is None:
        return []
    query = select(Game).where(Game.player_id == player.id, lifecycle.playing_expression())
    if preset is not None:
        query = query.where(Game.preset == preset)
    if seed is not None:
        query = query.where(Game.seed == seed)
    elif deal is not None:
        query = query.where(Game.seed.is_(None), Game.deal == deal)
    return list(session.scalars(query.order_by(Game.updated_at.desc()).limit(limit)))


def current_score(game: Game, record: GameRecord | None = None, scoring: str | None = None) -> int:
    """The game's score under its scoring system (or ``scoring``); a game the clock does not
    time (``lifecycle.clock_counts``: played offline) earns no time bonus, so a timed score
    counts its pairs only."""
    scoring = scoring or game.scoring
    timed_off = scoring == Scoring.TIMED and not lifecycle.clock_counts(game)
    return score(record or record_of(game), Scoring.PAIRS if timed_off else scoring, lifecycle.elapsed_seconds(game))


def score_as_stored(game: Game, record: GameRecord) -> int | ColumnElement[int]:
    """The score a change writes: by the scoring the game's row holds when the write lands, in
    the UPDATE itself. The request read the game before; a new scoring of the player's
    (``follow_scoring``), stored meanwhile, rescored it and keeps its version, so the write is
    not refused and must not score by the system it read. A game not stored yet has no row."""
    if not inspect(game).persistent:
        return current_score(game, record)
    return case({system.value: current_score(game, record, scoring=system) for system in Scoring},
                value=Game.scoring, else_=current_score(game, record))


def follow_scoring(session: Session, player: Player, scoring: str) -> None:
    """The player's games in play take their new scoring system, each scored again by it;
    finished ones, and those counted as lost, keep theirs. Nothing else of a game changes: a
    write would make an idle game look played, and raise the version another tab's next move
    is checked against, so each is one UPDATE that keeps both."""
    # locked: two changes of scoring at once rescore each game once, by the later one. A move
    # read before this and written after scores by the scoring it finds (score_as_stored)
    changing = session.scalars(select(Game).where(Game.player_id == player.id, lifecycle.in_play_expression(),
                                                  Game.scoring != scoring).with_for_update())
    for game in changing.all():
        session.execute(update(Game).where(Game.id == game.id)
                        .values(scoring=scoring, score=current_score(game, scoring=scoring), updated_at=Game.updated_at)
                        .execution_options(synchronize_session=False))


# ---------------------------------------------------------------- starting

def check_rate(session: Session, player: Player, limits: Limits) -> None:
    """``RateLimitError`` (with the seconds to wait) when the player has started as many games
    in the last minute as ``limits`` allows, or their address or the instance as many new games
    as it allows (asked, not counted: ``start_game`` counts the game it stores): a new game is
    refused."""
    _check_player_rate(session, player, limits)
    if limits.new_games is not None:
        limits.new_games.check(limits.address, take=False)


def _check_player_rate(session: Session, player: Player, limits: Limits) -> None:
    now = utcnow()
    since = now - timedelta(minutes=1)
    recent, oldest = session.execute(
        select(func.count(), func.min(Game.created_at)).where(Game.player_id == player.id, Game.created_at >= since)
    ).one()
    if (recent or 0) >= limits.games_per_minute:
        wait = 60.0
        if oldest is not None:  # the oldest of them leaves the minute first
            wait = 60 - (now - oldest).total_seconds()
        raise RateLimitError("too many new games in one minute; wait a little", "rate_limited",
                             retry_after=max(1, math.ceil(wait)))


def _row(player: Player, preset: Preset, deal: tuple, seed: int | None) -> Game:
    """A game of ``deal`` for ``player``, before its first move (not stored: see the callers)."""
    return Game(player_id=player.id, preset=preset.slug, game=preset.game, rules=preset.rules.to_options(),
                deal=format_deal(deal), deal_key=get_game(preset.game).deal_key(deal), seed=seed, moves="",
                cursor=0, status=Status.PLAYING, scoring=player.scoring or "simple", played_via=PAGE)


def start_game(
    session: Session,
    player: Player,
    preset_slug: str,
    *,
    seed: int | None = None,
    deal_text: str | None = None,
    limits: Limits = Limits(),
    via: str = PAGE,
) -> Game:
    """A new game of the preset, stored before its first move: the given deal, or the seed's
    (a new deal's seed is the caller's: app.services.assist.winnable.new_seed); ``via`` the
    pages or the API (``Game.played_via``)."""
    preset = get_preset_or_error(preset_slug)
    variant = get_game(preset.game)
    if deal_text is not None:
        deal = parse_deal_text(preset, deal_text)
        seed = None
    elif seed is None:
        raise ValueError("a game is started from a seed or a deal")
    else:
        deal = variant.deal(seed)
    _check_player_rate(session, player, limits)
    if limits.new_games is not None:
        limits.new_games.check(limits.address)  # per client address and in total, counted (ratelimit.py)
    game = _row(player, preset, deal, seed)
    game.played_via = via
    game.score = current_score(game)
    game.daily_on = daily.day_of_daily(session, preset.slug, seed)
    session.add(game)
    # its id; its first move replaces the player's unfinished game of the preset (app.services.play.moves)
    session.flush()
    return game


def pending(player: Player, preset_slug: str, *, seed: int | None = None, deal_text: str | None = None) -> Game:
    """A deal ready to play: a seed's, or an imported deal's (then ``seed`` is None). It is the
    game its first move will store, as a row that is never added to the session (SQLAlchemy's
    "transient" state): no id, no move and no time yet, and nothing a page reads is missing."""
    preset = get_preset_or_error(preset_slug)
    variant = get_game(preset.game)
    deal = parse_deal_text(preset, deal_text) if deal_text is not None else variant.deal(seed or 0)
    game = _row(player, preset, deal, None if deal_text is not None else seed)
    game.version = game.undo_count = game.hint_count = 0
    game.abandoned = game.auto_finished = game.winnable_shown = False
    game.score = current_score(game)  # a Gaps deal may have cards in place before any move
    return game


def stored(game: Game) -> bool:
    """Whether ``game`` is a stored game (it has an id), not a deal ready to play (``pending``)."""
    return game.id is not None


def through_api(game: Game) -> None:
    """A move, undo or redo of this game comes through the API: a program's game, for good."""
    game.played_via = API


@dataclass(frozen=True)
class OnTable:
    """The game on the table: one value for what every page, board and API answer reads of a
    game. A stored game and a deal ready to play (``pending``) are read the same way: their
    record (the deal and the moves, replayed by the engine), their phase in the game's life
    (``lifecycle.Phase``) and what follows from it — what the game counts as, why it ended,
    whether it still takes moves, undo and redo."""

    game: Game
    record: GameRecord
    phase: Phase

    @classmethod
    def of(cls, game: Game, record: GameRecord | None = None, now: datetime | None = None) -> OnTable:
        """The game as it stands (``record``: its record when the caller has it already)."""
        return cls(game, record or record_of(game), lifecycle.phase_of(game, now))

    @property
    def stored(self) -> bool:
        """A stored game, not a deal ready to play."""
        return stored(self.game)

    @property
    def position(self) -> Position:
        return self.record.position

    @property
    def finished(self) -> bool:
        """Won, no moves left, or counted as lost: its result can be shown (its analysis once it
        is ``over``)."""
        return self.phase.finished

    @property
    def status(self) -> Status:
        """What the game counts as now: a game counted as lost is ``LOST`` whatever its position."""
        return self.phase.result

    @property
    def end_reason(self) -> Abandonment | Termination | None:
        """Why the game ended: replaced or left for a day (counted as lost), or the engine's reason."""
        if self.phase is Phase.ABANDONED:
            return lifecycle.abandonment(self.game)
        return self.position.end_reason

    @property
    def open(self) -> bool:
        """Still takes moves, undo, redo and the solver's help (``lifecycle.check``)."""
        return self.phase.open

    @property
    def can_undo(self) -> bool:
        return self.open and self.record.can_undo

    @property
    def can_redo(self) -> bool:
        return self.open and self.record.can_redo

    @property
    def undo_refusal(self) -> str | None:
        """Why undo is greyed, as ``lifecycle.check`` and the engine would refuse it (a message
        key); None while it may be pressed."""
        return lifecycle.closed_reason(self.phase) or (None if self.record.can_undo else "nothing_to_undo")

    @property
    def redo_refusal(self) -> str | None:
        return lifecycle.closed_reason(self.phase) or (None if self.record.can_redo else "nothing_to_redo")

    @property
    def elapsed(self) -> int:
        """Seconds from the first move to the end, or to now while it is played."""
        return lifecycle.elapsed_seconds(self.game)

    @property
    def timer_running(self) -> bool:
        return self.game.started_at is not None and self.game.finished_at is None

    @property
    def timed(self) -> bool:
        """Scored ``Scoring.TIMED``: its page shows the clock, or says why it does not count."""
        return self.game.scoring == Scoring.TIMED

    @property
    def clock_counts(self) -> bool:
        """The server's clock times the game (``lifecycle.clock_counts``: not played offline)."""
        return lifecycle.clock_counts(self.game)


def abandon(session: Session, game: Game) -> None:
    """The player confirmed "New deal" or "Restart" on this unfinished game, or left or gave up
    one with no moves left: it counts as lost for good (``ABANDONED``, or ``CONCEDED``), written
    at once, conditional on the game's version like every change of a game: if another tab moved
    it meanwhile, ConflictError (409), and nothing is counted."""
    if lifecycle.phase_of(game) not in (lifecycle.Phase.PLAYING, lifecycle.Phase.LOST):
        return
    game.abandoned = True
    try:
        session.flush()
    except StaleDataError:
        raise ConflictError("this game moved on in another tab", "stale") from None


def key_of_seed(preset_slug: str, seed: int) -> tuple[str, str]:
    """The game and the deal key (``Game.deal_key``) of a preset's deal ``seed``."""
    variant = get_game(get_preset_or_error(preset_slug).game)
    return variant.name, variant.deal_key(variant.deal(seed))


def first_of_deal(player_id, game, deal_key, created_at, game_id) -> ColumnElement[bool]:
    """SQL: the game of these columns is its player's first stored game of its cards (ever: a
    game the day before, a retry's origin, a game a hint stored before its first move, the same
    cards imported as a deal, dealt by another preset of the game or with their suits swapped
    (``Game.deal_key``) all come first). A later game
    knows the deal, and may have seen its winning line on the deal's page: the daily table ranks
    only the first, and the statistics count only the first as a clean win
    (app.services.stats.clean)."""
    earlier = aliased(Game)
    return ~exists().where(earlier.player_id == player_id, earlier.game == game, earlier.deal_key == deal_key,
                           (earlier.created_at < created_at)
                           | ((earlier.created_at == created_at) & (earlier.id < game_id)))


def alone_in_deal(player_id, game, deal_key, created_at, finished_at, updated_at, game_id) -> ColumnElement[bool]:
    """SQL: no other game of its player dealt its cards (``Game.deal_key``, as ``first_of_deal``
    reads it) was stored while the game of these columns was played: from its start to its end,
    or to its last change where it has no end (in play, or counted lost without one: replaced,
    idle). A game of the same cards in another preset, imported, or stored by a hint on the
    deal's page is help this one could use: its hints, its "still winnable?", and once it is
    over the deal's winning line and the other players' replays."""
    other = aliased(Game)
    return ~exists().where(other.player_id == player_id, other.game == game, other.deal_key == deal_key,
                           other.id != game_id, other.created_at >= created_at,
                           other.created_at < func.coalesce(finished_at, updated_at))


def game_of_deal(session: Session, player: Player, draft: Game) -> Game | None:
    """The player's game in play of this deal (a seed's, or an imported deal's), if any."""
    found = unfinished_games(session, player, 1, preset=draft.preset, seed=draft.seed,
                             deal=draft.deal if draft.seed is None else None)
    return found[0] if found else None


def game_to_start(session: Session, player: Player, preset_slug: str, *, seed: int | None = None,
                  deal_text: str | None = None, limits: Limits = Limits()) -> Game:
    """The game a deal's first action at the board stores its move (or hint) in: the player's
    stored game of this deal with no move yet, if any (a hint asked before the first move
    stores one, and the game then played goes on with it, its hints counted), else a new one."""
    draft = pending(player, preset_slug, seed=seed, deal_text=deal_text)
    return waiting_game(session, player, draft) or start_game(session, player, preset_slug, seed=seed,
                                                              deal_text=deal_text, limits=limits)


def waiting_game(session: Session, player: Player, draft: Game) -> Game | None:
    """The player's stored game of the draft's deal with no move yet (stored by a hint), if any."""
    query = select(Game).where(Game.player_id == player.id, Game.preset == draft.preset,
                               Game.started_at.is_(None), Game.played_via == PAGE)
    query = query.where(Game.seed == draft.seed) if draft.seed is not None else query.where(
        Game.seed.is_(None), Game.deal == draft.deal)
    return session.scalars(query.order_by(Game.created_at.desc()).limit(1)).first()
