"""The profile: display name, a place on the daily tables, the "use this profile on another
device" link, deletion."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from starlette.responses import Response

from app.services.accounts import players, profiles
from app.services.errors import NotFoundError
from app.services.stats import leaderboard
from app.web.http.deps import CsrfDep, PlayerDep, SessionDep, SettingsDep
from app.web.http.identity import cleared_player_cookie_header, player_cookie_header, queue_cookie, stored_now
from app.web.http.redirects import NextPath, see_other
from app.web.views.templating import absolute, render

router = APIRouter(include_in_schema=False)


def device_url(request: Request, token: str | None) -> str | None:
    return None if token is None else absolute(request, f"/link/{token}")


@router.get("/profile")
def profile_page(request: Request, player: PlayerDep, settings: SettingsDep) -> Response:
    link = device_url(request, profiles.device_token(settings.secret_key, player))
    return render(request, "profile.html", {"device_link": link, "name_max": profiles.NAME_MAX})


@router.post("/profile/name", dependencies=[CsrfDep])
def set_name(request: Request, session: SessionDep, player: PlayerDep,
             display_name: Annotated[str, Form(max_length=200)] = "") -> Response:
    profiles.set_display_name(session, player, display_name)
    return see_other(request, "/profile")


@router.post("/profile/device-link", dependencies=[CsrfDep])
def new_link(request: Request, session: SessionDep, player: PlayerDep) -> Response:
    profiles.new_device_link(session, player)
    return see_other(request, "/profile#device")


def _renew_session(request: Request, session, player, settings) -> None:
    """Log out every other device of this profile; this one goes on with a cookie of the new generation.
    A visitor's first request has none to log out, and stores nothing for it."""
    if stored_now(session, player):
        return
    players.end_other_sessions(session, player)
    queue_cookie(request, player_cookie_header(settings.secret_key, player.id, settings.secure_cookies,
                                                        player.session_generation))


@router.post("/profile/device-link/revoke", dependencies=[CsrfDep])
def revoke_link(request: Request, session: SessionDep, player: PlayerDep, settings: SettingsDep) -> Response:
    """The link stops working, and the devices that opened it are logged out."""
    profiles.revoke_device_link(session, player)
    _renew_session(request, session, player, settings)
    return see_other(request, "/profile#device")


@router.post("/profile/log-out-others", dependencies=[CsrfDep])
def log_out_others(request: Request, session: SessionDep, player: PlayerDep, settings: SettingsDep) -> Response:
    _renew_session(request, session, player, settings)
    return see_other(request, "/profile?logged_out=1#device")


@router.post("/profile/delete", dependencies=[CsrfDep])
def delete_profile(request: Request, session: SessionDep, player: PlayerDep, settings: SettingsDep,
                   confirm: Annotated[str, Form(max_length=10)] = "") -> Response:
    if confirm != "yes":
        return see_other(request, "/profile#delete")
    profiles.delete_player(session, player)
    # forget the cookie: the next visit starts a new anonymous player
    queue_cookie(request, cleared_player_cookie_header(settings.secure_cookies))
    return see_other(request, "/?deleted=1")


def _linked_player(session, settings, token: str):
    target = profiles.player_for_device_token(session, settings.secret_key, token)
    if target is None:
        raise NotFoundError("this device link is unknown or was revoked", "device_link_gone")
    return target


# a device link's token: a player id, a dot and 40 hex digits (app.services.accounts.profiles)
DEVICE_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,24}\.[0-9a-f]{40}")


async def valid_device_token(token: str) -> str:
    """Refused at the edge (404) unless it could be a token: nothing else reaches the database."""
    if not DEVICE_TOKEN.fullmatch(token):
        raise NotFoundError("this device link is unknown or was revoked", "device_link_gone")
    return token


DeviceTokenDep = Annotated[str, Depends(valid_device_token)]


@router.post("/profile/daily-table", dependencies=[CsrfDep])
def set_on_table(request: Request, session: SessionDep, player: PlayerDep,
                 on_daily_table: Annotated[str, Form(max_length=5)] = "",
                 next: NextPath = "/profile") -> Response:
    leaderboard.set_on_table(session, player, on_daily_table == "on")
    return see_other(request, next)


@router.get("/link/{token}")
def link_page(
    token: DeviceTokenDep, request: Request, session: SessionDep, player: PlayerDep, settings: SettingsDep
) -> Response:
    """Asks first (a GET changes nothing: link previews and prefetchers must not switch profiles)."""
    target = _linked_player(session, settings, token)
    return render(request, "link.html", {"token": token, "target": target, "already": target.id == player.id})


@router.post("/link/{token}", dependencies=[CsrfDep])
def use_link(
    token: DeviceTokenDep, request: Request, session: SessionDep, player: PlayerDep, settings: SettingsDep
) -> Response:
    target = _linked_player(session, settings, token)
    queue_cookie(request, player_cookie_header(settings.secret_key, target.id, settings.secure_cookies,
                                                        target.session_generation))
    return see_other(request, "/stats")
