"""One claim judged under the four claim rules: :func:`claim_after` (numba) and its NumPy twin.

After a player claims a cell, only the lines through that cell can have changed, so a claim is
judged from those lines and a small running value (the *aux*) the game keeps:

* standard: the mover wins if the claim completes one of its lines; a full board draws;
* misère: the mover loses if the claim completes one of its lines; a full board draws;
* Maker-Breaker: Maker wins by completing a line; a Breaker claim removes the lines through the
  cell that Breaker had not touched from the *survivors* (``aux0``), and Breaker wins when none
  is left; there are no draws;
* cumulative: each line the claim completes scores for the mover (``aux0`` the first player's
  score, ``aux1`` the second's); when the board is full the higher score wins, equal scores draw.

These are the rules of :mod:`noughts.core.claim` (``ClaimGame._after_claim``), the reference
the tests hold both functions to, on every reachable position of the 3x3 and 3x4 games under
every rule (Maker-Breaker in both orders) and on samples of larger boards, with one-word and
W-word masks. The result is a :class:`noughts.core.Result` code: :data:`RUNNING` (-1), or the
winner's player index (:data:`FIRST` 0, :data:`SECOND` 1), or :data:`DRAW` (2). The rule codes
are :class:`noughts.core.Rule`'s, as plain ints numba folds into constants: a kernel takes the
code from ``game.claim_rule`` and Maker from ``game.maker``.

A game starts with ``aux0 = aux1 = 0``, but for Maker-Breaker ``aux0`` = the number of lines
(:func:`start_aux`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from noughts.core.codes import Result, Rule
from noughts.kernels.masks import covers_line, line_width, meets_line_besides

__all__ = [
    "CUMULATIVE",
    "DRAW",
    "FIRST",
    "MAKER_BREAKER",
    "MISERE",
    "RUNNING",
    "SECOND",
    "STANDARD",
    "claim_after",
    "claim_after_many",
    "completes",
    "start_aux",
]

STANDARD = int(Rule.STANDARD)
MISERE = int(Rule.MISERE)
MAKER_BREAKER = int(Rule.MAKER_BREAKER)
CUMULATIVE = int(Rule.CUMULATIVE)

RUNNING = int(Result.RUNNING)
FIRST = int(Result.FIRST)
SECOND = int(Result.SECOND)
DRAW = int(Result.DRAW)


def start_aux(rule: int, lines: int) -> int:
    """``aux0`` at the start of a game of ``lines`` lines (``aux1`` starts at 0)."""
    return lines if rule == MAKER_BREAKER else 0


@njit(cache=True)
def completes(mine: Any, cell: int, lines: np.ndarray, through: np.ndarray, nthrough: np.ndarray) -> bool:
    """Whether ``mine`` (which holds ``cell``) holds every cell of a line through ``cell``."""
    w = line_width(lines)
    for t in range(nthrough[cell]):  # noqa: SIM110  (a plain loop: numba compiles it without a generator)
        if covers_line(mine, lines, through[cell, t], w):
            return True
    return False


@njit(cache=True)
def claim_after(
    rule: int,
    maker: int,
    mover: int,
    mine: Any,
    theirs: Any,
    cell: int,
    full: bool,
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    aux0: int,
    aux1: int,
) -> tuple[int, int, int]:
    """The result of ``mover`` (0 or 1) claiming ``cell``, and the new ``aux0``, ``aux1``.

    ``mine`` is the mover's cells with ``cell`` already in them, ``theirs`` the opponent's
    (one ``uint64`` each with ``lines`` one word per line, or W words each with ``lines`` of
    shape ``(lines, W)``); ``full``: whether the board is full after the claim; ``through[c,
    :nthrough[c]]``: the lines through cell ``c``; ``maker``: Maker's player (Maker-Breaker
    only). ``theirs`` is not read by the four rules (a claim changes only the mover's lines);
    it is taken so that every rule sees the whole position.
    """
    w = line_width(lines)
    if rule == CUMULATIVE:
        gained = 0
        for t in range(nthrough[cell]):
            if covers_line(mine, lines, through[cell, t], w):
                gained += 1
        if mover == FIRST:
            aux0 += gained
        else:
            aux1 += gained
        if not full:
            return RUNNING, aux0, aux1
        if aux0 > aux1:
            return FIRST, aux0, aux1
        if aux1 > aux0:
            return SECOND, aux0, aux1
        return DRAW, aux0, aux1
    if rule == MAKER_BREAKER and mover != maker:
        for t in range(nthrough[cell]):
            if not meets_line_besides(mine, lines, through[cell, t], cell, w):
                aux0 -= 1  # a survivor no longer
        return (mover if aux0 == 0 else RUNNING), aux0, aux1
    if completes(mine, cell, lines, through, nthrough):
        return (1 - mover if rule == MISERE else mover), aux0, aux1
    if full and rule != MAKER_BREAKER:
        return DRAW, aux0, aux1
    return RUNNING, aux0, aux1


# -- the NumPy twin: one claim of one cell in many positions at once --------------------------------

Masks = npt.NDArray[np.uint64]
Ints = npt.NDArray[np.int64]


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
        return self.hit if self.hit.ndim == 1 else np.asarray(self.hit.all(axis=1))


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
