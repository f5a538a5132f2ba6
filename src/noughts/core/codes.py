"""The integer codes every claim kernel shares: which rules it plays (:class:`Rule`) and how a
claim left the game (:class:`Result`).

They are declared once, here, beside the rules they stand for, so a kernel, its Python driver
and its reference agree on them by construction. A claim game declares its code as
``game.claim_rule`` (``None`` for games the claim kernels do not play: veto, Notakto, Otrio).
``Result`` codes name the winner by player index, so a kernel returns ``mover`` for "the
mover wins" and ``1 - mover`` for "the mover loses".

>>> Result.of(Outcome.SECOND), Result.SECOND.outcome()
(<Result.SECOND: 1>, <Outcome.SECOND: 'second'>)
>>> [Result.FIRST.first_view(), Result.SECOND.first_view(), Result.DRAW.first_view()]
[1, -1, 0]
"""

from __future__ import annotations

from enum import IntEnum

from noughts.core.common import Outcome

__all__ = ["Result", "Rule"]


class Rule(IntEnum):
    """The outcome rule of a claim game (:mod:`noughts.core.claim`), as kernels see it."""

    STANDARD = 0
    MISERE = 1
    MAKER_BREAKER = 2
    CUMULATIVE = 3


class Result(IntEnum):
    """A claim's effect on the game: still running, or who won (by player index), or a draw."""

    RUNNING = -1
    FIRST = 0
    SECOND = 1
    DRAW = 2

    @staticmethod
    def of(outcome: Outcome | None) -> Result:
        """The code of a position's ``outcome()`` (None: running)."""
        if outcome is None:
            return Result.RUNNING
        return _OF_OUTCOME[outcome]

    def outcome(self) -> Outcome | None:
        """The :class:`Outcome` this code stands for (None while running)."""
        return _TO_OUTCOME[self]

    def first_view(self) -> int:
        """The result from the first player's view: 1 won, -1 lost, 0 drawn (or running)."""
        return _FIRST_VIEW[self]


_OF_OUTCOME = {Outcome.FIRST: Result.FIRST, Outcome.SECOND: Result.SECOND, Outcome.DRAW: Result.DRAW}
_TO_OUTCOME = {
    Result.RUNNING: None,
    Result.FIRST: Outcome.FIRST,
    Result.SECOND: Outcome.SECOND,
    Result.DRAW: Outcome.DRAW,
}
_FIRST_VIEW = {Result.RUNNING: 0, Result.FIRST: 1, Result.SECOND: -1, Result.DRAW: 0}
