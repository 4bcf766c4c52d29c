"""CSRF: every state-changing browser POST carries a token bound to the player's identity."""

from __future__ import annotations

from fastapi import HTTPException, Request

from app.settings import Settings

from . import security
from .identity import CSRF_CHECKED, cookie_identity


async def check_csrf(request: Request, settings: Settings) -> None:
    """Every state-changing browser POST carries the token: htmx as a header, forms as a field.

    The token is an HMAC of the cookie's identity, so it is checked without the database; the
    player dependency then confirms that identity is still valid."""
    presented = request.headers.get(security.CSRF_HEADER)
    if not presented:
        try:
            value = (await request.form()).get(security.CSRF_FIELD)  # parsed once: the route reads it again
        except HTTPException:
            raise
        except Exception as exc:  # malformed multipart, too many fields
            raise HTTPException(status_code=400, detail="There was an error parsing the body") from exc
        presented = value if isinstance(value, str) else None
    identity = cookie_identity(request, settings)
    if identity is None or not security.csrf_ok(settings.secret_key, identity, presented):
        raise HTTPException(status_code=403, detail="csrf")
    request.scope.setdefault("state", {})[CSRF_CHECKED] = identity
