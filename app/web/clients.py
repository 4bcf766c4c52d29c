"""Who is asking: the client's address, and the limits on the players and games it may make.

Behind a reverse proxy every peer is the proxy. With TRUSTED_PROXIES set, uvicorn's
ProxyHeadersMiddleware (installed here, in the app, so every way of serving it agrees) takes
the client from X-Forwarded-For when the peer is one of them: the right-most address in it
that is not a trusted proxy, since each proxy appends the address it saw. The scheme comes
from X-Forwarded-Proto the same way (share and device links are absolute). From any other
peer both headers are ignored.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.services.ratelimit import Arrivals
from app.settings import Settings


def install(app: FastAPI, settings: Settings) -> None:
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
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))


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
