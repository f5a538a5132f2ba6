"""The plain references that hold the quotients to the truth: outcomes of sums by search.

:func:`sum_outcome` decides a sum of Notakto boards by a memoised search over multisets of
boards, straight from the rules: a move draws an ``x`` on a live board (the board's cells and
lines from :class:`~noughts.core.Board`, deadness from
:meth:`~noughts.core.NotaktoGame.is_dead`); a dead board leaves the sum; the empty sum ends the
game, won by the player to move under misère play and lost under normal play. Boards are keyed
by their least symmetric image only to share the memo; nothing here uses the position lists or
the quotient code, so a quotient that agrees with it on every small sum has been checked
against an independent computation. :func:`grundy_values` gives the Sprague-Grundy value of
each single board by the mex rule.

>>> import noughts
>>> ref = SumReference(noughts.board("mnk(3,3,3)"))
>>> ref.next_player_wins([0]), ref.next_player_wins([0, 0])  # one, two empty boards
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable

from noughts.core import Board, NotaktoGame

__all__ = ["SumReference", "grundy_values"]


class SumReference:
    """Outcomes of sums of boards of one Notakto ``board`` by memoised search (see the module
    docstring). The memo is kept, so many questions about one board share it.
    """

    def __init__(self, board: Board, misere: bool = True):
        self.board = board
        self.misere = misere
        self._game = NotaktoGame(board)
        self._perms = self._game.symmetries
        self._key: dict[int, int] = {}
        self._memo: dict[tuple[int, ...], bool] = {}

    def _canonical(self, mask: int) -> int:
        key = self._key.get(mask)
        if key is None:
            t = self.board.transform_mask
            key = self._key[mask] = min(t(mask, p) for p in self._perms)
        return key

    def _children(self, mask: int) -> set[int]:
        """The boards one move makes from ``mask``: their keys, or -1 for a dead board."""
        out = set()
        for c in range(self.board.num_cells):
            if not mask >> c & 1:
                child = mask | 1 << c
                out.add(-1 if self._game.is_dead(child) else self._canonical(child))
        return out

    def next_player_wins(self, masks: Iterable[int]) -> bool:
        """Whether the player to move wins the sum of the live boards ``masks`` (dead ones are
        dropped).
        """
        boards = tuple(sorted(self._canonical(m) for m in masks if not self._game.is_dead(m)))
        return self._wins(boards)

    def _wins(self, boards: tuple[int, ...]) -> bool:
        # an explicit stack: a position is decided once all its children are
        memo = self._memo
        stack = [boards]
        while stack:
            top = stack[-1]
            if top in memo:
                stack.pop()
                continue
            if not top:
                memo[top] = self.misere
                stack.pop()
                continue
            pending = []
            wins = False
            for i, mask in enumerate(top):
                if i and top[i - 1] == mask:
                    continue
                rest = top[:i] + top[i + 1 :]
                for child in self._children(mask):
                    nxt = rest if child < 0 else tuple(sorted(rest + (child,)))
                    known = memo.get(nxt)
                    if known is None:
                        pending.append(nxt)
                    elif not known:
                        wins = True
                        break
                if wins:
                    break
            if wins:
                memo[top] = True
                stack.pop()
            elif pending:
                stack.extend(pending)
            else:
                memo[top] = False
                stack.pop()
        return memo[boards]


def grundy_values(board: Board) -> dict[int, int]:
    """The Sprague-Grundy value of every live single-board position of Notakto on ``board``
    (keyed by the least symmetric image of its mask), by the mex rule: a dead board is the zero
    game, of value 0.
    """
    ref = SumReference(board, misere=False)
    values: dict[int, int] = {}
    order: list[int] = []
    seen = {0}
    frontier = [0]
    while frontier:  # every live position, from the empty board
        order.extend(frontier)
        nxt = []
        for mask in frontier:
            for child in ref._children(mask):
                if child >= 0 and child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    for mask in reversed(order):  # fullest first: children are decided before their parents
        reached = {0 if child < 0 else values[child] for child in ref._children(mask)}
        g = 0
        while g in reached:
            g += 1
        values[mask] = g
    return values
