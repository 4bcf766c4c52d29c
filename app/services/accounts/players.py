"""Anonymous players: created on first visit (cookie) or by the API (bearer token)."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any, cast

from sqlalchemy import CursorResult, delete, exists, select
from sqlalchemy.orm import Session

from app.db.models import Game, Player
from app.engine import SCORING_SYSTEMS
from app.i18n import LANGUAGES  # the languages the site speaks: the only ones a player may choose

from ..errors import InputError
from ..play import games

THEMES = ("auto", "light", "dark")


def visitor(player_id: str) -> Player:
    """A browser's player before it has done anything: not stored (a GET stores nothing, so a
    link-preview bot makes no player); ``stored_visitor`` stores it with its first POST.

    A newcomer is dealt only deals the solver proves winnable (one-pass Pyramid is won about one
    time in eleven, and a first game lost by the deal teaches nothing); the page says so and
    turns it off with one button. A program's player (the API) keeps plain random deals."""
    return Player(id=player_id, language=None, scoring="simple", zen=False, four_colour=False,
                  theme="auto", animations=True,
                  winnable_only=True, winnable_indicator=False, session_generation=0, on_daily_table=True)


def stored_visitor(session: Session, player_id: str) -> Player:
    """The visitor of this id, stored with the request's other changes (IntegrityError at the
    flush: two first requests of one browser at once, and the other stored it)."""
    player = visitor(player_id)
    session.add(player)
    session.flush()
    return player


def forget_visitor(session: Session, player_id: str) -> None:
    """A visitor stored by a request that was then refused goes again, unless another request
    of the same browser has given it a game meanwhile."""
    session.execute(delete(Player).where(Player.id == player_id, ~exists().where(Game.player_id == player_id)))


def forget_blank_visitor(session: Session, player_id: str) -> bool:
    """A visitor stored by a request that stored nothing of theirs goes again: no game, and
    every setting still a visitor's (a selection, a question, a setting sent as it was, a blank
    name, another profile's device link taken up). True if it went."""
    blank = visitor(player_id)
    unchanged = [column == getattr(blank, column.key) for column in Player.__table__.columns
                 if column.key not in ("id", "created_at")]
    gone = session.execute(delete(Player).where(Player.id == player_id, ~exists().where(Game.player_id == player_id),
                                                *unchanged).execution_options(synchronize_session=False))
    return cast("CursorResult[Any]", gone).rowcount == 1


def end_other_sessions(session: Session, player: Player) -> None:
    """Log out every device of this profile (their cookies carry the old generation); the
    caller gives the current device a cookie of the new one."""
    player.session_generation = (player.session_generation or 0) + 1


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_api_player(session: Session) -> tuple[Player, str]:
    """A new player and its bearer token; only the token's hash is stored."""
    token = secrets.token_urlsafe(32)
    player = Player(token_hash=_token_hash(token))
    session.add(player)
    session.flush()
    return player, token


def player_for_token(session: Session, token: str) -> Player | None:
    return session.scalar(select(Player).where(Player.token_hash == _token_hash(token)))


def update_preferences(
    session: Session,
    player: Player,
    *,
    language: str | None = None,
    scoring: str | None = None,
    zen: bool | None = None,
    four_colour: bool | None = None,
    theme: str | None = None,
    animations: bool | None = None,
) -> Player:
    """Change only what was given. An unknown language, scoring system or theme is refused
    (``InputError``) before anything changes: a form that sends one was not ours."""
    for given, known in ((language, LANGUAGES), (scoring, SCORING_SYSTEMS), (theme, THEMES)):
        if given is not None and given not in known:
            raise InputError(f"{given[:16]!r} is not one of {', '.join(known)}", "bad_request")
    if language is not None:
        player.language = language
    if scoring is not None:
        player.scoring = scoring
        games.follow_scoring(session, player, scoring)
    if zen is not None:
        player.zen = zen
    if four_colour is not None:
        player.four_colour = four_colour
    if theme is not None:
        player.theme = theme
    if animations is not None:
        player.animations = animations
    return player


def update_solver_preferences(session: Session, player: Player, *, winnable_only: bool | None = None,
                              winnable_indicator: bool | None = None) -> Player:
    """Winnable-only new deals (on for a browser's new player), and the "still winnable?" indicator
    (off by default: it is a spoiler)."""
    if winnable_only is not None:
        player.winnable_only = winnable_only
    if winnable_indicator is not None:
        player.winnable_indicator = winnable_indicator
    return player
