"""The app's ASGI middleware, outermost first as app.web.main adds them: the request log, the
security headers (with the cookies a request queued, and the body's size cap), the request's
language, and HEAD answered as GET without its body."""

from __future__ import annotations

import re
import time

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import i18n

from .logs import log_event, loggable_path, request_log
from .security import LANGUAGE_COOKIE, SECURITY_HEADERS

GAME_PATH = re.compile(r"^/(?:api/)?games/([A-Za-z0-9_-]{1,24})(?:/|$)")


class RequestLogMiddleware:
    """Times each HTTP request from its first byte in to its last byte out."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the client gets if the app fails before answering

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            path = scope.get("path", "")
            fields: dict[str, object] = {
                "method": scope.get("method"),
                "path": loggable_path(path),
                "status": status,
                "ms": round((time.perf_counter() - started) * 1000, 2),
            }
            match = GAME_PATH.match(path)
            if match:
                fields["game"] = match.group(1)
            log_event(request_log, "request", **fields)


class SecurityMiddleware:
    """Adds the security headers, any cookies queued in request state, and caps body size.

    Cookies are queued (scope["state"]["set_cookies"]) rather than set on a Response,
    because a dependency cannot reach the Response a handler returns.
    """

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body_bytes):
            await _too_large(scope, send)
            return
        too_large = {"seen": False, "answered": False}

        async def send_with_headers(message: Message) -> None:
            if too_large["seen"]:
                # a chunked body outgrew the limit while the app read it: whatever the app
                # made of that (FastAPI turns it into a 400), the answer is 413
                if not too_large["answered"]:
                    too_large["answered"] = True
                    await _too_large(scope, send)
                return
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
                for cookie in state.get("set_cookies", ()):
                    headers.append("set-cookie", cookie)
            await send(message)

        await self.app(scope, _limited(receive, self.max_body_bytes, too_large), send_with_headers)


def _limited(receive: Receive, limit: int, flag: dict) -> Receive:
    """Stop reading a chunked body that grows past the limit (no Content-Length to check)."""
    seen = 0

    async def wrapped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                flag["seen"] = True
                raise BodyTooLarge()
        return message

    return wrapped


async def _too_large(scope: Scope, send: Send) -> None:
    if scope.get("path", "").startswith("/api/"):
        await _plain(send, 413, b'{"error":"request body too large"}', b"application/json")
    else:
        await _plain(send, 413, b"request body too large")


class BodyTooLarge(Exception):
    pass


async def _plain(send: Send, status: int, body: bytes, content_type: bytes = b"text/plain; charset=utf-8") -> None:
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


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


class HeadAsGet:
    """HEAD answered as GET without its body (RFC 9110 9.3.2): FastAPI's routes take GET only."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        # a copy: the server's own scope keeps saying HEAD
        await self.app({**scope, "method": "GET"}, receive, headers_only)
