"""noughts: a laboratory for the tic-tac-toe family of games (positional games).

Play them, solve them exactly, prove results about them, and train and grade learning agents
on them. Start with :func:`game`, then :func:`solve` and :func:`count`::

    >>> import noughts
    >>> g = noughts.game("misere(mnk(3,3,3))")
    >>> p = g.start().play(4)
    >>> p.text()
    '.../.x./...'

``import noughts`` loads the game core only: :func:`solve` and :func:`count` (and the engines
and kernels under them) are imported the first time they are used.
"""

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from noughts.exact.count import count
    from noughts.solving import solve

__version__ = "0.1.0"

_LAZY = {"solve": "noughts.solving", "count": "noughts.exact.count"}
"""Names whose modules load on first use: the exact engines, NumPy's kernels and numba's."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'noughts' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups find it directly
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
