"""The numba MCTS kernel for claim games on up to 64 cells: the same UCT, rollouts and solver
as the reference in :mod:`noughts.agents.mcts`, over bitboards and flat node arrays.

Nodes live in arrays indexed by number (node 0 is the root); a node's children form a linked
list in the order they were expanded (``first_child``, ``next_sibling``, ``last_child``), and
``untried`` is the bit mask of its legal moves not yet expanded. Values and the solver's bounds
on the exact value (``lower``, ``upper``) are from the view of the player who moved into the
node. Each node keeps the aux values its claims are judged with (survivors, or scores; see
:func:`noughts.kernels.claim.claim_after`).

Random numbers come from one SplitMix64 stream seeded per search (:mod:`noughts.kernels.bits`),
drawn where the reference draws them: a new node takes the ``k``-th untried move, a rollout
move the ``k``-th empty cell (cells in increasing order, as ``legal_moves()`` lists them), ``k``
below the number of choices. So a search makes exactly the reference's choices, and the tests
hold the two to the same statistics bit for bit.
"""

from __future__ import annotations

import math

import numpy as np

from noughts.kernels.bits import cell_bit, entry, internal, nth_cell, popcount, rng_below
from noughts.kernels.claim import claim_after
from noughts.kernels.codes import DRAW, RUNNING


@internal
def rollout(
    b0: np.uint64,
    b1: np.uint64,
    to_move: int,
    aux0: int,
    aux1: int,
    full_mask: np.uint64,
    rule: int,
    maker: int,
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    st: np.ndarray,
) -> int:
    """Uniformly random moves from a non-terminal position to the end; the result code."""
    empty = full_mask & ~(b0 | b1)
    n = popcount(empty)
    mover = to_move
    while True:
        c = nth_cell(empty, rng_below(st, n))
        bit = cell_bit(c)
        empty &= ~bit
        n -= 1
        if mover == 0:
            b0 |= bit
            out, aux0, aux1 = claim_after(
                rule, maker, 0, b0, b1, c, n == 0, lines, through, nthrough, aux0, aux1
            )
        else:
            b1 |= bit
            out, aux0, aux1 = claim_after(
                rule, maker, 1, b1, b0, c, n == 0, lines, through, nthrough, aux0, aux1
            )
        if out != RUNNING:
            return int(out)
        mover = 1 - mover


@entry
def search(
    b0: np.uint64,
    b1: np.uint64,
    to_move: int,
    aux0: int,
    aux1: int,
    sims: int,
    c: float,
    solver: bool,
    seed: np.uint64,
    rule: int,
    maker: int,
    full_mask: np.uint64,
    lines: np.ndarray,
    through: np.ndarray,
    nthrough: np.ndarray,
    cap: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int, int, int]:
    """UCT from a non-terminal position (its aux values ``aux0``, ``aux1``); returns the root
    children's moves, visits, summed values, lower and upper bounds (from the root mover's
    view, in the order they were expanded), the simulations run, the nodes made and the root's
    lower and upper bounds (from the root mover's view: 1 win, 0 draw, -1 loss). Without the
    solver every bound stays -1 and 1.
    """
    st = np.empty(1, dtype=np.uint64)
    st[0] = seed
    # cap: room for the nodes: each simulation makes at most one, and the game tree has no more
    # (np.empty, each node's fields set when it is made: a large budget that the solver cuts
    # short then costs no time filling memory it never uses)
    nb0 = np.empty(cap, dtype=np.uint64)
    nb1 = np.empty(cap, dtype=np.uint64)
    na0 = np.empty(cap, dtype=np.int16)
    na1 = np.empty(cap, dtype=np.int16)
    tomove = np.empty(cap, dtype=np.int8)
    first = np.empty(cap, dtype=np.int32)
    last = np.empty(cap, dtype=np.int32)
    sibling = np.empty(cap, dtype=np.int32)
    move = np.empty(cap, dtype=np.int16)
    untried = np.empty(cap, dtype=np.uint64)
    visits = np.empty(cap, dtype=np.int64)
    value = np.empty(cap, dtype=np.float64)
    lower = np.empty(cap, dtype=np.int8)
    upper = np.empty(cap, dtype=np.int8)
    outcome = np.empty(cap, dtype=np.int8)
    path = np.zeros(popcount(full_mask) + 2, dtype=np.int32)

    nb0[0] = b0
    nb1[0] = b1
    na0[0] = aux0
    na1[0] = aux1
    tomove[0] = to_move
    untried[0] = full_mask & ~(b0 | b1)
    first[0] = -1
    last[0] = -1
    sibling[0] = -1
    move[0] = -1
    visits[0] = 0
    value[0] = 0.0
    lower[0] = -1
    upper[0] = 1
    outcome[0] = RUNNING
    nodes = 1
    done = 0
    for _ in range(sims):
        if solver and lower[0] == upper[0]:
            break
        done += 1
        node = 0
        depth = 0
        path[0] = 0
        result = RUNNING
        # selection and expansion
        while True:
            if outcome[node] != RUNNING:
                result = outcome[node]
                break
            if solver and lower[node] == upper[node]:
                p = lower[node]  # from the view of the player who moved into the node
                into = 1 - tomove[node]
                result = DRAW if p == 0 else (into if p == 1 else 1 - into)
                break
            u = untried[node]
            if u:
                cell = nth_cell(u, rng_below(st, popcount(u)))
                bit = cell_bit(cell)
                untried[node] = u & ~bit
                child = nodes
                nodes += 1
                mover = tomove[node]
                x0 = nb0[node]
                x1 = nb1[node]
                full = (x0 | x1 | bit) == full_mask
                a0 = int(na0[node])
                a1 = int(na1[node])
                if mover == 0:
                    x0 |= bit
                    out, a0, a1 = claim_after(
                        rule, maker, 0, x0, x1, cell, full, lines, through, nthrough, a0, a1
                    )
                else:
                    x1 |= bit
                    out, a0, a1 = claim_after(
                        rule, maker, 1, x1, x0, cell, full, lines, through, nthrough, a0, a1
                    )
                nb0[child] = x0
                nb1[child] = x1
                na0[child] = a0
                na1[child] = a1
                tomove[child] = 1 - mover
                move[child] = cell
                sibling[child] = -1
                if first[node] == -1:
                    first[node] = child
                else:
                    sibling[last[node]] = child
                last[node] = child
                outcome[child] = out
                first[child] = -1
                last[child] = -1
                visits[child] = 0
                value[child] = 0.0
                lower[child] = -1
                upper[child] = 1
                untried[child] = 0
                if out == RUNNING:
                    untried[child] = full_mask & ~(x0 | x1)
                    result = rollout(
                        x0, x1, 1 - mover, a0, a1, full_mask, rule, maker, lines, through, nthrough, st
                    )
                else:
                    result = out
                    if solver:
                        p = 0 if out == DRAW else (1 if out == mover else -1)
                        lower[child] = p
                        upper[child] = p
                depth += 1
                path[depth] = child
                break
            # every move expanded: descend to the best child by UCT; in solver mode skipping
            # the children whose upper bound cannot beat the best lower bound among them
            # (the node's upper bound, negated: it is kept for the player who moved into it)
            floor = -upper[node] if solver else -2
            log_n = math.log(visits[node])
            best = -1
            best_score = -1e300
            ch = first[node]
            while ch != -1:
                if upper[ch] > floor:
                    score = value[ch] / visits[ch] + c * math.sqrt(log_n / visits[ch])
                    if score > best_score:
                        best_score = score
                        best = ch
                ch = sibling[ch]
            if best == -1:  # cannot happen: an unsolved node has a child above its floor
                best = first[node]
            node = best
            depth += 1
            path[depth] = node
        # back-propagation, leaf to root
        for i in range(depth, -1, -1):
            n = path[i]
            visits[n] += 1
            into = 1 - tomove[n]
            if result == DRAW:
                pass
            elif result == into:
                value[n] += 1.0
            else:
                value[n] -= 1.0
        # bounds, from the leaf's parent up, while they change: for the mover at a node, its
        # value is at least its best child's lower bound and at most its best child's upper
        # bound (1 while a move is untried); stored negated, for the player who moved into it
        if solver:
            for i in range(depth - 1, -1, -1):
                n = path[i]
                best_lo = -1
                best_hi = 1 if untried[n] else -1
                ch = first[n]
                while ch != -1:
                    if lower[ch] > best_lo:
                        best_lo = lower[ch]
                    if upper[ch] > best_hi:
                        best_hi = upper[ch]
                    ch = sibling[ch]
                if lower[n] == -best_hi and upper[n] == -best_lo:
                    break
                lower[n] = -best_hi
                upper[n] = -best_lo
    # the root's children, in the order they were expanded
    count = 0
    ch = first[0]
    while ch != -1:
        count += 1
        ch = sibling[ch]
    moves = np.zeros(count, dtype=np.int64)
    cv = np.zeros(count, dtype=np.int64)
    cw = np.zeros(count, dtype=np.float64)
    cl = np.zeros(count, dtype=np.int64)
    cu = np.zeros(count, dtype=np.int64)
    ch = first[0]
    i = 0
    while ch != -1:
        moves[i] = move[ch]
        cv[i] = visits[ch]
        cw[i] = value[ch]
        cl[i] = lower[ch]
        cu[i] = upper[ch]
        ch = sibling[ch]
        i += 1
    return moves, cv, cw, cl, cu, done, nodes, -upper[0], -lower[0]
