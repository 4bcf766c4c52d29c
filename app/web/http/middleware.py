"""What every request passes through, outermost first as app.web.main adds them: the client's
address (believed from X-Forwarded-For only through a trusted proxy) and the limits on the
players, games and previews it may make; the request's JSON log line; the security headers
(with the cookies a request queued, and the body's size cap); the request's language (and its
cookie); and HEAD answered as GET without its body.

Behind a reverse proxy every peer is the proxy. With TRUSTED_PROXIES set, uvicorn's
ProxyHeadersMiddleware (installed here, in the app, so every way of serving it agrees) takes
the client from X-Forwarded-For when the peer is one of them: the right-most address in it
that is not a trusted proxy, since each proxy appends the address it saw. The scheme comes
from X-Forwarded-Proto the same way (share and device links are absolute). From any other
peer both headers are ignored.

Logs: one JSON line per request (logger ``tretten.request``) and per move (``tretten.move``,
written by the games service), on stderr. Each line is a JSON object with ``event``, ``ts``
and the fields of the event; a request line carries ``method``, ``path``, ``status``, ``ms``
and, for a game's URL, ``game``. A path that carries a credential (a device link,
``/link/<secret>``) is written as ``/link/…``, here and in uvicorn's access log if that is on.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time

from fastapi import FastAPI, Request
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app import i18n
from app.services.ratelimit import Arrivals
from app.settings import Settings

LANGUAGE_COOKIE = "tretten_lang"
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600

# ---------------------------------------------------------------- the client and its limits

def install_limits(app: FastAPI, settings: Settings) -> None:
    """The app's limits on new players and games, and the proxies it believes (call it after
    the other middleware: the proxy headers must be read before anything uses the client)."""
    app.state.new_players = Arrivals(
        settings.new_players_per_address, settings.new_players_total,
        message="too many new players at once from your address or in all; wait a little", key="too_many_players",
    )
    app.state.new_games = Arrivals(
        settings.new_games_per_address, settings.new_games_total,
        message="too many new games at once from your address or in all; wait a little", key="rate_limited",
    )
    app.state.new_previews = Arrivals(
        settings.previews_per_address, settings.previews_total,
        message="too many new preview images at once from your address or in all; wait a little",
        key="rate_limited",
    )
    if settings.trusted_proxies:
        app.add_middleware(TrustedProxyHeaders, trusted_hosts=list(settings.trusted_proxies))


class TrustedProxyHeaders(ProxyHeadersMiddleware):
    """uvicorn's, and it marks a request that came through a trusted proxy
    (``request.state.through_proxy``): only then is its Host header believed for the site's
    absolute links when PUBLIC_URL is not set (app.web.views.templating.public_base)."""

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            client = scope.get("client")
            scope.setdefault("state", {})["through_proxy"] = bool(client) and client[0] in self.trusted_hosts
        await super().__call__(scope, receive, send)


def client_address(request: Request) -> str:
    """The client's IP address (from X-Forwarded-For only through a trusted proxy, see above)."""
    client = request.scope.get("client")
    return client[0] if client else "unknown"


def check_new_preview(request: Request) -> None:
    """Before drawing a preview that is not in the cache: RateLimitError if this client, or
    everyone together, asked for too many just now."""
    request.app.state.new_previews.check(client_address(request))


def check_new_player(request: Request) -> None:
    """Before making a player: RateLimitError (429, Retry-After) if this client, or everyone
    together, made too many just now."""
    request.app.state.new_players.check(client_address(request))


# ---------------------------------------------------------------- logs

request_log = logging.getLogger("tretten.request")
SECRET_PATHS = ("/link/",)  # what follows is a credential: whoever holds a device link is that player


def loggable_path(path: str) -> str:
    """The path as a log may keep it: a credential in it cut off, and at most 200 characters."""
    if path.startswith(SECRET_PATHS):
        return next(prefix for prefix in SECRET_PATHS if path.startswith(prefix)) + "…"
    return path[:200]


class RedactAccessLog(logging.Filter):
    """uvicorn's access log (off in ``tretten serve``) with credentials cut out of its paths."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        # uvicorn logs '%s - "%s %s HTTP/%s" %d' with (client, method, path and query, version, status)
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (*args[:2], loggable_path(args[2]), *args[3:])
        return True


class JsonFormatter(logging.Formatter):
    """The record's ``fields`` (passed as ``extra={"fields": {...}}``) as one JSON line."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"ts": round(record.created, 3), "level": record.levelname.lower(), "event": record.getMessage()}
        line.update(getattr(record, "fields", {}))
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info).splitlines()[-1]
        return json.dumps(line, separators=(",", ":"), default=str)


def configure_logging(level: int = logging.INFO) -> None:
    """Send the ``tretten`` loggers to stderr as JSON lines (once per process)."""
    root = logging.getLogger("tretten")
    if any(getattr(h, "_tretten", False) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler._tretten = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    root.propagate = False
    logging.getLogger("uvicorn.access").addFilter(RedactAccessLog())


def log_event(logger: logging.Logger, event: str, **fields: object) -> None:
    if logger.isEnabledFor(logging.INFO):
        logger.info(event, extra={"fields": fields})


# ---------------------------------------------------------------- headers

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",  # no inline script anywhere: htmx and app.js are files
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

SECURITY_HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
    "cross-origin-opener-policy": "same-origin",
}


def language_cookie_header(language: str, secure: bool) -> str:
    parts = [f"{LANGUAGE_COOKIE}={language}", "Path=/", f"Max-Age={COOKIE_MAX_AGE}", "HttpOnly", "SameSite=Lax"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


# ---------------------------------------------------------------- the middleware

CLIENT_CLOSED = 499  # the request's log line when its client left before the answer began (nginx's code)
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
        answered = False

        async def send_and_note(message: Message) -> None:
            nonlocal status, answered
            if message["type"] == "http.response.start":
                status, answered = message["status"], True
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
            if not answered:  # the client went away first (Starlette drops the answer): no 500 happened
                status = CLIENT_CLOSED
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
