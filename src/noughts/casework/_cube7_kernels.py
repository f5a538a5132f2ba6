"""Numba kernels of the 7x7x7 casework (:mod:`noughts.casework.cube7` is their Python face).

The bipartite graph of 002 §3: each surviving line twice ("copies" ``2l`` and ``2l+1``) on one
side, the free cells on the other, an edge where a cell lies on the line. A pairing for Breaker
is a matching that saturates the copies. Arrays:

* ``line_cells[l, :]``: the cells of line ``l``; ``ptr``/``lines_at``: the lines through each
  cell (CSR);
* ``mate_copy[c]``: the cell matched to copy ``c`` or -1; ``mate_cell[v]``: the copy matched
  to cell ``v`` or -1.

One call, :func:`settle_nodes`, settles a run of *nodes* (a node: every Maker and Breaker move
but the last round fixed). At a node Breaker's last reply is the first free cell ``f0`` of a
priority list, unless Maker's last move takes ``f0`` (then the next free one, ``f1``). So every
leaf but one is "the node with Breaker on ``f0``, minus Maker's cell ``m``":

1. **Repair, do not rebuild.** The matching of the previous node is kept: pairs whose line
   Breaker has now touched or whose cell is now taken are dropped, and each unmatched copy is
   re-matched by one breadth-first augmenting-path search (Hopcroft-Karp's phase with a single
   path; consecutive nodes differ by a move or two, so a few searches suffice).
2. **All children at once (Dulmage-Mendelsohn).** With a matching that saturates the copies,
   Maker's taking cell ``m`` leaves a saturating matching iff ``m`` is unmatched or reachable
   from an unmatched cell by an even alternating path (the matched copy of ``m`` can shift one
   step along the path towards the free cell). One breadth-first search from every unmatched
   cell marks all such cells; the leaves whose ``m`` is unmarked are exactly the failures.
3. The one leaf where Maker takes ``f0`` keeps a matching of its own, repaired as in 1 from
   the previous node's ``f0`` leaf (repairing it from the node's matching instead costs about
   twelve augmenting paths, one per copy of a line through ``f0``: 70% of the time).

Each node's matching is written as a delta against the previous node's, and each ``f0`` leaf's
against the previous ``f0`` leaf's (the certificate; a chunk starts both from nothing). Only
copies that get a cell are written: a copy left without one belongs to a line Breaker has
touched, which the checker ignores.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["alive_lines", "augment", "settle_nodes"]


@njit(cache=True)
def alive_lines(
    line_cells: np.ndarray,
    ptr: np.ndarray,
    lines_at: np.ndarray,
    breaker_cells: np.ndarray,
    nb: int,
    alive: np.ndarray,
) -> None:  # pragma: no cover - numba
    """Mark in ``alive`` the lines with none of the first ``nb`` cells of ``breaker_cells``."""
    alive[:] = 1
    for i in range(nb):
        b = breaker_cells[i]
        for j in range(ptr[b], ptr[b + 1]):
            alive[lines_at[j]] = 0


@njit(cache=True)
def augment(
    c0: int,
    line_cells: np.ndarray,
    free: np.ndarray,
    mate_copy: np.ndarray,
    mate_cell: np.ndarray,
    par: np.ndarray,
    seen: np.ndarray,
    stamp: int,
    queue: np.ndarray,
) -> bool:  # pragma: no cover
    """Match copy ``c0`` by one breadth-first augmenting path; False if there is none."""
    k = line_cells.shape[1]
    head = 0
    tail = 0
    queue[tail] = c0
    tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        line = c >> 1
        for i in range(k):
            v = line_cells[line, i]
            if free[v] == 0 or seen[v] == stamp:
                continue
            seen[v] = stamp
            par[v] = c
            if mate_cell[v] < 0:
                # flip the path back to c0
                while True:
                    cc = par[v]
                    prev = mate_copy[cc]
                    mate_copy[cc] = v
                    mate_cell[v] = cc
                    if cc == c0:
                        return True
                    v = prev
            queue[tail] = mate_cell[v]
            tail += 1
    return False


@njit(cache=True)
def _repair(
    line_cells: np.ndarray,
    alive: np.ndarray,
    free: np.ndarray,
    mate_copy: np.ndarray,
    mate_cell: np.ndarray,
    par: np.ndarray,
    seen: np.ndarray,
    stamp: int,
    queue: np.ndarray,
) -> tuple[bool, int]:  # pragma: no cover
    """Drop invalid pairs, then augment every unmatched copy of a live line; False if one fails.

    Returns (ok, stamp) so the caller keeps the visit stamp increasing.
    """
    n_copies = mate_copy.shape[0]
    for c in range(n_copies):
        v = mate_copy[c]
        if v >= 0 and (alive[c >> 1] == 0 or free[v] == 0):
            mate_copy[c] = -1
            if mate_cell[v] == c:
                mate_cell[v] = -1
    for v in range(mate_cell.shape[0]):
        c = mate_cell[v]
        if c >= 0 and (free[v] == 0 or mate_copy[c] != v):
            mate_cell[v] = -1
    ok = True
    for c in range(n_copies):
        if alive[c >> 1] == 1 and mate_copy[c] < 0:
            stamp += 1
            if not augment(c, line_cells, free, mate_copy, mate_cell, par, seen, stamp, queue):
                ok = False
                break
    return ok, stamp


@njit(cache=True)
def settle_nodes(
    line_cells: np.ndarray,
    ptr: np.ndarray,
    lines_at: np.ndarray,
    n_cells: int,
    maker: np.ndarray,
    breaker: np.ndarray,
    prio: np.ndarray,
    domain_id: np.ndarray,
    domains: np.ndarray,
    out_leaves: np.ndarray,
    out_fail_node: np.ndarray,
    out_fail_cell: np.ndarray,
    d1_ptr: np.ndarray,
    d1_copy: np.ndarray,
    d1_cell: np.ndarray,
    d2_ptr: np.ndarray,
    d2_copy: np.ndarray,
    d2_cell: np.ndarray,
) -> tuple[int, int, int]:  # pragma: no cover - numba
    """Settle nodes ``0..N-1`` in order (see the module docstring); returns the failure count.

    ``maker[i]``/``breaker[i]``: the node's moves (-1 padded); ``prio[i]``: Breaker's last
    priority list; ``domains[domain_id[i]]``: the cells Maker's last move may take (canonical
    domain, as a 0/1 row). Fills ``out_leaves[i]`` (leaves of node i), the failing leaves
    (node, Maker's cell), and the two delta streams (CSR by node).
    """
    n_lines = line_cells.shape[0]
    n_copies = 2 * n_lines
    mate_copy = np.full(n_copies, -1, np.int32)
    mate_cell = np.full(n_cells, -1, np.int32)
    prev = np.full(n_copies, -1, np.int32)
    prev2 = np.full(n_copies, -1, np.int32)
    mate2_copy = np.full(n_copies, -1, np.int32)
    mate2_cell = np.full(n_cells, -1, np.int32)
    free = np.ones(n_cells, np.uint8)
    free2 = np.ones(n_cells, np.uint8)
    alive = np.ones(n_lines, np.uint8)
    alive2 = np.ones(n_lines, np.uint8)
    par = np.zeros(n_cells, np.int32)
    seen = np.zeros(n_cells, np.int64)
    reach = np.zeros(n_cells, np.uint8)
    queue = np.zeros(n_copies + n_cells + 1, np.int32)
    bcells = np.zeros(breaker.shape[1] + 1, np.int32)
    stamp = 0
    n_fail = 0
    n1 = 0
    n2 = 0
    for i in range(maker.shape[0]):
        free[:] = 1
        for j in range(maker.shape[1]):
            if maker[i, j] >= 0:
                free[maker[i, j]] = 0
        nb = 0
        for j in range(breaker.shape[1]):
            if breaker[i, j] >= 0:
                free[breaker[i, j]] = 0
                bcells[nb] = breaker[i, j]
                nb += 1
        f0 = -1
        f0_at = -1
        for j in range(prio.shape[1]):
            p = prio[i, j]
            if p >= 0 and free[p] == 1:
                f0 = p
                f0_at = j
                break
        dom = domain_id[i]
        leaves = 0
        if f0 < 0:  # Breaker's rule has no free cell: every leaf fails
            for v in range(n_cells):
                if free[v] == 1 and domains[dom, v] == 1:
                    leaves += 1
                    out_fail_node[n_fail] = i
                    out_fail_cell[n_fail] = v
                    n_fail += 1
            out_leaves[i] = leaves
            d1_ptr[i + 1] = n1
            d2_ptr[i + 1] = n2
            continue
        # group 1: Breaker on f0, Maker anywhere else
        free[f0] = 0
        bcells[nb] = f0
        alive_lines(line_cells, ptr, lines_at, bcells, nb + 1, alive)
        ok, stamp = _repair(line_cells, alive, free, mate_copy, mate_cell, par, seen, stamp, queue)
        for c in range(n_copies):
            if mate_copy[c] != prev[c]:
                if mate_copy[c] >= 0:  # a copy left unmatched needs no entry: its line is dead
                    d1_copy[n1] = c
                    d1_cell[n1] = mate_copy[c]
                    n1 += 1
                prev[c] = mate_copy[c]
        d1_ptr[i + 1] = n1
        reach[:] = 0
        if ok:
            head = 0
            tail = 0
            for v in range(n_cells):
                if free[v] == 1 and mate_cell[v] < 0:
                    reach[v] = 1
                    queue[tail] = v
                    tail += 1
            while head < tail:
                u = queue[head]
                head += 1
                for j in range(ptr[u], ptr[u + 1]):
                    line = lines_at[j]
                    if alive[line] == 0:
                        continue
                    for c in range(2 * line, 2 * line + 2):
                        v = mate_copy[c]
                        if v >= 0 and v != u and reach[v] == 0:
                            reach[v] = 1
                            queue[tail] = v
                            tail += 1
        for v in range(n_cells):
            if free[v] == 1 and domains[dom, v] == 1:
                leaves += 1
                if reach[v] == 0:
                    out_fail_node[n_fail] = i
                    out_fail_cell[n_fail] = v
                    n_fail += 1
        # group 2: Maker takes f0, Breaker the next free cell of the list
        if domains[dom, f0] == 1:
            leaves += 1
            f1 = -1
            for j in range(f0_at + 1, prio.shape[1]):
                p = prio[i, j]
                if p >= 0 and free[p] == 1:
                    f1 = p
                    break
            ok2 = False
            if f1 >= 0:
                free2[:] = free
                free2[f1] = 0
                bcells[nb] = f1
                alive_lines(line_cells, ptr, lines_at, bcells, nb + 1, alive2)
                # repaired from the previous node's f0-leaf matching, which differs by a move
                ok2, stamp = _repair(
                    line_cells, alive2, free2, mate2_copy, mate2_cell, par, seen, stamp, queue
                )
                for c in range(n_copies):
                    if mate2_copy[c] != prev2[c]:
                        if mate2_copy[c] >= 0:
                            d2_copy[n2] = c
                            d2_cell[n2] = mate2_copy[c]
                            n2 += 1
                        prev2[c] = mate2_copy[c]
            if not ok2:
                out_fail_node[n_fail] = i
                out_fail_cell[n_fail] = f0
                n_fail += 1
        d2_ptr[i + 1] = n2
        out_leaves[i] = leaves
    return n_fail, n1, n2
