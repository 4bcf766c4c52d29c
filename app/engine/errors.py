"""Errors raised by the engine. All are ``ValueError`` subclasses so callers can catch broadly."""


class NotationError(ValueError):
    """Text that does not follow the notation (syntax)."""


class InvalidDealError(NotationError):
    """A deal string that is not a full, valid deck for its game.

    The message is English for scripts; ``reason`` names the fault and ``params`` its parts
    (numbers and card codes), so that a page can word it in its own language."""

    def __init__(self, message: str, reason: str | None = None, **params: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = params


class InvalidMoveError(NotationError):
    """A move token that cannot be parsed for this game."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in this position."""


class InvalidRulesError(ValueError):
    """A rule option that the game does not know, or a value it does not accept."""
