"""Player cookies, CSRF tokens and the headers every response carries."""

from __future__ import annotations

import hashlib
import hmac
import re

from itsdangerous import BadSignature, URLSafeSerializer

PLAYER_COOKIE = "tretten_player"
LANGUAGE_COOKIE = "tretten_lang"
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
_HEX64 = re.compile(r"[0-9a-f]{64}")

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


def csrf_token(secret: str, player_id: str, generation: int = 0) -> str:
    # stateless: bound to the player and its session generation, so a token lifted from one
    # player's page is useless to another, and a logged-out device's pages post nothing. A
    # visitor's pages keep their token when its first POST stores the player (generation 0).
    message = f"csrf:{player_id}" if generation <= 0 else f"csrf:{player_id}:{generation}"
    return hmac.new(secret.encode(), message.encode(), hashlib.sha256).hexdigest()


def csrf_ok(secret: str, identity: Identity, presented: str | None) -> bool:
    """Whether ``presented`` is the identity's token; anything but 64 hex digits is refused
    before the comparison (compare_digest raises on non-ASCII text)."""
    if not presented or not _HEX64.fullmatch(presented):
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


def cleared_player_cookie_header(secure: bool) -> str:
    """Forgets the player cookie (a deleted profile), with the flags it was set with."""
    return f"{PLAYER_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + ("; Secure" if secure else "")


def language_cookie_header(language: str, secure: bool) -> str:
    parts = [f"{LANGUAGE_COOKIE}={language}", "Path=/", f"Max-Age={COOKIE_MAX_AGE}", "HttpOnly", "SameSite=Lax"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)
