"""numba kernels of the retrograde solver (:mod:`noughts.retrograde.analysis`).

Two jobs, each held to a plain reference by the tests on every state of the small games:

* **expanding states** of the games that need not end, as the integer codes their rules define
  (:meth:`noughts.core.loopy.FadingGame.code`, :meth:`noughts.core.loopy.MorrisGame.code`): the
  outcome of each state, judged from scratch, and its children in ``legal_moves()`` order. The
  rules are the ones of :mod:`noughts.core.loopy`, written again over bit masks; the reference
  is the position API itself (``tests/exact/test_retro.py`` compares the whole graphs).
* **propagating** wins backwards over the state graph (:func:`propagate`), the kernel of the
  retrograde analysis; its reference is a value iteration over the whole graph to a fixed point
  (:func:`noughts.retrograde.analysis.reference_values`).

Masks are one ``uint64`` per player (boards of at most 64 cells; the codes must fit 64 bits).
Outcome codes are :class:`noughts.core.Result`'s: -1 running, 0 or 1 the winner, 2 a draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noughts.kernels.bits import cell_bit, popcount

RUNNING, FIRST, SECOND, DRAW = -1, 0, 1, 2
UNRESOLVED = -1
"""A state's winner while the propagation has not decided it."""

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True)
def _has_line(bits: np.uint64, lines: np.ndarray) -> bool:
    for j in range(lines.size):
        m = lines[j]
        if bits & m == m:
            return True
    return False


@njit(cache=True)
def _line_through(
    bits: np.uint64, cell: int, lines: np.ndarray, through: np.ndarray, nthrough: np.ndarray
) -> bool:
    for t in range(nthrough[cell]):
        m = lines[through[cell, t]]
        if bits & m == m:
            return True
    return False


# -- forget and vanishing ---------------------------------------------------------------------------


@njit(cache=True)
def fading_expand(
    codes: np.ndarray,
    fill: bool,
    ptr: np.ndarray,
    out: np.ndarray,
    outcome: np.ndarray,
    counts: np.ndarray,
    n: int,
    width: int,
    lifetime: int,
    before: bool,
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
) -> None:
    """For each state code: its outcome and number of children (``outcome``, ``counts``) and,
    with ``fill``, its children (into ``out[ptr[i]:ptr[i+1]]``, ``ptr`` from a first pass: a
    running state has one child per empty cell, in increasing cell order).

    A code is bit 0 the player to move, then the marks oldest first, cell + 1 in ``width`` bits
    each; the newest mark is the last mover's and the owners alternate along the order.
    """
    mask = (_ONE << np.uint64(width)) - _ONE
    w = np.uint64(width)
    full = (_ONE << np.uint64(n)) - _ONE if n < 64 else ~_ZERO
    seq = np.empty(lifetime + 2, dtype=np.int64)
    for i in range(codes.size):
        code = codes[i]
        to_move = int(code & _ONE)
        rest = code >> _ONE
        m = 0
        while rest:
            seq[m] = int(rest & mask) - 1
            rest >>= w
            m += 1
        b0 = _ZERO
        b1 = _ZERO
        for j in range(m):
            owner = 1 - to_move if (m - 1 - j) % 2 == 0 else to_move
            if owner == 0:
                b0 |= cell_bit(seq[j])
            else:
                b1 |= cell_bit(seq[j])
        last = 1 - to_move
        counts[i] = 0
        if _has_line(b0 if last == 0 else b1, lines):
            outcome[i] = last
            continue
        occupied = b0 | b1
        if occupied == full:
            outcome[i] = DRAW
            continue
        outcome[i] = RUNNING
        counts[i] = n - m
        if not fill:
            continue
        k = ptr[i]
        mine = b0 if to_move == 0 else b1
        for cell in range(n):
            if occupied & cell_bit(cell):
                continue
            start = 0
            if m + 1 > lifetime:
                start = 1
                if before and _line_through(mine | cell_bit(cell), cell, lines, through, nthrough):
                    start = 0  # the game ends as the line is judged: nothing leaves
            child = np.uint64(last)
            shift = _ONE
            for j in range(start, m):
                child |= np.uint64(seq[j] + 1) << shift
                shift += w
            child |= np.uint64(cell + 1) << shift
            out[k] = child
            k += 1


# -- morris -----------------------------------------------------------------------------------------


@njit(cache=True)
def _morris_moves(
    mine: np.uint64, empty: np.uint64, pieces: int, adj_ptr: np.ndarray, adj: np.ndarray, n: int
) -> int:
    """How many moves a player holding ``mine`` has."""
    if popcount(mine) < pieces:
        return popcount(empty)
    count = 0
    for u in range(n):
        if mine & cell_bit(u):
            for t in range(adj_ptr[u], adj_ptr[u + 1]):
                if empty & cell_bit(adj[t]):
                    count += 1
    return count


@njit(cache=True)
def _morris_child(
    b0: np.uint64,
    b1: np.uint64,
    mover: int,
    target: int,
    n: int,
    pieces: int,
    passes: bool,
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    adj_ptr: np.ndarray,
    adj: np.ndarray,
    full: np.uint64,
) -> np.uint64:
    """The code of the position after ``mover``'s move leaves masks ``b0, b1`` (``target`` the
    cell it marked): who moves next under the blocked rule.
    """
    nxt = 1 - mover
    mine = b0 if mover == 0 else b1
    if not _line_through(mine, target, lines, through, nthrough) and passes:
        empty = full & ~(b0 | b1)
        theirs = b1 if mover == 0 else b0
        if (
            _morris_moves(theirs, empty, pieces, adj_ptr, adj, n) == 0
            and _morris_moves(mine, empty, pieces, adj_ptr, adj, n) > 0
        ):
            nxt = mover
    return np.uint64(nxt) | (b0 << _ONE) | (b1 << np.uint64(1 + n))


@njit(cache=True)
def morris_expand(
    codes: np.ndarray,
    fill: bool,
    ptr: np.ndarray,
    out: np.ndarray,
    outcome: np.ndarray,
    counts: np.ndarray,
    n: int,
    pieces: int,
    before: bool,
    passes: bool,
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    adj_ptr: np.ndarray,
    adj: np.ndarray,
) -> None:
    """For each state code: its outcome and number of children (``outcome``, ``counts``) and,
    with ``fill``, its children in ``legal_moves()`` order (placements by cell, then slides by
    origin and target). A code is bit 0 the player to move, then the first player's cells and
    the second player's, ``n`` bits each.
    """
    full = (_ONE << np.uint64(n)) - _ONE
    for i in range(codes.size):
        code = codes[i]
        to_move = int(code & _ONE)
        b0 = (code >> _ONE) & full
        b1 = (code >> np.uint64(1 + n)) & full
        last = 1 - to_move
        counts[i] = 0
        if _has_line(b0 if last == 0 else b1, lines):
            outcome[i] = last
            continue
        empty = full & ~(b0 | b1)
        mine = b0 if to_move == 0 else b1
        moves = _morris_moves(mine, empty, pieces, adj_ptr, adj, n)
        if moves == 0:
            if not passes:
                outcome[i] = last
            else:
                outcome[i] = DRAW  # the other side cannot move either (else the turn passed)
            continue
        outcome[i] = RUNNING
        counts[i] = moves
        if not fill:
            continue
        k = ptr[i]
        if popcount(mine) < pieces:
            for c in range(n):
                if empty & cell_bit(c):
                    placed = mine | cell_bit(c)
                    c0 = placed if to_move == 0 else b0
                    c1 = b1 if to_move == 0 else placed
                    out[k] = _morris_child(
                        c0, c1, to_move, c, n, pieces, passes, lines, through, nthrough, adj_ptr, adj, full
                    )
                    k += 1
            continue
        for u in range(n):
            if not mine & cell_bit(u):
                continue
            for t in range(adj_ptr[u], adj_ptr[u + 1]):
                v = adj[t]
                if not empty & cell_bit(v):
                    continue
                landed = mine | cell_bit(v)
                if before and _line_through(landed, v, lines, through, nthrough):
                    moved = landed  # won as the mark lands: its old cell still shows
                else:
                    moved = landed & ~cell_bit(u)
                c0 = moved if to_move == 0 else b0
                c1 = b1 if to_move == 0 else moved
                out[k] = _morris_child(
                    c0, c1, to_move, v, n, pieces, passes, lines, through, nthrough, adj_ptr, adj, full
                )
                k += 1


# -- the propagation ------------------------------------------------------------------------------


@njit(cache=True)
def propagate(
    pred_ptr: np.ndarray,
    pred: np.ndarray,
    to_move: np.ndarray,
    winner: np.ndarray,
    dist: np.ndarray,
    counter: np.ndarray,
    queue: np.ndarray,
    cursor: np.ndarray,
    max_steps: int,
) -> int:
    """Retrograde propagation of wins over the predecessor lists, for at most ``max_steps`` edges;
    returns the edges examined. ``queue[cursor[0]:cursor[1]]`` holds the decided states not yet
    propagated, in order of distance (the finished states, at 0, come first).

    A decided state ``t``, won by ``w`` in ``d`` plies, makes each undecided predecessor ``p``
    (its mover ``to_move[p]``) won by ``w`` in ``d + 1`` if ``w`` moves at ``p`` (the first such
    child is the nearest: states leave the queue in order of distance), and otherwise takes one
    off ``counter[p]``, the children of ``p`` not yet known to be won by ``w``; at zero every move
    of ``p`` loses, and ``p`` is lost in ``d + 1`` plies (the last child decided is the farthest).
    States never decided are draws: from them neither side can force a win.
    """
    head = cursor[0]
    tail = cursor[1]
    steps = 0
    while head < tail and steps < max_steps:
        t = queue[head]
        head += 1
        w = winner[t]
        d = dist[t] + 1
        for k in range(pred_ptr[t], pred_ptr[t + 1]):
            p = pred[k]
            if winner[p] != UNRESOLVED:
                continue
            if to_move[p] == w:
                winner[p] = w
                dist[p] = d
                queue[tail] = p
                tail += 1
            else:
                counter[p] -= 1
                if counter[p] == 0:
                    winner[p] = w
                    dist[p] = d
                    queue[tail] = p
                    tail += 1
        steps += 1 + pred_ptr[t + 1] - pred_ptr[t]
    cursor[0] = head
    cursor[1] = tail
    return steps


# -- predecessor lists ------------------------------------------------------------------------------


@njit(cache=True)
def predecessor_lists(succ_ptr: np.ndarray, succ: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The predecessor lists of a successor CSR, by a counting sort in O(states + moves): for each
    state, the states with a move into it (once per move), in increasing order.
    """
    ptr = np.zeros(n + 1, dtype=np.int64)
    for k in range(succ.size):
        ptr[succ[k] + 1] += 1
    for s in range(n):
        ptr[s + 1] += ptr[s]
    fill = ptr[:-1].copy()
    pred = np.empty(succ.size, dtype=np.int32)
    for s in range(n):
        for k in range(succ_ptr[s], succ_ptr[s + 1]):
            t = succ[k]
            pred[fill[t]] = s
            fill[t] += 1
    return ptr, pred
