"""Service errors; each carries a message fit to show a player or a script."""

from __future__ import annotations


class ServiceError(Exception):
    """Base class; `message` is English, `key` lets the web layer translate it."""

    def __init__(self, message: str, key: str | None = None, **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.key = key or message
        self.params = params


class NotFoundError(ServiceError):
    pass


class ForbiddenError(ServiceError):
    pass


class ConflictError(ServiceError):
    """The client acted on a position that is no longer current (another tab moved)."""


class InputError(ServiceError):
    """Malformed or illegal input: a bad deal, seed, move or preset."""


class RateLimitError(ServiceError):
    pass


class BusyError(ServiceError):
    """The solver has as many searches as it takes at once; ``retry_after`` seconds is a fair wait."""
