"""The MCTS kernel for claim games on any board: the UCT, rollouts and solver of the reference in
:mod:`noughts.agents.mcts`, written once over the mask operations of :mod:`noughts.kernels.masks`
and compiled for both representations of a mask (one ``uint64`` on boards of at most 64 cells,
``W`` words on any board), as the exact solver's search is (:mod:`noughts.exact._kernels`).

**The tree** lives in arrays the Python driver allocates and keeps, so a search runs in slices of
simulations and goes on exactly where it stopped (the driver checks its clock between slices;
the random stream's state is one of the arrays, so a search cut into slices makes the same
choices as one run whole). Node 0 is the root; a node's children form a linked list in the order
they were expanded (``first``, ``last``, ``sibling``; the fields of a node lie side by side, in
one record, :data:`NODE`); ``untried`` holds each node's legal moves not yet expanded (``(cap,
1)`` uint64, or ``(cap, 1, W)``); values and the solver's bounds on the exact value (``lower``,
``upper``) are from the view of the player who moved into the node.

**Selection** runs only at a node whose moves are all expanded; when its last move is, its
children are listed side by side in ``kids`` (from ``kid0``, ``nkids`` of them, a :data:`KID`
each; a node's ``slot`` is its place there, -1 while it has none, and since each node is one
node's child ``kids`` needs no more room than the nodes). A child's entry holds what choosing it
reads, kept up to date with its record: its upper bound and, when its visits change, ``avg =
value / visits`` and ``spread = 1 / sqrt(visits)``; the score is ``avg + explore * spread``
with ``explore = c * sqrt(ln N)`` for the parent's ``N`` visits, the reference's UCB1 operation
for operation (so the same doubles). So choosing among the ~330 children a simulation scores on
15x15 (100,000 simulations) reads one array in order, with no division or square root, where
following ``sibling`` from record to record (far apart in a big tree) waited for each load.

**Positions are not stored per node.** A simulation starts from the root's line counts
(``cnt[j, p]``: player ``p``'s marks on line ``j``), its aux values and its empty cells, and
replays the moves of the path it walks; each claim is judged from the counts
(:func:`noughts.kernels.counts.claim_counted`, held to the rules claim by claim), and the
rollout goes on from the same counts and empty cells. So a node costs a few words whatever the board,
and a claim costs the lines through one cell, not the words of every line.

**Random numbers** come from one SplitMix64 stream (:mod:`noughts.kernels.bits`), drawn where the
reference draws them: a new node takes the ``k``-th untried move (cells in increasing order, as
``legal_moves()`` lists them), ``k`` below the number of choices. A rollout lists the empty cells
in increasing order once, at its start (``cells``, ``n`` of them), then each move takes
``cells[r]``, ``r`` below ``n``, and moves the last listed cell into its place: one draw and one
swap a move, where taking the ``r``-th set bit of a W-word mask walked its words (half the
rollout's time on 15x15). So the kernel makes exactly the reference's choices, and the tests
hold the two to the same root statistics bit for bit, with one-word masks and with W words
(small boards forced to W words, and boards over 64 cells).

**The counts** are copied from the root's at the start of each simulation as 64-bit words
(``cnt_words`` holds the same bytes as ``cnt``, the root's ``cnt0_words`` those of its counts:
the driver pads the counts to whole words).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from noughts.kernels.bits import ONE, lowest_cell, rng_below
from noughts.kernels.codes import DRAW, RUNNING
from noughts.kernels.counts import claim_counted
from noughts.kernels.masks import (
    assign,
    count,
    nonzero,
    nth,
    put,
    row,
    tmp_row,
    width,
    without_cell,
    word,
    zero,
)

# stats[]: what a search has done so far (kept between slices)
S_NODES = 0
S_DONE = 1
S_KIDS = 2
NUM_STATS = 3


@njit(cache=True, inline="always")
def _grow(rule: int, board: tuple, root: tuple, tree: tuple, scratch: tuple, st: np.ndarray,  # type: ignore[type-arg]
          stats: np.ndarray, sims: int, room: int, c: float, solver: bool) -> None:  # fmt: skip
    """Run simulations until ``stats[S_DONE]`` reaches ``sims`` (or, with the solver, the root
    is solved, or the tree holds ``room`` nodes: a simulation adds at most one); the tree, the
    stream ``st`` and ``stats`` keep everything for the next call.

    ``rule``: the claim rule, a constant of the kernel this body is inlined into (see
    :func:`grow`); ``board = (maker, k, through, nthrough, w)``; ``root = (cnt0_words, empty, n,
    aux0, aux1)``: the root's line counts (as 64-bit words), its empty cells (a mask, ``n``
    cells) and aux values; ``tree = (untried, nodes, kids)``, ``nodes`` a record array of
    :data:`NODE`, ``kids`` the children of the fully expanded nodes (:data:`KID`, see the module
    docstring); ``scratch = (cnt, cnt_words, path, masks, cells)``.
    """
    maker, k, through, nthrough, w = board
    cnt0_words, empty0, n0, aux0, aux1 = root
    untried, nd, kids = tree
    knode, kupper, kavg, kspread = kids.node, kids.upper, kids.avg, kids.spread
    value, visits, first, last, sibling, move = nd.value, nd.visits, nd.first, nd.last, nd.sibling, nd.move
    kid0, nkids, slot = nd.kid0, nd.nkids, nd.slot
    lower, upper, outcome, tomove = nd.lower, nd.upper, nd.outcome, nd.tomove
    cnt, cnt_words, path, masks, cells = scratch
    w = width(empty0, w)
    nodes = stats[S_NODES]
    done = stats[S_DONE]
    pool = stats[S_KIDS]
    while done < sims and nodes < room:
        if solver and lower[0] == upper[0]:
            break
        done += 1
        for j in range(cnt0_words.shape[0]):
            cnt_words[j] = cnt0_words[j]
        n = n0
        a0 = aux0
        a1 = aux1
        empty = assign(tmp_row(masks, 0), empty0, w)
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
            mover = tomove[node]
            u = row(untried, node, 0)
            if nonzero(u, w):
                cell = nth(u, rng_below(st, count(u, w)), w)
                u = without_cell(u, cell)
                put(untried, node, 0, u, w)
                child = nodes
                nodes += 1
                empty = without_cell(empty, cell)
                n -= 1
                out, a0, a1 = claim_counted(
                    rule, maker, mover, cnt, k, through, nthrough, cell, n == 0, a0, a1
                )
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
                kid0[child] = -1
                nkids[child] = 0
                slot[child] = -1
                visits[child] = 0
                value[child] = 0.0
                lower[child] = -1
                upper[child] = 1
                depth += 1
                path[depth] = child
                if out == RUNNING:
                    put(untried, child, 0, empty, w)
                    # the rollout: uniformly random moves to the end, from the counts, the
                    # empty cells listed in increasing order, each claimed one replaced by the last
                    m = 0
                    for i in range(w):
                        x = word(empty, i)
                        while x:
                            cells[m] = 64 * i + lowest_cell(x)
                            m += 1
                            x &= x - ONE
                    m = 1 - mover
                    while True:
                        r = rng_below(st, n)
                        rc = cells[r]
                        n -= 1
                        cells[r] = cells[n]
                        result, a0, a1 = claim_counted(
                            rule, maker, m, cnt, k, through, nthrough, rc, n == 0, a0, a1
                        )
                        if result != RUNNING:
                            break
                        m = 1 - m
                else:
                    put(untried, child, 0, zero(tmp_row(masks, 1), w), w)
                    result = out
                    if solver:
                        p = 0 if out == DRAW else (1 if out == mover else -1)
                        lower[child] = p
                        upper[child] = p
                if not nonzero(u, w):  # the node's last move: list its children side by side
                    kid0[node] = pool
                    ch = first[node]
                    while ch != -1:
                        knode[pool] = ch
                        kupper[pool] = upper[ch]
                        kavg[pool] = value[ch] / visits[ch] if visits[ch] else 0.0
                        kspread[pool] = 1.0 / math.sqrt(visits[ch]) if visits[ch] else 0.0
                        slot[ch] = pool
                        pool += 1
                        ch = sibling[ch]
                    nkids[node] = pool - kid0[node]
                break
            # every move expanded: descend to the best child by UCT; in solver mode skipping
            # the children whose upper bound cannot beat the best lower bound among them
            # (the node's upper bound, negated: it is kept for the player who moved into it)
            floor = -upper[node] if solver else -2
            explore = c * math.sqrt(math.log(visits[node]))
            best = -1
            best_score = -1e300
            for t in range(kid0[node], kid0[node] + nkids[node]):
                if kupper[t] > floor:
                    score = kavg[t] + explore * kspread[t]
                    if score > best_score:
                        best_score = score
                        best = t
            # best == -1 cannot happen: an unsolved node has a child above its floor
            node = knode[best] if best != -1 else first[node]
            cell = move[node]
            empty = without_cell(empty, cell)
            n -= 1
            _, a0, a1 = claim_counted(rule, maker, mover, cnt, k, through, nthrough, cell, n == 0, a0, a1)
            depth += 1
            path[depth] = node
        # back-propagation, leaf to root
        for i in range(depth, -1, -1):
            x = path[i]
            v = visits[x] + 1
            visits[x] = v
            into = 1 - tomove[x]
            if result == DRAW:
                pass
            elif result == into:
                value[x] += 1.0
            else:
                value[x] -= 1.0
            s = slot[x]
            if s != -1:
                kavg[s] = value[x] / v
                kspread[s] = 1.0 / math.sqrt(v)
        # bounds, from the leaf's parent up, while they change: for the mover at a node, its
        # value is at least its best child's lower bound and at most its best child's upper
        # bound (1 while a move is untried); stored negated, for the player who moved into it
        if solver:
            for i in range(depth - 1, -1, -1):
                x = path[i]
                best_lo = -1
                best_hi = 1 if nonzero(row(untried, x, 0), w) else -1
                ch = first[x]
                while ch != -1:
                    if lower[ch] > best_lo:
                        best_lo = lower[ch]
                    if upper[ch] > best_hi:
                        best_hi = upper[ch]
                    ch = sibling[ch]
                if lower[x] == -best_hi and upper[x] == -best_lo:
                    break
                lower[x] = -best_hi
                upper[x] = -best_lo
                if slot[x] != -1:
                    kupper[slot[x]] = -best_lo
    stats[S_NODES] = nodes
    stats[S_DONE] = done
    stats[S_KIDS] = pool


_GROW: dict[int, Any] = {}


def grow(rule: int) -> Any:
    """The search kernel of one claim rule (``game.claim_rule``), built on first use:
    ``grow(rule)(board, root, tree, scratch, st, stats, sims, room, c, solver)`` runs
    :func:`_grow`. The rule is a constant of its closure (numba keys its cache by it), so only
    that rule's code of :func:`~noughts.kernels.counts.claim_counted` is left in the rollout's
    loop (as :func:`noughts.envs._batch_kernels.rule_kernels` does for the batch playouts).
    """
    kernel = _GROW.get(rule)
    if kernel is None:

        @njit(cache=True)
        def kernel(board, root, tree, scratch, st, stats, sims, room, c, solver):  # type: ignore[no-untyped-def]
            _grow(rule, board, root, tree, scratch, st, stats, sims, room, c, solver)

        _GROW[rule] = kernel
    return kernel


NODE = np.dtype(
    [
        ("value", np.float64),
        ("visits", np.int64),
        ("first", np.int32),
        ("last", np.int32),
        ("sibling", np.int32),
        ("move", np.int32),
        ("kid0", np.int32),
        ("nkids", np.int32),
        ("slot", np.int32),
        ("lower", np.int8),
        ("upper", np.int8),
        ("outcome", np.int8),
        ("tomove", np.int8),
    ],
    align=True,
)
"""One node of the tree, its fields side by side (48 bytes)."""

KID = np.dtype(
    [("avg", np.float64), ("spread", np.float64), ("node", np.int32), ("upper", np.int8)], align=True
)
"""One child in the list of a fully expanded node's children (24 bytes): what choosing it reads."""


def tree_arrays(cap: int, words: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty tree of ``cap`` nodes (``words`` None: one-word masks): ``(untried, nodes, kids)``."""
    shape = (cap, 1) if words is None else (cap, 1, words)
    return np.empty(shape, dtype=np.uint64), np.empty(cap, dtype=NODE), np.empty(cap, dtype=KID)
