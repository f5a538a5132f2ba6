"""The NumPy twin of :func:`noughts.kernels.claim.claim_after`: one claim of one cell judged in
many positions at once, for the vectorised counter (:mod:`noughts.exact._count_kernels`).

The rules, the result codes and the aux values are those of :mod:`noughts.kernels.claim`; the
tests hold both to :mod:`noughts.core.claim` on the same claims. NumPy only: counting loads no
compiler.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.kernels.codes import CUMULATIVE, DRAW, FIRST, MAKER_BREAKER, MISERE, RUNNING, SECOND

__all__ = ["claim_after_many"]

Masks = npt.NDArray[np.uint64]
Ints = npt.NDArray[np.integer[Any]]


class _Lines:
    """Which positions hold every cell of a line: ``covers(line)``, in reused buffers (the
    temporaries of ``(mine & line) == line`` cost more than the operations themselves).
    """

    def __init__(self, mine: Masks):
        self.mine = mine
        self.tmp = np.empty(mine.shape, dtype=np.uint64)
        self.hit = np.empty(mine.shape, dtype=bool)

    def covers(self, line: npt.NDArray[np.uint64]) -> npt.NDArray[np.bool_]:
        np.bitwise_and(self.mine, line, out=self.tmp)
        np.equal(self.tmp, line, out=self.hit)
        return self.hit if self.hit.ndim == 1 else np.all(self.hit, axis=1)


def claim_after_many(
    rule: int,
    maker: int,
    mover: int,
    mine: Masks,
    theirs: Masks,
    cell: int,
    full: bool | npt.NDArray[np.bool_],
    lines: Masks,
    through: npt.NDArray[np.integer[Any]],
    nthrough: npt.NDArray[np.integer[Any]],
    aux0: Ints,
    aux1: Ints,
) -> tuple[npt.NDArray[np.int8], Ints, Ints]:
    """:func:`claim_after` for ``mover`` claiming the same ``cell`` in many positions: ``mine``
    and ``theirs`` hold one position per row (shape ``(n,)`` of ``uint64`` with ``lines`` one
    word per line, or ``(n, W)`` with ``lines`` of shape ``(lines, W)``), ``full`` is one flag
    or one per position, ``aux0``/``aux1`` one value per position (any integer dtype, kept).
    Returns the result codes (``int8``) and the new ``aux0``, ``aux1``: new arrays where the
    claim changes them, the arrays given where it does not (they are never written to).
    """
    n = mine.shape[0]
    js = through[cell, : nthrough[cell]]
    result = np.full(n, RUNNING, dtype=np.int8)
    if rule == CUMULATIVE:
        gained = np.zeros(n, dtype=aux0.dtype)
        mask = _Lines(mine)
        for j in js:
            np.add(gained, mask.covers(lines[j]), out=gained)
        if mover == FIRST:
            aux0 = aux0 + gained
        else:
            aux1 = aux1 + gained
        ended = _where(full, n)
        if ended is not None:
            result[ended] = DRAW
            result[ended & (aux0 > aux1)] = FIRST
            result[ended & (aux1 > aux0)] = SECOND
        return result, aux0, aux1
    if rule == MAKER_BREAKER and mover != maker:
        others = mine.copy()
        if others.ndim == 1:
            others &= ~np.uint64(1 << cell)
        else:
            others[:, cell // 64] &= ~np.uint64(1 << (cell % 64))
        lost = np.zeros(n, dtype=aux0.dtype)
        for j in js:
            met = (others & lines[j]) != 0
            lost += ~(met if met.ndim == 1 else met.any(axis=1))  # a line Breaker had not touched
        aux0 = aux0 - lost
        result[aux0 == 0] = mover
        return result, aux0, aux1
    won = np.zeros(n, dtype=bool)
    mask = _Lines(mine)
    for j in js:
        won |= mask.covers(lines[j])
    result[won] = 1 - mover if rule == MISERE else mover
    ended = _where(full, n) if rule != MAKER_BREAKER else None
    if ended is not None:
        result[ended & ~won] = DRAW
    return result, aux0, aux1


def _where(full: bool | npt.NDArray[np.bool_], n: int) -> npt.NDArray[np.bool_] | None:
    """``full`` as one flag per position, or None where no position is full."""
    if np.ndim(full) == 0:
        return np.ones(n, dtype=bool) if full else None
    return np.asarray(full, dtype=bool)
