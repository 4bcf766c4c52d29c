"""The odds page (/odds): how many deals of each preset can be won, Tretten's own survey beside
published figures (``app.services.assist.odds``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.engine import PRESETS
from app.services.assist import odds
from app.web.http.deps import PlayerDep
from app.web.views.templating import render

router = APIRouter(include_in_schema=False)


@router.get("/odds")
def odds_page(request: Request, player: PlayerDep) -> Response:
    context = {"rows": odds.rows(), "survey": odds.survey_info(), "presets": PRESETS}
    return render(request, "odds.html", context)
