"""One claim judged under the four claim rules: :func:`claim_after`, for numba kernels.

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
the tests hold this function and its NumPy twin (:func:`noughts.kernels.claim_numpy.claim_after_many`)
to, on every reachable position of the 3x3 and 3x4 games under every rule (Maker-Breaker in both
orders) and on samples of larger boards, with one-word and W-word masks. The result is a
:class:`noughts.core.Result` code and the rule a :class:`noughts.core.Rule` code, as the plain
ints of :mod:`noughts.kernels.codes` (numba folds them into constants): a kernel takes the rule
from ``game.claim_rule`` and Maker from ``game.maker``. A game starts with ``aux0 = aux1 = 0``,
but for Maker-Breaker ``aux0`` = the number of lines (:func:`noughts.kernels.codes.start_aux`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numba import njit

from noughts.kernels.bits import INTERNAL, internal
from noughts.kernels.codes import CUMULATIVE, DRAW, FIRST, MAKER_BREAKER, MISERE, RUNNING, SECOND
from noughts.kernels.masks import covers_line, line_width, meets_line_besides

__all__ = ["claim_after", "completes", "cumulative_result", "line_result"]


_F = TypeVar("_F", bound=Callable[..., Any])


def _inlined(fn: _F) -> _F:
    """:func:`~noughts.kernels.bits.internal`, inlined into its callers by numba (the judgement
    at the end of every claim: no call in the playouts' inner loop).
    """
    jit: Any = njit
    inlined: _F = jit(cache=True, inline="always", no_cpython_wrapper=True, **INTERNAL)(fn)
    return inlined


@internal
def completes(mine: Any, cell: int, lines: np.ndarray, through: np.ndarray, nthrough: np.ndarray) -> bool:
    """Whether ``mine`` (which holds ``cell``) holds every cell of a line through ``cell``."""
    w = line_width(lines)
    for t in range(nthrough[cell]):  # noqa: SIM110  (a plain loop: numba compiles it without a generator)
        if covers_line(mine, lines, through[cell, t], w):
            return True
    return False


@internal
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
        return cumulative_result(mover, gained, full, aux0, aux1)
    if rule == MAKER_BREAKER and mover != maker:
        for t in range(nthrough[cell]):
            if not meets_line_besides(mine, lines, through[cell, t], cell, w):
                aux0 -= 1  # a survivor no longer
        return (mover if aux0 == 0 else RUNNING), aux0, aux1
    return line_result(rule, mover, completes(mine, cell, lines, through, nthrough), full, aux0, aux1)


@_inlined
def cumulative_result(mover: int, gained: int, full: bool, aux0: int, aux1: int) -> tuple[int, int, int]:
    """Under cumulative rules: ``mover``'s score (``aux0`` the first player's, ``aux1`` the
    second's) goes up by the ``gained`` lines its claim completed; when the board is ``full``
    the higher score wins and equal scores draw. The result code and the new scores.
    """
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


@_inlined
def line_result(rule: int, mover: int, won: bool, full: bool, aux0: int, aux1: int) -> tuple[int, int, int]:
    """Under standard, misère and (a Maker claim's) Maker-Breaker rules: the result of a claim
    that completed a line of ``mover``'s (``won``) or not, the board ``full`` after it or not.
    """
    if won:
        return (1 - mover if rule == MISERE else mover), aux0, aux1
    if full and rule != MAKER_BREAKER:
        return DRAW, aux0, aux1
    return RUNNING, aux0, aux1
