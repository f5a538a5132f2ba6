"""Numba kernels of the batched claim games (:mod:`noughts.envs.batch` is their Python face).

A game of the batch is two uint64 bitboards (the first player's cells and the second's), the
ply, and, for Maker-Breaker, the number of *survivors* (lines Breaker has not touched) or, for
cumulative rules, the running score of each side. The rules are those of
:mod:`noughts.core.claim`, move for move:

* standard: a claim that completes one of the mover's lines wins; a full board draws;
* misère: a claim that completes one of the mover's lines loses; a full board draws;
* Maker-Breaker: Maker wins by completing a line; Breaker wins once no survivor is left;
* cumulative: the board fills up; each completed line scores; the higher score wins.

Only the lines through the claimed cell are looked at (``through``/``nthrough``, from
``Board.lines_through``). Results are from the first player's view: ``1`` a first-player win,
``-1`` a second-player win, ``0`` a draw; ``RUNNING`` (2) for a game not yet over.

A random playout picks the ``r``-th empty cell in increasing order, ``r = floor(u * empty)``
with ``u`` uniform in [0, 1): the same choice as ``moves[int(u * len(moves))]`` over
``Position.legal_moves()``, which lists empty cells in increasing order. The ``u`` come either
from the caller (``given``, one row per game: what the tests feed to both this kernel and the
reference) or from a SplitMix64 stream per game seeded by ``seed`` and the game's index, so a
result does not depend on how many threads ran it.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

STANDARD = 0
MISERE = 1
MAKER_BREAKER = 2
CUMULATIVE = 3

RUNNING = 2
"""The result code of a game that has not ended."""

# de Bruijn sequence for the index of a 64-bit word's lowest set bit
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.array(
    [
        0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
        62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
        63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
        46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
    ],
    dtype=np.int64,
)  # fmt: skip
_U53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def _lowest_index(bits: np.uint64) -> int:
    low = bits & (~bits + np.uint64(1))
    return int(_DEBRUIJN_INDEX[(low * _DEBRUIJN) >> np.uint64(58)])


@njit(cache=True, inline="always")
def _splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _nth_empty(empty: np.uint64, r: int) -> int:
    for _ in range(r):
        empty &= empty - np.uint64(1)
    return _lowest_index(empty)


@njit(cache=True, inline="always")
def claim(
    rule: int,
    maker: int,
    cell: int,
    mine: np.uint64,
    theirs: np.uint64,
    mover: int,
    aux0: int,
    aux1: int,
    through: np.ndarray,
    nthrough: np.ndarray,
    lines: np.ndarray,
    full: np.uint64,
) -> tuple[int, np.uint64, int, int]:
    """``mover`` claims ``cell``: ``mine`` and ``theirs`` are the mover's and the opponent's
    cells before it, ``aux0``/``aux1`` the survivors (Maker-Breaker; ``aux1`` unused) or the
    two scores (cumulative; first's, second's). Returns the result code after the claim, the
    mover's new cells and the new ``aux0``, ``aux1``.
    """
    before = mine
    mine = before | (np.uint64(1) << np.uint64(cell))
    if rule == CUMULATIVE:
        gained = 0
        for j in range(nthrough[cell]):
            m = lines[through[cell, j]]
            if mine & m == m:
                gained += 1
        if mover == 0:
            aux0 += gained
        else:
            aux1 += gained
        if (mine | theirs) != full:
            return RUNNING, mine, aux0, aux1
        if aux0 > aux1:
            return 1, mine, aux0, aux1
        if aux1 > aux0:
            return -1, mine, aux0, aux1
        return 0, mine, aux0, aux1
    if rule == MAKER_BREAKER and mover != maker:
        for j in range(nthrough[cell]):
            if before & lines[through[cell, j]] == np.uint64(0):
                aux0 -= 1
        if aux0 == 0:
            return (1 if mover == 0 else -1), mine, aux0, aux1
        return RUNNING, mine, aux0, aux1
    for j in range(nthrough[cell]):
        m = lines[through[cell, j]]
        if mine & m == m:
            won = rule != MISERE
            return (1 if won == (mover == 0) else -1), mine, aux0, aux1
    if rule == MAKER_BREAKER or (mine | theirs) != full:
        return RUNNING, mine, aux0, aux1
    return 0, mine, aux0, aux1


@njit(cache=True, inline="always")
def _playout(
    g: int,
    rule: int,
    maker: int,
    ncells: int,
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    full: np.uint64,
    aux_start: int,
    given: np.ndarray,
    use_given: bool,
    seed: np.uint64,
    results: np.ndarray,
    lengths: np.ndarray,
) -> None:
    state = seed ^ (np.uint64(g) * np.uint64(0xD1B54A32D192ED03))
    first = np.uint64(0)
    second = np.uint64(0)
    aux0 = aux_start
    aux1 = 0
    result = RUNNING
    ply = 0
    while result == RUNNING:
        empty = full & ~(first | second)
        count = ncells - ply
        if use_given:
            u = given[g, ply]
        else:
            state, z = _splitmix(state)
            u = float(z >> np.uint64(11)) * _U53
        r = int(u * count)
        if r >= count:  # u rounded up to 1.0 by the caller
            r = count - 1
        cell = _nth_empty(empty, r)
        if ply & 1 == 0:
            result, first, aux0, aux1 = claim(
                rule, maker, cell, first, second, 0, aux0, aux1, through, nthrough, lines, full
            )
        else:
            result, second, aux0, aux1 = claim(
                rule, maker, cell, second, first, 1, aux0, aux1, through, nthrough, lines, full
            )
        ply += 1
    results[g] = result
    lengths[g] = ply


@njit(cache=True)
def playouts(
    rule: int,
    maker: int,
    ncells: int,
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    aux0: int,
    given: np.ndarray,
    use_given: bool,
    seed: np.uint64,
    results: np.ndarray,
    lengths: np.ndarray,
) -> None:
    """Play ``len(results)`` random games from the start, one after the other (one thread)."""
    n = results.shape[0]
    full = np.uint64(0xFFFFFFFFFFFFFFFF) >> np.uint64(64 - ncells)
    for g in range(n):
        _playout(
            g,
            rule,
            maker,
            ncells,
            lines,
            through,
            nthrough,
            full,
            aux0,
            given,
            use_given,
            seed,
            results,
            lengths,
        )


@njit(cache=True, parallel=True)
def playouts_parallel(
    rule: int,
    maker: int,
    ncells: int,
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    aux0: int,
    given: np.ndarray,
    use_given: bool,
    seed: np.uint64,
    results: np.ndarray,
    lengths: np.ndarray,
) -> None:
    """:func:`playouts` with the games shared among numba's threads."""
    n = results.shape[0]
    full = np.uint64(0xFFFFFFFFFFFFFFFF) >> np.uint64(64 - ncells)
    for g in prange(n):
        _playout(
            g,
            rule,
            maker,
            ncells,
            lines,
            through,
            nthrough,
            full,
            aux0,
            given,
            use_given,
            seed,
            results,
            lengths,
        )


@njit(cache=True)
def step(
    rule: int,
    maker: int,
    ncells: int,
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    bits: np.ndarray,
    aux: np.ndarray,
    plies: np.ndarray,
    results: np.ndarray,
    actions: np.ndarray,
) -> int:
    """One claim in every running game of a batch (``actions[g]``, a cell); games that are over
    are left alone. Returns -1, or the index of the first game whose action is not an empty
    cell (no game is changed then).
    """
    n = results.shape[0]
    full = np.uint64(0xFFFFFFFFFFFFFFFF) >> np.uint64(64 - ncells)
    for g in range(n):
        if results[g] != RUNNING:
            continue
        a = actions[g]
        if a < 0 or a >= ncells or (bits[g, 0] | bits[g, 1]) >> np.uint64(a) & np.uint64(1):
            return g
    for g in range(n):
        if results[g] != RUNNING:
            continue
        mover = plies[g] & 1
        result, mine, a0, a1 = claim(
            rule,
            maker,
            actions[g],
            bits[g, mover],
            bits[g, 1 - mover],
            mover,
            aux[g, 0],
            aux[g, 1],
            through,
            nthrough,
            lines,
            full,
        )
        bits[g, mover] = mine
        aux[g, 0] = a0
        aux[g, 1] = a1
        results[g] = result
        plies[g] += 1
    return -1


@njit(cache=True)
def legal_mask(ncells: int, bits: np.ndarray, results: np.ndarray, out: np.ndarray) -> None:
    """``out[g, c]``: cell ``c`` is empty and game ``g`` is running."""
    for g in range(results.shape[0]):
        if results[g] != RUNNING:
            for c in range(ncells):
                out[g, c] = False
            continue
        occupied = bits[g, 0] | bits[g, 1]
        for c in range(ncells):
            out[g, c] = not (occupied >> np.uint64(c)) & np.uint64(1)
