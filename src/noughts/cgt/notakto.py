"""Notakto's quotient: perfect play on any number of boards by multiplying the boards' elements.

A position of Notakto on several copies of a board is the disjunctive sum of its live boards,
so the quotient of the board's single-board positions (:mod:`noughts.cgt.quotient`) decides it:
the player to move loses exactly when the product of the boards' elements lies in the
P-portion, and a move wins exactly when it makes that product a P-element. Plambeck and
Whitehead ("The Secrets of Notakto: Winning at X-only Tic-Tac-Toe", 2013) give the 3x3 board's
quotient: 18 elements, four of them P; :func:`notakto_quotient` computes it (and those of other
boards) from the rules. With ``misere=False`` it is the normal-play game (completing the last
board wins), whose quotient is the group of Sprague-Grundy values.

>>> import noughts
>>> q = notakto_quotient(noughts.board("mnk(3,3,3)"))
>>> len(q.quotient.monoid), len(q.quotient.p_portion)
(18, 4)
>>> g = noughts.game("notakto(boards=16)")
>>> q.is_p(g.start()), q.winning_moves(g.start())  # sixteen empty boards: the first player loses
(True, [])
>>> one = noughts.game("notakto")
>>> [one.format_move(m) for m in q.winning_moves(one.start())]  # on one board, only the centre
['b2']
>>> [b.winner for b in q.empty_boards().outcomes]  # one, two, three, four empty boards
['first', 'second', 'first', 'second']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from noughts.cgt.positions import ZERO, NotaktoPositions, notakto_positions
from noughts.cgt.quotient import Quotient, QuotientStopped, misere_quotient
from noughts.core import (
    Board,
    Budget,
    LimitExceeded,
    Move,
    NotaktoGame,
    NotaktoMove,
    NoughtsError,
    Player,
    Position,
)

__all__ = ["EmptyBoards", "NotaktoQuotient", "notakto_quotient", "one_board_spec"]

_LOOKUP_CELLS = 20
"""Boards of at most this many cells get a table of every mask's element (2^cells entries)."""


@dataclass(frozen=True)
class BoardsOutcome:
    """Who wins ``boards`` empty boards, the first player moving first."""

    boards: int
    winner: str  # "first" or "second"


@dataclass(frozen=True)
class EmptyBoards:
    """The outcome of N empty boards for every N: the element ``e`` of one empty board has powers
    ``e^N`` that repeat with ``period`` from ``N = index``, so ``outcomes`` (N = 1 to
    ``index + period``, or to ``period`` when ``index`` is 0) say it for every N.
    """

    element: str
    index: int
    period: int
    outcomes: tuple[BoardsOutcome, ...]

    def winner(self, boards: int) -> str:
        """Who wins ``boards`` empty boards (any number from 1)."""
        if boards < 1:
            raise NoughtsError("a game has at least one board")
        last = len(self.outcomes)
        if boards > last:
            boards = self.index + (boards - self.index) % self.period
            if boards < 1:
                boards += self.period
        return self.outcomes[boards - 1].winner

    def rule(self) -> str:
        """The pattern in words, e.g. ``N = 1, 3, 5, ...: first; N = 2, 4, 6, ...: second``."""
        start = max(self.index, 1)
        parts = []
        for b in self.outcomes:
            if b.boards < start:
                parts.append(f"N = {b.boards}: {b.winner}")
            elif b.boards < start + self.period:
                seq = ", ".join(str(b.boards + k * self.period) for k in range(3))
                parts.append(f"N = {seq}, ...: {b.winner}")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "element": self.element,
            "index": self.index,
            "period": self.period,
            "outcomes": [{"boards": b.boards, "winner": b.winner} for b in self.outcomes],
            "rule": self.rule(),
        }


@dataclass(frozen=True, eq=False)
class NotaktoQuotient:
    """The quotient of one Notakto board's positions, and play from it on any number of boards."""

    board: Board
    misere: bool
    positions: NotaktoPositions
    quotient: Quotient

    @property
    def spec(self) -> str:
        """The one-board game, e.g. ``notakto`` or ``notakto(mnk(4,4,3),misere=false)``."""
        return one_board_spec(self.board, self.misere)

    # -- elements of boards and positions -----------------------------------------------------------

    @cached_property
    def _table(self) -> npt.NDArray[np.int32] | None:
        """Every mask's element (dead boards: the identity), for small boards."""
        n = self.board.num_cells
        if n > _LOOKUP_CELLS:
            return None
        canon = self.positions._canon
        masks = np.arange(1 << n, dtype=np.uint64)
        keys = canon.canonical(masks)
        sorted_masks, order = self.positions._lookup
        where = np.searchsorted(sorted_masks, keys)
        where = np.minimum(where, len(sorted_masks) - 1)
        found = sorted_masks[where] == keys
        out = np.zeros(1 << n, dtype=np.int32)
        out[found] = self.quotient.images[order[where[found]]]
        out[canon.is_dead(masks)] = 0
        return out

    def board_element(self, mask: int) -> int:
        """The element of one board holding ``mask`` (a dead board: the identity)."""
        table = self._table
        if table is not None:
            return int(table[mask])
        j = self.positions.index_of(mask)
        return 0 if j == ZERO else int(self.quotient.images[j])

    def _check(self, position: Position) -> NotaktoGame:
        game = position.game
        if not game.board_sum or game.board != self.board or cast(NotaktoGame, game).misere != self.misere:
            raise NoughtsError(f"this is the quotient of {self.spec}, not of {game}")
        return cast(NotaktoGame, game)

    def element(self, position: Position) -> int:
        """The product of the elements of ``position``'s boards."""
        game = self._check(position)
        t = self.quotient.monoid.table
        e = 0
        for mask in game.board_marks(position):
            e = int(t[e, self.board_element(mask)])
        return e

    def is_p(self, position: Position) -> bool:
        """Whether the player to move in ``position`` loses under perfect play."""
        return self.quotient.is_p(self.element(position))

    def winner(self, position: Position) -> Player:
        """Who wins ``position`` under perfect play."""
        return position.to_move.other if self.is_p(position) else position.to_move

    def winning_moves(self, position: Position) -> list[Move]:
        """The moves that win (leave the opponent a P-position), in ``legal_moves()`` order;
        none when the player to move loses.
        """
        game = self._check(position)
        if position.is_terminal():
            return []
        t = self.quotient.monoid.table
        marks = game.board_marks(position)
        elems = [self.board_element(m) for m in marks]
        # the product of every board but one, from prefix and suffix products
        prefix = [0]
        for x in elems:
            prefix.append(int(t[prefix[-1], x]))
        suffix = [0]
        for x in reversed(elems):
            suffix.append(int(t[suffix[-1], x]))
        suffix.reverse()
        in_p = self.quotient.in_p
        moves: list[Move] = []
        for move in position.legal_moves():
            assert isinstance(move, NotaktoMove)
            b = move.board
            rest = int(t[prefix[b], suffix[b + 1]])
            after = self.board_element(marks[b] | 1 << move.cell)
            if in_p[t[rest, after]]:
                moves.append(move)
        return moves

    # -- the story for people -------------------------------------------------------------------------

    def empty_boards(self) -> EmptyBoards:
        """The outcome of N empty boards for every N."""
        q = self.quotient
        e = int(q.images[len(self.positions) - 1])  # the empty board is the last game
        index, period = q.monoid.index_period(e)
        last = index + period if index else period
        outcomes = tuple(
            BoardsOutcome(k, "second" if q.is_p(q.monoid.power(e, k)) else "first")
            for k in range(1, last + 1)
        )
        return EmptyBoards(q.name(e), index, period, outcomes)

    def generator_positions(self) -> list[tuple[str, str]]:
        """Each generator's name with a single-board position of least height that has it."""
        q = self.quotient
        out = []
        for name, g in zip(q.presentation.names, q.presentation.generators, strict=True):
            games = np.nonzero(q.images == g)[0]
            j = int(games[np.argmin(self.positions.heights[games])])
            out.append((name, self.positions.text(j)))
        return out

    def to_json(self, positions: bool = True) -> dict[str, Any]:
        """The ``quotient --json`` document (its keys: ``docs/solving.md``, the misère quotients)."""
        q = self.quotient
        pres = q.presentation
        doc: dict[str, Any] = {
            "game": self.spec,
            "board": self.board.spec,
            "play": "misere" if self.misere else "normal",
            "complete": True,
            "positions": len(self.positions),
            "size": len(q.monoid),
            "p_portion": [q.name(x) for x in q.p_portion],
            "generators": [{"name": n, "position": p} for n, p in self.generator_positions()],
            "relations": [[pres.format(u), pres.format(v)] for u, v in pres.relations],
            "elements": [{"name": q.name(x), "p": q.is_p(x)} for x in range(len(q.monoid))],
            "table": q.monoid.table.tolist(),
            "empty_boards": self.empty_boards().to_json(),
            "expansions": q.expansions,
            "candidates": q.candidates,
            "seconds": round(q.seconds, 6),
        }
        if positions:
            doc["single_boards"] = [
                {"position": self.positions.text(j), "element": q.name(int(q.images[j]))}
                for j in range(len(self.positions))
            ]
        return doc


def one_board_spec(board: Board, misere: bool = True) -> str:
    """The spec of one-board Notakto on ``board``: ``notakto``, ``notakto(mnk(4,4,3))``..."""
    args = ([] if board.spec == "mnk(3,3,3)" else [board.spec]) + ([] if misere else ["misere=false"])
    return f"notakto({','.join(args)})" if args else "notakto"


def notakto_quotient(
    board: Board,
    misere: bool = True,
    *,
    budget: Budget | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> NotaktoQuotient:
    """The quotient of ``board``'s single-board Notakto positions (misère play, or normal play
    with ``misere=False``). ``budget`` bounds listing the positions and building the quotient;
    past it, :class:`~noughts.cgt.quotient.QuotientStopped` says how far it got.
    ``progress(done, total, size)`` follows the positions placed.
    """
    if budget is None:
        budget = Budget(max_seconds=None, max_memory=None)
    try:
        positions = notakto_positions(board, budget)
    except LimitExceeded as e:
        raise QuotientStopped(
            f"{e} (while listing the single-board positions, before the quotient)",
            {"reason": "budget", "positions": None, "positions_placed": 0, "size": None},
        ) from None
    quotient = misere_quotient(positions, misere=misere, budget=budget, progress=progress)
    return NotaktoQuotient(board, misere, positions, quotient)
