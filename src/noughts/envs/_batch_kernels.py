"""Numba kernels of the batched claim games (:mod:`noughts.envs.batch` is their Python face).

A game of the batch is two bitboards (the first player's cells and the second's: one uint64
each on a board of up to 64 cells, W words each beyond, or when a caller forces W words), the
ply, and the aux values its claims are judged with: the *survivors* (lines Breaker has not
touched) under Maker-Breaker rules, the running scores under cumulative rules. Every claim is
judged by :func:`noughts.kernels.claim.claim_after` (the rules of :mod:`noughts.core.claim`,
from the lines through the claimed cell only), and a game's result is its
:class:`~noughts.core.Result` code (:data:`~noughts.kernels.claim.RUNNING` while it runs).

The board's side of a kernel's arguments is one tuple, ``board = (maker, lines, through, nthrough,
full)``: Maker (``game.maker``) and the board's tables (``board.tables``: ``line_bits``,
``through``, ``nthrough``, ``full_bits``; in the W-word form the lines and the full board split
into W words, as ``line_words`` and ``full_words`` are). The step kernel is written once over the
mask operations of :mod:`noughts.kernels.masks`, which numba compiles for each form (the one-word
form keeps its masks in registers); the playouts are one-word, and boards past 64 cells play
from line counts (:func:`_play_counted`).

The rule (``game.claim_rule``) is no argument: each rule has its kernels (:func:`rule_kernels`),
in which it is a compile-time constant: LLVM inlines :func:`~noughts.kernels.claim.claim_after`
and folds the other rules' branches away, so a claim is judged by that rule's code alone. Passed
at run time, the rule kept every rule's branches in the playout's inner loop, which made the
playouts 1.7 times slower (``python bench/regression.py --base 1afa3c6 --only random_playouts``,
measured under load).

A random playout picks the ``r``-th empty cell in increasing order, ``r = floor(u * empty)``
with ``u`` uniform in [0, 1): the same choice as ``moves[int(u * len(moves))]`` over
``Position.legal_moves()``, which lists empty cells in increasing order. The ``u`` come either
from the caller (``given``, one row per game: what the tests feed to both this kernel and the
reference) or from the SplitMix64 stream ``g`` of ``seed`` (:func:`noughts.kernels.bits.stream_start`)
for game ``g``, so a result does not depend on how many threads ran it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit, prange

from noughts.kernels.bits import ONE, cell_bit, entry, nth_cell, popcount, rng_uniform, stream_start
from noughts.kernels.claim import claim_after
from noughts.kernels.codes import RUNNING
from noughts.kernels.counts import claim_counted
from noughts.kernels.masks import as_mask, count, has, line_width, put, row, with_cell

CHUNK = 1024
"""Games per task of :func:`playouts_parallel` (each task keeps one random state)."""


@njit(cache=True, inline="always")
def _play(rule, board, aux0, given, seed, lo, hi, results, lengths):  # type: ignore[no-untyped-def]
    """Random games ``lo`` to ``hi - 1`` from the start (see the module docstring), under
    ``rule``: a constant of the kernel this body is inlined into.
    """
    maker, lines, through, nthrough, full = board
    ncells = popcount(full)
    st = np.empty(1, dtype=np.uint64)
    for g in range(lo, hi):
        st[0] = stream_start(seed, g)
        first = np.uint64(0)
        second = np.uint64(0)
        a0 = aux0
        a1 = 0
        result = RUNNING
        ply = 0
        while result == RUNNING:
            empty = full & ~(first | second)
            count = ncells - ply
            u = given[g, ply] if given.shape[0] > 0 else rng_uniform(st)
            r = int(u * count)
            if r >= count:  # u rounded up to 1.0 by the caller
                r = count - 1
            cell = nth_cell(empty, r)
            ply += 1
            if ply & 1:
                first |= cell_bit(cell)
                result, a0, a1 = claim_after(
                    rule, maker, 0, first, second, cell, ply == ncells, lines, through, nthrough, a0, a1
                )
            else:
                second |= cell_bit(cell)
                result, a0, a1 = claim_after(
                    rule, maker, 1, second, first, cell, ply == ncells, lines, through, nthrough, a0, a1
                )
        results[g] = result
        lengths[g] = ply


@njit(cache=True, inline="always")
def _play_counted(rule, board, aux0, given, seed, lo, hi, results, lengths):  # type: ignore[no-untyped-def]
    """:func:`_play` on a board of any size (past 64 cells too): each game keeps its line counts
    (``cnt[j, p]``, judged by :func:`noughts.kernels.counts.claim_counted`) and its empty cells
    listed in increasing order (a claimed cell taken out, the others closing up), and makes
    :func:`_play`'s choices: the ``floor(u * empty)``-th empty cell. ``board = (maker, k,
    through, nthrough, cells, lines)``.
    """
    maker, k, through, nthrough, ncells, nlines = board
    st = np.empty(1, dtype=np.uint64)
    cnt = np.empty((nlines, 2), dtype=np.int8)
    cells = np.empty(ncells, dtype=np.int32)
    for g in range(lo, hi):
        st[0] = stream_start(seed, g)
        for j in range(nlines):
            cnt[j, 0] = 0
            cnt[j, 1] = 0
        for c in range(ncells):
            cells[c] = c
        a0 = aux0
        a1 = 0
        result = RUNNING
        ply = 0
        while result == RUNNING:
            count = ncells - ply
            u = given[g, ply] if given.shape[0] > 0 else rng_uniform(st)
            r = int(u * count)
            if r >= count:  # u rounded up to 1.0 by the caller
                r = count - 1
            cell = cells[r]
            for i in range(r, count - 1):
                cells[i] = cells[i + 1]
            mover = ply & 1
            ply += 1
            result, a0, a1 = claim_counted(
                rule, maker, mover, cnt, k, through, nthrough, cell, ply == ncells, a0, a1
            )
        results[g] = result
        lengths[g] = ply


@njit(cache=True, inline="always")
def _step(rule, board, bits, aux, plies, results, actions):  # type: ignore[no-untyped-def]
    """The body of :attr:`RuleKernels.step` under ``rule`` (a constant there), written once over
    the mask operations of :mod:`noughts.kernels.masks`: ``bits`` is ``(batch, 2)`` uint64 with
    one-word tables, or ``(batch, 2, W)`` with W-word tables (``lines`` of shape ``(lines, W)``,
    ``full`` W words); numba compiles it for each.
    """
    maker, lines, through, nthrough, full = board
    w = line_width(lines)
    ncells = count(as_mask(full), w)
    n = results.shape[0]
    for g in range(n):
        if results[g] != RUNNING:
            continue
        a = actions[g]
        if a < 0 or a >= ncells or has(row(bits, g, 0), a) or has(row(bits, g, 1), a):
            return g
    for g in range(n):
        if results[g] != RUNNING:
            continue
        mover = plies[g] & 1
        mine = with_cell(row(bits, g, mover), actions[g])  # W words: claimed in place
        put(bits, g, mover, mine, w)
        result, a0, a1 = claim_after(
            rule, maker, mover, mine, row(bits, g, 1 - mover), actions[g], plies[g] + 1 == ncells,
            lines, through, nthrough, aux[g, 0], aux[g, 1],
        )  # fmt: skip
        aux[g, 0] = a0
        aux[g, 1] = a1
        results[g] = result
        plies[g] += 1
    return -1


class RuleKernels(NamedTuple):
    """The kernels of one rule (:func:`rule_kernels`)."""

    playouts: Any
    """``playouts(board, aux0, given, seed, results, lengths)``: play ``len(results)`` random
    games from the start, one after the other (one thread): each game's result code into
    ``results``, its length into ``lengths``. ``aux0``: the aux value of the start (the number
    of lines under Maker-Breaker rules, else 0); ``given``: the uniforms, one row per game, or
    an empty array for the streams of ``seed``."""
    playouts_parallel: Any
    """``playouts`` with the games shared among numba's threads, :data:`CHUNK` at a time."""
    counted: Any
    """``playouts`` on a board of any size (:func:`_play_counted`; ``board = (maker, k, through,
    nthrough, cells, lines)``)."""
    counted_parallel: Any
    """``counted`` with the games shared among numba's threads, :data:`CHUNK` at a time."""
    step: Any
    """``step(board, bits, aux, plies, results, actions)``: one claim in every running game of
    a batch (``actions[g]``, a cell); games that are over are left alone. Returns -1, or the
    index of the first game whose action is not an empty cell (no game is changed then).
    ``board`` and ``bits`` in the one-word form (``full`` a uint64, ``lines`` one word per
    line, ``bits`` of shape ``(batch, 2)``) or the W-word form (``full`` W words, ``lines`` of
    shape ``(lines, W)``, ``bits`` of shape ``(batch, 2, W)``): boards of any size."""


_KERNELS: dict[int, RuleKernels] = {}


def rule_kernels(rule: int) -> RuleKernels:
    """The kernels of one rule (a rule code, ``game.claim_rule``), built on first use. The rule
    is a constant of their closure (numba keys their cache by it), so only that rule's code of
    :func:`~noughts.kernels.claim.claim_after` is left in the playout's loop.
    """
    kernels = _KERNELS.get(rule)
    if kernels is None:
        kernels = _KERNELS[rule] = _kernels_for(rule)
    return kernels


def _kernels_for(rule: int) -> RuleKernels:
    @entry
    def playouts(board, aux0, given, seed, results, lengths):  # type: ignore[no-untyped-def]
        _play(rule, board, aux0, given, seed, 0, results.shape[0], results, lengths)

    @njit(cache=True, parallel=True)
    def playouts_parallel(board, aux0, given, seed, results, lengths):  # type: ignore[no-untyped-def]
        n = results.shape[0]
        for k in prange((n + CHUNK - 1) // CHUNK):
            _play(rule, board, aux0, given, seed, k * CHUNK, min(n, (k + 1) * CHUNK), results, lengths)

    @entry
    def counted(board, aux0, given, seed, results, lengths):  # type: ignore[no-untyped-def]
        _play_counted(rule, board, aux0, given, seed, 0, results.shape[0], results, lengths)

    @njit(cache=True, parallel=True)
    def counted_parallel(board, aux0, given, seed, results, lengths):  # type: ignore[no-untyped-def]
        n = results.shape[0]
        for k in prange((n + CHUNK - 1) // CHUNK):
            _play_counted(
                rule, board, aux0, given, seed, k * CHUNK, min(n, (k + 1) * CHUNK), results, lengths
            )

    @entry
    def step(board, bits, aux, plies, results, actions):  # type: ignore[no-untyped-def]
        return _step(rule, board, bits, aux, plies, results, actions)

    return RuleKernels(playouts, playouts_parallel, counted, counted_parallel, step)


@entry
def legal_mask(ncells: int, bits: np.ndarray, results: np.ndarray, out: np.ndarray) -> None:
    """``out[g, c]``: cell ``c`` is empty and game ``g`` is running."""
    for g in range(results.shape[0]):
        if results[g] != RUNNING:
            for c in range(ncells):
                out[g, c] = False
            continue
        occupied = bits[g, 0] | bits[g, 1]
        for c in range(ncells):
            out[g, c] = not (occupied >> np.uint64(c)) & ONE


@entry
def legal_mask_wide(ncells: int, bits: np.ndarray, results: np.ndarray, out: np.ndarray) -> None:
    """:func:`legal_mask` of W-word bitboards (``bits`` of shape ``(batch, 2, W)``)."""
    for g in range(results.shape[0]):
        if results[g] != RUNNING:
            for c in range(ncells):
                out[g, c] = False
            continue
        for c in range(ncells):
            i = c >> 6
            occupied = bits[g, 0, i] | bits[g, 1, i]
            out[g, c] = not (occupied >> np.uint64(c & 63)) & ONE
