"""Which language a request is answered in: the player's choice, else Accept-Language."""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app import i18n

from .security import LANGUAGE_COOKIE


class LanguageMiddleware:
    """Puts the language in request.state before any handler; a stored preference
    (player.language) may still override it in the player dependency."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            request = Request(scope)
            chosen = request.cookies.get(LANGUAGE_COOKIE)
            if chosen not in i18n.LANGUAGES:
                chosen = i18n.negotiate(request.headers.get("accept-language"))
            scope.setdefault("state", {})["language"] = chosen
        await self.app(scope, receive, send)
