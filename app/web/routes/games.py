"""Game pages, the board's actions, and the links that start games (share links)."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Form, Query, Request
from pydantic import BaseModel, Field, Json
from starlette.responses import Response

from app.engine import NotationError, Preset, actions, taps
from app.engine.actions import Action
from app.engine.announcements import Announcement
from app.engine.cards import parse_card
from app.services import spare_time
from app.services.assist import assist, winnable
from app.services.errors import ServiceError
from app.services.play import daily, games, moves, returned
from app.services.play.games import record_of
from app.services.play.moves import ActionResult, RacedError
from app.services.stats import leaderboard
from app.web.http.deps import (
    CsrfDep,
    GameIdDep,
    LimitsDep,
    PlayerDep,
    PresetDep,
    SessionDep,
    commit_now,
    discard,
    in_solver_thread,
    in_thread,
)
from app.web.http.errors import headers_of, status_of
from app.web.http.identity import came_back
from app.web.http.redirects import answer_hint, flash, flashed, see_other
from app.web.http.refusals import refused
from app.web.views import sharing
from app.web.views.game_view import daily_streak, hint_of, render_game, render_hinted, share_path, streak_after
from app.web.views.link_meta import game_meta
from app.web.views.templating import is_htmx

router = APIRouter(include_in_schema=False)

# notes a plain form post carries to the page it lands on
PAGE_NOTES = {*taps.NOTES, "no_pair"}


class BoardForm(BaseModel):
    """The board form: which button was pressed, and what the page had seen."""

    action: str = Field("", max_length=20)
    target: str = Field("", max_length=8)
    sel: str = Field("", max_length=8)
    ply: int | None = Field(None, ge=0)
    version: int | None = Field(None, ge=0)
    # the page's id of this change (static/js/app.js, "the queue"): a move sent again is answered once
    mid: str = Field("", max_length=32, pattern=r"^[A-Za-z0-9_-]*$")
    # the page made this change with no network (static/js/app.js sends it when the network is
    # back): the game is played offline, its time never counts (docs/lifecycle.md)
    offline: bool = False
    csrf_token: str = Field("", max_length=128)


def _flash_result(request: Request, result: ActionResult) -> None:
    """What a plain form post's board leaves for the page it redirects to: the selection, a
    note, a question to confirm, the two cards of a refused pair."""
    flash(request, sel=result.selected or "", note=result.note if result.note in PAGE_NOTES else "",
          confirm=result.confirm or "",
          pair=".".join(c.code for c in result.announcement.cards)
          if result.note == "no_pair" and result.announcement else "")


def shown_after(record, said: dict) -> ActionResult:
    """The board's state a flash names, each part checked again (a flash outlives a deploy)."""
    sel, note, confirm, pair = (str(said.get(k, ""))[:20] for k in ("sel", "note", "confirm", "pair"))
    confirm = confirm if confirm in actions.CONFIRMED else ""
    announced = None
    if note == "no_pair":  # the two cards the tap tried to pair, as the board post named them
        try:
            announced = Announcement("no_pair", cards=tuple(parse_card(code) for code in pair.split(".")[:2]))
        except NotationError:
            note = ""
        if announced is not None and len(announced.cards) != 2:
            announced, note = None, ""
    return ActionResult(record, selected=sel or None, confirm=confirm or None, announcement=announced,
                        note=note if note in PAGE_NOTES else (f"confirm_{confirm}" if confirm else None))




@router.get("/games/{game_id}")
def show_game(game_id: GameIdDep, request: Request, session: SessionDep, player: PlayerDep) -> Response:
    """The game page: moves without JavaScript land here (post/redirect/get), with what the
    move left in the flash (a selection, a note, a hint)."""
    game = games.get_game_row(session, game_id)
    leaderboard.check_may_watch(session, game, player.id)  # another player's game in play shows no board
    said = flashed(request)
    extra = {"link_meta": None if is_htmx(request) else game_meta(request, session, game, f"/games/{game.id}")}
    owner = player is not None and player.id == game.player_id
    if not is_htmx(request) and owner:
        extra |= _daily(request, session, player, game.daily_on, game) | _offline(session, player, game.preset)
    # a hint just given (the flash), or, with nothing else to show (a selection, a note, a
    # question), the one counted here before: a reload does not lose it
    found = hint_of(said) or (assist.shown_hint(game) if owner and not said else None)
    if found is not None:
        return render_hinted(request, game, player, found, extra=extra)
    return render_game(request, game, player, shown_after(record_of(game), said), extra=extra)


def _daily(request: Request, session, player, day, game=None) -> dict:
    """A daily deal's page says so: its name with the day, and the player's daily streak (and
    whether ``game``, the player's own, counted for it)."""
    if day is None:
        return {}
    return {"daily_name": sharing.deal_name(None, day, request.state.language),
            **daily_streak(session, player.id, game)}


def _offline(session, player, preset: str) -> dict:
    """A game's page (not a board after a move) lists the deals a new deal offline may be, for a
    player dealt winnable deals only (static/js/offline-play.js)."""
    return {"offline_seeds": winnable.offline_seeds(session, player, preset)}


@router.post("/games/{game_id}/act", dependencies=[CsrfDep])
async def act(game_id: GameIdDep, form: Annotated[BoardForm, Form()], request: Request, session: SessionDep,
              player: PlayerDep, limits: LimitsDep) -> Response:
    """A board action: a tap, draw, undo, redeal… (htmx: answered by the board; a plain form
    post: post/redirect/get)."""
    new_deal = form.action.removeprefix("confirm-") == Action.NEW
    return await in_thread(request, lambda: _act(game_id, form, request, session, player, limits),
                           may_search=new_deal and player.winnable_only)


def _act(game_id: str, form: BoardForm, request: Request, session, player, limits) -> Response:
    game = games.get_game_row(session, game_id)

    def next_seed() -> int:
        return new_seed(request, session, player, game.preset)

    try:
        result = moves.perform(session, game, player, form.action, target=form.target, selected=form.sel,
                               ply=form.ply, version=form.version, limits=limits,
                               mid=form.mid, offline=form.offline, next_seed=next_seed)
    except ServiceError as exc:
        return refused(request, session, player, exc, lambda: games.get_game_row(session, game_id),
                       selected=form.sel or None)
    commit_now(session)
    if result.leaves:
        if result.next_seed is None:  # an imported deal again: it has no seed
            return see_other(request, share_path(game))
        if is_htmx(request):
            # the next deal's board in place of this one, and its address in the address bar: a
            # full page load (HX-Redirect) would take several times as long
            return _dealt(request, session, player, game.preset, result.next_seed)
        return see_other(request, f"/play/{game.preset}/{result.next_seed}")
    if is_htmx(request):
        return render_game(request, game, player, result, extra=streak_after(session, game))
    _flash_result(request, result)
    return see_other(request, f"/games/{game.id}")


class ChangeIn(BaseModel):
    """One change a page made with no network, as its board form would have posted it."""

    mid: str = Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]*$")
    action: str = Field("", max_length=20)
    target: str = Field("", max_length=8)
    sel: str = Field("", max_length=8)


class ChangesForm(BaseModel):
    """A game's changes made offline, in order (static/js/offline-play.js), on the board the
    page last had from the server (``ply``, ``version``)."""

    changes: Json[list[ChangeIn]]  # at most returned.MAX_CHANGES; the body at most MAX_BODY_BYTES
    ply: int | None = Field(None, ge=0)
    version: int | None = Field(None, ge=0)
    csrf_token: str = Field("", max_length=128)


TAKEN_HEADER, REFUSED_HEADER = "X-Changes-Taken", "X-Changes-Refused"


@router.post("/games/{game_id}/changes", dependencies=[CsrfDep])
def act_offline(game_id: GameIdDep, form: Annotated[ChangesForm, Form()], request: Request, session: SessionDep,
                player: PlayerDep, limits: LimitsDep) -> Response:
    """The changes a page made with no network, judged one by one in this request's one unit
    of work (app.services.play.returned): the board as stored, with how many of them the game
    holds (``X-Changes-Taken``) and, when one was refused, its reason (``X-Changes-Refused``,
    the board's ``data-error``); the rest were dropped. The status is the refusal's only when
    this request stored nothing: a 4xx changes nothing, so an answer that stored some is a 200."""
    game = games.get_game_row(session, game_id)
    changes = [returned.Change(c.mid, c.action, c.target, c.sel) for c in form.changes]
    held = returned.already_taken(game, changes)  # stored by an earlier request: a rollback keeps them
    try:
        judged = returned.judge(session, game, player, changes, ply=form.ply, version=form.version, limits=limits)
    except ServiceError as exc:
        return refused(request, session, player, exc, lambda: games.get_game_row(session, game_id),
                       headers={TAKEN_HEADER: str(held), REFUSED_HEADER: exc.key})
    commit_now(session)
    headers = {TAKEN_HEADER: str(judged.taken)}
    if judged.refused is not None:
        error = judged.refused
        headers |= headers_of(error) | {REFUSED_HEADER: error.key}
        return render_game(request, game, player, moves.ActionResult(judged.result.record, error=error.key),
                           status_code=status_of(error) if judged.taken == held else 200, headers=headers)
    return render_game(request, game, player, judged.result, extra=streak_after(session, game), headers=headers)


# ---------------------------------------------------------------- deals ready to play (share links)

def new_seed(request: Request, session, player, preset: str) -> int:
    """A new deal's seed (at random, or proven winnable: app.services.assist.winnable.new_seed);
    a winnable-only deal's par is searched in the solver's spare time, so its hints follow the
    par line (app.services.assist.ahead). Not in the players' solver process: a Gaps par takes
    seconds, and the player's next "New deal" and hints waited behind it."""
    # a browser that brings no cookie of ours (a first visit by a link, or a crawler that reads no
    # robots.txt) is dealt a deal proven before: its GET starts no search
    seed = winnable.new_seed(session, player, preset, search=came_back(request))
    if player.winnable_only:
        spare_time.winnable_par(request.app.state.sessionmaker, preset, seed)
    return seed


@router.get("/play")
def play_from_lobby(preset: Annotated[str, Query(max_length=40)] = "",
                    seed: Annotated[str, Query(max_length=30)] = "",
                    deal: Annotated[str, Query(max_length=games.MAX_DEAL_TEXT)] = "") -> Response:
    """The lobby's seed and import forms are GET forms: the address they lead to is the share link
    (the preset's own name: a query parameter, so not PresetDep, which reads the path)."""
    slug = games.get_preset_or_error(preset).slug
    if deal.strip():
        return see_other_plain(f"/play/{slug}?deal={quote(' '.join(deal.split()))}")
    if seed.strip():
        return see_other_plain(f"/play/{slug}/{games.parse_seed(seed)}")
    return see_other_plain(f"/play/{slug}")


def _ready(request: Request, session, player, preset: str, seed: int | None, deal: str | None,
           result: ActionResult | None = None) -> Response:
    """A deal ready to play, or the player's game of it already in play."""
    draft = games.pending(player, preset, seed=seed, deal_text=deal)
    mine = games.unfinished_games(session, player, 1, preset=preset, seed=seed,
                                  deal=draft.deal if seed is None else None)
    if mine:
        return see_other(request, f"/games/{mine[0].id}")
    replacing = next(iter(games.unfinished_games(session, player, 1, preset=preset)), None)
    # before the first move, a player dealt winnable deals is told whether this one is proven
    proven = {"deal_proven": winnable.proven(session, draft.preset, seed)} if player.winnable_only else {}
    # a daily deal is named by its day, on a board swapped in too ("Try this deal again" showed its 19 digits)
    day = daily.day_of_daily(session, draft.preset, seed)
    named = _daily(request, session, player, day)
    if is_htmx(request):
        return render_game(request, draft, player, result, replacing=replacing,
                           extra={"link_meta": None} | named | proven)
    meta = game_meta(request, session, draft, share_path(draft), daily_on=day)
    return render_game(request, draft, player, result, replacing=replacing,
                       extra={"link_meta": meta} | named | proven | _offline(session, player, preset))


def _dealt(request: Request, session, player, preset: str, seed: int) -> Response:
    """For htmx: a seeded deal's board, its share link pushed as the page's address."""
    response = _ready(request, session, player, preset, seed, None)
    if "HX-Redirect" not in response.headers:
        response.headers["HX-Push-Url"] = f"/play/{preset}/{seed}"
    return response


def _in_play(request: Request, session, player, exc: RacedError, draft, selected: str | None = None) -> Response:
    """The refusal of a first action on a deal the player already plays (another tab's first move
    won, or the game was there before): that game is the answer, its address the page's."""
    discard(session)  # a failed write's transaction, before the game in play is read
    in_play = games.game_of_deal(session, player, draft)
    if in_play is not None:
        return refused(request, session, player, exc, lambda: games.get_game_row(session, in_play.id),
                       headers={"HX-Push-Url": f"/games/{in_play.id}"})
    return refused(request, session, player, exc, lambda: draft, selected=selected)


def _first_move(request: Request, session, player, limits, preset: str, seed: int | None, deal: str | None,
                form: BoardForm) -> Response:
    draft = games.pending(player, preset, seed=seed, deal_text=deal)
    try:
        result = moves.first_move(session, player, preset, seed=seed, deal_text=deal, action=form.action,
                                  target=form.target, selected=form.sel, limits=limits,
                                  mid=form.mid, offline=form.offline)
    except RacedError as exc:  # another tab's first move of this deal won: its game is the answer
        return _in_play(request, session, player, exc, draft, selected=form.sel or None)
    except ServiceError as exc:
        return refused(request, session, player, exc, lambda: draft, selected=form.sel or None)
    commit_now(session)
    if result.game is None:  # a selection, or a question: nothing is stored yet
        if is_htmx(request):
            return _ready(request, session, player, preset, seed, deal, result)
        _flash_result(request, result)
        return see_other(request, share_path(draft))
    if is_htmx(request):  # the board of the stored game; the address bar follows
        return render_game(request, result.game, player, result, headers={"HX-Push-Url": f"/games/{result.game.id}"})
    return see_other(request, f"/games/{result.game.id}")


@router.get("/play/{preset}")
@router.get("/play/{preset}/{seed}")
async def play(preset: PresetDep, request: Request, session: SessionDep, player: PlayerDep,
               seed: str | None = None,
               deal: Annotated[str | None, Query(max_length=games.MAX_DEAL_TEXT)] = None) -> Response:
    """A deal ready to play (stored with its first move), or the player's game of it: a share
    link's seed, or an imported deal; with neither, a new deal (a fresh seed, proven winnable if
    the player asked for those)."""
    # a browser without a cookie of ours is dealt a deal proven before (``new_seed``): no search
    return await in_thread(request, lambda: _play(preset, request, session, player, seed, deal),
                           may_search=seed is None and deal is None and player.winnable_only and came_back(request))


def _play(preset: Preset, request: Request, session, player, seed: str | None, deal: str | None) -> Response:
    slug = preset.slug
    if seed is None and deal is None:
        fresh = new_seed(request, session, player, slug)
        if is_htmx(request):  # the board in place, no redirect to follow
            return _dealt(request, session, player, slug, fresh)
        return see_other(request, f"/play/{slug}/{fresh}")
    number = games.parse_seed(seed) if seed is not None else None
    text = deal if number is None else None
    draft = games.pending(player, slug, seed=number, deal_text=text)
    return _ready(request, session, player, slug, number, text, shown_after(record_of(draft), flashed(request)))


def _first_hint(request: Request, session, player, limits, preset: str, seed: int | None, deal: str | None) -> Response:
    """A hint on a deal ready to play: it stores the game (the hint counts); its first move is
    still to come."""
    draft = games.pending(player, preset, seed=seed, deal_text=deal)
    try:
        game, found = assist.hint_on_deal(session, player, draft, limits=limits)
    except RacedError as exc:
        return _in_play(request, session, player, exc, draft)
    except ServiceError as exc:
        return refused(request, session, player, exc, lambda: draft)
    commit_now(session)
    spare_time.hint_line(request.app.state.sessionmaker, session, game)
    return answer_hint(request, game, player, found, headers={"HX-Push-Url": f"/games/{game.id}"})


# before /play/{preset}/{seed}: "hint" is no seed. SolverRoom holds the player's search slot.
@router.post("/play/{preset}/hint", dependencies=[CsrfDep])  # an imported deal's (?deal=)
@router.post("/play/{preset}/{seed}/hint", dependencies=[CsrfDep])
async def hint_first(preset: PresetDep, request: Request, session: SessionDep, player: PlayerDep, limits: LimitsDep,
                     seed: str | None = None,
                     deal: Annotated[str, Query(max_length=games.MAX_DEAL_TEXT)] = "") -> Response:
    """The Hint of a deal ready to play, searched in the solver's threads as a game's hint is."""
    number = games.parse_seed(seed) if seed is not None else None
    text = deal if number is None else None
    return await in_solver_thread(
        request, lambda: _first_hint(request, session, player, limits, preset.slug, number, text))


@router.post("/play/{preset}", dependencies=[CsrfDep])
@router.post("/play/{preset}/{seed}", dependencies=[CsrfDep])
def play_first(preset: PresetDep, form: Annotated[BoardForm, Form()], request: Request, session: SessionDep,
               player: PlayerDep, limits: LimitsDep, seed: str | None = None,
               deal: Annotated[str, Query(max_length=games.MAX_DEAL_TEXT)] = "") -> Response:
    """The first move of a deal ready to play: it stores the game."""
    if form.action == "hint":  # the Hint of a page from before the hint had its own address
        query = f"?{request.url.query}" if request.url.query else ""
        return Response(status_code=307, headers={"location": f"{request.url.path}/hint{query}"})
    number = games.parse_seed(seed) if seed is not None else None
    return _first_move(request, session, player, limits, preset.slug, number, deal if number is None else None, form)


def see_other_plain(url: str) -> Response:
    return Response(status_code=303, headers={"location": url})
