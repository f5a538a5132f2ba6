r"""Boards given by their lines: finite planes, tori, and hypergraphs a user writes.

The theory of positional games is stated on hypergraphs (Beck, "Combinatorial Games", 2008):
points, and a family of winning sets over them. These constructors make such boards, each a
:class:`noughts.core.board.Board` whose lines are listed rather than found as straight runs on
a grid, and whose symmetry group is computed from the lines (:mod:`noughts.core.automorphism`).

* ``affine(q)``: the affine plane AG(2,q) over the field of q elements, q a prime power: q²
  points (x, y) and q²+q lines, the solutions of y = mx + b (read along x) and x = c (read
  along y). Tic-tac-toe on it is a first-player win for q <= 4 and a draw for q >= 5 (Carroll
  and Dougherty, "Tic-Tac-Toe on a Finite Plane", Math. Magazine 77, 2004; Danziger, Huggan,
  Malik and Marbach 2020 for a human proof at q = 4).
* ``projective(q)``: the projective plane PG(2,q): q²+q+1 points and as many lines of q+1
  points, the one-dimensional subspaces of GF(q)³ and the planes through the origin. The
  affine points (x, y, 1) are drawn on a q x q grid, the points at infinity (1, m, 0) and
  (0, 1, 0) on a row beneath it.
* ``torus(m, n, k)``: the m x n grid whose rows, columns and diagonals wrap around; a line is
  k cells in a row along one of the four directions, read modulo the sides (a set met twice
  counts once: on the 4x4 torus with k = 4 a row is one line, not four).
* ``hypergraph(lines, points=, at=, file=)``: lines a user writes, as text
  (``"a b c / c d e"``: points separated by spaces or commas, lines by ``/`` or ``;``) or in a
  JSON file (``{"points": [...], "lines": [[...], ...], "coords": {...}}``, read by the
  command line only). Every line must have the same number of points (the engines count a
  line's marks against one k). Optional coordinates (``at="0,0 0,1 ..."``, one pair per point)
  place the points on a grid for drawing; without them the points fill a grid row by row (what
  is stored) and pictures draw them on a circle (:func:`circle_layout`, ``Board.placed``).

The field GF(q) for q = p^e is the polynomials over GF(p) modulo an irreducible one of degree
e (Lidl and Niederreiter, "Finite Fields", ch. 1), its elements written as integers whose base-p
digits are the coefficients; :class:`Field` finds the irreducible polynomial by trial division.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from noughts.core.board import MAX_CELLS, Board
from noughts.core.errors import SpecError
from noughts.core.spec import MAX_SPEC_LENGTH, format_value

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_ORDER",
    "Field",
    "affine",
    "circle_layout",
    "hypergraph",
    "prime_power",
    "projective",
    "torus",
    "user_files",
]

MAX_ORDER = 64
"""The largest plane order built (AG(2,64) has 4,096 points, the most a board holds)."""

MAX_FILE_BYTES = 1 << 20
"""The largest hypergraph file read."""

_FILES: ContextVar[bool] = ContextVar("noughts_hypergraph_files", default=False)


@contextmanager
def user_files() -> Iterator[None]:
    """Let ``hypergraph(file="...")`` read files inside this block (the command line does; the
    web server never does: a spec from the network must not name files on the server).
    """
    token = _FILES.set(True)
    try:
        yield
    finally:
        _FILES.reset(token)


def allow_user_files() -> Callable[[], None]:
    """Let ``hypergraph(file=...)`` read files in this context (the command line) until the
    returned function is called.
    """
    token = _FILES.set(True)
    return lambda: _FILES.reset(token)


# -- the field of q elements -----------------------------------------------------------------------


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, e)`` with ``q = p^e`` for a prime p, or None.

    >>> prime_power(9), prime_power(8), prime_power(6), prime_power(1)
    ((3, 2), (2, 3), None, None)
    """
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    e, rest = 0, q
    while rest % p == 0:
        rest //= p
        e += 1
    return (p, e) if rest == 1 else None


class Field:
    """GF(q): elements 0..q-1, addition and multiplication by tables.

    >>> f = Field(4)
    >>> [f.mul[2][x] for x in range(4)], [f.add[2][x] for x in range(4)]
    ([0, 2, 3, 1], [2, 3, 0, 1])
    >>> all(any(f.mul[a][b] == 1 for b in range(1, 4)) for a in range(1, 4))  # inverses exist
    True
    """

    def __init__(self, q: int):
        pe = prime_power(q)
        if pe is None:
            raise SpecError(f"{q} is not a prime power: finite planes exist over fields of prime-power order")
        self.q = q
        self.p, self.e = pe
        modulus = self._irreducible()
        digits = [self._digits(a) for a in range(q)]
        self.add = [
            [self._number([(x + y) % self.p for x, y in zip(a, b, strict=True)]) for b in digits]
            for a in digits
        ]
        self.mul = [[self._number(self._times(a, b, modulus)) for b in digits] for a in digits]

    def _digits(self, a: int) -> list[int]:
        return [(a // self.p**i) % self.p for i in range(self.e)]

    def _number(self, digits: Sequence[int]) -> int:
        return sum(d * self.p**i for i, d in enumerate(digits))

    def _times(self, a: Sequence[int], b: Sequence[int], modulus: Sequence[int]) -> list[int]:
        p, e = self.p, self.e
        prod = [0] * (2 * e)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                prod[i + j] = (prod[i + j] + x * y) % p
        for top in range(2 * e - 1, e - 1, -1):  # reduce by the monic modulus of degree e
            c = prod[top]
            if c:
                for i in range(e + 1):
                    prod[top - e + i] = (prod[top - e + i] - c * modulus[i]) % p
        return prod[:e]

    def _irreducible(self) -> list[int]:
        p, e = self.p, self.e
        if e == 1:
            return [0, 1]  # x: reducing by it leaves the constant term, arithmetic mod p
        for n in range(p**e):
            coeffs = [(n // p**i) % p for i in range(e)] + [1]  # monic, degree e
            if coeffs[0] and not any(_divides(f, coeffs, p) for f in _monic(p, e // 2)):
                return coeffs
        raise AssertionError("an irreducible polynomial of every degree exists")  # pragma: no cover


def _monic(p: int, most: int) -> Iterator[list[int]]:
    for d in range(1, most + 1):
        for n in range(p**d):
            yield [(n // p**i) % p for i in range(d)] + [1]


def _divides(f: Sequence[int], g: Sequence[int], p: int) -> bool:
    rest = list(g)
    df = len(f) - 1
    for top in range(len(rest) - 1, df - 1, -1):
        c = rest[top]
        if c:
            for i in range(df + 1):
                rest[top - df + i] = (rest[top - df + i] - c * f[i]) % p
    return not any(rest[:df])


# -- the families ----------------------------------------------------------------------------------


def _order(q: int, spec: str) -> Field:
    if q < 2:
        raise SpecError(f"{spec}: the order q must be at least 2, not {q}")
    if q > MAX_ORDER:
        raise SpecError(f"{spec}: the order q must be at most {MAX_ORDER} (q² points, at most {MAX_CELLS})")
    if prime_power(q) is None:
        raise SpecError(f"{spec}: q = {q} is not a prime power (2, 3, 4, 5, 7, 8, 9, ...): no such field")
    return Field(q)


def affine(q: int) -> Board:
    """AG(2,q): q² points, q²+q lines of q points (see the module docstring)."""
    spec = f"affine({q})"
    f = _order(q, spec)
    cells = [(x, y) for x in range(q) for y in range(q)]
    lines: list[tuple[int, ...]] = []
    for m in range(q):
        for b in range(q):
            lines.append(tuple(x * q + f.add[f.mul[m][x]][b] for x in range(q)))
    lines.extend(tuple(c * q + y for y in range(q)) for c in range(q))
    return Board("affine", spec, (q, q), cells, q, lines=lines)


def projective(q: int) -> Board:
    """PG(2,q): q²+q+1 points and lines of q+1 points (see the module docstring)."""
    spec = f"projective({q})"
    f = _order(q, spec)
    if q * q + q + 1 > MAX_CELLS:
        raise SpecError(f"{spec} has {q * q + q + 1} points; noughts builds boards of at most {MAX_CELLS}")
    points = [(x, y, 1) for x in range(q) for y in range(q)] + [(1, m, 0) for m in range(q)] + [(0, 1, 0)]
    cells = [(x, y) for x in range(q) for y in range(q)] + [(q, m) for m in range(q + 1)]
    lines: list[tuple[int, ...]] = []
    for a, b, c in points:  # lines are the points of the dual plane: a x + b y + c z = 0
        on = [
            i
            for i, (x, y, z) in enumerate(points)
            if f.add[f.add[f.mul[a][x]][f.mul[b][y]]][f.mul[c][z]] == 0
        ]
        lines.append(tuple(on))
    return Board("projective", spec, (q + 1, q + 1), cells, q + 1, lines=sorted(lines))


def torus(m: int, n: int, k: int) -> Board:
    """The m x n torus, k in a row in four directions, wrapping (see the module docstring)."""
    spec = f"torus({m},{n},{k})"
    if min(m, n) < 1:
        raise SpecError(f"{spec}: the sides must be at least 1")
    if not 2 <= k <= min(m, n):
        raise SpecError(f"{spec}: k must be between 2 and the shorter side ({min(m, n)}), not {k}")
    if m * n > MAX_CELLS:
        raise SpecError(f"{spec} has {m * n} cells; noughts builds boards of at most {MAX_CELLS}")
    lines: list[tuple[int, ...]] = []
    seen: set[frozenset[int]] = set()
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(m):
            for c in range(n):
                line = tuple(((r + i * dr) % m) * n + (c + i * dc) % n for i in range(k))
                key = frozenset(line)
                if len(key) == k and key not in seen:
                    seen.add(key)
                    lines.append(line)
    cells = [(r, c) for r in range(m) for c in range(n)]
    return Board("torus", spec, (m, n), cells, k, lines=lines)


# -- lines a user writes ---------------------------------------------------------------------------

_NAME = re.compile(r"[A-Za-z0-9_]+\Z")


def _split_lines(text: str) -> list[list[str]]:
    out = []
    for part in re.split(r"[/;]", text):
        names = [w for w in re.split(r"[\s,]+", part.strip()) if w]
        out.append(names)
    if out and not out[-1] and len(out) > 1:  # a trailing separator
        out.pop()
    return out


def _check_names(names: Sequence[str], what: str) -> None:
    for name in names:
        if not _NAME.match(name):
            raise SpecError(f"hypergraph: the point {name!r} in {what}: names are letters, digits and _")


def _canonical(
    points: Sequence[str], lines: Sequence[Sequence[str]], at: Sequence[tuple[int, int]] | None
) -> str:
    text = " / ".join(" ".join(line) for line in lines)
    order = list(dict.fromkeys(name for line in lines for name in line))
    args = [format_value(text)]
    if list(points) != order:
        args.append("points=" + format_value(" ".join(points)))
    if at is not None:
        args.append("at=" + format_value(" ".join(f"{r},{c}" for r, c in at)))
    return f"hypergraph({','.join(args)})"


def _read_file(path: str) -> tuple[str, str, str]:
    if not _FILES.get():
        raise SpecError("hypergraph: file= is read by the command line only; write the lines in the spec")
    p = Path(path)
    try:
        if p.stat().st_size > MAX_FILE_BYTES:
            raise SpecError(f"hypergraph: {path} is larger than {MAX_FILE_BYTES:,} bytes")
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise SpecError(f"hypergraph: cannot read {path}: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SpecError(f"hypergraph: {path} is not JSON: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("lines"), list):
        raise SpecError(f'hypergraph: {path} must hold an object with "lines": a list of lists of points')

    def names(items: object, what: str) -> list[str]:
        if not isinstance(items, list) or not all(
            isinstance(x, (str, int)) and not isinstance(x, bool) for x in items
        ):
            raise SpecError(f"hypergraph: {path}: {what} must be a list of point names or numbers")
        return [str(x) for x in items]

    lines = [names(line, f"line {j + 1}") for j, line in enumerate(data["lines"])]
    empty = next((j for j, line in enumerate(lines) if not line), None)
    if empty is not None:
        raise SpecError(f"hypergraph: {path}: line {empty + 1} is empty")
    points = names(data["points"], '"points"') if "points" in data else []
    coords = data.get("coords")
    at = ""
    if coords is not None:
        order = points or list(dict.fromkeys(n for line in lines for n in line))
        if isinstance(coords, dict):
            unknown = [str(k) for k in coords if str(k) not in set(order)]
            if unknown:
                raise SpecError(f"hypergraph: {path}: coordinates for the unknown point {unknown[0]!r}")
            coords = [coords.get(n, coords.get(int(n)) if n.isdigit() else None) for n in order]
        if not isinstance(coords, list) or not all(
            isinstance(c, list)
            and len(c) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in c)
            for c in coords
        ):
            raise SpecError(
                f'hypergraph: {path}: "coords" must give each point a [row, column] of whole numbers'
            )
        at = " ".join(f"{r},{c}" for r, c in coords)
    return (" / ".join(" ".join(line) for line in lines), " ".join(points), at)


def _parse_at(text: str, count: int) -> list[tuple[int, int]]:
    pairs = text.split()
    if len(pairs) != count:
        raise SpecError(f"hypergraph: at= gives {len(pairs)} coordinates for {count} points")
    out = []
    for pair in pairs:
        parts = pair.split(",")
        if len(parts) != 2 or not all(x.isdigit() for x in parts):
            raise SpecError(f"hypergraph: cannot read the coordinates {pair!r}: write row,column (from 0)")
        out.append((int(parts[0]), int(parts[1])))
    if len(set(out)) != len(out):
        raise SpecError("hypergraph: two points have the same coordinates")
    return out


def hypergraph(lines: str = "", points: str = "", at: str = "", file: str = "") -> Board:
    """A board over lines a user writes (see the module docstring); ``SpecError`` for repeated
    points, empty or repeated lines, unknown points, lines of different sizes or too many points,
    before any work.

    >>> b = hypergraph("a b c / c d e / e f a")
    >>> b.num_cells, len(b.lines), b.k, b.cell_name(3), b.symmetry_count
    (6, 3, 3, 'd', 6)
    """
    if file:
        if lines or points or at:
            raise SpecError("hypergraph: give the lines in the spec or in file=, not both")
        lines, points, at = _read_file(file)
    if not lines.strip():
        raise SpecError('hypergraph: no lines; write e.g. hypergraph("a b c / c d e / e f a")')
    written = _split_lines(lines)
    for j, line in enumerate(written):
        if not line:
            raise SpecError(f"hypergraph: line {j + 1} is empty")
        _check_names(line, f"line {j + 1}")
        if len(set(line)) != len(line):
            twice = next(n for n in line if line.count(n) > 1)
            raise SpecError(f"hypergraph: the point {twice!r} appears twice in line {j + 1}")
    seen: dict[frozenset[str], int] = {}
    for j, line in enumerate(written):
        first = seen.setdefault(frozenset(line), j)
        if first != j:
            raise SpecError(f"hypergraph: lines {first + 1} and {j + 1} hold the same points")
    names = points.split() if points.strip() else list(dict.fromkeys(n for line in written for n in line))
    _check_names(names, "points=")
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise SpecError(f"hypergraph: the point {twice!r} is listed twice in points=")
    if len(names) > MAX_CELLS:
        raise SpecError(f"hypergraph: {len(names)} points; noughts builds boards of at most {MAX_CELLS}")
    index = {n: i for i, n in enumerate(names)}
    for j, line in enumerate(written):
        unknown = next((n for n in line if n not in index), None)
        if unknown is not None:
            raise SpecError(
                f"hypergraph: line {j + 1} names the point {unknown!r}, which points= does not list"
            )
    sizes = sorted({len(line) for line in written})
    if len(sizes) > 1:
        raise SpecError(
            f"hypergraph: lines of {' and '.join(map(str, sizes))} points; every line must have the same number of points"
        )
    coords = _parse_at(at, len(names)) if at.strip() else None
    spec = _canonical(names, written, coords)
    if len(spec) > MAX_SPEC_LENGTH:
        raise SpecError(
            f"hypergraph: {len(names)} points and {len(written)} lines write a spec of {len(spec):,} characters; "
            f"a spec holds at most {MAX_SPEC_LENGTH:,} (use shorter names or fewer lines)"
        )
    if coords is None:
        width = math.ceil(math.sqrt(len(names)))
        cells = [divmod(i, width) for i in range(len(names))]
        grid = (math.ceil(len(names) / width), width)
    else:
        cells = coords
        grid = (max(r for r, _ in coords) + 1, max(c for _, c in coords) + 1)
        if grid[0] * grid[1] > 64 * MAX_CELLS:
            raise SpecError(
                f"hypergraph: the coordinates span {grid[0]} x {grid[1]}; at most {64 * MAX_CELLS} grid points"
            )
    cell_lines = [tuple(index[n] for n in line) for line in written]
    return Board(
        "hypergraph", spec, grid, cells, sizes[0], lines=cell_lines, names=names, placed=coords is not None
    )


def circle_layout(count: int) -> list[tuple[float, float]]:
    """Where pictures draw the points of a board without coordinates: ``count`` points evenly on
    a circle, the first at the top, clockwise, as ``(x, y)`` in the unit square (y down).

    >>> [(round(x, 2), round(y, 2)) for x, y in circle_layout(4)]
    [(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)]
    """
    out = []
    for i in range(count):
        angle = 2 * math.pi * i / max(count, 1)
        out.append((0.5 + 0.5 * math.sin(angle), 0.5 - 0.5 * math.cos(angle)))
    return out
