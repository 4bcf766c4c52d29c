"""The player's settings: language, scoring system, zen, four-colour deck, theme, animations,
winnable deals only."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from starlette.responses import Response

from app.services.accounts import players
from app.web.http.deps import CsrfDep, PlayerDep, SessionDep, SettingsDep
from app.web.http.identity import set_language_cookie
from app.web.http.redirects import NextPath, see_other

router = APIRouter(include_in_schema=False)


@router.post("/prefs/language", dependencies=[CsrfDep])
def set_language(request: Request, session: SessionDep, player: PlayerDep, settings: SettingsDep,
                 language: Annotated[str, Form(max_length=8)],
                 next: NextPath = "/") -> Response:
    players.update_preferences(session, player, language=language)
    set_language_cookie(request, language, settings)
    return see_other(request, next)


@router.post("/prefs", dependencies=[CsrfDep])
def set_preferences(request: Request, session: SessionDep, player: PlayerDep,
                    scoring: Annotated[str, Form(max_length=16)] = "simple",
                    zen: Annotated[bool, Form()] = False,
                    four_colour: Annotated[bool, Form()] = False,
                    winnable_indicator: Annotated[bool, Form()] = False,
                    animations: Annotated[bool, Form()] = False,
                    theme: Annotated[str, Form(max_length=8)] = "auto",
                    next: NextPath = "/") -> Response:
    # an unticked checkbox sends nothing, so absent means off
    players.update_preferences(session, player, scoring=scoring, zen=zen, four_colour=four_colour,
                                theme=theme, animations=animations)
    players.update_solver_preferences(session, player, winnable_indicator=winnable_indicator)
    return see_other(request, next)


@router.post("/prefs/winnable-only", dependencies=[CsrfDep])
def set_winnable_only(request: Request, session: SessionDep, player: PlayerDep,
                      winnable_only: Annotated[str, Form(max_length=5)] = "",
                      next: NextPath = "/") -> Response:
    players.update_solver_preferences(session, player, winnable_only=winnable_only == "on")
    return see_other(request, next)
