"""Vectorised kernels for :mod:`noughts.exact.count` and :mod:`noughts.exact.labels`.

The claim games (standard, misère, Maker-Breaker and cumulative rules on one board of at most
64 cells) have positions that are two bit masks, ``(first_bits, second_bits)``. Here a ply's
frontier is a pair of NumPy ``uint64`` arrays, sorted and without repeats, with the number of
move sequences (paths) reaching each position. The next ply comes from claiming each empty
cell in turn (one vectorised pass per cell), judged by
:func:`noughts.kernels.claim_numpy.claim_after_many` from the lines through that cell and the running
survivors (Maker-Breaker) or scores (cumulative) each level keeps, then sorting the children and
summing the path counts of repeats (``np.add.reduceat``).
Canonical forms under the board's symmetries use byte lookup tables: the image of a mask is
the OR of one table entry per byte of it.

Path counts stay ``uint64`` while they provably fit: a position with ``a`` first-player and
``b`` second-player cells is reached by at most ``a! b!`` move orders, which is below 2^64 up to
ply 25 (and is multiplied by the group order for the quotient's counts). Beyond that bound the
arrays switch to Python integers (``object`` dtype), so every count is exact.

Everything here is held to the plain reference over the public position API by the tests
(``tests/exact/test_count.py``, ``tests/exact/test_labels.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.core import Game
from noughts.kernels.claim_numpy import claim_after_many
from noughts.kernels.codes import CUMULATIVE, DRAW, FIRST, MAKER_BREAKER, RUNNING, SECOND, start_aux

__all__ = ["DRAW", "FIRST", "RUNNING", "SECOND", "ClaimDag", "Level", "exact_sum", "supports"]

U64 = np.uint64
Bits = npt.NDArray[np.uint64]
Counts = npt.NDArray[Any]  # uint64 while counts provably fit, else object (Python ints)
Index = npt.NDArray[np.intp]
Aux = npt.NDArray[np.int16]

_MAX_CELLS = 64
_LIMIT = 1 << 64


def supports(game: Game) -> bool:
    """Whether the kernels handle ``game``: one of the four claim rules (``game.claim_rule``;
    Otrio, veto and Notakto declare none and go to the reference) on at most 64 cells.
    """
    return game.claim_rule is not None and game.board.num_cells <= _MAX_CELLS


def path_bound(ply: int) -> int:
    """The most move orders that reach one position of a claim game at ``ply``."""
    return factorial((ply + 1) // 2) * factorial(ply // 2)


def exact_sum(values: Counts) -> int:
    """The exact sum of a count array as a Python int (no ``uint64`` wrap-around): the high and
    low 32-bit halves are summed separately, each safely below 2^64 for < 2^32 entries.
    """
    if values.dtype == object:
        return int(sum(values.tolist()))
    if values.size == 0:
        return 0
    v = values.astype(U64, copy=False)
    low = int((v & U64(0xFFFFFFFF)).sum(dtype=U64))
    high = int((v >> U64(32)).sum(dtype=U64))
    return (high << 32) + low


@dataclass
class Level:
    """The distinct positions at one ply, sorted by ``(b0, b1)``.

    ``paths``: the number of move sequences from the start reaching each; ``outcome``: its
    :class:`~noughts.core.Result` code (:data:`RUNNING` while running); ``aux``: what a claim
    is judged with besides the masks (:mod:`noughts.kernels.claim`): the survivors under
    Maker-Breaker rules, the first player's score minus the second's under cumulative rules
    (the rules read the scores only through their difference, so the kernels get it as the
    pair ``(difference, 0)``), None under the others. ``edge_parent``/``edge_child``: when kept, one entry per move from
    this ply to the next, the index of the position here and of the position it leads to in
    the next level.
    """

    ply: int
    b0: Bits
    b1: Bits
    paths: Counts
    outcome: npt.NDArray[np.int8]
    aux: Aux | None = None
    edge_parent: npt.NDArray[np.int32] | None = None
    edge_child: npt.NDArray[np.int32] | None = None

    def __len__(self) -> int:
        return int(self.b0.size)

    @property
    def score(self) -> npt.NDArray[np.int16] | None:
        """First minus second player's final score at the end of a cumulative game (zero
        where the game runs on), or None for unscored rules.
        """
        if self.aux is None or not self.scored:
            return None
        diff = self.aux.copy()
        diff[self.outcome == RUNNING] = 0
        return diff

    scored: bool = False
    """Whether ``aux`` is a score difference (cumulative rules)."""

    def aux_of(self, index: Index) -> Aux | None:
        """``aux`` of the positions ``index`` (None where the rules keep none)."""
        return None if self.aux is None else self.aux[index]

    @property
    def nbytes(self) -> int:
        arrays = (self.b0, self.b1, self.paths, self.outcome, self.aux, self.edge_parent, self.edge_child)
        total = sum(a.nbytes for a in arrays if a is not None)
        if self.paths.dtype == object:
            total += 40 * self.paths.size  # the Python ints themselves
        return total


@dataclass
class Children:
    """Every move from a set of positions: the index of the parent, the child's masks, its
    result code and its ``aux`` (see :class:`Level`).
    """

    parent: Index
    b0: Bits
    b1: Bits
    outcome: npt.NDArray[np.int8]
    aux: Aux | None


class ClaimDag:
    """The positions of a claim game, ply by ply; see the module docstring."""

    def __init__(self, game: Game):
        if not supports(game):
            raise ValueError(f"the counting kernels handle claim games on at most 64 cells, not {game}")
        board = game.board
        tables = board.tables
        self.game = game
        self.rule = int(game.claim_rule)  # type: ignore[arg-type]  # supports() checked it
        self.maker = 0 if game.maker is None else int(game.maker)
        self.n = board.num_cells
        self.packed = self.n <= 32  # (b0, b1) fits one uint64 key: b0 << 32 | b1
        self.lines = tables.line_bits
        self.through = tables.through
        self.nthrough = tables.nthrough
        self.scored = self.rule == CUMULATIVE
        self.keeps_aux = self.scored or self.rule == MAKER_BREAKER
        """Whether a position keeps an aux value (survivors, or a score difference)."""
        self._tables: npt.NDArray[np.uint64] | None = None

    # -- levels -------------------------------------------------------------------------------

    def start(self) -> Level:
        zero = np.zeros(1, dtype=U64)
        aux = np.full(1, start_aux(self.rule, len(self.lines)), dtype=np.int16)
        return self._level(
            0, zero, zero.copy(), np.ones(1, dtype=U64), np.full(1, RUNNING, dtype=np.int8), aux
        )

    def _level(
        self, ply: int, b0: Bits, b1: Bits, paths: Counts, outcome: npt.NDArray[np.int8], aux: Aux | None
    ) -> Level:
        return Level(ply, b0, b1, paths, outcome, aux if self.keeps_aux else None, scored=self.scored)

    def children(
        self,
        b0: Bits,
        b1: Bits,
        ply: int,
        cells: Sequence[int],
        aux: Aux | None = None,
    ) -> Children:
        """Every claim of a cell in ``cells`` from the (running) positions ``(b0, b1)`` at
        ``ply``, whose ``aux`` (see :class:`Level`) the rules that keep one need.
        """
        if (aux is None) == self.keeps_aux:
            raise ValueError(
                f"{self.game} {'keeps' if self.keeps_aux else 'keeps no'} aux value per position"
            )
        mover = ply & 1
        full = ply + 1 == self.n
        occupied = b0 | b1
        mine, theirs = (b0, b1) if mover == 0 else (b1, b0)
        a0 = np.zeros(b0.size, dtype=np.int16) if aux is None else aux
        parents, mines, theirss, outcomes, auxs = [], [], [], [], []
        for c in cells:
            bit = U64(1 << c)
            idx = np.flatnonzero((occupied & bit) == 0)
            if idx.size == 0:
                continue
            m = mine[idx] | bit
            t = theirs[idx]
            result, n0, n1 = claim_after_many(
                self.rule, self.maker, mover, m, t, c, full, self.lines, self.through, self.nthrough,
                a0[idx], np.zeros(idx.size, dtype=np.int16),
            )  # fmt: skip
            parents.append(idx)
            mines.append(m)
            theirss.append(t)
            outcomes.append(result)
            if self.keeps_aux:
                auxs.append(n0 - n1 if self.scored else n0)
        if not parents:
            empty = np.zeros(0, dtype=U64)
            none = np.zeros(0, dtype=np.int16)
            return Children(
                np.zeros(0, dtype=np.intp),
                empty,
                empty,
                np.zeros(0, dtype=np.int8),
                none if self.keeps_aux else None,
            )
        m_all, t_all = np.concatenate(mines), np.concatenate(theirss)
        nb0, nb1 = (m_all, t_all) if mover == 0 else (t_all, m_all)
        return Children(
            np.concatenate(parents),
            nb0,
            nb1,
            np.concatenate(outcomes),
            np.concatenate(auxs) if self.keeps_aux else None,
        )

    def expand(self, level: Level, cells: Sequence[int] | None = None, keep_edges: bool = False) -> Level:
        """The next ply: every claim (of a cell in ``cells``, default all) from the running
        positions of ``level``, repeats merged and their path counts summed. With
        ``keep_edges``, ``level`` records the moves (see :class:`Level`).
        """
        live = np.flatnonzero(level.outcome == RUNNING)
        ch = self.children(
            level.b0[live],
            level.b1[live],
            level.ply,
            range(self.n) if cells is None else cells,
            level.aux_of(live),
        )
        ply = level.ply + 1
        paths = level.paths[live][ch.parent]
        if paths.dtype != object and path_bound(ply) >= _LIMIT:
            paths = paths.astype(object)
        order, starts, inverse = group(ch.b0, ch.b1, self.packed, keep_edges)
        first = order[starts]
        if keep_edges:
            level.edge_parent = live[ch.parent].astype(np.int32)
            level.edge_child = None if inverse is None else inverse.astype(np.int32)
        return self._level(
            ply,
            ch.b0[first],
            ch.b1[first],
            _segment_sums(paths[order], starts),
            ch.outcome[first],
            None if ch.aux is None else ch.aux[first],
        )

    def levels(self, cells: Sequence[int] | None = None, keep_edges: bool = False) -> Any:
        """Yield the levels from the start on, until no position is left running."""
        level = self.start()
        while True:
            yield level
            if not (level.outcome == RUNNING).any():
                return
            level = self.expand(level, cells, keep_edges)

    # -- symmetry -----------------------------------------------------------------------------

    @property
    def tables(self) -> npt.NDArray[np.uint64]:
        """``tables[g, i, v]``: the image under symmetry g of the cells of byte value v at byte i."""
        if self._tables is None:
            syms = self.game.symmetries
            nbytes = (self.n + 7) // 8
            t = np.zeros((len(syms), nbytes, 256), dtype=U64)
            for g, perm in enumerate(syms):
                for i in range(nbytes):
                    for j in range(8):
                        c = 8 * i + j
                        if c >= self.n:
                            break
                        v = np.arange(256)
                        t[g, i, (v >> j & 1).astype(bool)] |= U64(1 << perm[c])
            self._tables = t
        return self._tables

    def canonical(self, b0: Bits, b1: Bits) -> tuple[Bits, Bits]:
        """The least image of each ``(b0, b1)`` under the symmetries, ordered as tuples (the
        order of ``ClaimGame.canonical_key``).
        """
        tables = self.tables
        nbytes = tables.shape[1]
        bytes0 = [((b0 >> U64(8 * i)) & U64(255)).astype(np.intp) for i in range(nbytes)]
        bytes1 = [((b1 >> U64(8 * i)) & U64(255)).astype(np.intp) for i in range(nbytes)]
        best0: Bits | None = None
        best1: Bits | None = None
        best: Bits | None = None
        for g in range(tables.shape[0]):
            t0 = tables[g, 0][bytes0[0]]
            t1 = tables[g, 0][bytes1[0]]
            for i in range(1, nbytes):
                t0 |= tables[g, i][bytes0[i]]
                t1 |= tables[g, i][bytes1[i]]
            if self.packed:
                key = (t0 << U64(32)) | t1
                best = key if best is None else np.minimum(best, key)
            elif best0 is None or best1 is None:
                best0, best1 = t0, t1
            else:
                better = (t0 < best0) | ((t0 == best0) & (t1 < best1))
                best0 = np.where(better, t0, best0)
                best1 = np.where(better, t1, best1)
        if self.packed:
            assert best is not None
            return best >> U64(32), best & U64(0xFFFFFFFF)
        assert best0 is not None and best1 is not None
        return best0, best1

    def quotient_levels(self) -> Any:
        """Yield, ply by ply, the positions up to symmetry (canonical forms) with the number of
        paths reaching each in the quotient DAG (symmetric children of a position merged).
        """
        level = self.start()
        group_order = len(self.game.symmetries)
        while True:
            yield level
            live = np.flatnonzero(level.outcome == RUNNING)
            if live.size == 0:
                return
            ch = self.children(level.b0[live], level.b1[live], level.ply, range(self.n), level.aux_of(live))
            k0, k1 = self.canonical(ch.b0, ch.b1)
            # one edge per (parent, child class): lexicographic sort by (k0, k1, parent)
            order = np.lexsort((ch.parent, k1, k0))
            p, s0, s1 = ch.parent[order], k0[order], k1[order]
            new_edge = np.ones(p.size, dtype=bool)
            new_edge[1:] = (p[1:] != p[:-1]) | (s0[1:] != s0[:-1]) | (s1[1:] != s1[:-1])
            keep = order[new_edge]
            s0, s1 = s0[new_edge], s1[new_edge]
            new_class = np.ones(s0.size, dtype=bool)
            new_class[1:] = (s0[1:] != s0[:-1]) | (s1[1:] != s1[:-1])
            starts = np.flatnonzero(new_class)
            ply = level.ply + 1
            q = level.paths[live][ch.parent[keep]]
            if q.dtype != object and path_bound(ply) * group_order >= _LIMIT:
                q = q.astype(object)
            level = self._level(
                ply,
                s0[starts],
                s1[starts],
                _segment_sums(q, starts),
                ch.outcome[keep[starts]],
                None if ch.aux is None else ch.aux[keep[starts]],
            )


def group(b0: Bits, b1: Bits, packed: bool, want_inverse: bool = False) -> tuple[Index, Index, Index | None]:
    """Sort positions by ``(b0, b1)`` and find repeats: ``order`` (the sorting permutation),
    ``starts`` (where each distinct position begins in sorted order) and, if asked, ``inverse``
    (for each input, the index of its distinct position).
    """
    n = b0.size
    if n == 0:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty, (empty if want_inverse else None)
    if packed:
        key = (b0 << U64(32)) | b1
        order = np.argsort(key, kind="stable")
        sk = key[order]
        new = np.empty(n, dtype=bool)
        new[0] = True
        np.not_equal(sk[1:], sk[:-1], out=new[1:])
    else:
        order = np.lexsort((b1, b0))
        s0, s1 = b0[order], b1[order]
        new = np.empty(n, dtype=bool)
        new[0] = True
        new[1:] = (s0[1:] != s0[:-1]) | (s1[1:] != s1[:-1])
    starts = np.flatnonzero(new)
    inverse = None
    if want_inverse:
        inverse = np.empty(n, dtype=np.intp)
        inverse[order] = np.cumsum(new) - 1
    return order, starts, inverse


def _segment_sums(values: Counts, starts: Index) -> Counts:
    if values.size == 0:
        return values
    return np.add.reduceat(values, starts)
