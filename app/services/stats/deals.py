"""Deal pages: who played a seeded deal, the best results, and the solver's verdict.

A deal is a preset and a seed. The verdict is shown only to a viewer whose game of that deal
is over (won it, or lost it for good: ``lifecycle.Phase.over``): no spoilers before, nor to a
game with no moves left that may still be undone. It is computed once and kept
(table ``deal_verdicts``); daily deals get theirs when they are chosen. A deal's page never
searches: it shows what is kept, and what is missing is searched in the solver's spare time
(``prepare``, app.services.assist.searches.in_spare_time), never in a slot a player's hint needs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy import and_, bindparam, case, func, select
from sqlalchemy.orm import Session

from app.db.models import DailyDeal, DealVerdict, Game, Player, utcnow
from app.db.session import facts, release
from app.engine import SCORING_SYSTEMS, GameRecord, Status, deal_for_seed
from app.engine.announcements import said_moves

from ..assist import par, searches, solver_cache
from ..assist.par import Par
from ..errors import ServiceError
from ..play import games
from ..play.games import get_preset_or_error, parse_seed
from ..play.lifecycle import IDLE_LIMIT, RESULTS, result_expression
from . import clean, leaderboard

log = logging.getLogger("tretten.deals")

VERDICT_NODES = 200_000
VERDICT_SECONDS = 5.0


@dataclass(frozen=True)
class Best:
    value: int
    name: str | None  # the player's display name; None = anonymous
    game_id: str


@dataclass
class DealSummary:
    preset: str
    seed: int
    players: int = 0
    winners: int = 0
    fewest_moves: Best | None = None
    best_time: Best | None = None
    best_scores: dict[str, Best] = field(default_factory=dict)
    daily_days: list[date] = field(default_factory=list)
    viewer_result: str | None = None    # the viewer's best: won > lost > playing; None = not played
    viewer_finished: bool = False      # a game of the viewer's is over (leaderboard.has_finished), and
    #                                    no daily game of the cards is open (leaderboard.may_see_lines)
    verdict: DealVerdict | None = None  # only when viewer_finished
    par: Par | None = None              # the deal's par or best known line (app.services.assist.par)
    games_shown: bool = True            # the best results name their games (replay links)
    to_search: bool = False             # a par, or the finished viewer's verdict, is not kept yet (``prepare``)

    def to_json(self) -> dict:
        # another player's game (its replay, its analysis) tells whether the deal can be won:
        # the API names it only to a viewer who has finished the deal, as it gives the verdict
        def best(b: Best | None) -> dict | None:
            if b is None:
                return None
            shown = self.games_shown and self.viewer_finished
            return {"value": b.value, "name": b.name, "game": b.game_id if shown else None}

        out = {
            "preset": self.preset, "seed": self.seed, "players": self.players, "winners": self.winners,
            "fewest_moves": best(self.fewest_moves), "best_time": best(self.best_time),
            "best_scores": {k: best(v) for k, v in self.best_scores.items()},
            "daily": [d.isoformat() for d in self.daily_days],
            "you": self.viewer_result, "verdict": None,
        } | par.to_json(self.par)
        if self.verdict is not None:
            out["verdict"] = {"winnable": self.verdict.winnable,
                              "moves": self.winning_line if self.verdict.winnable else None}
        return out

    @property
    def winning_line(self) -> str:
        """The line the deal page and the API show a finished viewer: the par line when there
        is one (the same number the end screen gives), else the verdict's."""
        if self.par is not None:
            return " ".join(self.par.line)
        return self.verdict.moves if self.verdict is not None else ""


def deal_summary(session: Session, preset_slug: str, seed_text: str | int, viewer_id: str | None,
                 *, now: datetime | None = None) -> DealSummary:
    """Who played the deal and how well, and what is kept of the solver's answers (no search)."""
    preset = get_preset_or_error(preset_slug)
    seed = parse_seed(seed_text)
    now = now or utcnow()
    result = result_expression(now)
    played = and_(Game.preset == preset.slug, Game.seed == seed, Game.started_at.is_not(None))
    won = and_(played, result == Status.WON)
    summary = DealSummary(preset.slug, seed)
    cards = games.key_of_seed(preset.slug, seed)
    summary.players, summary.winners = deal_counts(session, preset.slug, seed=seed, now=now)

    def best(where, *order) -> Best | None:
        row = session.execute(
            select(order[0], Player.display_name, Game.id).join(Player, Player.id == Game.player_id)
            .where(where).order_by(*order, Game.finished_at, Game.id).limit(1)
        ).first()
        return None if row is None or row[0] is None else Best(int(row[0]), row[1], row[2])

    # the records are the players' own: a game with a hint, "still winnable?" or auto-finish, a
    # program's, or a second game of the cards (its line seen) would beat them with the solver's line
    alone = clean.unaided_expression(Game)
    summary.fewest_moves = best(and_(won, alone), Game.cursor)
    summary.best_time = best(and_(won, alone, Game.seconds.is_not(None)), Game.seconds)
    for system in SCORING_SYSTEMS:
        found = best(and_(played, alone, result.in_((Status.WON, Status.LOST)), Game.scoring == system),
                     Game.score.desc())
        if found is not None:
            summary.best_scores[system] = found
    summary.daily_days = list(session.scalars(
        select(DailyDeal.day).where(DailyDeal.preset == preset.slug, DailyDeal.seed == seed).order_by(DailyDeal.day)))
    # today's daily deal (its cards): no game of it (a replay) for a viewer who has not finished it,
    # or who has a game of it still open beside the one finished
    summary.games_shown = leaderboard.may_see_lines(session, *cards, viewer_id, now=now)
    if viewer_id is not None:
        mine = set(session.scalars(select(result).where(played, Game.player_id == viewer_id)))
        summary.viewer_result = next((r for r in RESULTS if r in mine), None)
        summary.viewer_finished = summary.games_shown and leaderboard.has_finished(session, *cards, viewer_id, now)
    summary.par = par.known(session, par.start_of_deal(preset.slug, seed))
    if summary.viewer_finished:
        summary.verdict = session.get(DealVerdict, (preset.slug, seed))
        undecided = summary.verdict is None or summary.verdict.winnable is None
        if undecided and summary.par is not None:  # a kept winning line says as much
            summary.verdict = DealVerdict(preset=preset.slug, seed=seed, winnable=True,
                                          moves=" ".join(summary.par.line))
    summary.to_search = summary.par is None or (summary.viewer_finished and summary.verdict is None)
    return summary


def prepare(session: Session, preset_slug: str, seed: int) -> None:
    """Search and keep what a deal's page shows of the solver (its par, its verdict), for the
    solver's spare time: a player's search is never made to wait for it."""
    par.prepare(session, preset_slug, seed)
    try:
        verdict(session, preset_slug, seed, None)
    except ServiceError as exc:
        log.info("verdict of %s seed %s left for later: %s", preset_slug, seed, exc)


def deal_counts(session: Session, preset_slug: str, *, seed: int | None = None, deal: str | None = None,
                now: datetime | None = None) -> tuple[int, int]:
    """(players, winners) of a deal: a seed's, or else an imported deal's (its canonical text)."""
    params = {"preset": preset_slug, "cutoff": (now or utcnow()) - IDLE_LIMIT}
    params.update({"seed": seed} if seed is not None else {"deal": deal})
    players, winners = session.execute(_counts_statement(seed is not None), params).one()
    return int(players or 0), int(winners or 0)


def _counts_statement(by_seed: bool):
    """Players and winners of a deal, run with ``deal_counts``'s parameters."""
    result = result_expression(cutoff=bindparam("cutoff", type_=Game.updated_at.type))
    which = (Game.seed == bindparam("seed", type_=Game.seed.type) if by_seed
             else and_(Game.seed.is_(None), Game.deal == bindparam("deal", type_=Game.deal.type)))
    return select(
        func.count(func.distinct(Game.player_id)),
        func.count(func.distinct(case((result == Status.WON, Game.player_id)))),
    ).where(Game.preset == bindparam("preset"), which, Game.started_at.is_not(None))


def verdict(session: Session, preset_slug: str, seed: int, player_id: str | None) -> DealVerdict | None:
    """The stored verdict, or the solver's now (kept). None if no solver can judge this game."""
    found = session.get(DealVerdict, (preset_slug, seed))
    # "undecided" cut short by the clock (the machine's load then) is searched again, until one
    # search has spent its whole budget of positions on it
    if found is not None and (found.winnable is not None or found.nodes >= VERDICT_NODES):
        return found
    preset = get_preset_or_error(preset_slug)
    position = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed)).position
    release(session)
    try:
        result = searches.solve(position, player_id=player_id, budget_nodes=VERDICT_NODES,
                                budget_seconds=VERDICT_SECONDS)
    except ServiceError:
        raise
    except Exception as exc:  # e.g. no solver for this game yet: show nothing rather than fail
        log.warning("no verdict for %s seed %s: %s", preset_slug, seed, exc)
        return None
    with facts(session) as unit:
        solver_cache.keep_deal_verdict(unit, preset_slug, seed, winnable=result.winnable,
                                       moves=" ".join(result.moves), nodes=result.nodes)
    if found is not None:
        session.expire(found)
    return session.get(DealVerdict, (preset_slug, seed))  # ours, or one stored first by another request


def line_said(preset_slug: str, seed: int, moves_text: str) -> tuple:
    """A solver's line from the deal, in words and card symbols (app.engine.announcements.Announcement), for the
    deal page: players read "7♥ + 6♠", never the notation the line is stored in."""
    preset = get_preset_or_error(preset_slug)
    record = GameRecord.new(preset.game, preset.rules, deal_for_seed(preset.game, seed))
    for token in moves_text.split():
        record = record.play(token)
    return said_moves(record)
