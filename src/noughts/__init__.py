"""noughts: a laboratory for the tic-tac-toe family of games (positional games).

Play them, solve them exactly, prove results about them, and train and grade learning agents
on them. Start with :func:`game`, then :func:`solve` and :func:`count`::

    >>> import noughts
    >>> g = noughts.game("misere(mnk(3,3,3))")
    >>> p = g.start().play(4)
    >>> p.text()
    '.../.x./...'
"""

from noughts.core import (
    Board,
    Game,
    IllegalMoveError,
    LimitExceeded,
    NotaktoMove,
    NotationError,
    NoughtsError,
    Outcome,
    Player,
    Position,
    Ring,
    SpecError,
    Veto,
    board,
    game,
    hypercube,
    mnk,
    shape,
)
from noughts.exact.api import solve
from noughts.exact.count import count

__version__ = "0.1.0"

__all__ = [
    "Board",
    "Game",
    "IllegalMoveError",
    "LimitExceeded",
    "NotaktoMove",
    "NotationError",
    "NoughtsError",
    "Outcome",
    "Player",
    "Position",
    "Ring",
    "SpecError",
    "Veto",
    "__version__",
    "board",
    "count",
    "game",
    "hypercube",
    "mnk",
    "shape",
    "solve",
]
