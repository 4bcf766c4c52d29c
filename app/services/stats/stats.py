"""A player's statistics, computed in SQL (aggregates, window functions), never by loading
every game. The rule of what counts is in app.services.play.lifecycle.

Every function takes the session, the player's id and plain filter values; the web layer
draws the numbers (app.web.views.charts turns the series into SVG geometry).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Date, Integer, bindparam, case, cast, func, select
from sqlalchemy.orm import Session

from app.db.models import Game, utcnow
from app.engine import PRESETS, SCORING_SYSTEMS, Status

from ..play.lifecycle import IDLE_LIMIT, RESULTS, result_expression
from . import clean, leaderboard

PAGE_SIZE = 20
ROLLING_WINDOW = 10      # games per point of the rolling win rate
ROLLING_GAMES = 100      # the chart shows the last this many decided games
SCORE_BUCKETS = 10
DAYS_SHOWN = 30


@dataclass
class Figures:
    """One row of the stats table: a preset, or every preset together (preset None)."""

    preset: str | None
    played: int = 0          # from the first move on
    won: int = 0
    lost: int = 0            # lost, abandoned, or idle for a day
    in_progress: int = 0
    win_rate: float | None = None  # won / (won + lost), in percent
    current_streak: int = 0
    best_streak: int = 0
    best_scores: dict[str, int] = field(default_factory=dict)  # scoring system -> best score
    best_time: int | None = None        # seconds, won games
    fewest_moves: int | None = None     # won games
    average_time: float | None = None   # seconds, won games
    average_moves: float | None = None  # won games
    hints: int = 0
    undos: int = 0
    clean_wins: int = 0      # won by the player alone, with no undo (app.services.stats.clean)
    # running sums behind the averages (not shown)
    _won_seconds: int = 0
    _won_timed: int = 0
    _won_moves: int = 0

    def finish(self) -> Figures:
        decided = self.won + self.lost
        self.win_rate = round(100 * self.won / decided, 1) if decided else None
        self.average_time = round(self._won_seconds / self._won_timed, 1) if self._won_timed else None
        self.average_moves = round(self._won_moves / self.won, 1) if self.won else None
        return self

    def to_json(self) -> dict:
        return {k: v for k, v in asdict(self).items() if not k.startswith("_")}


def _r(filtered: bool):
    """The played games of :pid with their result (as of :cutoff); of preset :preset if filtered
    (the statements below run with those parameters: ``_params``)."""
    columns = [
        Game.id, Game.preset, Game.scoring, Game.score, Game.cursor, Game.seconds, Game.undo_count,
        Game.hint_count, Game.auto_finished, Game.started_at, Game.seed, Game.daily_on, Game.played_offline,
        Game.created_at, Game.finished_at, Game.updated_at, Game.game, Game.deal_key, Game.winnable_shown,
        Game.played_via,
        result_expression(cutoff=bindparam("cutoff", type_=Game.updated_at.type)).label("result"),
    ]
    query = select(*columns).where(Game.player_id == bindparam("pid"), Game.started_at.is_not(None))
    if filtered:
        query = query.where(Game.preset == bindparam("preset"))
    return query.subquery("r")


def _params(player_id: str, now: datetime | None, preset: str | None = None, **more) -> dict:
    params = {"pid": player_id, "cutoff": (now or utcnow()) - IDLE_LIMIT, **more}
    if preset:
        params["preset"] = preset
    return params


def _unaided(r) -> ColumnElement[bool]:
    """The row of ``_r`` was played by its player alone (app.services.stats.clean)."""
    return clean.unaided_expression(r.c, bindparam("pid"))


def _figures_statements():
    r = _r(False)
    won = r.c.result == Status.WON
    one = lambda cond: func.coalesce(func.sum(case((cond, 1), else_=0)), 0)  # noqa: E731
    main = select(
        r.c.preset, func.count(), one(won), one(r.c.result == Status.LOST), one(r.c.result == Status.PLAYING),
        func.min(case((won, r.c.seconds))), func.min(case((won, r.c.cursor))),
        func.coalesce(func.sum(case((won, r.c.seconds))), 0), func.count(case((won, r.c.seconds))),
        func.coalesce(func.sum(case((won, r.c.cursor))), 0),
        func.coalesce(func.sum(r.c.hint_count), 0), func.coalesce(func.sum(r.c.undo_count), 0),
        one(won & clean.clean_expression(r.c, bindparam("pid"))),
    ).group_by(r.c.preset)
    best = (select(r.c.preset, r.c.scoring, func.max(r.c.score))
            .where(r.c.result.in_((Status.WON, Status.LOST))).group_by(r.c.preset, r.c.scoring))
    return main, best


def figures(session: Session, player_id: str, now: datetime | None = None) -> tuple[Figures, list[Figures]]:
    """(every preset together, one row per preset played), in the lobby's preset order."""
    now = now or utcnow()
    params = _params(player_id, now)
    main, best_scores = _figures_statements()
    rows = session.execute(main, params).all()
    per: dict[str, Figures] = {}
    for (preset, played, n_won, n_lost, playing, best_time, fewest, won_seconds, won_timed, won_moves,
         hints, undos, clean_won) in rows:
        per[preset] = Figures(
            preset, int(played), int(n_won), int(n_lost), int(playing), best_time=best_time,
            fewest_moves=fewest, hints=int(hints), undos=int(undos), clean_wins=int(clean_won),
            _won_seconds=int(won_seconds), _won_timed=int(won_timed), _won_moves=int(won_moves),
        )
    total = Figures(None)
    for f in per.values():
        for name in ("played", "won", "lost", "in_progress", "hints", "undos", "clean_wins",
                     "_won_seconds", "_won_timed", "_won_moves"):
            setattr(total, name, getattr(total, name) + getattr(f, name))
        total.best_time = _min(total.best_time, f.best_time)
        total.fewest_moves = _min(total.fewest_moves, f.fewest_moves)

    for preset, system, best in session.execute(best_scores, params):
        per[preset].best_scores[system] = best
        total.best_scores[system] = max(best, total.best_scores.get(system, best))

    for preset, (current, best) in _streaks(session, player_id, now, by_preset=True).items():
        per[preset].current_streak, per[preset].best_streak = current, best
    total.current_streak, total.best_streak = _streaks(session, player_id, now, by_preset=False).get(None, (0, 0))

    order: dict[str | None, int] = {slug: i for i, slug in enumerate(PRESETS)}
    ordered = sorted(per.values(), key=lambda f: order.get(f.preset, len(order)))
    for f in ordered:
        f.best_scores = {s: f.best_scores[s] for s in SCORING_SYSTEMS if s in f.best_scores}
        f.finish()
    total.best_scores = {s: total.best_scores[s] for s in SCORING_SYSTEMS if s in total.best_scores}
    return total.finish(), ordered


def _min(a, b):
    return b if a is None else a if b is None else min(a, b)


def _streak_statement(by_preset: bool):
    r = _r(False)
    keys = [r.c.preset.label("preset")] if by_preset else []
    partition = {"partition_by": r.c.preset} if by_preset else {}
    run = func.sum(case((r.c.result == Status.LOST, 1), else_=0)).over(
        order_by=(r.c.started_at, r.c.id), rows=(None, 0), **partition)
    numbered = (
        select(*keys, run.label("run"), case((r.c.result == Status.WON, 1), else_=0).label("win"))
        .where(r.c.result.in_((Status.WON, Status.LOST)))
        .subquery("numbered")
    )
    group = [numbered.c.preset] if by_preset else []
    runs = (select(*group, numbered.c.run, func.sum(numbered.c.win).label("wins"))
            .group_by(*group, numbered.c.run).subquery("runs"))
    per_preset = runs.c.preset if by_preset else None
    ranked = select(
        *([runs.c.preset] if by_preset else []), runs.c.run, runs.c.wins,
        func.max(runs.c.run).over(partition_by=per_preset).label("last"),
        func.max(runs.c.wins).over(partition_by=per_preset).label("best"),
    ).subquery("ranked")
    return (select(*([ranked.c.preset] if by_preset else []), ranked.c.wins, ranked.c.best)
            .where(ranked.c.run == ranked.c.last))


def _streaks(session: Session, player_id: str, now: datetime, *, by_preset: bool) -> dict:
    """{preset or None: (current, best)} win streaks over decided games in order of their first move.

    Gaps and islands, in one pass: a running count of losses numbers the runs; each run's wins
    are a streak; the current streak is the last run's (the wins after the last loss)."""
    out = {}
    for row in session.execute(_streak_statement(by_preset), _params(player_id, now)):
        if by_preset:
            out[row[0]] = (int(row[1] or 0), int(row[2] or 0))
        else:
            out[None] = (int(row[0] or 0), int(row[1] or 0))
    return out


# ---------------------------------------------------------------- daily streaks

@dataclass(frozen=True)
class DailyFigures:
    played_days: int
    won_days: int         # days with a daily deal won, as the calendar marks them (help or not)
    current_streak: int   # consecutive UTC days, up to today (or yesterday), with a daily deal won
                          # that day by the player alone (app.services.stats.clean)
    best_streak: int
    counted_days: tuple[date, ...] = ()  # every day a daily win counted for a streak, in order

    @property
    def streak_days(self) -> tuple[date, ...]:
        """The current streak's days, as counted (the calendar marks them)."""
        return self.counted_days[len(self.counted_days) - self.current_streak:]

    def to_json(self) -> dict:
        """The figures the API answers (the days are the page's calendar's)."""
        return {"played_days": self.played_days, "won_days": self.won_days,
                "current_streak": self.current_streak, "best_streak": self.best_streak}


def _daily_statements():
    r = _r(False)
    played = select(func.count(func.distinct(r.c.daily_on))).where(r.c.daily_on.is_not(None))
    won_any = select(func.count(func.distinct(r.c.daily_on))).where(r.c.daily_on.is_not(None), r.c.result == Status.WON)
    # the daily deals won by the player alone (app.services.stats.clean), each on its own day:
    # after it, its winning line is on its table's replays (daily_figures keeps those days)
    won = (select(r.c.daily_on, r.c.finished_at).where(r.c.daily_on.is_not(None), r.c.result == Status.WON, _unaided(r))
           .order_by(r.c.daily_on))
    return played, won_any, won


def daily_figures(session: Session, player_id: str, today: date, now: datetime | None = None) -> DailyFigures:
    played_statement, won_any_statement, won_statement = _daily_statements()
    params = _params(player_id, now)
    played, won_any = session.scalar(played_statement, params), session.scalar(won_any_statement, params)
    days = sorted({_as_date(day) for day, finished in session.execute(won_statement, params)
                   if finished is not None and leaderboard.utc_day(finished) == _as_date(day)})
    best = run = 0
    previous = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = run if previous is not None and today - previous <= timedelta(days=1) else 0
    return DailyFigures(int(played or 0), int(won_any or 0), current, best, tuple(days))


def _as_date(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value)[:10])


# ---------------------------------------------------------------- history

@dataclass(frozen=True)
class HistoryRow:
    id: str
    started_at: datetime
    preset: str
    seed: int | None
    result: str
    scoring: str
    score: int
    moves: int
    seconds: int | None
    daily_on: date | None  # a daily deal's day: the deal's name (its seed is 19 digits)
    offline: bool = False  # played offline: no time


@dataclass(frozen=True)
class History:
    rows: list[HistoryRow]
    page: int
    pages: int
    total: int


def _history_statements(filtered: bool, by_result: bool):
    r = _r(filtered)
    where = [r.c.result == bindparam("result")] if by_result else []
    count = select(func.count()).select_from(r).where(*where)
    rows = (select(r.c.id, r.c.started_at, r.c.preset, r.c.seed, r.c.result, r.c.scoring, r.c.score, r.c.cursor,
                   r.c.seconds, r.c.daily_on, r.c.played_offline)
            .where(*where).order_by(r.c.started_at.desc(), r.c.id.desc())
            .limit(bindparam("size")).offset(bindparam("skip")))
    return count, rows


def history(session: Session, player_id: str, *, preset: str | None = None, result: str | None = None,
            page: int = 1, now: datetime | None = None, page_size: int = PAGE_SIZE) -> History:
    by_result = result in RESULTS
    count_statement, rows_statement = _history_statements(bool(preset), by_result)
    params = _params(player_id, now, preset, result=result, size=page_size)
    total = session.scalar(count_statement, params) or 0
    pages = max(1, -(-total // page_size))
    page = min(max(1, page), pages)
    rows = session.execute(rows_statement, {**params, "skip": (page - 1) * page_size}).all()
    return History([HistoryRow(*row) for row in rows], page, pages, total)


# ---------------------------------------------------------------- chart series

def _rolling_statement(filtered: bool):
    r = _r(filtered)
    return (select(r.c.result).where(r.c.result.in_((Status.WON, Status.LOST)))
            .order_by(r.c.started_at.desc(), r.c.id.desc()).limit(ROLLING_GAMES))


@dataclass(frozen=True)
class Rolling:
    points: list[float]  # win rate (percent) over the ROLLING_WINDOW decided games up to each point
    decided: int         # decided games read (at most ROLLING_GAMES)


def rolling_win_rate(session: Session, player_id: str, *, preset: str | None = None,
                     now: datetime | None = None) -> Rolling:
    """Win rate over the last ROLLING_WINDOW decided games, at each of the last ROLLING_GAMES
    decided games that has that many before it: a "last 10 games" rate from 2 games would say
    100 % or 0 % of nothing much, so there are no points until there are ROLLING_WINDOW games."""
    results = list(reversed(session.scalars(_rolling_statement(bool(preset)), _params(player_id, now, preset)).all()))
    points = []
    for i in range(ROLLING_WINDOW - 1, len(results)):
        window = results[i + 1 - ROLLING_WINDOW: i + 1]
        points.append(round(100 * window.count(Status.WON) / len(window), 1))
    return Rolling(points, len(results))


@dataclass(frozen=True)
class Histogram:
    scoring: str
    low: int
    width: int
    counts: list[int]
    won: list[int] = field(default_factory=list)  # of each bucket's count, the games won (the rest lost)


def _histogram_statements(filtered: bool):
    r = _r(filtered)
    where = (r.c.result.in_((Status.WON, Status.LOST)), r.c.scoring == bindparam("scoring"))
    low, width = bindparam("low", type_=Integer), bindparam("width", type_=Integer)
    bucket = ((r.c.score - low) // width).label("bucket")
    return (select(func.min(r.c.score), func.max(r.c.score)).where(*where),
            select(bucket, func.count(), func.coalesce(func.sum(case((r.c.result == Status.WON, 1), else_=0)), 0))
            .where(*where).group_by(bucket))


def score_histogram(session: Session, player_id: str, scoring: str, *, preset: str | None = None,
                    now: datetime | None = None) -> Histogram:
    """Scores of decided games in one scoring system, in SCORE_BUCKETS equal buckets."""
    range_statement, bucket_statement = _histogram_statements(bool(preset))
    params = _params(player_id, now, preset, scoring=scoring)
    low, high = session.execute(range_statement, params).one()
    if low is None:
        return Histogram(scoring, 0, 1, [])
    width = max(1, -(-(high - low + 1) // SCORE_BUCKETS))
    counts = [0] * (((high - low) // width) + 1)
    won = [0] * len(counts)
    for index, count, won_count in session.execute(bucket_statement, {**params, "low": low, "width": width}):
        counts[int(index)], won[int(index)] = int(count), int(won_count)
    return Histogram(scoring, int(low), int(width), counts, won)


@dataclass(frozen=True)
class DayResults:
    day: date
    won: int
    lost: int


def _days_statement(filtered: bool, postgresql: bool):
    r = _r(filtered)
    day: ColumnElement[Any]
    if postgresql:
        day = cast(func.timezone("UTC", r.c.started_at), Date)
    else:
        day = func.date(r.c.started_at)  # SQLite keeps the UTC time as text
    return (select(day.label("day"), func.sum(case((r.c.result == Status.WON, 1), else_=0)),
                   func.sum(case((r.c.result == Status.LOST, 1), else_=0)))
            .where(r.c.started_at >= bindparam("since", type_=Game.started_at.type))
            .group_by(day))


def results_by_day(session: Session, player_id: str, today: date, *, preset: str | None = None,
                   now: datetime | None = None, days: int = DAYS_SHOWN) -> list[DayResults]:
    """Won and lost games per UTC day of their first move, the last `days` days (today included)."""
    first = today - timedelta(days=days - 1)
    since = datetime(first.year, first.month, first.day, tzinfo=UTC)
    statement = _days_statement(bool(preset), session.get_bind().dialect.name == "postgresql")
    rows = session.execute(statement, _params(player_id, now, preset, since=since)).all()
    found = {_as_date(d): (int(w or 0), int(lost or 0)) for d, w, lost in rows}
    return [DayResults(first + timedelta(days=i), *found.get(first + timedelta(days=i), (0, 0))) for i in range(days)]
