"""Errors raised by the engine. All are ``ValueError`` subclasses so callers can catch broadly."""


class NotationError(ValueError):
    """Text that does not follow the notation (syntax)."""


class InvalidDealError(NotationError):
    """A deal string that is not a full, valid deck for its game."""


class InvalidMoveError(NotationError):
    """A move token that cannot be parsed for this game."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in this position."""


class InvalidRulesError(ValueError):
    """A rule option that the game does not know, or a value it does not accept."""
