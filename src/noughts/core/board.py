r"""Boards: cells on a grid, the winning lines through them, and the board's symmetry group.

Every board in noughts is a set of cells on a ``d``-dimensional grid together with ``k``, the
length of a winning line. A winning line is ``k`` cells ``c, c+v, ..., c+(k-1)v`` all on the
board, for a direction ``v`` in ``{-1, 0, 1}^d`` minus zero. This one definition gives

* ``mnk(m, n, k)``: the m x n grid, k in a row across, down or diagonally;
* ``hypercube(n, d)``: the n^d cube of 002 §2.2, whose ((n+2)^d - n^d)/2 lines (Lemma 2.1) are
  exactly the n-cell segments; ``hypercube(n, d, k=K)`` takes every K-cell segment instead;
* ``shape(mask, k)``: any 2D set of cells, e.g. 3x3 with one added square (004 §2.2).

Symmetries are computed from the geometry: the signed permutations of the grid's axes (the
hyperoctahedral group, 2^d·d! elements) that map the cell set onto itself and the lines onto
the lines. A square board has 8, the n^d cube 2^d·d! (48 for 7x7x7), odd shapes fewer.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cached_property
from typing import TYPE_CHECKING

from noughts.core.common import Cell
from noughts.core.errors import LimitExceeded, NotationError, SpecError

if TYPE_CHECKING:
    from noughts.core.automorphism import LineGroup
    from noughts.core.tables import KernelTables

__all__ = ["HYPERGRAPH_MAX_CELLS", "MAX_CELLS", "Board", "hypercube", "hypergraph_boards", "mnk", "shape"]

MAX_CELLS = 4096
"""The largest board noughts builds for play and search; larger requests get a clear ``SpecError``."""

HYPERGRAPH_MAX_CELLS = 1 << 16
"""The largest board built inside :func:`hypergraph_boards`, for analysis of its lines only."""

_CELL_LIMIT: ContextVar[int] = ContextVar("noughts_cell_limit", default=MAX_CELLS)


@contextmanager
def hypergraph_boards() -> Iterator[None]:
    """Build boards of up to :data:`HYPERGRAPH_MAX_CELLS` cells inside this block.

    Playing and full search keep the limit of :data:`MAX_CELLS`; the pairing toolkit and the
    Breaker prover only read a board's hypergraph (cells, lines, symmetries), and a matching on
    15,000 cells is cheap, so they build larger boards here (``noughts.core.registry.hypergraph``).
    The limit is a context variable: it holds for this thread or task only.
    """
    token = _CELL_LIMIT.set(HYPERGRAPH_MAX_CELLS)
    try:
        yield
    finally:
        _CELL_LIMIT.reset(token)


_chain = itertools.chain.from_iterable
_getitem = operator.getitem

_MAX_LINE_WORK = 3_000_000
_MAX_SYMMETRY_WORK = 30_000_000  # symmetries x cells listed by Board.symmetries  # cells x directions examined while enumerating lines

Coord = tuple[int, ...]


class Board:
    """Cells on a grid with their winning lines; immutable and compared by its spec.

    Attributes precomputed once for the fast paths: ``coords`` (cell -> grid coordinates),
    ``lines`` (each a tuple of cells in order along the line), ``line_masks`` (each line as a
    bit mask over cells), ``lines_through`` (line indices through each cell) and
    ``masks_through`` (their bit masks), ``full_mask`` (every cell's bit).
    """

    __slots__ = (
        "__dict__",
        "_by_name",
        "_index",
        "coords",
        "full_mask",
        "given_lines",
        "grid",
        "k",
        "kind",
        "line_masks",
        "lines",
        "lines_through",
        "masks_through",
        "names",
        "num_cells",
        "placed",
        "spec",
    )

    def __init__(
        self,
        kind: str,
        spec: str,
        grid: Sequence[int],
        cells: Sequence[Coord],
        k: int,
        *,
        lines: Sequence[Sequence[Cell]] | None = None,
        names: Sequence[str] | None = None,
        placed: bool = True,
    ):
        self.kind = kind
        self.spec = spec
        self.grid: tuple[int, ...] = tuple(grid)
        self.k = k
        self.coords: tuple[Coord, ...] = tuple(cells)
        self.num_cells = len(self.coords)
        self._index: dict[Coord, Cell] = {c: i for i, c in enumerate(self.coords)}
        self.names: tuple[str, ...] | None = None if names is None else tuple(names)
        """The points' own names (a user's hypergraph), or None: cells are named by position."""
        self._by_name = {} if names is None else {n: i for i, n in enumerate(names)}
        self.given_lines = lines is not None
        self.placed = placed
        """Whether the cells' coordinates mean something to draw (False: a user's hypergraph written
        without coordinates, whose points fill a grid row by row only to be stored; pictures put
        them on a circle instead: :func:`noughts.core.hypergraphs.circle_layout`)."""
        """Whether the lines were given as a list (finite planes, tori, a user's hypergraph) rather
        than found as straight runs on the grid; their symmetries then come from the lines."""
        self.lines: tuple[tuple[Cell, ...], ...] = (
            tuple(self._enumerate_lines()) if lines is None else tuple(tuple(line) for line in lines)
        )
        self.line_masks: tuple[int, ...] = tuple(sum(1 << c for c in line) for line in self.lines)
        through: list[list[int]] = [[] for _ in range(self.num_cells)]
        for j, line in enumerate(self.lines):
            for c in line:
                through[c].append(j)
        self.lines_through: tuple[tuple[int, ...], ...] = tuple(tuple(t) for t in through)
        self.masks_through: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.line_masks[j] for j in t) for t in through
        )
        self.full_mask = (1 << self.num_cells) - 1

    # -- geometry -----------------------------------------------------------------------------

    @property
    def dims(self) -> int:
        """Number of grid axes: 2 for flat boards, d for n^d."""
        return len(self.grid)

    def cell_at(self, coord: Sequence[int]) -> Cell | None:
        """The cell at grid coordinates ``coord`` (0-based), or None if there is none."""
        return self._index.get(tuple(coord))

    def _directions(self) -> Iterator[Coord]:
        for v in itertools.product((-1, 0, 1), repeat=self.dims):
            first = next((x for x in v if x), 0)
            if first > 0:  # one of each +v/-v pair, and never the zero vector
                yield v

    def _enumerate_lines(self) -> Iterator[tuple[Cell, ...]]:
        # for each direction, step every cell k-1 times at once (NumPy); a start whose k cells
        # all lie on the board begins a line. Lines come out by direction, then by start cell.
        import numpy as np  # imported where used: ``import noughts`` stays light

        grid = np.array(self.grid, dtype=np.int64)
        coords = np.array(self.coords, dtype=np.int64).reshape(self.num_cells, self.dims)
        strides = np.array([math.prod(self.grid[i + 1 :]) for i in range(self.dims)], dtype=np.int64)
        dense = np.full(math.prod(self.grid), -1, dtype=np.int64)
        dense[coords @ strides] = np.arange(self.num_cells)
        directions = list(self._directions())[: 1 if self.k == 1 else None]  # k = 1: each cell once
        for v in directions:
            step = np.array(v, dtype=np.int64)
            cells = np.empty((self.num_cells, self.k), dtype=np.int64)
            ok = np.ones(self.num_cells, dtype=bool)
            for i in range(self.k):
                points = coords + i * step
                inside = ((points >= 0) & (points < grid)).all(axis=1)
                cells[:, i] = np.where(inside, dense[np.where(inside, points @ strides, 0)], -1)
                ok &= cells[:, i] >= 0
            for row in cells[ok]:
                yield tuple(int(c) for c in row)

    @cached_property
    def tables(self) -> KernelTables:
        """The arrays kernels read (line masks, lines through each cell, symmetry tables), built
        once on first use (:mod:`noughts.core.tables`).
        """
        from noughts.core.tables import KernelTables

        return KernelTables(self)

    @property
    def max_lines_through_cell(self) -> int:
        """The most winning lines through one cell (002 Lemma 2.2)."""
        return max((len(t) for t in self.lines_through), default=0)

    @cached_property
    def symmetries(self) -> tuple[tuple[Cell, ...], ...]:
        """The symmetry group as cell permutations ``perm`` (cell c maps to ``perm[c]``).

        The identity comes first. Computed from the geometry: the distinct cell permutations
        induced by signed permutations of the grid axes that map the cells onto themselves.
        Such a map is a lattice isometry sending directions in {-1,0,1}^d to directions, so it
        maps the k-cell segments on cells (the lines) onto lines; the tests check this on every
        board kind. Raises ``LimitExceeded`` for groups too large to list (see
        :attr:`symmetry_count` for their size).

        A board given by its lines (:attr:`given_lines`) has the automorphisms of its lines
        instead, computed from them (:func:`noughts.core.automorphism.line_group`): the whole
        group, or a subgroup where it has more than ``GROUP_CAP`` elements.
        """
        if self.given_lines:
            return self.line_group.elements
        work = self._candidate_count() * self.num_cells
        if work > _MAX_SYMMETRY_WORK:
            raise LimitExceeded(
                f"the symmetry group of {self.spec} has {self.symmetry_count} elements on "
                f"{self.num_cells} cells: too large to list (at most {_MAX_SYMMETRY_WORK:,} cell images)"
            )
        return tuple(self._symmetries())

    @cached_property
    def symmetry_count(self) -> int:
        """The order of the symmetry group, without listing it where a formula gives it.

        For a full box (``mnk``, ``hypercube``) every signed permutation of the axes of length
        at least 2 that keeps their lengths is a distinct symmetry: for each set of m equal
        sides, 2^m·m! (2^d·d! for n^d, n >= 2). Odd shapes are counted by listing.
        """
        if self.kind == "shape" or self.given_lines:
            return len(self.symmetries)
        sides = [g for g in self.grid if g > 1]
        count: int = 1
        for length in set(sides):
            m = sides.count(length)
            count *= 2**m * math.factorial(m)
        return count

    @cached_property
    def line_group(self) -> LineGroup:
        """The automorphism group of the lines, computed from them by a graph-automorphism
        search (:func:`noughts.core.automorphism.line_group`), whatever the board's kind.
        """
        from noughts.core.automorphism import line_group

        return line_group(self)

    def _active_axes(self) -> list[int]:
        return [i for i, g in enumerate(self.grid) if g > 1]  # flipping a side of 1 does nothing

    def _candidate_count(self) -> int:
        active = self._active_axes()
        sides = [self.grid[i] for i in active]
        count: int = 2 ** len(active)
        for length in set(sides):
            count *= math.factorial(sides.count(length))
        return count

    def _symmetries(self) -> Iterator[tuple[Cell, ...]]:
        import numpy as np

        grid = self.grid
        active = self._active_axes()
        coords = np.array(self.coords, dtype=np.int64).reshape(self.num_cells, self.dims)
        strides = np.array([math.prod(grid[i + 1 :]) for i in range(self.dims)], dtype=np.int64)
        dense = np.full(math.prod(grid), -1, dtype=np.int64)
        dense[coords @ strides] = np.arange(self.num_cells)
        seen: set[bytes] = set()
        for order in itertools.permutations(active):
            if any(grid[a] != grid[b] for a, b in zip(active, order, strict=True)):
                continue
            axes = list(range(self.dims))
            for a, b in zip(active, order, strict=True):
                axes[a] = b
            base = coords[:, axes]
            for flips in itertools.product((False, True), repeat=len(active)):
                image = base.copy()
                for axis, flip in zip(active, flips, strict=True):
                    if flip:
                        image[:, axis] = grid[axis] - 1 - image[:, axis]
                perm = dense[image @ strides]
                if (perm < 0).any():
                    continue
                key = perm.tobytes()
                if key not in seen:  # a set of cells on a lower-dimensional slice has repeats
                    seen.add(key)
                    yield tuple(int(c) for c in perm)

    @cached_property
    def _byte_tables(self) -> tuple[tuple[tuple[Cell, ...], ...], ...]:
        # for byte i of a mask and each of its 256 values, the cells that byte holds
        nbytes = (self.num_cells + 7) // 8
        return tuple(
            tuple(tuple(8 * i + j for j in range(8) if v >> j & 1) for v in range(256)) for i in range(nbytes)
        )

    def cells_in(self, mask: int) -> list[Cell]:
        """The cells of a bit mask, in increasing order (table-driven: the loop runs in C)."""
        tables = self._byte_tables
        return list(_chain(map(_getitem, tables, mask.to_bytes(len(tables), "little"))))

    def transform_mask(self, bits: int, perm: Sequence[Cell]) -> int:
        """The image of a set of cells (a bit mask) under the permutation ``perm``."""
        out = 0
        while bits:
            low = bits & -bits
            out |= 1 << perm[low.bit_length() - 1]
            bits ^= low
        return out

    # -- notation -----------------------------------------------------------------------------

    def cell_name(self, cell: Cell) -> str:
        """The cell in people's notation: ``b2`` on flat boards, ``2,2,2`` (1-based) on n^d.

        Flat boards name the column by letters (a, b, ..., z, aa, ab, ...) and the row by a
        number, row 1 at the top, like a spreadsheet.
        """
        if self.names is not None:
            return self.names[cell]
        coord = self.coords[cell]
        if self.dims == 2:
            return column_letters(coord[1]) + str(coord[0] + 1)
        return ",".join(str(x + 1) for x in coord)

    def parse_cell(self, text: str) -> Cell:
        """Read a cell written as :meth:`cell_name` writes it; raise ``NotationError`` if not."""
        if self.names is not None:
            named = self._by_name.get(text.strip())
            if named is None:
                raise NotationError(f"{text!r} is not a point of {self.spec}")
            return named
        s = text.strip().lower()
        if not s.isascii():
            raise NotationError(f"cannot read {text!r} as a cell: use plain letters and digits")
        if self.dims == 2 and s[:1].isalpha():
            letters = s.rstrip("0123456789")
            digits = s[len(letters) :]
            if not letters.isalpha() or not digits:
                raise NotationError(
                    f"cannot read {text!r} as a cell: write a column letter and a row number, e.g. 'b2'"
                )
            coord: Coord = (int(digits) - 1, _column_index(letters))
        else:
            parts = s.strip("()").replace(" ", "").split(",")
            if len(parts) != self.dims or not all(p.isdigit() for p in parts):
                example = "b2" if self.dims == 2 else ",".join(["1"] * self.dims)
                raise NotationError(f"cannot read {text!r} as a cell: write e.g. '{example}'")
            coord = tuple(int(p) - 1 for p in parts)
        cell = self._index.get(coord)
        if cell is None:
            raise NotationError(f"{text!r} is not a cell of {self.spec}")
        return cell

    # -- identity -----------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(("Board", self.spec))

    def __repr__(self) -> str:
        return f"Board({self.spec!r})"

    def __str__(self) -> str:
        return self.spec


def column_letters(col: int) -> str:
    """The letters of 0-based column ``col`` in cell names: a..z, then aa, ab, ..."""
    name = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        name = chr(ord("a") + rem) + name
    return name


def _column_index(letters: str) -> int:
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - ord("a") + 1)
    return col - 1


def _check_size(spec: str, num_cells: int, dims: int) -> None:
    limit = _CELL_LIMIT.get()
    if num_cells > limit:
        raise SpecError(f"{spec} has {num_cells} cells; noughts builds boards of at most {limit}")
    if num_cells * (3**dims - 1) // 2 > _MAX_LINE_WORK:
        raise SpecError(f"{spec} is too large: {dims} dimensions and {num_cells} cells")


def _positive(name: str, value: int, spec: str) -> None:
    if value < 1:
        raise SpecError(f"{spec}: {name} must be at least 1, not {value}")


def _require_lines(board: Board) -> Board:
    if not board.lines:
        raise SpecError(f"{board.spec}: no line of {board.k} cells fits on this board")
    return board


def mnk(m: int, n: int, k: int) -> Board:
    """The m x n board (m rows, n columns) with k in a row across, down or diagonally."""
    spec = f"mnk({m},{n},{k})"
    for name, value in (("m", m), ("n", n), ("k", k)):
        _positive(name, value, spec)
    if k > max(m, n):
        raise SpecError(f"{spec}: k = {k} is larger than the board ({m} x {n})")
    _check_size(spec, m * n, 2)
    cells = [(r, c) for r in range(m) for c in range(n)]
    return _require_lines(Board("mnk", spec, (m, n), cells, k))


def hypercube(n: int, d: int, k: int | None = None) -> Board:
    """The n^d board of 002 §2.2; lines of n cells, or of k cells when ``k`` is given."""
    spec = f"hypercube({n},{d})" if k is None or k == n else f"hypercube({n},{d},k={k})"
    _positive("n", n, spec)
    _positive("d", d, spec)
    k = n if k is None else k
    _positive("k", k, spec)
    if k > n:
        raise SpecError(f"{spec}: k = {k} is larger than the side of the board ({n})")
    limit = _CELL_LIMIT.get()
    if d > 12 or n**d > limit:
        raise SpecError(f"{spec} has {n}^{d} cells; noughts builds boards of at most {limit}")
    _check_size(spec, n**d, d)
    cells = list(itertools.product(range(n), repeat=d))
    return _require_lines(Board("hypercube", spec, (n,) * d, cells, k))


def shape(mask: str, k: int) -> Board:
    """A flat board drawn as rows of ``#`` (cell) and ``.`` (no cell) separated by ``/``.

    Empty border rows and columns are trimmed, so the canonical spec shows the tight mask.
    Levine's 3x3 with an added square (004 §2.2) is e.g. ``shape("###./####/###.", 3)``.
    """
    raw = mask.replace(" ", "")
    rows = raw.split("/")
    bad = next((ch for ch in raw if ch not in "#./"), None)
    if bad is not None:
        raise SpecError(
            f"shape mask {mask!r}: unexpected {bad!r}; use '#' for a cell, '.' for none, '/' between rows"
        )
    if len({len(r) for r in rows}) != 1:
        raise SpecError(f"shape mask {mask!r}: rows have different lengths {[len(r) for r in rows]}")
    points = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
    if not points:
        raise SpecError(f"shape mask {mask!r} has no cells")
    r0 = min(r for r, _ in points)
    c0 = min(c for _, c in points)
    height = max(r for r, _ in points) - r0 + 1
    width = max(c for _, c in points) - c0 + 1
    cells = sorted((r - r0, c - c0) for r, c in points)
    present = set(cells)
    tight = "/".join("".join("#" if (r, c) in present else "." for c in range(width)) for r in range(height))
    spec = f'shape("{tight}",{k})'
    _positive("k", k, spec)
    _check_size(spec, len(cells), 2)
    return _require_lines(Board("shape", spec, (height, width), cells, k))
