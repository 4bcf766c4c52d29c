"""A hint takes its player's search slot before anything else of the app runs, or is refused.

When many players ask for a hint at the same moment (a crowd on the daily deal), all but the
few the solver can take are told at once that it is busy (429, Retry-After). Refused where the
search starts, each had first passed through routing, the form's parsing, the CSRF check, the
player's and the game's reads and the game's replay, and a crowd of them held up the other
players' moves (bench/solver_storm.py measures it). Here, inside the language and
security middleware (so the answer is worded and carries the headers) but before the router,
the request takes its player's slot (``searches.held``) and keeps it until it is answered, its
search running in it; a refusal costs a signed cookie's check and a small fragment. Nothing is
stored by a refusal, so the CSRF token need not be read first.
"""

from __future__ import annotations

import re
from contextlib import ExitStack

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app.services.assist import searches
from app.services.errors import ServiceError
from app.web.http.errors import refused_early
from app.web.http.identity import cookie_identity

HINT_PATH = re.compile(r"/(games/[^/]+|play/[^/]+|play/[^/]+/[^/]+)/hint")  # a game's, a deal's ready to play


class SolverRoom:
    """A POST of a hint (a game's, or a deal's ready to play) holds its player's search slot while it is answered, or is
    refused at once when there is none."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not (scope["type"] == "http" and scope["method"] == "POST" and HINT_PATH.fullmatch(scope["path"])):
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        identity = cookie_identity(request, scope["app"].state.settings)
        with ExitStack() as slot:
            if identity is not None:  # (no cookie: a visitor's POST, refused by the CSRF check)
                try:
                    slot.enter_context(searches.held(identity[0]))
                except ServiceError as exc:
                    await refused_early(request, exc)(scope, receive, send)
                    return
            await self.app(scope, receive, send)
