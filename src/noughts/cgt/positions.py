"""The single-board positions of a Notakto board, up to symmetry: a finite impartial game set.

One board of Notakto is an impartial game: a move draws one ``x`` on an empty cell, and a move
that completes a line (or fills the board) kills it, which leaves the zero game (no moves). A
position of several boards is the disjunctive sum of its live boards. The quotient machinery of
:mod:`noughts.cgt.quotient` takes any finite *hereditarily closed* set of impartial games given
by its options, numbered so that every option comes before the game (:class:`GameSet`);
:func:`notakto_positions` builds the one of a Notakto board: every live position reachable
from the empty board, one per symmetry class, the dead ones left out (they are all the zero
game).

The positions are found by levels of equal ``x`` count, built with NumPy from the board's
per-byte symmetry tables (:meth:`noughts.core.tables.KernelTables.symmetry_bytes`): a position's
canonical mask is the least of its images. They are then numbered by *height* (the longest play
left on the board), so options always come first and the empty board is the last game.

>>> from noughts.core import mnk
>>> ps = notakto_positions(mnk(3, 3, 3))
>>> len(ps), ps.text(len(ps) - 1), ps.text(0)
(46, '.../.../...', '.xx/x.x/xx.')
>>> ps.index_of(0b000010000), ps.text(ps.index_of(0b000010000))
(42, '.../.x./...')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from noughts.core import Board, Budget, NoughtsError
from noughts.core.text import format_grid

__all__ = ["ZERO", "GameSet", "NotaktoPositions", "notakto_positions"]

ZERO = -1
"""The option that ends a board (a move that kills it): the zero game, which has no moves."""

IntArray = npt.NDArray[np.int64]

_CHUNK = 1 << 18
"""Positions expanded per NumPy batch while enumerating a level (bounds the scratch memory)."""


@dataclass(frozen=True, eq=False)
class GameSet:
    """A finite hereditarily closed set of impartial games, options first.

    Game ``j``'s options are ``indices[indptr[j]:indptr[j + 1]]``: indices of earlier games, or
    :data:`ZERO` for the zero game; each option is listed once. ``heights[j]`` is the length of
    the longest play from game ``j`` alone (``1 +`` the largest height among its options, the
    zero game's being 0).
    """

    indptr: IntArray
    indices: IntArray
    heights: IntArray = field(repr=False)

    def __len__(self) -> int:
        return len(self.indptr) - 1

    def options(self, j: int) -> IntArray:
        """The options of game ``j`` (indices, :data:`ZERO` for the zero game)."""
        return self.indices[self.indptr[j] : self.indptr[j + 1]]

    @staticmethod
    def from_options(options: list[list[int]]) -> GameSet:
        """A game set from each game's options (earlier indices or :data:`ZERO`)."""
        indptr = np.zeros(len(options) + 1, dtype=np.int64)
        flat: list[int] = []
        heights = np.zeros(len(options), dtype=np.int64)
        for j, opts in enumerate(options):
            opts = sorted(set(opts))
            if any(not (o == ZERO or 0 <= o < j) for o in opts):
                raise NoughtsError(f"game {j}'s options must be earlier games or ZERO, not {opts}")
            flat.extend(opts)
            indptr[j + 1] = len(flat)
            heights[j] = 1 + max((0 if o == ZERO else int(heights[o]) for o in opts), default=-1)
        return GameSet(indptr, np.array(flat, dtype=np.int64), heights)

    def nbytes(self) -> int:
        return int(self.indptr.nbytes + self.indices.nbytes + self.heights.nbytes)


@dataclass(frozen=True, eq=False)
class NotaktoPositions(GameSet):
    """The live single-board positions of a Notakto board up to symmetry, as a :class:`GameSet`.

    ``masks[j]`` is game ``j``'s canonical ``x`` mask (the least image under the board's
    symmetries); masks are sorted within each level, levels run from the fullest to the empty
    board.
    """

    board: Board = field(repr=False)
    masks: npt.NDArray[np.uint64] = field(repr=False)

    @cached_property
    def _lookup(self) -> tuple[npt.NDArray[np.uint64], IntArray]:
        order = np.argsort(self.masks, kind="stable")
        return self.masks[order], order

    @cached_property
    def _canon(self) -> _Canon:
        return _Canon(self.board)

    def canonical(self, mask: int) -> int:
        """The canonical form (least symmetric image) of a mask of ``x`` cells."""
        return int(self._canon.canonical(np.array([mask], dtype=np.uint64))[0])

    def index_of(self, mask: int) -> int:
        """The game of a board holding ``mask``, or :data:`ZERO` for a dead board."""
        if self._canon.is_dead(np.array([mask], dtype=np.uint64))[0]:
            return ZERO
        key = np.uint64(self.canonical(mask))
        sorted_masks, order = self._lookup
        i = int(np.searchsorted(sorted_masks, key))
        if i == len(sorted_masks) or sorted_masks[i] != key:
            raise NoughtsError(f"no game reaches the board {self._text(mask)!r}")
        return int(order[i])

    def text(self, j: int) -> str:
        """Game ``j``'s board in the text form of positions (``x`` and ``.``)."""
        return self._text(int(self.masks[j]))

    def _text(self, mask: int) -> str:
        return format_grid(self.board, ["x" if mask >> c & 1 else "." for c in range(self.board.num_cells)])


class _Canon:
    """Vectorised dead-board tests and canonical masks of one board (at most 64 cells)."""

    def __init__(self, board: Board):
        tables = board.tables
        if not tables.fits_one_word:
            raise NoughtsError(
                f"single-board positions are enumerated for boards of at most 64 cells; {board.spec} has "
                f"{board.num_cells}"
            )
        self.board = board
        self.lines = np.array(board.line_masks, dtype=np.uint64)
        self.full = np.uint64(board.full_mask)
        self.sym = tables.symmetry_bytes()
        self.nbytes = self.sym.shape[1]

    def is_dead(self, masks: npt.NDArray[np.uint64]) -> npt.NDArray[np.bool_]:
        dead: npt.NDArray[np.bool_] = masks == self.full
        for line in self.lines:
            dead |= (masks & line) == line
        return dead

    def canonical(self, masks: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
        best: npt.NDArray[np.uint64] | None = None
        parts = [((masks >> np.uint64(8 * i)) & np.uint64(255)).astype(np.intp) for i in range(self.nbytes)]
        for s in range(self.sym.shape[0]):
            image = self.sym[s, 0][parts[0]]
            for i in range(1, self.nbytes):
                image = image | self.sym[s, i][parts[i]]
            best = image if best is None else np.minimum(best, image)
        assert best is not None
        return np.asarray(best, dtype=np.uint64)


def notakto_positions(board: Board, budget: Budget | None = None) -> NotaktoPositions:
    """Every live position of one Notakto ``board`` reachable from the empty board, up to
    symmetry, with its options (see the module docstring). ``budget`` bounds the work
    (``LimitExceeded`` says how many positions were listed).
    """
    canon = _Canon(board)
    empty = np.zeros(1, dtype=np.uint64)
    if canon.is_dead(empty)[0]:
        raise NoughtsError(f"the empty {board.spec} board is already dead: Notakto has no move on it")
    levels = [empty]
    total = 1
    while True:  # pass 1: the levels (canonical masks of the live positions with k x's)
        found = [np.unique(_live(kids)) for kids in _children(canon, levels[-1], budget, levels, total)]
        nxt = np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.uint64)
        if len(nxt) == 0:
            break
        levels.append(nxt)
        total += len(nxt)
    return _assemble(canon, levels, budget)


_TAKEN = np.iinfo(np.uint64).max
"""A child slot of a taken cell (no move); a dead child is 0 (the empty board is never a child)."""


def _children(
    canon: _Canon,
    level: npt.NDArray[np.uint64],
    budget: Budget | None,
    levels: list[npt.NDArray[np.uint64]],
    total: int,
) -> list[npt.NDArray[np.uint64]]:
    """Each position's child per cell, in batches: the canonical mask, 0 if the move kills the
    board, :data:`_TAKEN` if the cell is taken.
    """
    n = canon.board.num_cells
    bits = np.left_shift(np.uint64(1), np.arange(n, dtype=np.uint64))
    out = []
    for start in range(0, len(level), _CHUNK):
        block = level[start : start + _CHUNK]
        grown = block[:, None] | bits[None, :]
        fresh = (block[:, None] & bits[None, :]) == 0
        flat = grown[fresh]
        keys = canon.canonical(flat)
        keys[canon.is_dead(flat)] = 0
        kids = np.full(grown.shape, _TAKEN, dtype=np.uint64)
        kids[fresh] = keys
        out.append(kids)
        if budget is not None:
            held = sum(lv.nbytes for lv in levels) + sum(k.nbytes for k in out)
            budget.check(memory=held, progress=f"{total:,} positions of one {canon.board.spec} board listed")
    return out


def _live(kids: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    live: npt.NDArray[np.uint64] = kids[(kids != 0) & (kids != _TAKEN)]
    return live


def _assemble(canon: _Canon, levels: list[npt.NDArray[np.uint64]], budget: Budget | None) -> NotaktoPositions:
    """Pass 2: number the levels fullest first and turn each position's children into option
    indices (one per distinct option), with the heights.
    """
    sizes = [len(lv) for lv in levels]
    offsets = [0] * len(levels)
    at = 0
    for k in range(len(levels) - 1, -1, -1):
        offsets[k] = at
        at += sizes[k]
    heights = np.zeros(at, dtype=np.int64)
    masks = np.zeros(at, dtype=np.uint64)
    per_level: dict[int, tuple[IntArray, IntArray]] = {}
    total = at
    for k in range(len(levels) - 1, -1, -1):
        nxt = levels[k + 1] if k + 1 < len(levels) else np.zeros(0, dtype=np.uint64)
        hn = heights[offsets[k + 1] : offsets[k + 1] + sizes[k + 1]] if k + 1 < len(levels) else heights[:0]
        counts, flats, hs = [], [], []
        for kids in _children(canon, levels[k], budget, levels, total):
            idx = np.full(kids.shape, -2, dtype=np.int64)  # -2: no move
            idx[kids == 0] = ZERO
            live = (kids != 0) & (kids != _TAKEN)
            local = np.searchsorted(nxt, kids[live])
            idx[live] = (offsets[k + 1] if k + 1 < len(levels) else 0) + local
            opt_h = np.full(kids.shape, -1, dtype=np.int64)
            opt_h[kids == 0] = 0
            opt_h[live] = hn[local]
            hs.append(1 + opt_h.max(axis=1))
            idx.sort(axis=1)
            keep = idx != -2
            keep[:, 1:] &= idx[:, 1:] != idx[:, :-1]
            counts.append(keep.sum(axis=1))
            flats.append(idx[keep])
        heights[offsets[k] : offsets[k] + sizes[k]] = np.concatenate(hs)
        masks[offsets[k] : offsets[k] + sizes[k]] = levels[k]
        per_level[k] = (np.concatenate(counts), np.concatenate(flats))
    order = range(len(levels) - 1, -1, -1)
    all_counts = np.concatenate([per_level[k][0] for k in order])
    indices = np.concatenate([per_level[k][1] for k in order])
    return _by_height(canon.board, masks, heights, all_counts, indices)


def _by_height(
    board: Board, masks: npt.NDArray[np.uint64], heights: IntArray, counts: IntArray, indices: IntArray
) -> NotaktoPositions:
    """Renumber the positions by height (then fullest first, then mask): still options first,
    since an option's height is smaller. The quotient construction grows far less in this
    order than level by level (simple positions of every level come before complex ones).
    """
    popcount = np.bitwise_count(masks).astype(np.int64)
    order = np.lexsort((masks, -popcount, heights))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    starts = np.concatenate([[0], np.cumsum(counts)])
    new_counts = counts[order]
    pieces = [indices[starts[j] : starts[j + 1]] for j in order]
    flat = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
    flat = np.where(flat == ZERO, ZERO, rank[np.maximum(flat, 0)])
    indptr = np.zeros(len(order) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum(new_counts)
    # each game's options sorted again
    for j in range(len(order)):
        flat[indptr[j] : indptr[j + 1]].sort()
    return NotaktoPositions(indptr, flat, heights[order], board=board, masks=masks[order])
