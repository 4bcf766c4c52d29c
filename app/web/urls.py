"""Absolute URLs for what leaves the site: link-preview tags and shared results.

They start from the configured public base URL (PUBLIC_URL) when there is one: behind a proxy
the request's own host may be an internal name that a chat app's preview bot cannot reach.
"""

from __future__ import annotations

from fastapi import Request


def public_base(request: Request) -> str:
    """``https://tretten.example``: PUBLIC_URL, else the request's own scheme and host."""
    return request.app.state.settings.public_url or str(request.base_url).rstrip("/")


def absolute(request: Request, path: str) -> str:
    """The public URL of a root-relative ``path`` ("/deal/pyramid/123")."""
    return public_base(request) + path
