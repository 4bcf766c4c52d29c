"""Player cookies, CSRF tokens and the headers every response carries."""

from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache

from itsdangerous import BadSignature, URLSafeSerializer
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PLAYER_COOKIE = "tretten_player"
LANGUAGE_COOKIE = "tretten_lang"
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"

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


def _serializer(secret: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret, salt="tretten-player")


Identity = tuple[str, int]  # (player id, session generation): what the signed cookie says
VISITOR = -1  # the generation of a browser's id before its player is stored (its first POST)


def sign_player(secret: str, player_id: str, generation: int = 0) -> str:
    """The cookie's value; generation 0 is the bare id (as every cookie made before generations)."""
    return _serializer(secret).dumps([player_id, generation] if generation else player_id)


def unsign_player(secret: str, value: str | None) -> Identity | None:
    """The identity a player cookie names, or None (no cookie, or not signed with our key)."""
    if not value or len(value) > 200:
        return None
    return _unsign_player(secret, value)


@lru_cache(maxsize=4096)  # every request checks its cookie: an HMAC and a JSON parse, done once per cookie
def _unsign_player(secret: str, value: str) -> Identity | None:
    try:
        payload = _serializer(secret).loads(value)
    except BadSignature:
        return None
    if isinstance(payload, str):  # generation 0 (and every cookie made before generations)
        return payload, 0
    if (isinstance(payload, list) and len(payload) == 2 and isinstance(payload[0], str)
            and isinstance(payload[1], int)):
        return payload[0], payload[1]
    return None


@lru_cache(maxsize=4096)  # asked twice per browser request (checked, and put in the page)
def csrf_token(secret: str, player_id: str, generation: int = 0) -> str:
    # stateless: bound to the player and its session generation, so a token lifted from one
    # player's page is useless to another, and a logged-out device's pages post nothing. A
    # visitor's pages keep their token when its first POST stores the player (generation 0).
    message = f"csrf:{player_id}" if generation <= 0 else f"csrf:{player_id}:{generation}"
    return hmac.new(secret.encode(), message.encode(), hashlib.sha256).hexdigest()


def csrf_ok(secret: str, identity: Identity, presented: str | None) -> bool:
    if not presented:
        return False
    return hmac.compare_digest(csrf_token(secret, *identity), presented)


def player_cookie_header(secret: str, player_id: str, secure: bool, generation: int = 0) -> str:
    parts = [
        f"{PLAYER_COOKIE}={sign_player(secret, player_id, generation)}",
        "Path=/",
        f"Max-Age={COOKIE_MAX_AGE}",
        "HttpOnly",
        "SameSite=Lax",
    ]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


def language_cookie_header(language: str, secure: bool) -> str:
    parts = [f"{LANGUAGE_COOKIE}={language}", "Path=/", f"Max-Age={COOKIE_MAX_AGE}", "HttpOnly", "SameSite=Lax"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


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
