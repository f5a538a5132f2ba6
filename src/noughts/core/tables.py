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
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from noughts.core.errors import NoughtsError

if TYPE_CHECKING:
    from noughts.core.board import Board

__all__ = ["WORD_BITS", "KernelTables", "split_words"]

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
        permutations, shape ``(symmetries, cells)``: cell ``c`` maps to ``perms[s, c]``.
        """
        return self._perms(
            len(self.board.symmetries) if limit is None else min(limit, len(self.board.symmetries))
        )

    def symmetry_bytes(self, limit: int | None = None) -> UInt64Array:
        """For one-word boards, per-byte image tables of the first ``limit`` symmetries, shape
        ``(symmetries, bytes, 256)``: the image of a mask under symmetry ``s`` is the OR over its
        bytes ``i`` of ``table[s, i, byte_i]`` (eight look-ups instead of a loop over cells).
        """
        self._need_one_word("symmetry_bytes")
        n = len(self.board.symmetries) if limit is None else min(limit, len(self.board.symmetries))
        return self._bytes(n)

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
