"""The daily table: the day's wins of a preset's daily deal, the cleanest and shortest first.

A win is on the table of day D when its game is of the preset and D's daily deal and was both
started (its first move) and finished on D in UTC: at midnight the day's table is final, and a
game still open then can no longer reach it. Each player is on the table once, with their best
win. Clean wins the server saw played (app.services.stats.clean: ``unranked`` says why another
win is not ranked, in that one place) are ranked by moves, then seconds (equal moves and seconds
share a rank); the other wins follow, unranked, with the reason: help, a second game of the
cards, a program, a pace no person plays at, or no network (a game played offline: its moves
came together on return, and a program can say so too). A player who chose not to appear
(``Player.on_daily_table``) is left out for everyone else and still sees their own row.
docs/par.md says what the table can and cannot prove.

No spoilers: a game of the day's deal (its moves, its replay) may be shown only to a viewer who
has finished that deal, or once the day is over to a viewer with no game of it still open
(``may_see_lines``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import and_, select
from sqlalchemy.orm import Session

from app.db.models import DailyDeal, Game, Player, utcnow
from app.engine import PRESETS, Status

from ..assist import daily_choice, par
from ..errors import ForbiddenError
from ..play import daily, games
from ..play.lifecycle import over_expression, phase_of
from .clean import Unranked, alone_games, first_games, help_used, unranked

HISTORY_DAYS = 30


@dataclass(frozen=True)
class Entry:
    rank: int | None            # clean wins: 1, 2, 2, 4 …; other wins: None
    name: str | None            # the player's display name; None = anonymous
    moves: int
    seconds: int | None
    why: Unranked | None        # None: a clean win
    over_par: int | None        # moves over the deal's par (proven par only)
    game_id: str
    mine: bool = False
    offline: bool = False       # played offline: no time, not ranked
    help: str | None = None     # ASSISTED: which help (clean.help_used), said to its player


    @property
    def clean(self) -> bool:
        return self.why is None

    def to_json(self) -> dict:
        return {"rank": self.rank, "name": self.name, "moves": self.moves, "seconds": self.seconds,
                "clean": self.clean, "unranked": self.why, "over_par": self.over_par, "you": self.mine,
                "offline": self.offline}


@dataclass
class Table:
    preset: str
    day: date
    seed: int
    par: par.Par | None
    entries: list[Entry] = field(default_factory=list)
    lines_shown: bool = False   # the viewer may see the games' moves and replays

    @property
    def mine(self) -> Entry | None:
        return next((e for e in self.entries if e.mine), None)

    @property
    def ranked(self) -> int:
        return sum(1 for e in self.entries if e.rank is not None)

    @property
    def to_search(self) -> bool:
        """Its par is not kept yet (as ``deals.DealSummary.to_search``): for the solver's spare
        time. A best known line is kept as found: searching again would find it again."""
        return self.par is None

    def place_of_mine(self) -> tuple[int, int] | None:
        """(rank, ranked entries) of the viewer's clean win, for the share text."""
        mine = self.mine
        return None if mine is None or mine.rank is None else (mine.rank, self.ranked)


def day_bounds(day: date) -> tuple[datetime, datetime]:
    start = datetime.combine(day, time(0), tzinfo=UTC)
    return start, start + timedelta(days=1)


def utc_day(moment: datetime) -> date:
    """The UTC day of a stored moment."""
    return moment.astimezone(UTC).date()


def has_finished(session: Session, game: str, deal_key: str, viewer_id: str | None,
                 now: datetime | None = None) -> bool:
    """Whether the viewer has a game of these cards (``Game.deal_key``: any preset of the game,
    seeded or imported) that is over (ever): won, or lost for good (a game with no moves left is
    over once given up: until then it may be undone and won)."""
    if viewer_id is None:
        return False
    return session.scalar(
        select(Game.id).where(Game.player_id == viewer_id, Game.game == game, Game.deal_key == deal_key,
                              over_expression(now)).limit(1)
    ) is not None


def may_see_lines(session: Session, game: str, deal_key: str, viewer_id: str | None, *,
                  now: datetime | None = None) -> bool:
    """Whether the viewer may see winning lines of these cards and other players' games of them
    (of any preset of the game, imported, or with their suits swapped: ``Game.deal_key``, the
    same game to a player): while they are a daily deal today, once the viewer has finished a
    game of them and has no game of them open that may still rank (its first, of a daily deal: a
    game of the same cards under a sibling preset, played to its end beside the day's, showed
    the day's line to the day's game); after the day, unless the viewer still has such a game
    open (whatever they then see, that game can no longer reach its day's table). Any other
    cards: yes."""
    now = now or utcnow()
    today = now.astimezone(UTC).date()
    daily_today = any(games.key_of_seed(row.preset, row.seed) == (game, deal_key)
                      for row in session.scalars(select(DailyDeal).where(DailyDeal.day == today)))
    if viewer_id is None:
        return not daily_today
    was_daily = select(DailyDeal.day).where(DailyDeal.preset == Game.preset, DailyDeal.seed == Game.seed).exists()
    # a game of them not over yet that may still reach its day's table: in play, with no moves
    # left, or stored by a hint before its first move, and its player's first game of the cards
    # (a retry after the day's win is another try, ranked nowhere: nothing to keep from it)
    still_open = session.scalar(
        select(Game.id).where(Game.player_id == viewer_id, Game.game == game, Game.deal_key == deal_key,
                              ~over_expression(now), was_daily,
                              games.first_of_deal(Game.player_id, Game.game, Game.deal_key, Game.created_at, Game.id))
        .limit(1)) is not None
    if daily_today:
        return not still_open and has_finished(session, game, deal_key, viewer_id, now)
    return not still_open


def check_may_watch(session: Session, game: Game, viewer_id: str | None) -> None:
    """``ForbiddenError`` for another player's game still in play (its board is theirs until
    it ends), or of a daily deal's cards the viewer may not see yet (``may_see_lines``)."""
    if game.player_id == viewer_id:
        return
    if not phase_of(game).finished:
        raise ForbiddenError("another player's game is shown once it is finished", "in_play_elsewhere")
    if not may_see_lines(session, game.game, game.deal_key, viewer_id):
        raise ForbiddenError("a game of today's daily deal is shown once you have finished the deal",
                             "daily_spoiler")


def table(session: Session, preset_slug: str, day: date, viewer_id: str | None, *,
          now: datetime | None = None, choose: bool = True) -> Table | None:
    """The table of ``day`` for the preset (its daily deal chosen now if ``choose`` and nobody
    asked before; None when there is no such deal)."""
    now = now or utcnow()
    chosen = daily_choice.daily_deal if choose else daily.cached_daily
    row = chosen(session, preset_slug, day)
    if row is None:
        return None
    start, end = day_bounds(day)
    # prepared when the deal is chosen; if the solver was busy or cut short then, the table's
    # page asks again in the solver's spare time (app.services.spare_time.deal): never here
    found = par.known(session, par.start_of_deal(preset_slug, row.seed))
    wins = [(game, name) for game, name, shown in session.execute(
        select(Game, Player.display_name, Player.on_daily_table).join(Player, Player.id == Game.player_id)
        .where(Game.preset == preset_slug, Game.seed == row.seed, Game.status == Status.WON,
               Game.started_at >= start, Game.started_at < end, Game.finished_at >= start, Game.finished_at < end)
    ) if shown or game.player_id == viewer_id]
    players = {game.player_id for game, _ in wins}
    firsts = first_games(session, players, row.seed, preset_slug)
    alone = alone_games(session, players, row.seed, preset_slug)
    best: dict[str, tuple] = {}
    for game, name in wins:
        why = unranked(game, first=game.id in firsts, alone=game.id in alone)
        key = (why is not None, game.cursor, game.seconds if game.seconds is not None else 1 << 40,
               game.finished_at, game.id)
        if game.player_id not in best or key < best[game.player_id][0]:
            best[game.player_id] = (key, game, name, why)
    ordered = sorted(best.values(), key=lambda item: item[0])
    entries: list[Entry] = []
    for key, game, name, why in ordered:
        rank = None
        if why is None:
            rank = 1 + sum(1 for other in ordered if not other[0][0] and other[0][1:3] < key[1:3])
        over = found.over(game.cursor) if found is not None and found.proven else None
        entries.append(Entry(rank, name, game.cursor, game.seconds, why, over, game.id, game.player_id == viewer_id,
                             game.played_offline, help_used(game) if why is Unranked.ASSISTED else None))
    shown = may_see_lines(session, *games.key_of_seed(preset_slug, row.seed), viewer_id, now=now)
    return Table(preset_slug, day, row.seed, found, entries, shown)


def table_of_game(session: Session, game: Game, *, now: datetime | None = None) -> Table | None:
    """The day's table a won game of a daily deal is on, seen by its player (the day it was
    started); None for any other game."""
    if game.started_at is None or game.seed is None or game.status != Status.WON:
        return None
    day = utc_day(game.started_at)
    row = daily.cached_daily(session, game.preset, day)
    if row is None or row.seed != game.seed:
        return None
    return table(session, game.preset, day, game.player_id, now=now, choose=False)


@dataclass(frozen=True)
class DayResult:
    day: date
    preset: str
    rank: int | None       # None: a win, not clean
    ranked: int            # clean wins that day
    moves: int
    over_par: int | None


def history(session: Session, player_id: str, *, today: date | None = None,
            days: int = HISTORY_DAYS) -> list[DayResult]:
    """The player's daily wins of the last ``days`` days (before today: tables still open are
    left out), newest first, with their place on each day's table."""
    today = today or daily.utc_today()
    first = today - timedelta(days=days)
    start, _ = day_bounds(first)
    end, _ = day_bounds(today)
    candidates = session.execute(
        select(Game.preset, Game.started_at).join(
            DailyDeal, and_(DailyDeal.preset == Game.preset, DailyDeal.seed == Game.seed))
        .where(Game.player_id == player_id, Game.status == Status.WON, Game.started_at >= start,
               Game.started_at < end)
    ).all()
    seen = {(preset, utc_day(at)) for preset, at in candidates if at is not None}
    out = []
    for preset, day in sorted(seen, key=lambda pd: (pd[1], pd[0]), reverse=True):
        found = table(session, preset, day, player_id, choose=False)
        mine = found.mine if found is not None else None
        if found is not None and mine is not None:
            out.append(DayResult(day, preset, mine.rank, found.ranked, mine.moves, mine.over_par))
    return out


def set_on_table(session: Session, player: Player, shown: bool) -> Player:
    """The player's choice: their daily wins on the day's tables (under their display name,
    or as anonymous), or left out for everyone else."""
    player.on_daily_table = shown
    return player


def tables_of_day(session: Session, day: date, viewer_id: str | None, *, limit: int = 10) -> list[Table]:
    """Every preset's table of a past ``day`` that has wins, each cut to its first ``limit``
    entries (the viewer's own row kept), in the lobby's order of presets."""
    out = []
    for slug in PRESETS:
        found = table(session, slug, day, viewer_id, choose=False)
        if found is None or not found.entries:
            continue
        found.entries = [e for i, e in enumerate(found.entries) if i < limit or e.mine]
        out.append(found)
    return out
