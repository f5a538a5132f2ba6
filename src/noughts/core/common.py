"""Small value types shared by every game: players, outcomes and structured moves."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import TypeAlias

__all__ = ["Action", "Cell", "Move", "NotaktoMove", "Outcome", "Player", "Ring", "Slide", "Veto"]

Cell: TypeAlias = int
"""A cell of a board: an index into ``board.coords``."""

Action: TypeAlias = int
"""A move numbered in ``[0, game.num_actions)``, for learning code."""


class Player(IntEnum):
    """Who moves: ``FIRST`` makes the first move of the game, ``SECOND`` the reply.

    The marks a player draws are a matter of the rules (in Maker-Breaker with Breaker first,
    the first player draws ``o``); players themselves are named by their turn order.
    """

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Player:
        return _OTHER[self]

    def __str__(self) -> str:
        return self.name.lower()


_OTHER = (Player.SECOND, Player.FIRST)


class Outcome(Enum):
    """How a finished game ended. ``value`` is the word used in JSON and by the solver."""

    FIRST = "first"
    SECOND = "second"
    DRAW = "draw"

    @property
    def winner(self) -> Player | None:
        if self is Outcome.FIRST:
            return Player.FIRST
        if self is Outcome.SECOND:
            return Player.SECOND
        return None

    @staticmethod
    def win_for(player: Player) -> Outcome:
        return Outcome.FIRST if player is Player.FIRST else Outcome.SECOND

    def __str__(self) -> str:
        return "draw" if self is Outcome.DRAW else f"{self.value} player wins"


@dataclass(frozen=True, slots=True)
class Veto:
    """The veto step of ``veto(...)`` rules: forbid ``cell`` for the mover's next claim.

    ``cell=None`` passes (forbids nothing).
    """

    cell: Cell | None


@dataclass(frozen=True, slots=True, order=True)
class NotaktoMove:
    """An ``x`` on cell ``cell`` of board ``board`` (both 0-based) in ``notakto(...)``."""

    board: int
    cell: Cell


@dataclass(frozen=True, slots=True, order=True)
class Ring:
    """An Otrio ring: ``size`` 0 (small), 1 (medium) or 2 (large) on cell ``cell`` of 3x3."""

    cell: Cell
    size: int


@dataclass(frozen=True, slots=True, order=True)
class Slide:
    """A move of ``morris(...)``: the mover's mark on ``origin`` goes to the adjacent empty cell
    ``target`` (both 0-based cells). People write it ``a1-b2``.
    """

    origin: Cell
    target: Cell


Move: TypeAlias = Cell | Veto | NotaktoMove | Ring | Slide
"""Any move: a plain cell for claim games, a small frozen dataclass where a turn has more."""
