"""Who is asking: the browser's player from its signed cookie (a visitor until its first POST),
or the API's player from its bearer token; the cookies a response sets for them; and the CSRF
check: every state-changing browser POST carries a token bound to the player's identity."""

from __future__ import annotations

import hashlib
import hmac
import re

from fastapi import HTTPException, Request
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models import Player, new_public_id
from app.services.accounts import players as player_service
from app.settings import Settings
from app.web.http.middleware import COOKIE_MAX_AGE, check_new_player, language_cookie_header

PLAYER_COOKIE = "tretten_player"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
_HEX64 = re.compile(r"[0-9a-f]{64}")

STORED_PLAYER = "stored_player"  # session.info: the visitor this request stored
CSRF_CHECKED = "csrf_identity"  # request state: the identity the CSRF token was checked against
SAFE_METHODS = ("GET", "HEAD")


def queue_cookie(request: Request, header_value: str, *, first: bool = False) -> None:
    """Set a cookie on the response to this request (app.web.http.middleware sends queued cookies, in
    order: of two for one name the later wins)."""
    queued = request.scope.setdefault("state", {}).setdefault("set_cookies", [])
    if first:
        queued.insert(0, header_value)
    else:
        queued.append(header_value)


def cookie_identity(request: Request, settings: Settings) -> Identity | None:
    """The (player id, session generation) the signed cookie names (None: no cookie, or a
    forged one); no database."""
    return unsign_player(settings.secret_key, request.cookies.get(PLAYER_COOKIE))


def came_back(request: Request) -> bool:
    """Whether the browser brings a cookie of ours: a crawler (or a first visit by a link) does
    not, and its requests search nothing nor ask for a search later, which would take the
    players' solver slots and spare time. No database."""
    return cookie_identity(request, request.app.state.settings) is not None


def browser_player(request: Request, session: Session, settings: Settings) -> Player:
    """The browser's player, from its signed cookie.

    A first visit (no cookie, or a forged one) gets a visitor's id in a new cookie. A GET stores
    nothing: the player is stored by its first POST (so link-preview bots and prefetches make no
    rows), and its cookie then names a stored player. A cookie naming a stored player that is
    gone (deleted, pruned) or of an older session generation (its device was logged out) counts
    as no cookie; a POST with it is refused (403), as its CSRF token was made for that player."""
    identity = cookie_identity(request, settings)
    player = session.get(Player, identity[0]) if identity else None
    if identity is not None and player is not None and max(identity[1], 0) != player.session_generation:
        player, identity = None, None  # logged out: a revoked device link, or "log out other devices"
    elif identity is not None and player is None and identity[1] != VISITOR:
        identity = None  # a stored player that is no more
    if identity is None:
        identity = (new_public_id(), VISITOR)
        queue_cookie(request, player_cookie_header(settings.secret_key, identity[0], settings.secure_cookies,
                                                            identity[1]))
    if player is None:
        player = player_service.visitor(identity[0])
        if request.method not in SAFE_METHODS:
            check_new_player(request)  # 429 for a flood of new visitors' first POSTs (app/web/http/middleware.py)
            try:
                player = player_service.stored_visitor(session, identity[0])
                session.info[STORED_PLAYER] = player
            except IntegrityError:  # two first requests of one browser at once: the other stored it
                session.rollback()
                player = session.get(Player, identity[0]) or player
    if player.language:
        request.state.language = player.language
    generation = player.session_generation or 0
    request.state.page = {"player": player,
                          "csrf_token": csrf_token(settings.secret_key, player.id, generation)}
    checked = request.scope.get("state", {}).get(CSRF_CHECKED)
    if checked is not None and (checked[0], max(checked[1], 0)) != (player.id, generation):
        raise HTTPException(status_code=403, detail="csrf")
    end_read(session)
    return player


def end_read(session: Session) -> None:
    """The dependency's transaction ends here (a visitor it stored is committed with it), and
    its connection goes back to the pool while the route waits for a thread: connections (or
    SQLite's write lock) held by requests waiting for threads would otherwise let a crowd take
    every connection while the threads wait for one (500s after the pool's timeout;
    bench/solver_storm.py). A request that is then refused takes its visitor back
    (``forget_visitor``). The objects read stay loaded (sessions do not expire on commit)."""
    session.commit()


def forget_visitor(session: Session) -> None:
    """A refused request stores no player: the visitor it stored goes again, unless another
    request of the same browser has given it a game meanwhile."""
    stored = session.info.pop(STORED_PLAYER, None)
    if stored is not None:
        player_service.forget_visitor(session, stored.id)


def forget_blank_visitor(session: Session) -> None:
    """A request that stored nothing of its visitor's (no game, no setting of theirs) stores no
    player either: the visitor is stored with its first change."""
    stored = session.info.get(STORED_PLAYER)
    if stored is not None and player_service.forget_blank_visitor(session, stored.id):
        del session.info[STORED_PLAYER]


def stored_now(session: Session, player: Player) -> bool:
    """Whether this request stored the player (a visitor's first POST): no other device can
    hold its profile yet, nor a link to it."""
    return session.info.get(STORED_PLAYER) is player


def visitor_page(request: Request, settings: Settings) -> None:
    """What a page needs of its visitor (the CSRF token of its forms: the language switch) when
    no player was looked up, as for an error page: from the cookie alone, without the database."""
    if getattr(request.state, "page", None) is not None:
        return
    identity = cookie_identity(request, settings)
    if identity is None:
        identity = (new_public_id(), VISITOR)
        queue_cookie(request, player_cookie_header(settings.secret_key, identity[0], settings.secure_cookies,
                                                            identity[1]))
    request.state.page = {"player": None, "csrf_token": csrf_token(settings.secret_key, *identity)}


def api_player(session: Session, authorization: str | None) -> Player:
    scheme, _, token = (authorization or "").partition(" ")
    player = player_service.player_for_token(session, token.strip()) if scheme.lower() == "bearer" and token else None
    if player is None:
        raise HTTPException(
            status_code=401, detail="send Authorization: Bearer <token> (POST /api/players gives one)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    end_read(session)
    return player


def set_language_cookie(request: Request, language: str, settings: Settings) -> None:
    """Remember the language on this device too (checked already: the player's preferences
    take only the site's languages, ``players.update_preferences``)."""
    queue_cookie(request, language_cookie_header(language, settings.secure_cookies))


# ---------------------------------------------------------------- signed cookies and CSRF tokens

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


async def check_csrf(request: Request, settings: Settings) -> None:
    """Every state-changing browser POST carries the token: htmx as a header, forms as a field.

    The token is an HMAC of the cookie's identity, so it is checked without the database; the
    player dependency then confirms that identity is still valid."""
    presented = request.headers.get(CSRF_HEADER)
    if not presented:
        try:
            value = (await request.form()).get(CSRF_FIELD)  # parsed once: the route reads it again
        except HTTPException:
            raise
        except Exception as exc:  # malformed multipart, too many fields
            raise HTTPException(status_code=400, detail="There was an error parsing the body") from exc
        presented = value if isinstance(value, str) else None
    identity = cookie_identity(request, settings)
    if identity is None or not csrf_ok(settings.secret_key, identity, presented):
        raise HTTPException(status_code=403, detail="csrf")
    request.scope.setdefault("state", {})[CSRF_CHECKED] = identity
