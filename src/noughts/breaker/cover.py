"""General pairings: pairs of free cells such that every live line holds one (lines may share).

002 §3 finds a pairing strategy as a matching that gives every surviving line two free cells of
its own (:mod:`noughts.pairing.matching`). That is exact where two lines share at most one cell
(the n^d cubes with lines of n cells), but where lines overlap one pair can serve several lines:
on ``mnk(7,7,5)`` the three lines of a row of 7 all contain its middle three cells, so one pair
there blocks the whole row. The breaking side's strategy is the same (answer a move on one cell
of a pair with the other; every live line holds both cells of a pair, so the opponent never
completes one), and it exists far more often: where a row of 7 keeps its three lines, 002's
matching spends six of its cells on them, while one pair of its middle three serves all three.

* :func:`find_cover_pairing` finds one with the block search of
  :mod:`noughts.breaker._cover_kernels` (a composition of each run of overlapping lines into
  blocks, each served by one pair, and one bipartite matching of the blocks' demands; numba);
  it can miss a pairing (the search is capped), never return a wrong one.
* :func:`exact_pairing` is the plain reference: an integer program over every candidate pair
  (at most one pair per cell, at least one pair inside every live line), solved by SciPy's
  ``milp`` (HiGHS); exact, and the fewest pairs.
* :func:`is_pairing` checks a set of pairs against a position.

>>> import noughts
>>> p = noughts.game("maker_breaker(mnk(7,7,5))").parse("......./......./......./...o.../......./......./x......")
>>> find_pairing_result = find_cover_pairing(p)
>>> find_pairing_result is None          # one move each: no pairing yet
True
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence

import numpy as np

from noughts.core import Player, Position
from noughts.core.board import Board

__all__ = [
    "DEFAULT_STEP_CAP",
    "OPTIONS",
    "CoverFinder",
    "compositions",
    "exact_pairing",
    "find_cover_pairing",
    "is_pairing",
]

OPTIONS = 16
"""At most this many compositions into blocks are tried per run of overlapping lines."""

DEFAULT_STEP_CAP = 4000
"""Augmenting paths one search may spend before it gives up (a few milliseconds)."""

Pairs = list[tuple[int, int]]


@functools.cache
def compositions(k: int, windows: int, options: int = OPTIONS) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each run length ``r`` in ``0..windows``, its compositions into blocks of at most
    ``k - 1`` windows, fewest blocks first (then the more balanced first), at most ``options``.

    >>> compositions(5, 3)[3]
    ((3,), (2, 1), (1, 2), (1, 1, 1))
    """
    out: list[tuple[tuple[int, ...], ...]] = [()]
    most = max(1, k - 1)
    for r in range(1, windows + 1):
        found: list[tuple[int, ...]] = []
        for t in range(-(-r // most), r + 1):
            level = [c for c in _compositions_into(r, t, most)]
            level.sort(key=lambda c: (max(c) - min(c), c[::-1]))
            found.extend(level)
            if len(found) >= options:
                break
        out.append(tuple(found[:options]))
    return tuple(out)


def _compositions_into(r: int, t: int, most: int) -> Iterable[tuple[int, ...]]:
    if t == 1:
        if 1 <= r <= most:
            yield (r,)
        return
    for first in range(1, min(most, r - t + 1) + 1):
        for rest in _compositions_into(r - first, t - 1, most):
            yield (first, *rest)


class CoverFinder:
    """The block search (:mod:`noughts.breaker._cover_kernels`) for one board, its work arrays
    allocated once. ``find(free, live)`` takes a 0/1 array per cell (free) and per line (live).
    """

    def __init__(self, board: Board, *, step_cap: int = DEFAULT_STEP_CAP, options: int = OPTIONS):
        seg = board.tables.segments
        self.board = board
        self.k = board.k
        self.step_cap = step_cap
        self.seg_cells = np.ascontiguousarray(seg.cells)
        self.seg_len = np.ascontiguousarray(seg.length)
        self.seg_window = np.ascontiguousarray(seg.window)
        windows = int(max(1, (seg.length - board.k + 1).max(initial=1)))
        table = compositions(board.k, windows, options)
        ptr = [0]
        parts_ptr = [0]
        parts: list[int] = []
        for r in range(windows + 1):
            for comp in table[r]:
                parts.extend(comp)
                parts_ptr.append(len(parts))
            ptr.append(len(parts_ptr) - 1)
        self.comp_ptr = np.array(ptr, dtype=np.int64)
        self.comp_parts_ptr = np.array(parts_ptr, dtype=np.int64)
        self.comp_parts = np.array(parts or [0], dtype=np.int64)
        n_lines = len(board.lines)
        n_cells = board.num_cells
        n_seg = len(seg.length)
        nwin = np.maximum(seg.length - board.k + 1, 0)
        runs = int(np.sum((nwin + 1) // 2)) + n_seg  # at most this many runs at once
        multi = int(np.sum(np.where(nwin >= 2, (nwin + 1) // 2, 0)))  # runs with a choice
        demands = runs + n_lines + 1
        self.work = np.zeros(8 * (runs + 1), dtype=np.int64)
        self.d_seg = np.zeros(demands, dtype=np.int64)
        self.d_lo = np.zeros(demands, dtype=np.int64)
        self.d_hi = np.zeros(demands, dtype=np.int64)
        self.d_live = np.zeros(demands, dtype=np.uint8)
        self.mate_copy = np.full(2 * demands, -1, dtype=np.int64)
        self.mate_cell = np.full(n_cells, -1, dtype=np.int64)
        levels = runs if multi else 1
        self.snap_copy = np.zeros((levels, 2 * demands), dtype=np.int64)
        self.snap_cell = np.zeros((levels, n_cells), dtype=np.int64)
        self.par = np.zeros(n_cells, dtype=np.int64)
        self.seen = np.zeros(n_cells, dtype=np.int64)
        self.queue = np.zeros(2 * demands + n_cells + 1, dtype=np.int64)
        self.order = np.zeros(runs + 1, dtype=np.int64)
        self.d_level = np.zeros(demands, dtype=np.int64)
        self.conflict = np.zeros((levels, runs + 1), dtype=np.uint8)
        self.stats = np.zeros(2, dtype=np.int64)

    def find(self, free: np.ndarray, live: np.ndarray) -> tuple[int, Pairs]:
        """``(status, pairs)``: status 1 found (the pairs), 0 none fits, -1 the step cap ran out."""
        from noughts.breaker._cover_kernels import FOUND, find_cover

        if not live.any():
            return FOUND, []
        self.seen[:] = 0
        status = find_cover(
            self.seg_cells,
            self.seg_len,
            self.seg_window,
            self.k,
            free,
            live,
            self.comp_ptr,
            self.comp_parts_ptr,
            self.comp_parts,
            self.step_cap,
            self.work,
            self.d_seg,
            self.d_lo,
            self.d_hi,
            self.d_live,
            self.mate_copy,
            self.mate_cell,
            self.snap_copy,
            self.snap_cell,
            self.par,
            self.seen,
            self.queue,
            self.order,
            self.d_level,
            self.conflict,
            self.stats,
        )
        if status != FOUND:
            return int(status), []
        pairs = []
        for d in range(int(self.stats[1])):
            if self.d_live[d]:
                a, b = int(self.mate_copy[2 * d]), int(self.mate_copy[2 * d + 1])
                pairs.append((min(a, b), max(a, b)))
        return int(status), sorted(pairs)


def _state(position: Position, breaker: Player | None) -> tuple[Board, int, int]:
    from noughts.pairing.hypergraph import breaking_side

    side = breaking_side(position, breaker)
    return position.game.board, position.owned(side.other), position.owned(side)


def _arrays(board: Board, maker: int, breaker: int) -> tuple[np.ndarray, np.ndarray]:
    taken = maker | breaker
    free = np.array([0 if taken >> c & 1 else 1 for c in range(board.num_cells)], dtype=np.uint8)
    live = np.array([0 if m & breaker else 1 for m in board.line_masks], dtype=np.uint8)
    return free, live


def find_cover_pairing(
    position: Position, breaker: Player | None = None, *, step_cap: int = DEFAULT_STEP_CAP
) -> Pairs | None:
    """A general pairing for the breaking side of ``position`` (pairs ``(a, b)``, ``a < b``), or
    None if the block search finds none (see the module docstring).
    """
    board, maker_bits, breaker_bits = _state(position, breaker)
    finder = _finder(board, step_cap)
    free, live = _arrays(board, maker_bits, breaker_bits)
    status, pairs = finder.find(free, live)
    return pairs if status == 1 else None


@functools.lru_cache(maxsize=8)
def _finder(board: Board, step_cap: int) -> CoverFinder:
    return CoverFinder(board, step_cap=step_cap)


def exact_pairing(board: Board, maker: int, breaker: int) -> Pairs | None:
    """The reference: a general pairing with the fewest pairs, or None if there is none.

    An integer program (SciPy ``milp``, HiGHS): a 0/1 variable per pair of free cells that lie
    together on a live line; each free cell in at most one chosen pair; each live line holds at
    least one chosen pair. ``maker``/``breaker``: the two sides' cells as bit masks.

    >>> from noughts.core.board import mnk
    >>> len(exact_pairing(mnk(5, 5, 5), 0, 0))      # one pair per line: 12 lines
    12
    >>> exact_pairing(mnk(5, 5, 4), 0, 0) is None   # lines of 4 of 5: too many for the cells
    True
    """
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    taken = maker | breaker
    live = [j for j, m in enumerate(board.line_masks) if not m & breaker]
    if not live:
        return []
    inside: dict[tuple[int, int], list[int]] = {}
    for row, j in enumerate(live):
        cells = [c for c in board.lines[j] if not taken >> c & 1]
        if len(cells) < 2:
            return None
        for pair in itertools.combinations(cells, 2):
            inside.setdefault(pair, []).append(row)
    pairs = list(inside)
    free = sorted({c for pair in pairs for c in pair})
    col = {c: i for i, c in enumerate(free)}
    rows, cols = [], []
    for p, (a, b) in enumerate(pairs):
        rows += [col[a], col[b]]
        cols += [p, p]
        for r in inside[(a, b)]:
            rows.append(len(free) + r)
            cols.append(p)
    matrix = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(free) + len(live), len(pairs))).tocsr()
    lower = np.r_[np.zeros(len(free)), np.ones(len(live))]
    upper = np.r_[np.ones(len(free)), np.full(len(live), np.inf)]
    result = milp(
        c=np.ones(len(pairs)),
        constraints=LinearConstraint(matrix, lower, upper),
        integrality=np.ones(len(pairs)),
        bounds=Bounds(0, 1),
    )
    if result.status != 0 or result.x is None:
        return None
    return sorted(pairs[p] for p in np.flatnonzero(result.x > 0.5))


def is_pairing(board: Board, maker: int, breaker: int, pairs: Sequence[tuple[int, int]]) -> bool:
    """Whether ``pairs`` are disjoint pairs of distinct free cells such that every line without
    a ``breaker`` cell holds both cells of one of them.
    """
    taken = maker | breaker
    used = 0
    masks = []
    for a, b in pairs:
        bits = (1 << a) | (1 << b)
        if a == b or bits & (taken | used):
            return False
        used |= bits
        masks.append(bits)
    return all(any(line & m == m for m in masks) for line in board.line_masks if not line & breaker)
