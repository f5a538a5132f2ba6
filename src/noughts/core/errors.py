"""The exceptions noughts raises.

Every error a user can cause derives from :class:`NoughtsError`, so a front end (the CLI, the
web API) can catch one type, print one clear line and exit with status 2 (or answer 4xx).
"""

from __future__ import annotations

__all__ = [
    "IllegalMoveError",
    "LimitExceeded",
    "NotationError",
    "NoughtsError",
    "SpecError",
    "TableError",
]


class NoughtsError(Exception):
    """Base class of every error noughts raises on bad input or exhausted budgets."""


class SpecError(NoughtsError, ValueError):
    """A game spec that does not parse, names an unknown game, or has impossible parameters.

    ``text`` and ``column`` (0-based) locate the problem when it has a place in the spec.
    """

    def __init__(self, message: str, text: str | None = None, column: int | None = None):
        self.message = message
        self.text = text
        self.column = column
        if text is not None and column is not None:
            message = f"{message}\n  {text}\n  {' ' * column}^"
        super().__init__(message)


class NotationError(NoughtsError, ValueError):
    """A move or position written in a form that cannot be read for this game."""


class IllegalMoveError(NoughtsError, ValueError):
    """A readable move that the rules forbid in this position (the message says why)."""


class LimitExceeded(NoughtsError):
    """A solve or search ran over its time or memory budget; the message says how far it got."""


class TableError(NoughtsError, ValueError):
    """A solved table (of a game that ends, or a retrograde one of a game that need not) that
    cannot be built, read or used (the message says why).
    """
