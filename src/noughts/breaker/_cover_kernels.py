"""Numba kernels of the general pairing finder (:mod:`noughts.breaker.cover` is their face).

A *pairing* in the general sense is a set of disjoint pairs of free cells such that every live
line (one the breaking side has not touched) contains both cells of some pair: the breaking
side answers a move on one cell of a pair with the other, and no live line can be completed.
002 §3 finds pairings as matchings of the line-copy graph (each live line gets two cells of its
own); where lines overlap (``mnk(7,7,5)``: the three lines of a row of 7 share the middle three
cells) one pair can serve several lines, and the matching misses most pairings.

**Blocks.** The live lines of one segment (:class:`noughts.core.tables.Segments`) form *runs*
of consecutive windows between the breaker's cells. A pair covers exactly the windows of its
run that contain both its cells, an interval of starts, so in any pairing the windows of a run
can be grouped into contiguous *blocks*, each covered by one pair of its own (assign each
window to the covering pair of least (range start, range end); the groups are contiguous). A
pair covers every window of a block ``[x, y]`` (starts ``x`` to ``y``) iff both its cells lie
in the block's common part, positions ``y`` to ``x + k - 1``. So a pairing exists iff for some
choice of blocks in every run, the *demands* (two copies per block, each matched to a free
cell of its block's common part, no cell twice) have a saturating matching: a partition of each
run into blocks, and one bipartite matching.

**Search.** Runs are decided one at a time (those with one possible partition first); each
choice adds its blocks' demands to the matching by augmenting paths (Kuhn's method, 002 §3.2)
and is undone from a snapshot when a later run cannot be fitted. An undecided run holds a
*relaxation* demand, two cells of its first window (every partition's first block takes its pair
from there), so a hopeless branch fails early. Each run offers the compositions of its windows
into blocks of at most ``k - 1`` windows, fewest blocks first, at most ``OPTIONS`` of them
(:mod:`noughts.breaker.cover` builds the table), and the search stops after ``step_cap``
augmenting paths: so "none found" is not a proof that there is none, only the found pairing is
a result (and it is checked by whoever uses it). Where every segment holds one window (the n^d
cubes with ``k = n``), this is exactly 002's matching.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from noughts.kernels.codes import CUTOFF, FOUND, NOT_FOUND

__all__ = ["ABSENT", "FOUND", "UNKNOWN", "find_cover"]

ABSENT = NOT_FOUND
UNKNOWN = CUTOFF  # the step cap ran out

# rows of the integer work array ``work`` (see :func:`find_cover`): one row per run
R_SEG = 0
R_X0 = 1
R_X1 = 2
R_NOPT = 3  # compositions of the run that fit the free cells
R_OPT = 4  # the composition tried now (index into the run's valid list)
R_DEMAND0 = 5  # the run's first demand id now in use
R_NDEMAND = 6
R_SNAP = 7  # 1 if the run's level took a snapshot
NUM_R = 8


@njit(cache=True)
def _augment(
    c0: int,
    d_seg: np.ndarray,
    d_lo: np.ndarray,
    d_hi: np.ndarray,
    seg_cells: np.ndarray,
    free: np.ndarray,
    mate_copy: np.ndarray,
    mate_cell: np.ndarray,
    par: np.ndarray,
    seen: np.ndarray,
    stamp: int,
    queue: np.ndarray,
) -> int:  # pragma: no cover - numba
    """Match copy ``c0`` by one breadth-first augmenting path: -1 when done, else (no path) the
    number of copies the search reached, ``queue[:n]`` (a set of demands short of cells).

    Copy ``c`` belongs to demand ``c >> 1``, whose free cells are those of segment ``d_seg[d]``
    at positions ``d_lo[d]`` to ``d_hi[d]``.
    """
    head = 0
    tail = 0
    queue[tail] = c0
    tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        d = c >> 1
        s = d_seg[d]
        for p in range(d_lo[d], d_hi[d] + 1):
            v = seg_cells[s, p]
            if free[v] == 0 or seen[v] == stamp:
                continue
            seen[v] = stamp
            par[v] = c
            if mate_cell[v] < 0:
                while True:  # flip the path back to c0
                    cc = par[v]
                    prev = mate_copy[cc]
                    mate_copy[cc] = v
                    mate_cell[v] = cc
                    if cc == c0:
                        return -1
                    v = prev
            queue[tail] = mate_cell[v]
            tail += 1
    return tail


@njit(cache=True)
def _block_ok(
    s: int, x: int, y: int, k: int, seg_cells: np.ndarray, free: np.ndarray
) -> bool:  # pragma: no cover
    """Whether block ``[x, y]`` of segment ``s`` has two free cells in its common part."""
    n = 0
    for p in range(y, x + k):
        if free[seg_cells[s, p]] == 1:
            n += 1
            if n == 2:
                return True
    return False


@njit(cache=True)
def _composition_ok(
    s: int, x0: int, parts: np.ndarray, lo: int, hi: int, k: int, seg_cells: np.ndarray, free: np.ndarray
) -> bool:  # pragma: no cover
    x = x0
    for i in range(lo, hi):
        y = x + parts[i] - 1
        if not _block_ok(s, x, y, k, seg_cells, free):
            return False
        x = y + 1
    return True


@njit(cache=True)
def find_cover(
    seg_cells: np.ndarray,
    seg_len: np.ndarray,
    seg_window: np.ndarray,
    k: int,
    free: np.ndarray,
    live: np.ndarray,
    comp_ptr: np.ndarray,
    comp_parts_ptr: np.ndarray,
    comp_parts: np.ndarray,
    step_cap: int,
    work: np.ndarray,
    d_seg: np.ndarray,
    d_lo: np.ndarray,
    d_hi: np.ndarray,
    d_live: np.ndarray,
    mate_copy: np.ndarray,
    mate_cell: np.ndarray,
    snap_copy: np.ndarray,
    snap_cell: np.ndarray,
    par: np.ndarray,
    seen: np.ndarray,
    queue: np.ndarray,
    order: np.ndarray,
    d_level: np.ndarray,
    conflict: np.ndarray,
    stats: np.ndarray,
) -> int:  # pragma: no cover - numba
    """Find a pairing of the live lines (``live[j] == 1``) on the free cells (``free[c] == 1``).

    Returns :data:`FOUND` (the demands ``d`` with ``d_live[d] == 1`` are the blocks, each with
    its two cells ``mate_copy[2d]``, ``mate_copy[2d + 1]``), :data:`ABSENT` (no choice of the
    offered compositions fits) or :data:`UNKNOWN` (``step_cap`` augmenting paths spent).

    Compositions: for a run of ``r`` windows, ``comp_ptr[r]`` to ``comp_ptr[r + 1]`` index the
    compositions, composition ``i`` has parts ``comp_parts[comp_parts_ptr[i]:comp_parts_ptr[i+1]]``.
    ``work`` is an int64 array of at least ``NUM_R * runs``; the demand arrays hold at least
    ``runs + lines`` demands; ``snap_copy``/``snap_cell`` hold ``runs`` snapshots of the mate
    arrays; ``d_level[d]``: the level that added demand ``d`` (-1: no choice); ``conflict`` (at
    least runs x runs, 0/1): per level with a choice, the earlier levels its failures involved
    (conflict-directed backjumping: a failed augmenting search reaches a set of demands short of
    cells, and only the levels that added them can cure it); ``stats[0]`` gets the augmenting
    paths spent, ``stats[1]`` the number of demands.
    """
    n_seg = seg_len.shape[0]
    n_copy = mate_copy.shape[0]
    n_cell = free.shape[0]
    # -- the runs of live windows
    n_run = 0
    for s in range(n_seg):
        nw = seg_len[s] - k + 1
        x = 0
        while x < nw:
            j = seg_window[s, x]
            if j < 0 or live[j] == 0:
                x += 1
                continue
            x0 = x
            while x < nw and seg_window[s, x] >= 0 and live[seg_window[s, x]] == 1:
                nfree = 0
                for p in range(x, x + k):
                    nfree += free[seg_cells[s, p]]
                if nfree < 2:
                    stats[0] = 0
                    stats[1] = 0
                    return ABSENT  # a live line with fewer than two free cells
                x += 1
            base = NUM_R * n_run
            work[base + R_SEG] = s
            work[base + R_X0] = x0
            work[base + R_X1] = x - 1
            n_run += 1
    # -- how many compositions of each run fit; runs with one go first
    n_demand = n_run  # ids [0, n_run): the runs' relaxation demands
    for r in range(n_run):
        base = NUM_R * r
        s = work[base + R_SEG]
        x0 = work[base + R_X0]
        nwin = work[base + R_X1] - x0 + 1
        cnt = 0
        for i in range(comp_ptr[nwin], comp_ptr[nwin + 1]):
            if _composition_ok(
                s, x0, comp_parts, comp_parts_ptr[i], comp_parts_ptr[i + 1], k, seg_cells, free
            ):
                cnt += 1
        if cnt == 0:
            stats[0] = 0
            stats[1] = 0
            return ABSENT
        work[base + R_NOPT] = cnt
        work[base + R_OPT] = -1
        # relaxation demand: two free cells of the first window
        d_seg[r] = s
        d_lo[r] = x0
        d_hi[r] = x0 + k - 1
        d_live[r] = 1 if cnt > 1 else 0
        d_level[r] = -1
        order[r] = r
    # insertion sort by number of options (stable)
    for i in range(1, n_run):
        v = order[i]
        key = work[NUM_R * v + R_NOPT]
        t = i
        while t > 0 and work[NUM_R * order[t - 1] + R_NOPT] > key:
            order[t] = order[t - 1]
            t -= 1
        order[t] = v
    for c in range(n_copy):
        mate_copy[c] = -1
    for v in range(n_cell):
        mate_cell[v] = -1
    stamp = seen.max() + 1 if seen.shape[0] > 0 else 1
    steps = 0
    first_multi = 0
    while first_multi < n_run and work[NUM_R * order[first_multi] + R_NOPT] == 1:
        first_multi += 1
    # the runs with one composition: their blocks' demands, matched greedily to free cells
    # first (one pass), then by augmenting paths for the copies left over (large boards)
    for level in range(first_multi):
        r = order[level]
        base = NUM_R * r
        s = work[base + R_SEG]
        x0 = work[base + R_X0]
        nwin = work[base + R_X1] - x0 + 1
        work[base + R_DEMAND0] = n_demand
        found = -1
        for i in range(comp_ptr[nwin], comp_ptr[nwin + 1]):
            if _composition_ok(
                s, x0, comp_parts, comp_parts_ptr[i], comp_parts_ptr[i + 1], k, seg_cells, free
            ):
                found = i
                break
        x = x0
        for t in range(comp_parts_ptr[found], comp_parts_ptr[found + 1]):
            y = x + comp_parts[t] - 1
            d = n_demand
            n_demand += 1
            d_seg[d] = s
            d_lo[d] = y
            d_hi[d] = x + k - 1
            d_live[d] = 1
            d_level[d] = -1
            x = y + 1
    for d in range(n_demand):
        if d_live[d] == 0:
            continue
        for c in range(2 * d, 2 * d + 2):
            for p in range(d_lo[d], d_hi[d] + 1):
                v = seg_cells[d_seg[d], p]
                if free[v] == 1 and mate_cell[v] < 0:
                    mate_cell[v] = c
                    mate_copy[c] = v
                    break
    for d in range(n_demand):
        if d_live[d] == 0:
            continue
        for c in range(2 * d, 2 * d + 2):
            if mate_copy[c] >= 0:
                continue
            steps += 1
            if (
                _augment(c, d_seg, d_lo, d_hi, seg_cells, free, mate_copy, mate_cell, par, seen, stamp, queue)
                >= 0
            ):
                stats[0] = steps
                stats[1] = 0
                return ABSENT
            stamp += 1
    # -- depth-first over the runs with a choice, in ``order``
    high = n_demand  # demand ids below this may be live
    level = first_multi
    entering = True
    forced_steps = steps  # the cap counts the search's steps, not the one matching of the forced runs
    while True:
        if level == n_run:
            stats[0] = steps
            stats[1] = n_demand
            return FOUND
        if steps - forced_steps > step_cap:
            stats[0] = steps
            stats[1] = 0
            return UNKNOWN
        r = order[level]
        base = NUM_R * r
        s = work[base + R_SEG]
        x0 = work[base + R_X0]
        nwin = work[base + R_X1] - x0 + 1
        multi = level >= first_multi
        if entering:
            work[base + R_DEMAND0] = n_demand
            work[base + R_OPT] = -1
            if multi:
                for c in range(n_copy):
                    snap_copy[level - first_multi, c] = mate_copy[c]
                for v in range(n_cell):
                    snap_cell[level - first_multi, v] = mate_cell[v]
                for t in range(level):
                    conflict[level - first_multi, t] = 0
        # the next composition that fits
        found = -1
        valid = -1
        for i in range(comp_ptr[nwin], comp_ptr[nwin + 1]):
            if _composition_ok(
                s, x0, comp_parts, comp_parts_ptr[i], comp_parts_ptr[i + 1], k, seg_cells, free
            ):
                valid += 1
                if valid > work[base + R_OPT]:
                    found = i
                    work[base + R_OPT] = valid
                    break
        ok = found >= 0
        if ok:
            if d_live[r] == 1:  # the relaxation demand gives way to the blocks
                d_live[r] = 0
                for c in range(2 * r, 2 * r + 2):
                    v = mate_copy[c]
                    if v >= 0:
                        mate_cell[v] = -1
                        mate_copy[c] = -1
            x = x0
            for t in range(comp_parts_ptr[found], comp_parts_ptr[found + 1]):
                y = x + comp_parts[t] - 1
                d = n_demand
                n_demand += 1
                if n_demand > high:
                    high = n_demand
                d_seg[d] = s
                d_lo[d] = y
                d_hi[d] = x + k - 1
                d_live[d] = 1
                d_level[d] = level if multi else -1
                for c in range(2 * d, 2 * d + 2):
                    mate_copy[c] = -1
                for c in range(2 * d, 2 * d + 2):
                    steps += 1
                    reached = _augment(
                        c, d_seg, d_lo, d_hi, seg_cells, free, mate_copy, mate_cell, par, seen, stamp, queue
                    )
                    stamp += 1
                    if reached >= 0:
                        ok = False
                        if multi:  # the levels whose blocks are short of cells with this one
                            for q in range(reached):
                                lv = d_level[queue[q] >> 1]
                                if 0 <= lv < level:
                                    conflict[level - first_multi, lv] = 1
                        break
                if not ok:
                    break
                x = y + 1
        if ok:
            level += 1
            entering = True
            continue
        if not multi:  # a run with no choice fails: no choice made so far can help
            stats[0] = steps
            stats[1] = 0
            return ABSENT
        if found >= 0:  # retry this level's next composition from its snapshot
            target = level
        else:  # every composition failed: back to the latest level among the conflicts
            target = -1
            for t in range(level - 1, first_multi - 1, -1):
                if conflict[level - first_multi, t] == 1:
                    target = t
                    break
            if target < 0:
                stats[0] = steps
                stats[1] = 0
                return ABSENT
            for t in range(target):
                if conflict[level - first_multi, t] == 1:
                    conflict[target - first_multi, t] = 1
            level = target
        # restore the level's snapshot: its matching, demands and relaxation demands
        for c in range(n_copy):
            mate_copy[c] = snap_copy[level - first_multi, c]
        for v in range(n_cell):
            mate_cell[v] = snap_cell[level - first_multi, v]
        n_demand = work[NUM_R * order[level] + R_DEMAND0]
        for d in range(n_demand, high):
            d_live[d] = 0
        for t in range(level, n_run):
            rt = order[t]
            d_live[rt] = 1 if work[NUM_R * rt + R_NOPT] > 1 else 0
        entering = False
