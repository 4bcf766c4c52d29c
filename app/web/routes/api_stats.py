"""The JSON API's read-only views: a player's statistics and a deal's results."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field

from app.db.models import Player
from app.services import spare_time
from app.services.accounts import players, profiles
from app.services.assist import par
from app.services.play import daily, games
from app.services.stats import deals, leaderboard, stats
from app.web.http.deps import ApiPlayerDep, PageTurnDep, SessionDep, SettingsDep, commit_now
from app.web.views.templating import absolute

from .api import errors

router = APIRouter(prefix="/api", tags=["api"])


class StatsOut(BaseModel):
    total: dict[str, Any] = Field(description="Every preset together: the same figures as each preset")
    presets: list[dict[str, Any]] = Field(description="One entry per preset played, in the lobby's order")
    daily: dict[str, Any] = Field(description="Daily deals: days played and won, current and best streak")


class ParOut(BaseModel):
    """A deal's par, the same fields for every game (app.services.assist.par.Par.to_json)."""

    par: int | None = Field(description="The deal's proven shortest win in moves; null when not proven, not "
                                        "winnable, or not known yet (then searched in the solver's spare time)")
    par_proven: bool = Field(description="Whether `par` is proven (false: no par, at most a best known line)")
    best_known: int | None = Field(description="The shortest win the solver knows, in moves: `par` when proven; "
                                               "null when no win is known")
    lower_bound: int | None = Field(description="Every win needs at least this many moves (`par` when proven); "
                                                "null when no bound is known (Gaps with redeals left has none)")


class DealOut(ParOut):
    preset: str
    seed: int
    players: int = Field(description="Players who made at least one move in this deal")
    winners: int
    fewest_moves: dict[str, Any] | None
    best_time: dict[str, Any] | None = Field(description="Seconds from the first move to the win")
    best_scores: dict[str, dict[str, Any]]
    daily: list[str] = Field(description="UTC days on which this was the daily deal")
    you: str | None = Field(description="Your result: won, lost, playing, or null (never played)")
    verdict: dict[str, Any] | None = Field(description="The solver's verdict, once you have finished this deal "
                                                       "(its `moves`: the par line when there is one)")


class DeviceLinkOut(BaseModel):
    url: str = Field(description="Open it in a browser to use this player there; a new one revokes the old")


@router.get("/players/me/stats", response_model=StatsOut, responses=errors(401))
def my_stats(session: SessionDep, player: ApiPlayerDep) -> dict:
    total, per_preset = stats.figures(session, player.id)
    daily_figures = stats.daily_figures(session, player.id, daily.utc_today())
    return {"total": total.to_json(), "presets": [f.to_json() for f in per_preset],
            "daily": daily_figures.to_json()}


def _optional_player(session, authorization: str | None) -> Player | None:
    scheme, _, token = (authorization or "").partition(" ")
    return players.player_for_token(session, token.strip()) if scheme.lower() == "bearer" and token else None


@router.get("/deals/{preset}/{seed}", response_model=DealOut, dependencies=[PageTurnDep],
            responses=errors(404, 422, described={404: "No such preset",
                                                  422: "Not a seed (a whole number from 0 to 2**64 - 1)"}))
def deal(preset: str, seed: str, request: Request, session: SessionDep,
         authorization: Annotated[str | None, Header()] = None) -> dict:
    """Anyone may ask; with a bearer token, `you` and (after you finished it) `verdict` are yours.
    `par` and `verdict` are what is kept: one not yet known is searched in the solver's spare
    time (players' hints first) and comes with a later answer."""
    viewer = _optional_player(session, authorization)
    summary = deals.deal_summary(session, preset, seed, viewer.id if viewer else None)
    if summary.to_search:
        spare_time.deal(request.app.state.sessionmaker, summary.preset, summary.seed)
    return summary.to_json()


class TableEntryOut(BaseModel):
    rank: int | None = Field(description="Place among the day's clean wins (equal moves and seconds share it); "
                                         "null for a win that is not clean, listed after them")
    name: str | None = Field(description="The player's display name; null = anonymous")
    moves: int
    seconds: int | None = Field(description="From the first move to the win")
    clean: bool = Field(description="Ranked: the player's first game of the deal's cards and, while it was played, "
                                    "their only one, played on the pages (not "
                                    "through this API, not offline), with no undo, hint, auto-finish or "
                                    "\"still winnable?\", at a person's pace (docs/par.md)")
    unranked: Literal["assisted", "again", "alongside", "api", "too_fast", "offline"] | None = Field(
        description="Why a win is not ranked: assisted (undo, hint, auto-finish or \"still winnable?\"), again (not "
                    "the player's first game of the deal's cards), alongside (another game of the same cards was "
                    "opened while it was played), api (moves through this API), too_fast (faster "
                    "than a person plays), offline (played offline: not seen played); null when ranked")
    over_par: int | None = Field(description="Moves over the deal's par (null without a proven par)")
    you: bool = Field(description="Your own win (with a bearer token)")


class DailyOut(ParOut):
    preset: str
    date: str = Field(description="The UTC day")
    seed: int
    leaderboard: list[TableEntryOut] = Field(description="The day's wins, one per player: clean wins ranked by "
                                                         "moves then seconds, the others after them")


@router.get("/daily/{preset}", response_model=DailyOut, dependencies=[PageTurnDep],
            responses=errors(404, described={404: "No such preset"}))
def daily_table(preset: str, request: Request, session: SessionDep,
                authorization: Annotated[str | None, Header()] = None) -> dict:
    """Today's (UTC) daily deal of the preset and its table: the wins of games of this preset
    and seed started and finished today. A game played through this API is listed, never
    ranked: the table ranks people's games at the board (docs/par.md)."""
    slug = games.get_preset_or_error(preset).slug
    viewer = _optional_player(session, authorization)
    table = leaderboard.table(session, slug, daily.utc_today(), viewer.id if viewer else None)
    assert table is not None  # today's deal is chosen on demand
    if table.to_search:
        spare_time.deal(request.app.state.sessionmaker, slug, table.seed)
    return {"preset": slug, "date": table.day.isoformat(), "seed": table.seed,
            "leaderboard": [e.to_json() for e in table.entries]} | par.to_json(table.par)


@router.post("/players/me/device-link", response_model=DeviceLinkOut, status_code=201, responses=errors(401))
def device_link(request: Request, session: SessionDep, settings: SettingsDep, player: ApiPlayerDep) -> dict:
    profiles.new_device_link(session, player)
    commit_now(session)
    token = profiles.device_token(settings.secret_key, player)
    return {"url": absolute(request, f"/link/{token}")}
