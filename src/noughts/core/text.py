"""Text forms and pictures of boards, shared by every rules family.

Text form of a grid of cells: the last axis runs along a row; rows are separated by ``/``,
3D layers by ``|``, and each further axis by one more ``|`` (``||`` between 4D blocks). A
cell is one character (``x``, ``o``, ``.``); a grid point that is not a cell (odd shapes) is
``-``. Example: ``x.o/.x./..o``.
"""

from __future__ import annotations

from collections.abc import Sequence

from noughts.core.board import Board, column_letters
from noughts.core.errors import NotationError

__all__ = [
    "HOLE",
    "MAX_CIRCLE_POINTS",
    "MAX_LISTED_LINES",
    "format_grid",
    "parse_grid",
    "render_grid",
    "render_line_list",
]

HOLE = "-"


def _separator(depth: int) -> str:
    return "/" if depth == 1 else "|" * (depth - 1)


def format_grid(board: Board, chars: Sequence[str]) -> str:
    """The text form of a board whose cell ``c`` shows ``chars[c]``."""
    grid = board.grid

    def rec(prefix: tuple[int, ...]) -> str:
        axis = len(prefix)
        if axis == len(grid) - 1:
            out = []
            for i in range(grid[axis]):
                cell = board.cell_at(prefix + (i,))
                out.append(HOLE if cell is None else chars[cell])
            return "".join(out)
        sep = _separator(len(grid) - 1 - axis)
        return sep.join(rec(prefix + (i,)) for i in range(grid[axis]))

    return rec(())


def parse_grid(board: Board, text: str, alphabet: str) -> list[str]:
    """Read a text form into one character per cell, checking its shape and characters."""
    body = text.strip().lower()
    grid = board.grid
    chars: list[str] = [""] * board.num_cells

    def rec(part: str, prefix: tuple[int, ...]) -> None:
        axis = len(prefix)
        if axis == len(grid) - 1:
            if len(part) != grid[axis]:
                where = _where(board, prefix)
                raise NotationError(
                    f"cannot read position {text!r}: {where} has {len(part)} cells, expected {grid[axis]}"
                )
            for i, ch in enumerate(part):
                cell = board.cell_at(prefix + (i,))
                if cell is None:
                    if ch != HOLE:
                        raise NotationError(
                            f"cannot read position {text!r}: {ch!r} stands where the board has no cell (write {HOLE!r})"
                        )
                    continue
                if ch not in alphabet:
                    allowed = ", ".join(repr(a) for a in alphabet)
                    raise NotationError(f"cannot read position {text!r}: {ch!r} is not one of {allowed}")
                chars[cell] = ch
            return
        depth = len(grid) - 1 - axis
        sep = _separator(depth)
        pieces = _split(part, sep, depth)
        if len(pieces) != grid[axis]:
            what = "rows" if depth == 1 else "layers"
            raise NotationError(
                f"cannot read position {text!r}: found {len(pieces)} {what} separated by {sep!r}, expected {grid[axis]}"
            )
        for i, piece in enumerate(pieces):
            rec(piece, prefix + (i,))

    rec(body, ())
    return chars


def _split(part: str, sep: str, depth: int) -> list[str]:
    if depth == 1:
        return part.split("/")
    # split on exactly `sep` bars, not on longer runs (those belong to an outer axis)
    pieces: list[str] = []
    cur: list[str] = []
    i = 0
    while i < len(part):
        if part[i] == "|":
            j = i
            while j < len(part) and part[j] == "|":
                j += 1
            run = part[i:j]
            if run == sep:
                pieces.append("".join(cur))
                cur = []
            else:
                cur.append(run)
            i = j
        else:
            cur.append(part[i])
            i += 1
    pieces.append("".join(cur))
    return pieces


def _where(board: Board, prefix: tuple[int, ...]) -> str:
    if board.dims == 2:
        return f"row {prefix[0] + 1}"
    return "row " + ",".join(str(p + 1) for p in prefix)


def render_grid(board: Board, chars: Sequence[str], width: int = 1) -> list[str]:
    """A picture of the board with its columns and rows labelled as moves are typed: column
    letters and row numbers on flat boards (``b2``), numbers on n^d boards, whose layers stand
    side by side (``2,3,1`` is layer 2, row 3, column 1).

    Each cell is drawn ``width`` characters wide. Returns the lines of the picture.
    """
    if board.names is not None:
        return _render_named(board, chars, width)
    grid = board.grid
    if board.dims == 1:
        cells = [chars[c] for c in range(board.num_cells)]
        return [
            " ".join(str(i + 1).ljust(width) for i in range(len(cells))),
            " ".join(c.ljust(width) for c in cells),
        ]
    rows, cols = grid[-2], grid[-1]
    label = len(str(rows))
    if board.dims == 2:
        names = [column_letters(c) for c in range(cols)]
    else:  # n^d cells are typed as numbers, columns included
        names = [str(c + 1) for c in range(cols)]
        width = max(width, len(names[-1]))
    header = " " * (label + 1) + " ".join(name.ljust(width) for name in names)

    def plane(prefix: tuple[int, ...]) -> list[str]:
        out = [header]
        for r in range(rows):
            row = []
            for c in range(cols):
                cell = board.cell_at(prefix + (r, c))
                row.append((" " if cell is None else chars[cell]).ljust(width))
            out.append(str(r + 1).rjust(label) + " " + " ".join(row))
        return out

    if board.dims == 2:
        return plane(())
    # n^d: one plane per combination of the leading coordinates, side by side in rows of 4
    import itertools

    leads = list(itertools.product(*(range(g) for g in grid[:-2])))
    blocks = []
    for lead in leads:
        title = "layer " + ",".join(str(x + 1) for x in lead)
        body = plane(lead)
        w = max(len(line) for line in body + [title])
        blocks.append([title.ljust(w)] + [line.ljust(w) for line in body])
    lines: list[str] = []
    for i in range(0, len(blocks), 4):
        group = blocks[i : i + 4]
        for j in range(len(group[0])):
            lines.append("   ".join(b[j] for b in group).rstrip())
        lines.append("")
    return lines[:-1]


def _render_named(board: Board, chars: Sequence[str], width: int) -> list[str]:
    """A board whose points have names (a user's hypergraph): each point where its coordinates
    put it, drawn as its mark once claimed and as its name (what is typed to claim it) before.
    Without coordinates (``board.placed`` false) the points stand on a circle and the lines are
    listed beneath (:func:`_render_circle`).
    """
    names = board.names or ()
    width = max(width, *(len(n) for n in names))
    if not board.placed:
        circle = _render_circle(names, chars, width)
        if circle is not None:
            return circle + render_line_list(board, chars)
    out = []
    for r in range(board.grid[0]):
        row = []
        for c in range(board.grid[1]):
            cell = board.cell_at((r, c))
            shown = " " if cell is None else names[cell] if chars[cell] == "." else chars[cell]
            row.append(shown.ljust(width))
        out.append("  " + " ".join(row).rstrip())
    return out


MAX_CIRCLE_POINTS = 64
"""The most points drawn on a circle at a terminal; more fill a grid row by row."""

MAX_LISTED_LINES = 200
"""The most lines :func:`render_line_list` writes out."""


def _render_circle(names: Sequence[str], chars: Sequence[str], width: int) -> list[str] | None:
    """The points on a circle, the first at the top and on clockwise (the arena draws them the
    same way), each as its mark once claimed and as its name before; None where they do not fit
    (more than :data:`MAX_CIRCLE_POINTS`). A terminal's characters are about twice as tall as
    wide, so the circle is twice as wide in columns as it is tall in rows; the radius grows
    until no two labels touch. Rows that no point falls on are left out.
    """
    import math

    n = len(names)
    if n > MAX_CIRCLE_POINTS:
        return None
    labels = [name if chars[c] == "." else chars[c] for c, name in enumerate(names)]
    for radius in range(2, 4 * n + 2):
        rows, cols = 2 * radius + 1, 4 * radius + width + 1
        spots: dict[int, list[tuple[int, int]]] = {}
        for i in range(n):
            angle = 2 * math.pi * i / n
            r = round(radius * (1 - math.cos(angle)))
            c = round(2 * radius * (1 + math.sin(angle)))
            spots.setdefault(r, []).append((c, i))
        if all(
            b[0] - a[0] > width
            for row in spots.values()
            for a, b in zip(sorted(row), sorted(row)[1:], strict=False)
        ):
            canvas = [[" "] * cols for _ in range(rows)]
            for r, row in spots.items():
                for c, i in row:
                    canvas[r][c : c + width] = list(labels[i].ljust(width))
            rows_drawn = ["  " + "".join(line).rstrip() for line in canvas]
            return [line for line in rows_drawn if line.strip()]  # no empty rows (a doctest's end)
    return None  # pragma: no cover - a radius of 2n always fits n labels apart


def render_line_list(board: Board, chars: Sequence[str]) -> list[str]:
    r"""The board's lines written out, a point as its name and ``=x`` once claimed (``chars``),
    a completed line (every point the same mark, x or o) between asterisks; at most
    :data:`MAX_LISTED_LINES`, several to a row.

    >>> from noughts.core.hypergraphs import hypergraph
    >>> print("\n".join(render_line_list(hypergraph("a b / b c / c a"), ["x", "x", "o"])))
    lines: *a=x b=x*   b=x c=o     c=o a=x
    """
    entries = []
    for line in board.lines[:MAX_LISTED_LINES]:
        marks = {chars[c] for c in line}
        text = " ".join(board.cell_name(c) + ("" if chars[c] == "." else "=" + chars[c]) for c in line)
        entries.append(f"*{text}*" if len(marks) == 1 and marks <= {"x", "o"} else text)
    more = len(board.lines) - len(entries)
    if more:
        entries.append(f"... {more} more")
    width = max(len(e) for e in entries)
    per_row = max(1, 74 // (width + 3))  # rows of at most 78 characters, "lines: " included
    out = []
    for i in range(0, len(entries), per_row):
        row = "   ".join(e.ljust(width) for e in entries[i : i + per_row]).rstrip()
        out.append(("lines: " if i == 0 else "       ") + row)
    return out
