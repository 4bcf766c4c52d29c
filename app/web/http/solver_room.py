"""A hint the solver cannot take now is refused before anything else of the app runs.

When many players ask for a hint at the same moment (a crowd on the daily deal), all but the
few the solver can take are told at once that it is busy (429, Retry-After). Refused in a route,
each still passed through routing, the form's parsing, the CSRF check and the dependencies
first, and 200 of them at once held up the other players' moves for most of a second
(bench/solver_storm.py). Here, inside the language and security middleware (so the answer is
worded and carries the headers) but before the router, a refusal costs a signed cookie's check
and a small fragment. The check is the one the solver's admission makes
(``searches.check_room``); a request it lets through goes on as usual, and is admitted (or, if
the last slot went meanwhile, refused) by the search itself. Nothing is stored either way, so
the CSRF token need not be read first.
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app.services.assist import searches
from app.services.errors import ServiceError
from app.web.http.errors import refused_early
from app.web.http.identity import cookie_identity

HINT_PATH = re.compile(r"/games/[^/]+/hint")


class SolverRoom:
    """Refuses a POST of a game's hint when the solver has no room for this player now."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and HINT_PATH.fullmatch(scope["path"]):
            request = Request(scope, receive)
            identity = cookie_identity(request, scope["app"].state.settings)
            if identity is not None:
                try:
                    searches.check_room(identity[0])
                except ServiceError as exc:
                    await refused_early(request, exc)(scope, receive, send)
                    return
        await self.app(scope, receive, send)
