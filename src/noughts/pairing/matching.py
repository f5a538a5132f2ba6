"""Pairing strategies found as matchings (002 §3).

The bipartite graph of 002 §3.1: on one side every survivor twice (two *copies*), on the other
the free cells, an edge where the cell lies on the survivor. A matching that saturates the
copies gives each survivor two distinct free cells of its own, no cell used twice: a pairing.
Breaker answers Maker's move on one cell of a pair with the other, so Maker never owns both
cells of a pair and never owns a whole survivor.

* :func:`find_pairing` uses SciPy's Hopcroft-Karp
  (``scipy.sparse.csgraph.maximum_bipartite_matching``, 002 §3.2, reference [9]).
* When no saturating matching exists, Hall's theorem says some set of survivors has fewer
  than twice as many free cells as lines. :func:`find_pairing` finds one from the maximum
  matching the König way: the copies and cells reachable by alternating paths from an
  unmatched copy span a set ``L`` of survivors whose free cells ``N(L)`` number
  ``|R| - 1 < 2|L|`` (``R`` the copies reached). The smallest such set grown from the first
  eight unmatched copies is returned; it need not be the smallest violator of all.
* :func:`reference_matching_size` is the plain reference (one augmenting path at a time,
  Kuhn's method) that the tests hold SciPy to; :mod:`noughts.pairing.bigamy` checks Hall's
  condition subset by subset.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching

from noughts.core import NoughtsError, Player, Position
from noughts.pairing.hypergraph import Residual, residual

__all__ = [
    "Pairing",
    "PairingResult",
    "find_pairing",
    "pairing_of",
    "reference_matching_size",
]


@dataclass(frozen=True)
class Pairing:
    """A set of disjoint cell pairs for ``breaker`` in ``position`` (cells ``a < b``, pairs in
    increasing order of their first cell).
    """

    position: Position
    breaker: Player
    pairs: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        seen: set[int] = set()
        board = self.position.game.board
        for a, b in self.pairs:
            for c in (a, b):
                if not 0 <= c < board.num_cells:
                    raise NoughtsError(f"cell {c} is not a cell of {board.spec}")
                if c in seen:
                    raise NoughtsError(f"cell {board.cell_name(c)} is in two pairs")
                seen.add(c)
            if a == b:
                raise NoughtsError(f"a pair needs two different cells, not {board.cell_name(a)} twice")

    @property
    def partner(self) -> dict[int, int]:
        """Cell -> the other cell of its pair."""
        out: dict[int, int] = {}
        for a, b in self.pairs:
            out[a], out[b] = b, a
        return out

    def __len__(self) -> int:
        return len(self.pairs)


def pairing_of(position: Position, breaker: Player, pairs: list[tuple[int, int]]) -> Pairing:
    """A :class:`Pairing` with its pairs put in the canonical order."""
    ordered = tuple(sorted((min(a, b), max(a, b)) for a, b in pairs))
    return Pairing(position, breaker, ordered)


@dataclass(frozen=True)
class PairingResult:
    """What :func:`find_pairing` found.

    ``pairing`` (when ``exists``) gives survivor ``residual.survivors[i]`` the pair
    ``line_pairs[i]``. Otherwise ``deficient_lines`` (line indices) have together only
    ``deficient_cells`` free cells, fewer than twice their number: a Hall violator.
    ``matched`` is the size of a maximum matching, out of ``2 * len(residual.survivors)``.
    """

    residual: Residual
    exists: bool
    pairing: Pairing | None
    line_pairs: tuple[tuple[int, int], ...]
    matched: int
    deficient_lines: tuple[int, ...]
    deficient_cells: tuple[int, ...]


def _graph(res: Residual) -> csr_matrix:
    index = {c: j for j, c in enumerate(res.free_cells)}
    indptr = [0]
    indices: list[int] = []
    for edge in res.edges:
        cols = [index[c] for c in edge]
        for _ in range(2):  # each survivor twice
            indices.extend(cols)
            indptr.append(len(indices))
    data = np.ones(len(indices), dtype=np.int8)
    return csr_matrix(
        (data, np.array(indices, dtype=np.int32), np.array(indptr, dtype=np.int32)),
        shape=(2 * len(res.edges), len(res.free_cells)),
    )


_VIOLATOR_ROOTS = 8


def _hall_violator(res: Residual, row_match: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The smallest König set grown from (up to 8 of) the unmatched copies: survivors (indices
    into ``res``) and their free cells.
    """
    index = {c: j for j, c in enumerate(res.free_cells)}
    col_match = np.full(len(res.free_cells), -1, dtype=np.int64)
    for r, c in enumerate(row_match):
        if c >= 0:
            col_match[c] = r
    best: tuple[set[int], set[int]] | None = None
    for root in np.flatnonzero(row_match < 0)[:_VIOLATOR_ROOTS]:
        rows, cols = {int(root)}, set()
        queue = deque([int(root)])
        while queue:
            r = queue.popleft()
            for cell in res.edges[r // 2]:
                j = index[cell]
                if j in cols:
                    continue
                cols.add(j)
                mate = int(col_match[j])
                # a maximum matching has no augmenting path, so every reached column is matched
                assert mate >= 0, "augmenting path left in a maximum matching"
                if mate not in rows:
                    rows.add(mate)
                    queue.append(mate)
        lines = {r // 2 for r in rows}
        if best is None or len(lines) < len(best[0]):
            best = (lines, cols)
    assert best is not None
    lines, cols = best
    return tuple(sorted(lines)), tuple(sorted(res.free_cells[j] for j in cols))


def find_pairing(position_or_residual: Position | Residual, breaker: Player | None = None) -> PairingResult:
    """A pairing strategy for the breaking side of a position, or a Hall violator (002 §3).

    >>> import noughts
    >>> r = find_pairing(noughts.game("mnk(5,5,5)").start())
    >>> r.exists, len(r.pairing.pairs)                 # 12 lines, 12 pairs (004 §2.3)
    (True, 12)
    >>> r = find_pairing(noughts.game("mnk(4,4,4)").start())
    >>> r.exists, len(r.deficient_lines) * 2 > len(r.deficient_cells)
    (False, True)
    """
    res = (
        position_or_residual
        if isinstance(position_or_residual, Residual)
        else residual(position_or_residual, breaker)
    )
    m = len(res.survivors)
    if m == 0:
        pairing = Pairing(res.position, res.breaker, ())
        return PairingResult(res, True, pairing, (), 0, (), ())
    if not res.free_cells:
        lines = tuple(res.survivors)
        return PairingResult(res, False, None, (), 0, lines, ())
    row_match = maximum_bipartite_matching(_graph(res), perm_type="column")
    matched = int((row_match >= 0).sum())
    if matched == 2 * m:
        cells = res.free_cells
        line_pairs = tuple((cells[int(row_match[2 * i])], cells[int(row_match[2 * i + 1])]) for i in range(m))
        pairing = pairing_of(res.position, res.breaker, list(line_pairs))
        return PairingResult(res, True, pairing, line_pairs, matched, (), ())
    lines_idx, cells_def = _hall_violator(res, row_match)
    lines = tuple(res.survivors[i] for i in lines_idx)
    return PairingResult(res, False, None, (), matched, lines, cells_def)


def reference_matching_size(res: Residual) -> int:
    """The size of a maximum matching of 002's bipartite graph, by one augmenting path at a
    time (Kuhn's method): the plain reference for :func:`find_pairing`.
    """
    rows = [edge for edge in res.edges for _ in range(2)]
    owner: dict[int, int] = {}  # cell -> row

    def augment(r: int, seen: set[int]) -> bool:
        for cell in rows[r]:
            if cell in seen:
                continue
            seen.add(cell)
            if cell not in owner or augment(owner[cell], seen):
                owner[cell] = r
                return True
        return False

    return sum(1 for r in range(len(rows)) if augment(r, set()))
