"""Pairings as people see them (a numbered grid) and as files (versioned JSON).

The grid is drawn like the figures of 002 and 004: the two cells of a pair carry the same
number, pairs numbered 1, 2, ... in reading order of their first cell; a free cell in no pair
is ``.``; claimed cells show their mark (``x``, ``o``).

A pairing file is one JSON object::

    {"format": "noughts-pairing", "version": 1,
     "game": "maker_breaker(mnk(4,4,4))",          # canonical spec
     "position": "x.../..o./..../....",              # optional; the start if absent
     "breaker": "second",                            # optional; the rules' default if absent
     "pairs": [[[0, 1], [0, 2]], ...]}               # each pair two 0-based coordinate lists

``noughts pairing find --json`` prints exactly such an object (with more keys, which loading
ignores), so its output can be saved and checked. Loading validates everything and raises
``NoughtsError`` saying what is wrong: not JSON, another format or version, a game or position
that does not parse, a pair that is not two cells, a cell off the board or already claimed, a
cell in two pairs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from noughts.core import Game, NoughtsError, Player, Position
from noughts.core.registry import hypergraph
from noughts.core.text import format_grid, render_grid
from noughts.pairing.matching import Pairing, pairing_of

__all__ = [
    "FORMAT",
    "VERSION",
    "load_pairing",
    "pairing_from_grid",
    "pairing_from_json",
    "pairing_grid",
    "pairing_json",
]

FORMAT = "noughts-pairing"
VERSION = 1


def pairing_grid(position: Position, pairs: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> str:
    """The board with each pair's two cells numbered alike and unpaired free cells ``.``.

    >>> import noughts
    >>> g = noughts.game("maker_breaker(mnk(4,4,4))")
    >>> p = g.parse("..../..o./..../x...")
    >>> print(pairing_grid(p, [(2, 3), (9, 10), (13, 14), (4, 8), (1, 5), (7, 11), (0, 15)]))  # 002 Fig. 2
      a b c d
    1 1 2 3 3
    2 4 2 o 5
    3 4 6 6 5
    4 x 7 7 1
    """
    game = position.game
    board = game.board
    marks = list(game.marks(position))
    ordered = sorted((min(a, b), max(a, b)) for a, b in pairs)
    chars = ["." if m == "." else m for m in marks]
    for number, (a, b) in enumerate(ordered, start=1):
        chars[a] = chars[b] = str(number)
    width = max(len(ch) for ch in chars) if chars else 1
    chars = [ch.rjust(width) for ch in chars]
    return "\n".join(line.rstrip() for line in render_grid(board, chars, width=width))


def pairing_from_grid(game: Game, text: str, breaker: Player | None = None) -> Pairing:
    """Read a pairing drawn as in the sources' figures: rows separated by ``/`` (flat boards
    only), cells by spaces; a number marks a cell of the pair of that number (it must appear
    exactly twice), ``.`` a free cell in no pair, ``x``/``o`` a claimed cell.

    >>> import noughts
    >>> p = pairing_from_grid(noughts.game("maker_breaker(mnk(4,4,4))"), "7 5 1 1/4 5 o 6/4 2 2 6/x 3 3 7")
    >>> p.position.text(), len(p.pairs)                  # 002 Figure 2, left
    ('..../..o./..../x...', 7)
    """
    board = game.board
    if board.dims != 2:
        raise NoughtsError("pairing grids are read for flat boards; use a pairing file for n^d boards")
    rows = [r.split() for r in text.strip().split("/")]
    if len(rows) != board.grid[0] or any(len(r) != board.grid[1] for r in rows):
        raise NoughtsError(
            f"a pairing grid of {board.spec} has {board.grid[0]} rows of {board.grid[1]} cells, "
            f"not {[len(r) for r in rows]}"
        )
    marks = ["."] * board.num_cells
    where: dict[str, list[int]] = {}
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            cell = board.cell_at((r, c))
            if cell is None:
                raise NoughtsError(f"row {r + 1}, column {c + 1} is not a cell of {board.spec}")
            if token.lower() in ("x", "o"):
                marks[cell] = token.lower()
            elif token.isdigit():
                where.setdefault(token, []).append(cell)
            elif token != ".":
                raise NoughtsError(
                    f"cannot read {token!r} in a pairing grid: write a number, '.', 'x' or 'o'"
                )
    odd = sorted((k for k, v in where.items() if len(v) != 2), key=int)
    if odd:
        raise NoughtsError(f"each number marks exactly two cells; {', '.join(odd)} do not")
    position = game.parse(format_grid(board, marks))
    from noughts.pairing.hypergraph import check_breaker

    side = check_breaker(game, breaker)
    return pairing_of(position, side, [(v[0], v[1]) for v in where.values()])


def pairing_json(pairing: Pairing) -> dict[str, Any]:
    """The file form of a pairing (the module docstring gives the schema)."""
    game = pairing.position.game
    coords = game.board.coords
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": str(game),
        "position": pairing.position.text(),
        "breaker": pairing.breaker.name.lower(),
        "pairs": [[list(coords[a]), list(coords[b])] for a, b in pairing.pairs],
    }


def _fail(where: str, message: str) -> NoughtsError:
    return NoughtsError(f"{where}: {message}")


def pairing_from_json(
    data: object, game: Game | None = None, where: str = "pairing", breaker: Player | None = None
) -> Pairing:
    """Read and validate a pairing object (see the module docstring). With ``game``, the file
    must be one of that game; with ``breaker``, the pairing is that player's (a file that names
    another breaker is refused).
    """
    if not isinstance(data, dict):
        raise _fail(where, "expected a JSON object")
    if data.get("format") != FORMAT:
        raise _fail(
            where, f"not a pairing file (its 'format' is {data.get('format')!r}, expected {FORMAT!r})"
        )
    if data.get("version") != VERSION:
        raise _fail(
            where, f"pairing format version {data.get('version')!r} is not supported (expected {VERSION})"
        )
    spec = data.get("game")
    if not isinstance(spec, str):
        raise _fail(where, "'game' must be a spec string")
    file_game = hypergraph(spec)  # pairings are files of boards past the playing limit too
    if game is not None and file_game != game:
        raise _fail(where, f"the pairing is one of {file_game}, not of {game}")
    text = data.get("position")
    if text is not None and not isinstance(text, str):
        raise _fail(where, "'position' must be a position's text form")
    position = file_game.start() if text is None else file_game.parse(text)
    breaker_name = data.get("breaker")
    if breaker_name is not None:
        if breaker_name not in ("first", "second"):
            raise _fail(where, f"'breaker' is 'first' or 'second', not {breaker_name!r}")
        named = Player.FIRST if breaker_name == "first" else Player.SECOND
        if breaker is not None and named is not breaker:
            raise _fail(
                where, f"the pairing is the {breaker_name} player's, not the {breaker.name.lower()} player's"
            )
        breaker = named
    from noughts.pairing.hypergraph import check_breaker

    breaker = check_breaker(file_game, breaker)
    raw = data.get("pairs")
    if not isinstance(raw, list):
        raise _fail(where, "'pairs' must be a list of pairs of cells")
    board = file_game.board
    taken = position.occupied()
    pairs: list[tuple[int, int]] = []
    seen: dict[int, int] = {}
    for i, item in enumerate(raw, start=1):
        if not isinstance(item, list) or len(item) != 2:
            raise _fail(where, f"pair {i} must be a list of two cells, not {json.dumps(item)}")
        cells = []
        for coord in item:
            if (
                not isinstance(coord, list)
                or len(coord) != board.dims
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in coord)
            ):
                raise _fail(
                    where,
                    f"pair {i}: {json.dumps(coord)} is not a cell (write {board.dims} 0-based coordinates)",
                )
            cell = board.cell_at(coord)
            if cell is None:
                raise _fail(where, f"pair {i}: {json.dumps(coord)} is off the board of {board.spec}")
            if taken >> cell & 1:
                raise _fail(where, f"pair {i}: {board.cell_name(cell)} is already claimed in the position")
            if cell in seen:
                raise _fail(where, f"pairs {seen[cell]} and {i} overlap: {board.cell_name(cell)} is in both")
            seen[cell] = i
            cells.append(cell)
        if cells[0] == cells[1]:
            raise _fail(where, f"pair {i} names {board.cell_name(cells[0])} twice")
        pairs.append((cells[0], cells[1]))
    return pairing_of(position, breaker, pairs)


def load_pairing(path: str | Path, game: Game | None = None, breaker: Player | None = None) -> Pairing:
    """Read a pairing file (see the module docstring); ``NoughtsError`` on any problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise NoughtsError(f"cannot read pairing file {path}: {e.strerror or e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise NoughtsError(f"{path}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    return pairing_from_json(data, game, where=str(path), breaker=breaker)
