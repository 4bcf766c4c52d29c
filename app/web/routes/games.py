"""Game pages, the board's actions, and the links that start games (share links)."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Form, Query, Request
from pydantic import BaseModel, Field
from starlette.responses import Response

from app.engine import NotationError
from app.engine.cards import parse_card
from app.services import actions, assist, daily, games, sharing, stats
from app.services.actions import ActionResult
from app.services.boards import Announcement
from app.services.errors import ServiceError
from app.services.moves import RacedError
from app.services.records import record_of

from ..deps import CsrfDep, GameIdDep, LimitsDep, PlayerDep, SessionDep, discard
from ..errors import status_of
from ..game_view import hinted_query, render_game, render_hinted
from ..link_meta import game_meta
from ..redirects import see_other
from ..templating import is_htmx

router = APIRouter(include_in_schema=False)

# notes a plain form post carries to the page it lands on
PAGE_NOTES = {"not_playable", "dead_gap", "in_place", "no_pair"}


class BoardForm(BaseModel):
    """The board form: which button was pressed, and what the page had seen."""

    action: str = Field("", max_length=20)
    target: str = Field("", max_length=8)
    sel: str = Field("", max_length=8)
    ply: int | None = Field(None, ge=0)
    version: int | None = Field(None, ge=0)
    csrf_token: str = Field("", max_length=128)


def _shown(result: ActionResult) -> dict[str, str]:
    """What a plain form post carries to the page it lands on (post/redirect/get)."""
    query = {"sel": result.selected or "", "note": result.note if result.note in PAGE_NOTES else "",
             "confirm": result.confirm or "",
             "pair": ".".join(c.code for c in result.announcement.cards)
             if result.note == "no_pair" and result.announcement else ""}
    return {k: v for k, v in query.items() if v}


def _from_query(record, sel: str, note: str, confirm: str, pair: str = "") -> ActionResult:
    confirm = confirm if confirm in actions.CONFIRMED else ""
    said = None
    if note == "no_pair":  # the two cards the tap tried to pair, as the board post named them
        try:
            said = Announcement("no_pair", cards=tuple(parse_card(code) for code in pair.split(".")[:2]))
        except NotationError:
            note = ""
        if said is not None and len(said.cards) != 2:
            said, note = None, ""
    return ActionResult(record, selected=sel or None, confirm=confirm or None, announcement=said,
                        note=note if note in PAGE_NOTES else (f"confirm_{confirm}" if confirm else None))


def _action(form: BoardForm) -> tuple[str, bool]:
    """The action a board button names, and whether it confirms one that asked first."""
    if form.action.startswith("confirm-") and form.action[len("confirm-"):] in actions.CONFIRMED:
        return form.action[len("confirm-"):], True
    return form.action, False


@router.get("/games/{game_id}")
def show_game(game_id: GameIdDep, request: Request, session: SessionDep, player: PlayerDep,
              sel: Annotated[str, Query(max_length=8)] = "",
              note: Annotated[str, Query(max_length=20)] = "",
              confirm: Annotated[str, Query(max_length=10)] = "",
              pair: Annotated[str, Query(max_length=5)] = "") -> Response:
    """The game page: moves without JavaScript land here (post/redirect/get)."""
    game = games.get_game_row(session, game_id)
    extra = {"link_meta": None if is_htmx(request) else game_meta(request, session, game, f"/games/{game.id}")}
    if not is_htmx(request) and player is not None and player.id == game.player_id:
        extra |= _daily(request, session, player, game.daily_on)
    return render_game(request, game, player, _from_query(record_of(game), sel, note, confirm, pair), extra=extra)


def _daily(request: Request, session, player, day) -> dict:
    """A daily deal's page says so: its name with the day, and the player's daily streak."""
    if day is None:
        return {}
    return {"daily_name": sharing.deal_name(None, day, request.state.language),
            "daily_streak": stats.daily_figures(session, player.id, daily.utc_today()).current_streak}


@router.post("/games/{game_id}/act", dependencies=[CsrfDep])
def act(game_id: GameIdDep, form: Annotated[BoardForm, Form()], request: Request, session: SessionDep,
        player: PlayerDep, limits: LimitsDep) -> Response:
    """A board action: a tap, draw, undo, redeal… (htmx: answered by the board; a plain form
    post: post/redirect/get)."""
    game = games.get_game_row(session, game_id)
    action, confirmed = _action(form)
    try:
        result = actions.perform(session, game, player, action, target=form.target, selected=form.sel,
                                 ply=form.ply, version=form.version, confirm=confirmed, limits=limits)
    except ServiceError as exc:
        discard(session)  # show what is stored now, not what this request tried
        game = games.get_game_row(session, game_id)
        return render_game(request, game, player, ActionResult.refused(record_of(game), exc, status_of(exc),
                                                                       form.sel or None))
    if result.redirect is not None:
        if is_htmx(request) and result.next_seed is not None:
            # the next deal's board in place of this one, and its address in the address bar: a
            # full page load (HX-Redirect) would take several times as long
            return _dealt(request, session, player, game.preset, result.next_seed)
        return see_other(request, result.redirect)
    if is_htmx(request):
        return render_game(request, game, player, result)
    query = _shown(result)
    return see_other(request, f"/games/{game.id}" + (f"?{urlencode(query)}" if query else ""))


# ---------------------------------------------------------------- deals ready to play (share links)

@router.get("/play")
def play_from_lobby(preset: Annotated[str, Query(max_length=40)] = "",
                    seed: Annotated[str, Query(max_length=30)] = "",
                    deal: Annotated[str, Query(max_length=games.MAX_DEAL_TEXT)] = "") -> Response:
    """The lobby's seed and import forms are GET forms: the address they lead to is the share link."""
    games.get_preset_or_error(preset)
    if deal.strip():
        return see_other_plain(f"/play/{preset}?deal={quote(' '.join(deal.split()))}")
    if seed.strip():
        return see_other_plain(f"/play/{preset}/{games.parse_seed(seed)}")
    return see_other_plain(f"/play/{preset}")


def _ready(request: Request, session, player, preset: str, seed: int | None, deal: str | None,
           result: ActionResult | None = None) -> Response:
    """A deal ready to play, or the player's game of it already in play."""
    draft = games.pending(player, preset, seed=seed, deal_text=deal)
    mine = games.unfinished_games(session, player, 1, preset=preset, seed=seed,
                                  deal=draft.deal if seed is None else None)
    if mine:
        return see_other(request, f"/games/{mine[0].id}")
    replacing = next(iter(games.unfinished_games(session, player, 1, preset=preset)), None)
    if is_htmx(request):
        return render_game(request, draft, player, result, replacing=replacing, extra={"link_meta": None})
    day = daily.day_of_daily(session, draft.preset, seed)
    meta = game_meta(request, session, draft, games.share_path(draft), daily_on=day)
    return render_game(request, draft, player, result, replacing=replacing,
                       extra={"link_meta": meta} | _daily(request, session, player, day))


def _dealt(request: Request, session, player, preset: str, seed: int) -> Response:
    """For htmx: a seeded deal's board, its share link pushed as the page's address."""
    response = _ready(request, session, player, preset, seed, None)
    if "HX-Redirect" not in response.headers:
        response.headers["HX-Push-Url"] = f"/play/{preset}/{seed}"
    return response


def _first_move(request: Request, session, player, limits, preset: str, seed: int | None, deal: str | None,
                form: BoardForm) -> Response:
    action, confirmed = _action(form)
    draft_url = games.share_path(games.pending(player, preset, seed=seed, deal_text=deal))
    if action == "hint":  # a hint stores the game (it counts the hint); its first move is still to come
        try:
            game = games.start_game(session, player, preset, seed=seed, deal_text=deal, limits=limits)
            found = assist.hint(session, game, player)
        except ServiceError as exc:
            discard(session)
            draft = games.pending(player, preset, seed=seed, deal_text=deal)
            refused = ActionResult.refused(record_of(draft), exc, status_of(exc), None)
            return render_game(request, draft, player, refused)
        if not is_htmx(request):
            return see_other(request, f"/games/{game.id}/hinted?{hinted_query(found)}")
        return render_hinted(request, game, player, found, headers={"HX-Push-Url": f"/games/{game.id}"})
    try:
        result = actions.first_move(session, player, preset, seed=seed, deal_text=deal, action=action,
                                    target=form.target, selected=form.sel, confirm=confirmed, limits=limits)
    except ServiceError as exc:
        discard(session)
        draft = games.pending(player, preset, seed=seed, deal_text=deal)
        in_play = games.game_of_deal(session, player, draft) if isinstance(exc, RacedError) else None
        if in_play is not None:  # another tab's first move of this deal won: its game is the answer
            refused = ActionResult.refused(record_of(in_play), exc, status_of(exc), None)
            return render_game(request, in_play, player, refused, headers={"HX-Push-Url": f"/games/{in_play.id}"})
        return render_game(request, draft, player, ActionResult.refused(record_of(draft), exc, status_of(exc),
                                                                        form.sel or None))
    if result.game is None:  # a selection, or a question: nothing is stored yet
        if is_htmx(request):
            return _ready(request, session, player, preset, seed, deal, result)
        query = _shown(result)
        joiner = "&" if "?" in draft_url else "?"
        return see_other(request, draft_url + (f"{joiner}{urlencode(query)}" if query else ""))
    if is_htmx(request):  # the board of the stored game; the address bar follows
        return render_game(request, result.game, player, result, headers={"HX-Push-Url": f"/games/{result.game.id}"})
    return see_other(request, f"/games/{result.game.id}")


@router.get("/play/{preset}")
def play_preset(preset: str, request: Request, session: SessionDep, player: PlayerDep,
                deal: Annotated[str | None, Query(max_length=games.MAX_DEAL_TEXT)] = None,
                sel: Annotated[str, Query(max_length=8)] = "", note: Annotated[str, Query(max_length=20)] = "",
                confirm: Annotated[str, Query(max_length=10)] = "",
                pair: Annotated[str, Query(max_length=5)] = "") -> Response:
    """A new deal (a fresh seed, proven winnable if the player asked for those), or an imported deal."""
    slug = games.get_preset_or_error(preset).slug
    if deal is None and is_htmx(request):  # the board in place, no redirect to follow
        return _dealt(request, session, player, slug, games.new_seed(session, player, slug))
    if deal is None:
        return see_other(request, f"/play/{slug}/{games.new_seed(session, player, slug)}")
    draft = games.pending(player, preset, deal_text=deal)
    return _ready(request, session, player, preset, None, deal, _from_query(record_of(draft), sel, note, confirm, pair))


@router.post("/play/{preset}", dependencies=[CsrfDep])
def play_imported(preset: str, form: Annotated[BoardForm, Form()], request: Request, session: SessionDep,
                  player: PlayerDep, limits: LimitsDep,
                  deal: Annotated[str, Query(max_length=games.MAX_DEAL_TEXT)] = "") -> Response:
    return _first_move(request, session, player, limits, preset, None, deal, form)


@router.get("/play/{preset}/{seed}")
def play_seed(preset: str, seed: str, request: Request, session: SessionDep, player: PlayerDep,
              sel: Annotated[str, Query(max_length=8)] = "", note: Annotated[str, Query(max_length=20)] = "",
              confirm: Annotated[str, Query(max_length=10)] = "",
              pair: Annotated[str, Query(max_length=5)] = "") -> Response:
    """A share link: the deal ready to play (stored with its first move), or the player's game of it."""
    number = games.parse_seed(seed)
    draft = games.pending(player, preset, seed=number)
    shown = _from_query(record_of(draft), sel, note, confirm, pair)
    return _ready(request, session, player, preset, number, None, shown)


@router.post("/play/{preset}/{seed}", dependencies=[CsrfDep])
def play_seed_move(preset: str, seed: str, form: Annotated[BoardForm, Form()], request: Request,
                   session: SessionDep, player: PlayerDep, limits: LimitsDep) -> Response:
    return _first_move(request, session, player, limits, preset, games.parse_seed(seed), None, form)


def see_other_plain(url: str) -> Response:
    return Response(status_code=303, headers={"location": url})
