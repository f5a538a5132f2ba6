"""The tables a kernel needs of a board, computed once per board and cached on it.

Every numba kernel (the solver, the counter, MCTS, the batched playouts, the learners, the
proof engine) reads a board through these arrays and builds none of its own. A mask of cells
is either one ``uint64`` (boards of at most 64 cells: cell ``c`` is bit ``c``) or a row of
``words`` ``uint64`` (any board: cell ``c`` is bit ``c % 64`` of word ``c // 64``); the tables
come in both forms. Every array is read-only.

>>> from noughts.core.board import mnk
>>> t = mnk(3, 3, 3).tables
>>> t.words, t.line_bits.shape, t.through.shape, int(t.nthrough[4])
(1, (8,), (9, 4), 4)
>>> [int(j) for j in t.through[0]], hex(int(t.full_bits))
([0, 4, 7, -1], '0x1ff')
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import numpy.typing as npt

from noughts.core.errors import NoughtsError

if TYPE_CHECKING:
    from noughts.core.board import Board

__all__ = ["WORD_BITS", "KernelTables", "Segments", "split_words"]

WORD_BITS = 64
"""Cells per ``uint64`` word of a mask."""

UInt64Array = npt.NDArray[np.uint64]
Int32Array = npt.NDArray[np.int32]


def split_words(masks: tuple[int, ...] | list[int], words: int) -> UInt64Array:
    """Masks (Python ints) as rows of ``words`` uint64 words, the low word first."""
    out = np.zeros((len(masks), words), dtype=np.uint64)
    low = (1 << WORD_BITS) - 1
    for r, m in enumerate(masks):
        for i in range(words):
            out[r, i] = (m >> (WORD_BITS * i)) & low
    return out


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


class Segments(NamedTuple):
    """The lines grouped by the straight run of cells they lie on (:attr:`KernelTables.segments`).

    A *segment* is a maximal run of consecutive board cells along one direction; every window of
    ``k`` consecutive cells of it is a line, so lines of one segment overlap (``mnk(7,7,5)``: a row
    of 7 holds the 3 lines starting at columns 0, 1, 2) and one pair of cells can lie in several
    of them. Lines of different segments share at most one cell on a grid; on a board given by its
    lines (``Board.given_lines``) each line is a segment of its own, in the order it is written
    (on a torus with k below a side two such lines can share several cells). ``cells[s, :length[s]]``: the
    cells of segment ``s`` in order; ``window[s, i]``: the line starting at position ``i`` (-1
    past the last); ``line_segment[j]``, ``line_start[j]``: where line ``j`` lies;
    ``through[c, :nthrough[c]]`` and ``position[c, :]``: the segments through cell ``c`` and the
    cell's position in each.
    """

    cells: Int32Array
    length: Int32Array
    window: Int32Array
    line_segment: Int32Array
    line_start: Int32Array
    through: Int32Array
    position: Int32Array
    nthrough: Int32Array


class KernelTables:
    """The arrays of one board that kernels read (see the module docstring); ``board.tables``."""

    def __init__(self, board: Board):
        self.board = board
        self.cells = board.num_cells
        self.num_lines = len(board.lines)
        self.words = max(1, (self.cells + WORD_BITS - 1) // WORD_BITS)
        """``uint64`` words per mask of the multi-word form."""

    @property
    def fits_one_word(self) -> bool:
        """Whether a mask of this board fits one ``uint64`` (at most 64 cells)."""
        return self.cells <= WORD_BITS

    # -- lines ------------------------------------------------------------------------------------

    @cached_property
    def line_bits(self) -> UInt64Array:
        """Each line as one ``uint64`` mask (boards of at most 64 cells), shape ``(lines,)``."""
        self._need_one_word("line_bits")
        return _frozen(np.array(self.board.line_masks, dtype=np.uint64))

    @cached_property
    def line_words(self) -> UInt64Array:
        """Each line as ``words`` ``uint64`` words, shape ``(lines, words)``."""
        return _frozen(split_words(self.board.line_masks, self.words))

    @cached_property
    def line_cells(self) -> Int32Array:
        """Each line's cells in order along it, shape ``(lines, k)``."""
        return _frozen(np.array(self.board.lines, dtype=np.int32).reshape(self.num_lines, self.board.k))

    @cached_property
    def through(self) -> Int32Array:
        """``through[c, :nthrough[c]]``: the lines through cell ``c``; padded with -1 to the most
        lines through one cell, shape ``(cells, max_through)``.
        """
        width = max(1, self.board.max_lines_through_cell)
        out = np.full((self.cells, width), -1, dtype=np.int32)
        for c, js in enumerate(self.board.lines_through):
            out[c, : len(js)] = js
        return _frozen(out)

    @cached_property
    def through_bits(self) -> UInt64Array:
        """``through_bits[c, :nthrough[c]]``: the masks of the lines through cell ``c`` (boards of
        at most 64 cells), padded with 0, shape ``(cells, max_through)``: for kernels that test a
        line by its mask rather than its index.
        """
        self._need_one_word("through_bits")
        width = max(1, self.board.max_lines_through_cell)
        out = np.zeros((self.cells, width), dtype=np.uint64)
        for c, ms in enumerate(self.board.masks_through):
            out[c, : len(ms)] = ms
        return _frozen(out)

    @cached_property
    def nthrough(self) -> Int32Array:
        """The number of lines through each cell, shape ``(cells,)``."""
        return _frozen(np.array([len(js) for js in self.board.lines_through], dtype=np.int32))

    @cached_property
    def segments(self) -> Segments:
        """The lines grouped by the runs of cells they lie on (see :class:`Segments`).

        >>> from noughts.core.board import mnk
        >>> s = mnk(7, 7, 5).tables.segments
        >>> len(s.length), int(s.length.max()), [int(j) for j in s.window[0] if j >= 0]
        (24, 7, [0, 1, 2])
        """
        board = self.board
        coords = board.coords
        index = {c: i for i, c in enumerate(coords)}
        key_of: dict[tuple[tuple[int, ...], int], int] = {}
        runs: list[list[int]] = []
        line_seg = np.zeros(self.num_lines, dtype=np.int32)
        line_start = np.zeros(self.num_lines, dtype=np.int32)
        for j, line in enumerate(board.lines):
            if len(line) < 2 or board.given_lines:  # k = 1, or lines given as a list: each its own
                key_of[((), -1 - j)] = len(runs)
                line_seg[j] = len(runs)
                runs.append(list(line))
                continue
            v = tuple(b - a for a, b in zip(coords[line[0]], coords[line[1]], strict=True))
            at = coords[line[0]]
            while True:  # back to the first cell of the run
                back = tuple(x - y for x, y in zip(at, v, strict=True))
                if back not in index:
                    break
                at = back
            key = (v, index[at])
            s = key_of.get(key)
            if s is None:
                run = []
                while at in index:
                    run.append(index[at])
                    at = tuple(x + y for x, y in zip(at, v, strict=True))
                s = key_of[key] = len(runs)
                runs.append(run)
            line_seg[j] = s
            line_start[j] = runs[s].index(line[0])
        n = len(runs)
        length = np.array([len(r) for r in runs], dtype=np.int32)
        width = int(length.max()) if n else 1
        cells = np.full((n, width), -1, dtype=np.int32)
        window = np.full((n, max(1, width - board.k + 1)), -1, dtype=np.int32)
        for s, run in enumerate(runs):
            cells[s, : len(run)] = run
        window[line_seg, line_start] = np.arange(self.num_lines, dtype=np.int32)
        per_cell: list[list[tuple[int, int]]] = [[] for _ in range(self.cells)]
        for s, run in enumerate(runs):
            for p, c in enumerate(run):
                per_cell[c].append((s, p))
        most = max(1, max(len(t) for t in per_cell))
        through = np.full((self.cells, most), -1, dtype=np.int32)
        position = np.full((self.cells, most), -1, dtype=np.int32)
        for c, t in enumerate(per_cell):
            for i, (s, p) in enumerate(t):
                through[c, i] = s
                position[c, i] = p
        nthrough = np.array([len(t) for t in per_cell], dtype=np.int32)
        return Segments(
            *(_frozen(a) for a in (cells, length, window, line_seg, line_start, through, position, nthrough))
        )

    # -- the whole board --------------------------------------------------------------------------

    @cached_property
    def full_bits(self) -> np.uint64:
        """Every cell as one ``uint64`` mask (boards of at most 64 cells)."""
        self._need_one_word("full_bits")
        return np.uint64(self.board.full_mask)

    @cached_property
    def full_words(self) -> UInt64Array:
        """Every cell as ``words`` ``uint64`` words, shape ``(words,)``."""
        return _frozen(split_words((self.board.full_mask,), self.words)[0])

    # -- symmetry ---------------------------------------------------------------------------------

    def symmetry_perms(self, limit: int | None = None) -> Int32Array:
        """The first ``limit`` symmetries (all by default; the identity first) as cell
        permutations, shape ``(symmetries, cells)``: cell ``c`` maps to ``perms[s, c]``. On a
        board given by its lines the first ``limit`` are cut back to a subgroup
        (:meth:`noughts.core.automorphism.LineGroup.subgroup_size`).
        """
        return self._perms(self._count(limit))

    def _count(self, limit: int | None) -> int:
        n = len(self.board.symmetries)
        if limit is None or limit >= n:
            return n
        return self.board.line_group.subgroup_size(limit) if self.board.given_lines else limit

    def symmetry_bytes(self, limit: int | None = None) -> UInt64Array:
        """For one-word boards, per-byte image tables of the first ``limit`` symmetries, shape
        ``(symmetries, bytes, 256)``: the image of a mask under symmetry ``s`` is the OR over its
        bytes ``i`` of ``table[s, i, byte_i]`` (eight look-ups instead of a loop over cells).
        """
        self._need_one_word("symmetry_bytes")
        return self._bytes(self._count(limit))

    def automorphism_perms(self, limit: int | None = None) -> Int32Array:
        """The board's symmetries (first, as :meth:`symmetry_perms` lists them) followed by its
        other line automorphisms that the geometry does not show, up to ``limit`` rows in all:
        cell permutations mapping every winning line onto a winning line.

        On a box whose active sides all have length n = k (``hypercube(n, d)``, ``mnk(n, n,
        n)``), a permutation of the values 0..n-1 applied to every coordinate at once maps lines
        onto lines when it commutes with the reversal ``i -> n-1-i`` (a line's coordinates are
        constant, ``t`` or ``n-1-t``; the image is the same line read in another order). For
        n = 4 these make Qubic's 192 automorphisms out of the cube's 48 symmetries (Silver
        1967). Every row is checked to map lines onto lines; a list cut by ``limit`` is a
        subset of the group (enough for keying positions: it never merges two positions the
        group does not). Other boards get their symmetries alone (a board given by its lines: the
        automorphisms of its lines, :attr:`noughts.core.board.Board.symmetries`).

        >>> from noughts.core.board import hypercube, mnk
        >>> len(hypercube(4, 3).tables.automorphism_perms()), len(mnk(4, 4, 3).tables.automorphism_perms())
        (192, 8)
        """
        cap = -1 if limit is None else limit
        cache = self.__dict__.setdefault("_auto_cache", {})
        if cap not in cache:
            cache[cap] = _frozen(self._automorphisms(limit))
        return cache[cap]  # type: ignore[no-any-return]

    def _automorphisms(self, limit: int | None) -> Int32Array:
        import itertools

        board = self.board
        base = self.symmetry_perms(limit)
        active = [i for i, g in enumerate(board.grid) if g > 1]
        sides = {board.grid[i] for i in active}
        n = board.grid[active[0]] if active else 0
        if board.given_lines or board.kind == "shape" or len(sides) != 1 or n != board.k or n < 4:
            return base
        if limit is not None and len(base) >= limit:
            return base
        # the value permutations commuting with the reversal: permute the pairs {i, n-1-i},
        # each kept or swapped (the middle value of an odd n stays)
        m = n // 2
        values: list[np.ndarray] = []
        for order in itertools.permutations(range(m)):
            for swaps in itertools.product((False, True), repeat=m):
                sigma = np.arange(n)
                for i, (j, s) in enumerate(zip(order, swaps, strict=True)):
                    lo, hi = (n - 1 - j, j) if s else (j, n - 1 - j)
                    sigma[i], sigma[n - 1 - i] = lo, hi
                values.append(sigma)
        coords = np.array(board.coords, dtype=np.int64).reshape(board.num_cells, board.dims)
        strides = np.array([int(np.prod(board.grid[i + 1 :])) for i in range(board.dims)], dtype=np.int64)
        dense = np.full(int(np.prod(board.grid)), -1, dtype=np.int64)
        dense[coords @ strides] = np.arange(board.num_cells)
        lines = {frozenset(line) for line in board.lines}
        rows = [tuple(int(c) for c in row) for row in base]
        seen = set(rows)
        want = None if limit is None else limit
        for sigma in values:
            image = coords.copy()
            for axis in active:
                image[:, axis] = sigma[coords[:, axis]]
            outer = dense[image @ strides]
            for row in base:
                perm = tuple(int(c) for c in outer[np.asarray(row)])  # the symmetry, then sigma
                if perm in seen:
                    continue
                if all(frozenset(perm[c] for c in line) in lines for line in lines):
                    seen.add(perm)
                    rows.append(perm)
                    if want is not None and len(rows) >= want:
                        return np.array(rows, dtype=np.int32)
        return np.array(rows, dtype=np.int32)

    def _perms(self, n: int) -> Int32Array:
        cache = self.__dict__.setdefault("_perm_cache", {})
        if n not in cache:
            cache[n] = _frozen(np.array(self.board.symmetries[:n], dtype=np.int32).reshape(n, self.cells))
        return cache[n]  # type: ignore[no-any-return]

    def _bytes(self, n: int) -> UInt64Array:
        cache = self.__dict__.setdefault("_byte_cache", {})
        if n not in cache:
            perms = self._perms(n)
            nbytes = max(1, (self.cells + 7) // 8)
            images = np.zeros((n, nbytes * 8), dtype=np.uint64)
            images[:, : self.cells] = np.left_shift(np.uint64(1), perms.astype(np.uint64))
            values = np.arange(256)
            table = np.zeros((n, nbytes, 256), dtype=np.uint64)
            for i in range(nbytes):
                for j in range(8):
                    on = ((values >> j) & 1).astype(bool)
                    table[:, i, on] |= images[:, 8 * i + j][:, None]
            cache[n] = _frozen(table)
        return cache[n]  # type: ignore[no-any-return]

    def _need_one_word(self, what: str) -> None:
        if not self.fits_one_word:
            raise NoughtsError(
                f"{what} is for boards of at most {WORD_BITS} cells; {self.board.spec} has {self.cells}"
            )
