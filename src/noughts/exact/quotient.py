"""Notakto on many boards, solved by its misère quotient instead of by search.

A position of Notakto is a disjunctive sum of its live boards, so the quotient of one board's
positions (:mod:`noughts.cgt.notakto`) decides it by multiplying the boards' elements: the
player to move wins exactly when the product lies outside the P-portion. :class:`QuotientEngine`
answers :class:`~noughts.exact.api.ValueOracle`'s question that way, in microseconds on any
number of boards; it knows who wins and which moves win, not in how many plies, so its values
carry ``plies=None`` (a finished position keeps its 0). :func:`~noughts.exact.api.make_engine`
gives it for Notakto on more than :data:`SEARCH_BOARDS` boards, where the search takes seconds
and then minutes; on fewer boards the search answers, with exact distances, and the tests hold
the two to each other wherever the search finishes.

The quotient of a board is loaded from the versioned JSON files shipped beside the package
(:func:`noughts.cgt.saved.saved_quotient`: the 3x3 board's and the larger ones noughts has
computed), once per process; a board without one is computed (:func:`board_quotient`, within
:data:`QUOTIENT_SECONDS`) and kept, and a board whose quotient is not found in that time is left
to the search. Only boards of at most :data:`QUOTIENT_CELLS` cells are computed on their own
(3x3 takes a fraction of a second); ``noughts quotient`` computes larger boards' quotients under
a budget of the user's choosing (and ``--save`` writes them).

>>> import noughts
>>> engine = QuotientEngine(noughts.game("notakto(boards=16)"))
>>> engine.value(engine.game.start()).describe(engine.game)
'second player wins'
"""

from __future__ import annotations

from functools import lru_cache
from typing import cast

from noughts.cgt import NotaktoQuotient, QuotientStopped, notakto_quotient
from noughts.cgt.saved import saved_quotient
from noughts.core import Board, Budget, Game, Move, NotaktoGame, NoughtsError, Outcome, Position
from noughts.core.values import Value
from noughts.exact.reference import terminal_value

__all__ = [
    "QUOTIENT_CELLS",
    "QUOTIENT_SECONDS",
    "SEARCH_BOARDS",
    "QuotientEngine",
    "board_quotient",
    "quotient_engine",
]

SEARCH_BOARDS = 2
"""Notakto on at most this many boards is solved by search (exact distances in milliseconds);
on more, by the quotient."""

QUOTIENT_SECONDS = 2.0
"""The time a board's quotient may take before the search is left to answer alone."""

QUOTIENT_CELLS = 12
"""The largest boards whose quotient :func:`make_engine` tries on its own."""

QUOTIENT_MEMORY = 512 * 2**20
"""The memory a board's quotient may take."""


@lru_cache(maxsize=16)
def board_quotient(board: Board, misere: bool) -> NotaktoQuotient | None:
    """The quotient of Notakto on ``board``: the saved one if noughts ships it, else computed
    once and kept; None if it is not found within :data:`QUOTIENT_SECONDS`.
    """
    saved = saved_quotient(board, misere)
    if saved is not None:
        return saved
    try:
        return notakto_quotient(board, misere, budget=Budget(QUOTIENT_SECONDS, QUOTIENT_MEMORY))
    except QuotientStopped:
        return None


class QuotientEngine:
    """Values of Notakto positions from the board's misère (or normal-play) quotient."""

    engine = "quotient"
    """The engine's name in solve results (:func:`noughts.exact.api.engine_name`)."""

    nodes = 0  # nothing is searched

    def __init__(self, game: Game, quotient: NotaktoQuotient | None = None):
        if not game.board_sum:
            raise NoughtsError(f"the quotient engine plays Notakto, not {game}")
        game = cast(NotaktoGame, game)
        if quotient is None:
            quotient = board_quotient(game.board, game.misere)
            if quotient is None:
                raise NoughtsError(
                    f"the quotient of {game.board.spec} is not known within {QUOTIENT_SECONDS:g} s"
                )
        self.game: NotaktoGame = game
        self.quotient: NotaktoQuotient = quotient

    def value(self, position: Position) -> Value:
        """Who wins ``position`` (distance unknown, except at the end of the game)."""
        if position.game != self.game:
            raise NoughtsError(f"the position belongs to {position.game}, not {self.game}")
        if position.is_terminal():
            return terminal_value(position)
        return Value(Outcome.win_for(self.quotient.winner(position)), None)

    def winning_moves(self, position: Position) -> list[Move]:
        """The moves that win, in ``legal_moves()`` order (none when the mover loses)."""
        return self.quotient.winning_moves(position)

    def describe(self) -> str:
        """E.g. ``the misère quotient of notakto (18 elements)``."""
        play = "misère" if self.game.misere else "normal-play"
        return f"the {play} quotient of {self.quotient.spec} ({len(self.quotient.quotient.monoid)} elements)"


def quotient_engine(game: Game) -> QuotientEngine | None:
    """The quotient engine for Notakto on more than :data:`SEARCH_BOARDS` boards whose board's
    quotient is saved, or has at most :data:`QUOTIENT_CELLS` cells and is found; None otherwise
    (the search answers).
    """
    if not game.board_sum:
        return None
    game = cast(NotaktoGame, game)
    if game.boards <= SEARCH_BOARDS:
        return None
    if game.board.num_cells > QUOTIENT_CELLS and saved_quotient(game.board, game.misere) is None:
        return None
    quotient = board_quotient(game.board, game.misere)
    return None if quotient is None else QuotientEngine(game, quotient)
