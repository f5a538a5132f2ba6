"""A claim judged from the number of each player's marks on every line: :func:`claim_counted`.

:func:`noughts.kernels.claim.claim_after` judges a claim from the masks, reading every word of
every line through the claimed cell. A kernel that plays many claims in a row from one position
(a random playout, a search) can instead keep ``cnt[j, p]``, player ``p``'s marks on line ``j``,
and judge each claim from the lines through its cell alone, whatever the board's size: a line is
complete when its count reaches ``k`` (every line of a board has ``k`` cells), a line Breaker
had not touched is one whose Breaker count was 0. The rules, the result codes and the aux values
(survivors under Maker-Breaker rules, the two scores under cumulative rules) are exactly
:func:`~noughts.kernels.claim.claim_after`'s; ``tests/kernels/test_counts.py`` holds this twin
to :mod:`noughts.core.claim` claim by claim, as ``tests/kernels/test_claim.py`` holds that one.

* :func:`line_counts` fills the counts of a position (one-word or W-word masks);
* :func:`claim_counted` adds the mover's mark on a cell and judges the claim;
* :func:`unclaim_counted` takes the mark back (a search's undo; the caller keeps the aux values
  it had before the claim);
* :func:`count_claim` adds a mark unjudged (the alpha-beta kernel judges its nodes from the
  counts by its own rules);
* :func:`mark_counted` and :func:`unmark_counted`: a claim and its undo where the caller keeps
  the owner of each cell too (``own[c]``) and judges the position its own way (the threat
  search, the proof engine, its strategy walk, the Breaker prover).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from noughts.kernels.bits import popcount
from noughts.kernels.claim import cumulative_result, line_result
from noughts.kernels.codes import CUMULATIVE, MAKER_BREAKER, RUNNING
from noughts.kernels.masks import line_word, width, word

__all__ = ["claim_counted", "count_claim", "line_counts", "mark_counted", "unclaim_counted", "unmark_counted"]


@njit(cache=True)
def line_counts(lines: np.ndarray, b0: Any, b1: Any, w: int, cnt: np.ndarray) -> None:
    """Fill ``cnt[j, p]``: player ``p``'s cells on line ``j`` (``b0``, ``b1`` the players' masks:
    uint64 with ``lines`` one word per line, or W words with ``lines`` of shape ``(lines, W)``).
    """
    w = width(b0, w)
    for j in range(lines.shape[0]):
        a = 0
        b = 0
        for i in range(w):
            a += popcount(line_word(lines, j, i) & word(b0, i))
            b += popcount(line_word(lines, j, i) & word(b1, i))
        cnt[j, 0] = a
        cnt[j, 1] = b


@njit(cache=True, inline="always")
def claim_counted(
    rule: int,
    maker: int,
    mover: int,
    cnt: np.ndarray,
    k: int,
    through: np.ndarray,
    nthrough: np.ndarray,
    cell: int,
    full: bool,
    aux0: int,
    aux1: int,
) -> tuple[int, int, int]:
    """``mover`` (0 or 1) claims ``cell``: its counts go up on the lines through the cell, and
    the claim is judged as :func:`noughts.kernels.claim.claim_after` judges it (the result code
    and the new ``aux0``, ``aux1``). ``full``: whether the board is full after the claim; ``k``:
    the cells of a line.
    """
    if rule == CUMULATIVE:
        gained = 0
        for t in range(nthrough[cell]):
            j = np.uint32(through[cell, t])
            v = cnt[j, mover] + 1
            cnt[j, mover] = v
            gained += v == k
        return cumulative_result(mover, gained, full, aux0, aux1)
    if rule == MAKER_BREAKER and mover != maker:
        for t in range(nthrough[cell]):
            j = np.uint32(through[cell, t])
            v = cnt[j, mover]
            aux0 -= v == 0  # a survivor no longer (no branch: which lines are is random)
            cnt[j, mover] = v + 1
        return (mover if aux0 == 0 else RUNNING), aux0, aux1
    # the lines' loops have no branch and index with unsigned numbers (no test for an index
    # from the end): a random playout's move on 15x15 is then about a quarter cheaper
    won = False
    for t in range(nthrough[cell]):
        j = np.uint32(through[cell, t])
        v = cnt[j, mover] + 1
        cnt[j, mover] = v
        won |= v == k
    return line_result(rule, mover, won, full, aux0, aux1)


@njit(cache=True, inline="always")
def count_claim(mover: int, cnt: np.ndarray, through: np.ndarray, nthrough: np.ndarray, cell: int) -> None:
    """Add ``mover``'s mark on ``cell`` to the counts, unjudged (a search that judges the
    position from the counts its own way, before or after).
    """
    for t in range(nthrough[cell]):
        cnt[through[cell, t], mover] += 1


@njit(cache=True, inline="always")
def unclaim_counted(
    mover: int, cnt: np.ndarray, through: np.ndarray, nthrough: np.ndarray, cell: int
) -> None:
    """Take ``mover``'s mark on ``cell`` back out of the counts."""
    for t in range(nthrough[cell]):
        cnt[through[cell, t], mover] -= 1


@njit(cache=True, inline="always")
def mark_counted(
    own: np.ndarray, cnt: np.ndarray, through: np.ndarray, nthrough: np.ndarray, cell: int, p: int, mark: int
) -> None:
    """Player ``p`` (the column of ``cnt``) claims ``cell``: ``own[cell] = mark`` and ``p``'s
    counts go up on the lines through the cell (no judgement: the caller's rules read them).
    """
    own[cell] = mark
    count_claim(p, cnt, through, nthrough, cell)


@njit(cache=True, inline="always")
def unmark_counted(
    own: np.ndarray, cnt: np.ndarray, through: np.ndarray, nthrough: np.ndarray, cell: int, p: int, empty: int
) -> None:
    """Undo :func:`mark_counted`: ``own[cell] = empty`` and ``p``'s mark out of the counts."""
    own[cell] = empty
    unclaim_counted(p, cnt, through, nthrough, cell)
