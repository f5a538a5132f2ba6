"""The residual hypergraph of a position: the lines a breaking side must still block.

In the language of 002 §3.1, a position of a claim game leaves a hypergraph whose vertices are
the free (unclaimed) cells and whose edges are the *survivors*, the winning lines the breaking
side has not touched, each cut down to its free cells. A pairing strategy for the breaking side
exists exactly when every survivor can be given two of its free cells, no cell used twice
(:mod:`noughts.pairing.matching`).

Which side breaks:

* ``maker_breaker(...)``: Breaker, always.
* standard rules and ``cumulative(...)``: either player can play the breaker of the other's
  lines (a pairing then stops the other from owning a line). By default the breaker is the
  second player, as Breaker is in Maker-Breaker games with Maker first (the n x n pairings of
  004 §2.3-2.4 are the second player's); pass ``breaker=`` (``--breaker first``) to make it
  the first player, e.g. for 000's Player 1 pairing.
* every other rules set (misère, veto, Notakto, Otrio) has no breaking side: ``NoughtsError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from noughts.core import Game, NoughtsError, Player, Position, Rule
from noughts.core.board import Board

__all__ = ["Residual", "breaking_side", "check_breaker", "residual"]


def check_breaker(game: Game, breaker: Player | None) -> Player:
    """The breaking side of ``game`` (see the module docstring); ``NoughtsError`` if the
    rules have none or ``breaker`` cannot break under them.
    """
    rule = game.claim_rule
    if rule is Rule.MAKER_BREAKER:
        assert game.maker is not None
        side = game.maker.other
        if breaker is not None and breaker is not side:
            raise NoughtsError(
                f"in {game} the breaking side is Breaker, the {side.name.lower()} player, "
                f"not the {breaker.name.lower()} player"
            )
        return side
    if rule in (Rule.STANDARD, Rule.CUMULATIVE):  # claim games, so not Otrio (ring quotas)
        return Player.SECOND if breaker is None else breaker
    raise NoughtsError(
        f"{game} has no breaking side: pairings and potentials need standard, maker_breaker or "
        "cumulative rules on one board"
    )


def breaking_side(position: Position, breaker: Player | None = None) -> Player:
    """The player whose pairing blocks the other's lines in ``position`` (module docstring)."""
    return check_breaker(position.game, breaker)


@dataclass(frozen=True)
class Residual:
    """The survivors of a position and their free cells (002 §3.1).

    ``survivors`` are line indices into ``board.lines``; ``edges[i]`` are the free cells of
    survivor ``survivors[i]``, in order along the line; ``free_cells`` are every unclaimed
    cell, in increasing order.
    """

    position: Position
    breaker: Player
    survivors: tuple[int, ...]
    edges: tuple[tuple[int, ...], ...]
    free_cells: tuple[int, ...]

    @property
    def board(self) -> Board:
        """The board the position is played on."""
        return self.position.game.board

    @property
    def maker(self) -> Player:
        """The side whose lines the breaker blocks."""
        return self.breaker.other

    @cached_property
    def incidence(self) -> npt.NDArray[np.bool_]:
        """Survivors x free cells: true where the cell lies on the survivor."""
        index = {c: j for j, c in enumerate(self.free_cells)}
        out = np.zeros((len(self.survivors), len(self.free_cells)), dtype=bool)
        for i, edge in enumerate(self.edges):
            out[i, [index[c] for c in edge]] = True
        return out

    def line_names(self, line: int) -> str:
        """A line as its cells in notation, e.g. ``a1-b2-c3``."""
        return "-".join(self.board.cell_name(c) for c in self.board.lines[line])


def residual(position: Position, breaker: Player | None = None) -> Residual:
    """The residual hypergraph of ``position`` for its breaking side.

    >>> import noughts
    >>> r = residual(noughts.game("maker_breaker(mnk(4,4,4))").parse("..../.x../..o./...."))
    >>> len(r.survivors), len(r.free_cells)          # 002 §3.1: 7 survivors, 14 free cells
    (7, 14)
    """
    game = position.game
    side = check_breaker(game, breaker)
    board = game.board
    blocked = position.owned(side)
    taken = position.occupied()
    survivors: list[int] = []
    edges: list[tuple[int, ...]] = []
    for j, mask in enumerate(board.line_masks):
        if mask & blocked:
            continue
        survivors.append(j)
        edges.append(tuple(c for c in board.lines[j] if not taken >> c & 1))
    free = tuple(board.cells_in(board.full_mask & ~taken))
    return Residual(position, side, tuple(survivors), tuple(edges), free)
