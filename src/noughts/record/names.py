"""The format's name and version, and the result markers that end a game's moves."""

from __future__ import annotations

from noughts.core import Outcome

__all__ = ["FORMAT", "MARKERS", "TERMINATORS", "VERSION"]

FORMAT = "noughts-record"
"""The format's name, in the ``Format`` tag (``noughts-record 1``) and JSON's ``format``."""

VERSION = 1
"""The version this noughts writes; records of a newer version are refused."""

TERMINATORS: dict[str, Outcome | None] = {
    "1-0": Outcome.FIRST,
    "0-1": Outcome.SECOND,
    "1/2-1/2": Outcome.DRAW,
    "*": None,
}
"""PGN's game termination markers, which end a game's moves: the first player won, the second
won, a draw, not finished."""

MARKERS: dict[Outcome | None, str] = {outcome: word for word, outcome in TERMINATORS.items()}
"""The marker of each result."""
