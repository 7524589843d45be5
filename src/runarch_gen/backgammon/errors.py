"""The backgammon package's errors: bad syntax and an illegal play are different errors
(python-chess's ``InvalidMoveError`` and ``IllegalMoveError``)."""

from __future__ import annotations

from runarch_gen.errors import InputError, ParseError
from runarch_gen.play.game import IllegalActionError

__all__ = ["BackgammonError", "IllegalPlayError", "InvalidIdError", "NotationError"]


class BackgammonError(InputError):
    """Base of every error the backgammon package raises on purpose."""


class NotationError(ParseError, BackgammonError):
    """Text that is not backgammon notation (``24/18``, ``bar/22``, ``6/off``, ``31``).

    >>> str(NotationError("expected FROM/TO, not 'x'", source="--play"))
    "--play: expected FROM/TO, not 'x'"
    """


class InvalidIdError(ParseError, BackgammonError):
    """A gnubg Position ID or Match ID that does not decode to a position or a match state."""


class IllegalPlayError(IllegalActionError, BackgammonError):
    """A well-formed play that the rules do not allow here; the message says why."""
