"""A spec's size from its numbers, before any board is built.

Building a board enumerates its lines and their lookup tables: for the largest boards noughts
builds (4,096 cells) that is tens of milliseconds and megabytes. A server that refuses boards
over some size should know the size first, so a refused spec costs microseconds and leaves
nothing behind. :func:`spec_size` reads the parsed spec (:func:`noughts.core.spec.parse_spec`)
and computes, from the numbers alone, the cells and lines of the board the game is played on
(``game.board.num_cells`` and ``len(game.board.lines)``) and how many boards are played at
once (Notakto's ``boards``):

* ``mnk(m,n,k)``: ``m*n`` cells; the lines of ``k`` along the four directions,
  ``m(n-k+1) + (m-k+1)n + 2(m-k+1)(n-k+1)`` (terms below zero count none; ``k = 1``: one line
  per cell).
* ``hypercube(n,d,k)``: ``n^d`` cells; a direction with ``j`` non-zero steps starts a line at
  ``n^(d-j) (n-k+1)^j`` cells, and there are ``C(d,j) 2^(j-1)`` such directions (one of each
  ``+v``/``-v`` pair), so the lines number ``((3n-2k+2)^d - n^d) / 2`` (Beck 2008, the
  ``((n+2)^d - n^d)/2`` of 002 §2.2 at ``k = n``).
* ``shape(mask,k)``: the ``#`` of the mask; the lines counted by runs along each direction
  (a cell whose run of present cells reaches ``k`` ends a line), linear in the cells.
* ``affine(q)``: ``q²`` points and ``q² + q`` lines; ``projective(q)``: ``q² + q + 1`` of
  each (q a prime power; another q is refused while building, before any line is made).
* ``torus(m,n,k)``: ``m*n`` cells; along a row, ``n`` windows of ``k`` (one if ``k = n``, the
  row itself), likewise down a column; a diagonal direction wraps in cycles of
  ``L = lcm(m,n)`` cells, ``m*n/L`` of them, each with ``L`` windows (one if ``k = L``); with
  ``k = 2`` and a side of 2 the anti-diagonal windows are the diagonal ones again.
* ``hypergraph(lines, points)``: the points and lines written (counted from the text).
* Rules (``misere``, ``maker_breaker``, ``veto``, ``forget``, ``notakto`` ...) keep their
  board's size; ``otrio`` is played on the 3^3 board's cells.

The tests hold these counts to the built boards' on many specs. Where a spec cannot be sized
(an unknown name, an argument of the wrong kind, too many dimensions) :func:`spec_size` answers
``None``: those specs are refused by the registry while it binds the arguments, before any
board is built, so building is then as cheap as sizing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from noughts.core.registry import ENTRIES
from noughts.core.spec import Call, Value, format_value, parse_spec

__all__ = [
    "SpecSize",
    "hypercube_size",
    "hypergraph_size",
    "mnk_size",
    "shape_size",
    "spec_key",
    "spec_size",
    "torus_size",
]

MAX_DIMENSIONS = 12
"""The most axes :func:`noughts.core.board.hypercube` builds (more is refused before building)."""


@dataclass(frozen=True)
class SpecSize:
    """The size of the board a game is played on, computed from its spec."""

    cells: int
    """Cells of one board (``game.board.num_cells``)."""
    lines: int
    """Winning lines of one board (``len(game.board.lines)``)."""
    boards: int = 1
    """Boards played at once (Notakto's ``boards``)."""

    @property
    def slots(self) -> int:
        """Cells over all the boards in play."""
        return self.cells * self.boards


def _starts(side: int, k: int) -> int:
    return max(0, side - k + 1)


def mnk_size(m: int, n: int, k: int) -> SpecSize:
    """The size of ``mnk(m,n,k)`` (see the module docstring).

    >>> mnk_size(3, 3, 3)
    SpecSize(cells=9, lines=8, boards=1)
    >>> mnk_size(15, 15, 5).lines
    572
    """
    if k == 1:
        return SpecSize(m * n, m * n)
    lines = m * _starts(n, k) + _starts(m, k) * n + 2 * _starts(m, k) * _starts(n, k)
    return SpecSize(m * n, lines)


def hypercube_size(n: int, d: int, k: int | None = None) -> SpecSize:
    """The size of ``hypercube(n,d,k)`` (see the module docstring).

    >>> hypercube_size(4, 3).lines  # Qubic's 76 lines
    76
    >>> hypercube_size(7, 3).lines
    193
    """
    k = n if k is None else k
    cells = n**d
    if k == 1:
        return SpecSize(cells, cells)
    lines = ((n + 2 * _starts(n, k)) ** d - n**d) // 2
    return SpecSize(cells, lines)


def shape_size(mask: str, k: int) -> SpecSize:
    """The size of ``shape(mask,k)``: its cells, and its lines counted by runs of cells along
    each of the four directions (linear in the cells, whatever ``k``).

    >>> shape_size("###./####/###.", 3)
    SpecSize(cells=10, lines=9, boards=1)
    """
    rows = mask.replace(" ", "").split("/")
    present = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
    if k == 1:
        return SpecSize(len(present), len(present))
    lines = 0
    for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
        run: dict[tuple[int, int], int] = {}
        for r, c in sorted(present):  # row by row: a cell's predecessor (r-dr, c-dc) comes first
            run[r, c] = run.get((r - dr, c - dc), 0) + 1
            lines += run[r, c] >= k
    return SpecSize(len(present), lines)


def torus_size(m: int, n: int, k: int) -> SpecSize:
    """The size of ``torus(m,n,k)`` (see the module docstring).

    >>> torus_size(4, 4, 4), torus_size(5, 5, 4).lines
    (SpecSize(cells=16, lines=16, boards=1), 100)
    """
    import math

    cycle = math.lcm(m, n)
    rows = m * (n if k < n else 1)
    cols = n * (m if k < m else 1)
    diagonal = (m * n // cycle) * (cycle if k < cycle else 1)
    anti = 0 if k == 2 and 2 in (m, n) else diagonal
    return SpecSize(m * n, rows + cols + diagonal + anti)


def hypergraph_size(lines: str, points: str = "") -> SpecSize:
    """The size of ``hypergraph(lines, points)``: the points and lines the text writes.

    >>> hypergraph_size("a b c / c d e / e f a")
    SpecSize(cells=6, lines=3, boards=1)
    """
    import re

    written = [p.split() for p in re.split(r"[/;]", lines.replace(",", " "))]
    written = [w for w in written if w]
    named = points.split() or {name for line in written for name in line}
    return SpecSize(len(named), len(written))


def _plane_size(name: str, q: int) -> SpecSize:
    return SpecSize(q * q, q * q + q) if name == "affine" else SpecSize(q * q + q + 1, q * q + q + 1)


def _bound(call: Call) -> dict[str, Value] | None:
    """The call's arguments by parameter name, or None where the registry would refuse them."""
    entry = ENTRIES.get(call.name)
    if entry is None or len(call.args) > len(entry.params):
        return None
    names = [p.name for p in entry.params]
    values: dict[str, Value] = dict(zip(names, call.args, strict=False))
    for key, value in call.kwargs:
        if key not in names or key in values:
            return None
        values[key] = value
    return values


def _int(value: Value | None) -> int | None:
    return value if isinstance(value, int) and value >= 1 else None


def _size(call: Call) -> SpecSize | None:
    values = _bound(call)
    if values is None:
        return None
    name = call.name
    if name == "tictactoe":
        return mnk_size(3, 3, 3)
    if name == "otrio":
        return hypercube_size(3, 3)
    if name == "mnk":
        m, n, k = (_int(values.get(p)) for p in ("m", "n", "k"))
        return None if m is None or n is None or k is None else mnk_size(m, n, k)
    if name == "hypercube":
        side, d, given = _int(values.get("n")), _int(values.get("d")), values.get("k")
        if side is None or d is None or d > MAX_DIMENSIONS or (given is not None and _int(given) is None):
            return None
        return hypercube_size(side, d, _int(given))
    if name in ("affine", "projective"):
        q = _int(values.get("q"))
        return None if q is None else _plane_size(name, q)
    if name == "torus":
        m, n, k = (_int(values.get(p)) for p in ("m", "n", "k"))
        return None if m is None or n is None or k is None else torus_size(m, n, k)
    if name == "hypergraph":
        text, points = values.get("lines", ""), values.get("points", "")
        if values.get("file") or not isinstance(text, str) or not isinstance(points, str):
            return None  # read from a file (the command line only) or refused while binding
        return hypergraph_size(text, points)
    if name == "shape":
        mask, length = values.get("mask"), _int(values.get("k"))
        return None if not isinstance(mask, str) or length is None else shape_size(mask, length)
    inner = values.get("board", values.get("game"))
    if inner is None:
        default = ENTRIES[name].params[0].default
        inner = Call("tictactoe") if callable(default) else None
    if not isinstance(inner, Call):
        return None
    size = _size(inner)
    if size is None:
        return None
    boards = values.get("boards", 1)
    if name == "notakto" and _int(boards) is not None:
        return replace(size, boards=int(boards))  # type: ignore[arg-type]
    return size


def spec_size(spec: str | Call) -> SpecSize | None:
    """The size of the game ``spec`` names, from its numbers alone (see the module docstring);
    ``SpecError`` if it cannot be read, None where the registry refuses it before building.

    >>> spec_size("misere(mnk(64, 64, 5))").cells
    4096
    >>> spec_size("notakto(boards=3)")
    SpecSize(cells=9, lines=8, boards=3)
    """
    return _size(parse_spec(spec) if isinstance(spec, str) else spec)


def _format(value: Value) -> str:
    if isinstance(value, Call):
        parts = [_format(v) for v in value.args] + [f"{k}={_format(v)}" for k, v in value.kwargs]
        return f"{value.name}({','.join(parts)})" if parts else value.name
    return format_value(value)


def spec_key(spec: str) -> str:
    """The spec as parsed and written back without spaces: two texts with one key name one game
    (a key for caches of built games; the canonical spec, ``str(game)``, needs the game).

    >>> spec_key(" misere( mnk(3, 3,3) ) ")
    'misere(mnk(3,3,3))'
    """
    return _format(parse_spec(spec))
