"""Solved tables: the value and distance of every position reachable from the start, on disk.

:func:`build_table` solves every reachable position of a game, one entry per symmetry class
(positions with equal :meth:`~noughts.core.Position.canonical_key` have equal values and
distances, see :mod:`noughts.exact.reference`). Claim games (standard, misère, Maker-Breaker and
cumulative rules on at most 64 cells) are built by a retrograde pass over arrays: the classes of
each ply come from :meth:`noughts.exact._count_kernels.ClaimDag.quotient_levels` (the same DAG
the counting walks), then, from the last ply back to the start, each class takes the best of its
children's values, looked up by binary search in the next ply's sorted keys. Every other game
(veto, Notakto, Otrio) is built by a memoised minimax over the classes through the position API
(:func:`build_table_reference`, which the tests also hold the array pass to).
:meth:`SolvedTable.save` writes a versioned, compressed ``.npz`` file; :meth:`SolvedTable.load`
reads it back without pickle and checks everything (format, version, the game's spec, array
shapes, dtypes and ranges, key order, a SHA-256 checksum over the contents), raising
:class:`TableError` with a clear message on a malformed, foreign or tampered file.
:meth:`SolvedTable.value` answers by binary search over the sorted keys, in O(log n).

File contents (``np.load(path, allow_pickle=False)``):

==============  ==========================================================================
``format``      the string ``noughts-solved-table``
``version``     the integer format version (:data:`VERSION`)
``spec``        the game's canonical spec, e.g. ``veto(mnk(3,3,3))``
``columns``     what the key columns are, e.g. ``first_bits,second_bits``
``keys``        uint64, shape (columns, n): the canonical keys, sorted lexicographically
``outcome``     int8, shape (n,): 1 the first player wins, -1 the second, 0 a draw
``plies``       uint16, shape (n,): the distance (see :mod:`noughts.core.values`)
``score``       int16, shape (n,): the final score difference (scored rules only)
``checksum``    SHA-256 (hex) of the spec, version, columns and arrays
==============  ==========================================================================

Keys come from each game's public state under its symmetries (canonical keys):

* claim games (standard, misère, Maker-Breaker, cumulative, Otrio): ``first_bits``,
  ``second_bits``, the cells each player owns (boards of at most 64 cells);
* veto: the same and ``veto``: 0 at a veto step, 1 after a pass, 2 + the cell after a veto;
* Notakto: ``to_move`` and one column per board, the board's canonical cells + 1, or 0 for a
  dead board, boards in increasing order (boards of at most 63 cells).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Hashable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.core import Game, NoughtsError, Outcome, Position, require_bounded
from noughts.core import game as make_game
from noughts.core.archive import ArchiveError, ArrayHeader, read_npz
from noughts.core.budget import Budget
from noughts.core.errors import TableError
from noughts.core.values import WIN, Value, from_int, to_int
from noughts.exact import _count_kernels as kernels
from noughts.exact.reference import terminal_value

__all__ = [
    "FORMAT",
    "VERSION",
    "SolvedTable",
    "TableError",
    "build_table",
    "build_table_reference",
    "load_table",
]

FORMAT = "noughts-solved-table"
VERSION = 1

_MAX_WORD_CELLS = 64
_ENTRY_BYTES = 300  # one class in the build's memo, roughly
_CHECK_EVERY = 4096
_OUTCOME_CODE = {Outcome.FIRST: 1, Outcome.SECOND: -1, Outcome.DRAW: 0}
_CODE_OUTCOME = {code: outcome for outcome, code in _OUTCOME_CODE.items()}


# -- keys ---------------------------------------------------------------------------------------------


class _Codec:
    """Turns a game's canonical keys into fixed-width tuples of unsigned 64-bit integers."""

    def __init__(self, columns: tuple[str, ...], encode: Callable[[Any], tuple[int, ...]]):
        self.columns = columns
        self.encode = encode

    @property
    def width(self) -> int:
        return len(self.columns)


def _codec(game: Game) -> _Codec:
    """The game's compact key (``key_columns``, ``key_words``), if its words fit 64 bits."""
    columns = game.key_columns
    if columns is None:
        raise TableError(f"solved tables do not take {game}: no compact key is defined for its rules")
    cells = game.board.num_cells
    most = cells + _MAX_WORD_CELLS - game.key_word_bits  # the board size whose words fit
    if cells > most:
        raise TableError(f"solved tables take boards of at most {most} cells; {game} has {cells}")
    return _Codec(columns, game.key_words)


# -- the table -----------------------------------------------------------------------------------------


class SolvedTable:
    """The exact value of every position reachable from the start of ``game``, one entry per
    symmetry class. Build one with :func:`build_table`, or :meth:`load` a saved one.
    """

    engine = "table"
    """The engine's name in solve results (:func:`noughts.exact.api.engine_name`)."""

    nodes = 0  # a lookup searches nothing (for :func:`noughts.exact.solve`)

    def __init__(
        self,
        game: Game,
        keys: npt.NDArray[np.uint64],
        outcome: npt.NDArray[np.int8],
        plies: npt.NDArray[np.uint16],
        score: npt.NDArray[np.int16] | None = None,
    ):
        self.game = game
        self._codec = _codec(game)
        self.keys = keys
        self.outcome = outcome
        self.plies = plies
        self.score = score

    def __len__(self) -> int:
        return int(self.outcome.shape[0])

    def __repr__(self) -> str:
        return f"<SolvedTable of {self.game}: {len(self):,} positions up to symmetry>"

    # -- lookup -------------------------------------------------------------------------------------

    def index(self, position: Position) -> int | None:
        """The row of ``position``'s symmetry class, or None if the table lacks it."""
        code = self._codec.encode(position.canonical_key())
        lo, hi = 0, len(self)
        for column, x in zip(self.keys, code, strict=True):
            if not 0 <= x < 2**64:
                return None
            part = column[lo:hi]
            x64 = np.uint64(x)
            lo, hi = (
                lo + int(np.searchsorted(part, x64, "left")),
                lo + int(np.searchsorted(part, x64, "right")),
            )
            if lo == hi:
                return None
        return lo

    def value(self, position: Position) -> Value:
        """The exact value of ``position``; ``TableError`` if it is not in the table."""
        if position.game != self.game:
            raise TableError(f"the table is one of {self.game}, not of {position.game}")
        row = self.index(position)
        if row is None:
            raise TableError(
                f"position {position.text()!r} is not in the table of {self.game} (it is not reachable from the start)"
            )
        score = None if self.score is None else int(self.score[row])
        return Value(_CODE_OUTCOME[int(self.outcome[row])], int(self.plies[row]), score)

    def __contains__(self, position: object) -> bool:
        return (
            isinstance(position, Position) and position.game == self.game and self.index(position) is not None
        )

    # -- files --------------------------------------------------------------------------------------

    def _arrays(self) -> dict[str, npt.NDArray[Any]]:
        arrays: dict[str, npt.NDArray[Any]] = {
            "keys": self.keys,
            "outcome": self.outcome,
            "plies": self.plies,
        }
        if self.score is not None:
            arrays["score"] = self.score
        return arrays

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the table to ``path`` (a compressed ``.npz``; the name is used as given)."""
        arrays = self._arrays()
        spec, columns = str(self.game), ",".join(self._codec.columns)
        with open(path, "wb") as f:
            np.savez_compressed(
                f,
                format=np.array(FORMAT),
                version=np.array(VERSION, dtype=np.int64),
                spec=np.array(spec),
                columns=np.array(columns),
                checksum=np.array(_checksum(spec, VERSION, columns, arrays)),
                **arrays,  # type: ignore[arg-type]
            )

    @classmethod
    def load(cls, path: str | os.PathLike[str], game: Game | None = None) -> SolvedTable:
        """Read a table saved by :meth:`save`, checking everything; with ``game``, also that the
        table is one of that game. Raises :class:`TableError` saying what is wrong.
        """
        where = os.path.basename(os.fspath(path))
        try:
            contents = read_npz(
                path, what=where, max_bytes=MAX_TABLE_BYTES, check=_check_headers, kinds="biufU"
            )
        except ArchiveError as e:
            raise TableError(
                f"not a noughts solved table (tables are the .npz files of solve --save): {e}"
            ) from None
        return cls._from_contents(contents, game, where)

    @classmethod
    def _from_contents(cls, c: dict[str, npt.NDArray[Any]], game: Game | None, where: str) -> SolvedTable:
        def bad(why: str) -> TableError:
            return TableError(f"{where} is not a valid noughts solved table: {why}")

        if _text(c.get("format")) != FORMAT:
            raise TableError(f"{where} is not a noughts solved table (no '{FORMAT}' format mark)")
        version = c.get("version")
        if version is None or version.shape != () or version.dtype.kind not in "iu":
            raise bad("its format version is missing")
        if int(version) != VERSION:
            raise TableError(
                f"{where} has table format version {int(version)}; this noughts reads version {VERSION}"
            )
        spec = _text(c.get("spec"))
        if spec is None:
            raise bad("the game's spec is missing")
        if game is None:
            try:
                game = make_game(spec)
            except NoughtsError as e:
                raise bad(f"its game spec {spec!r} does not name a game ({e})") from None
        elif spec != str(game):
            raise TableError(f"{where} is a table of {spec}, not of {game}")
        codec = _codec(game)
        columns = _text(c.get("columns"))
        if columns != ",".join(codec.columns):
            raise bad(f"its key columns are {columns!r}, expected {','.join(codec.columns)!r}")
        expected = {"keys", "outcome", "plies"} | ({"score"} if game.properties.is_scored else set())
        known = expected | {"format", "version", "spec", "columns", "checksum"}
        missing, extra = expected - set(c), set(c) - known
        if missing or extra:
            raise bad(
                f"missing arrays {sorted(missing)}" if missing else f"unexpected arrays {sorted(extra)}"
            )
        keys, outcome, plies = c["keys"], c["outcome"], c["plies"]
        score = c.get("score")
        _check_array(keys, np.uint64, 2, "keys", bad)
        if keys.shape[0] != codec.width:
            raise bad(f"keys has {keys.shape[0]} columns, expected {codec.width}")
        n = keys.shape[1]
        if n == 0:
            raise bad("it holds no positions")
        _check_array(outcome, np.int8, 1, "outcome", bad, n)
        _check_array(plies, np.uint16, 1, "plies", bad, n)
        if score is not None:
            _check_array(score, np.int16, 1, "score", bad, n)
        if _checksum(spec, VERSION, columns, {k: c[k] for k in expected}) != _text(c.get("checksum")):
            raise bad("its checksum does not match its contents (the file was changed or damaged)")
        if not np.isin(outcome, (-1, 0, 1)).all():
            raise bad("outcome holds codes other than -1, 0 and 1")
        longest = require_bounded(game, "a solved table of minimax values")
        if int(plies.max()) > longest:
            raise bad(f"a distance exceeds the longest game of {game} ({longest} plies)")
        if not _strictly_sorted(keys):
            raise bad("its keys are not sorted and distinct")
        table = cls(game, np.ascontiguousarray(keys), outcome, plies, score)
        if table.index(game.start()) is None:
            raise bad("it lacks the start position")
        return table


MAX_TABLE_BYTES = 16 * 2**30
"""The most bytes a table file may unpack to (mnk(4,4,4)'s whole table is about 30 MB)."""


def _check_headers(headers: Mapping[str, ArrayHeader]) -> None:
    """Before anything is unpacked: the text fields are short, the arrays are one column each
    of equal length (so a table is as large as its key count says, and no larger).
    """
    for name in ("format", "spec", "columns", "checksum"):
        h = headers.get(name)
        if h is not None and (h.shape != () or h.nbytes > 4096):
            raise TableError(f"its {name!r} is not a short text")
    keys = headers.get("keys")
    if keys is None or len(keys.shape) != 2 or keys.shape[0] > 64:
        raise TableError("it has no 'keys' array of key columns")
    n = keys.shape[1]
    for name in ("outcome", "plies", "score"):
        h = headers.get(name)
        if h is not None and h.shape != (n,):
            raise TableError(f"{name!r} does not have one entry per key")


def _text(array: npt.NDArray[Any] | None) -> str | None:
    if array is None or array.shape != () or array.dtype.kind != "U":
        return None
    return str(array[()])


def _check_array(
    array: npt.NDArray[Any],
    dtype: type[np.generic],
    ndim: int,
    name: str,
    bad: Callable[[str], TableError],
    length: int | None = None,
) -> None:
    if array.dtype != np.dtype(dtype) or array.ndim != ndim:
        raise bad(f"{name} is {array.dtype}[{array.ndim}D], expected {np.dtype(dtype)}[{ndim}D]")
    if length is not None and array.shape[0] != length:
        raise bad(f"{name} has {array.shape[0]} entries, expected {length}")


def _strictly_sorted(keys: npt.NDArray[np.uint64]) -> bool:
    if keys.shape[1] < 2:
        return True
    greater = np.zeros(keys.shape[1] - 1, dtype=bool)
    equal = np.ones(keys.shape[1] - 1, dtype=bool)
    for column in keys:
        a, b = column[:-1], column[1:]
        greater |= equal & (b > a)
        equal &= b == a
    return bool(greater.all())


def _checksum(spec: str, version: int, columns: str | None, arrays: dict[str, npt.NDArray[Any]]) -> str:
    h = hashlib.sha256()
    h.update(f"{FORMAT}\n{version}\n{spec}\n{columns}\n".encode())
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}\n".encode())
        h.update(a.tobytes())
    return h.hexdigest()


# -- building -------------------------------------------------------------------------------------------


def build_table(game: Game, budget: Budget | None = None) -> SolvedTable:
    """Solve every position reachable from the start of ``game`` and return the table.

    Claim games go through the retrograde pass over arrays (:func:`_build_claim_table`), every
    other game through :func:`build_table_reference`. ``budget`` bounds the time and memory;
    over it, ``LimitExceeded`` says how far the work got. ``TableError`` for a game tables do
    not take.
    """
    require_bounded(game, "a solved table of minimax values")
    _codec(game)
    if kernels.supports(game):
        return _build_claim_table(game, budget)
    return build_table_reference(game, budget)


def build_table_reference(game: Game, budget: Budget | None = None) -> SolvedTable:
    """:func:`build_table` by a memoised minimax over symmetry classes through the position API
    (every reachable class needs its exact value, so there is nothing for alpha-beta to prune).
    """
    codec = _codec(game)
    if budget is None:
        budget = Budget(max_seconds=None, max_memory=None)
    scored = game.properties.is_scored
    memo: dict[Hashable, tuple[int, int, Value]] = {}  # key -> (mover's int, plies, value)
    counter = 0

    def enter(position: Position) -> tuple[int, int, Value] | list[Any]:
        """The entry of ``position`` if known at once, else a node to search: its position,
        key, mover, moves, the next move's index, and the best (value, plies) so far.
        """
        nonlocal counter
        key = position.canonical_key()
        known = memo.get(key)
        if known is not None:
            return known
        counter += 1
        if not counter % _CHECK_EVERY:
            budget.check(
                memory=len(memo) * _ENTRY_BYTES,
                progress=f"{len(memo):,} positions of {game} solved up to symmetry",
            )
        if position.is_terminal():
            value = terminal_value(position)
            memo[key] = entry = (to_int(value, position.to_move), 0, value)
            return entry
        return [position, key, position.to_move, position.legal_moves(), 0, None, None]

    # depth first over every move, on an explicit stack (a game may last as long as its board
    # allows): a node is [position, key, mover, moves, next move's index, best (value, plies),
    # the mover of the child last entered]
    path: list[list[Any]] = []
    got = enter(game.start())
    while True:
        if isinstance(got, list):  # a node to search: go down into it
            path.append(got)
        elif not path:  # the start's entry: done
            break
        else:  # a child's entry, taken by the node above it
            node = path[-1]
            c, length, _ = got
            if not scored:
                c -= (c > 0) - (c < 0)
            if node[6] is not node[2]:
                c = -c
            if node[5] is None or (c, length + 1) > node[5]:
                node[5] = (c, length + 1)
        node = path[-1]
        position, key, mover, moves, i, best, _ = node
        if i < len(moves):
            child = position.play(moves[i])
            node[4] = i + 1
            node[6] = child.to_move
            got = enter(child)
            continue
        v, length = best
        memo[key] = got = (v, length, from_int(v, mover, length, scored))
        path.pop()

    n = len(memo)
    rows = sorted((codec.encode(key), value) for key, (_, _, value) in memo.items())
    keys = np.array([r[0] for r in rows], dtype=np.uint64).reshape(n, codec.width).T.copy()
    outcome = np.array([_OUTCOME_CODE[r[1].outcome] for r in rows], dtype=np.int8)
    plies = np.array([r[1].plies for r in rows], dtype=np.uint16)
    score = np.array([r[1].score for r in rows], dtype=np.int16) if scored else None
    return SolvedTable(game, keys, outcome, plies, score)


# -- the retrograde pass over arrays (claim games) ----------------------------------------------------

_ARRAY_ENTRY_BYTES = 64
"""Bytes per class the array build holds, roughly: the keys, outcome, score, value and plies of
each ply's classes, and the children of one ply at a time (counted separately)."""


def _build_claim_table(game: Game, budget: Budget | None) -> SolvedTable:
    """The retrograde pass (see the module docstring). Values are integers from the first
    player's point of view (a first-player win in n plies ``WIN - n``, scored rules: the final
    score difference), and each class's ``plies`` is the longest line of best moves among those
    of equal value (the tie-break of :func:`build_table_reference`).
    """
    from noughts.exact._table_kernels import find_rows  # numba loads only when a table is built

    if budget is None:
        budget = Budget(max_seconds=None, max_memory=None)
    dag = kernels.ClaimDag(game)
    scored = game.properties.is_scored
    levels: list[kernels.Level] = []
    held = 0
    for level in dag.quotient_levels():
        levels.append(level)
        held += len(level) * _ARRAY_ENTRY_BYTES
        budget.check(
            memory=held, progress=f"{sum(map(len, levels)):,} positions of {game} found up to symmetry"
        )
    values: list[npt.NDArray[np.int64]] = [np.zeros(0, dtype=np.int64)] * len(levels)
    lengths: list[npt.NDArray[np.int64]] = [np.zeros(0, dtype=np.int64)] * len(levels)
    for ply in range(len(levels) - 1, -1, -1):
        level = levels[ply]
        value = np.zeros(len(level), dtype=np.int64)
        plies = np.zeros(len(level), dtype=np.int64)
        if scored:
            assert level.score is not None
            value[:] = level.score
        else:
            value[level.outcome == kernels.FIRST] = WIN
            value[level.outcome == kernels.SECOND] = -WIN
        live = np.flatnonzero(level.outcome == kernels.RUNNING)
        if live.size:
            nxt = levels[ply + 1]
            ch = dag.children(level.b0[live], level.b1[live], ply, range(dag.n), level.aux_of(live))
            k0, k1 = dag.canonical(ch.b0, ch.b1)
            row = find_rows(nxt.b0, nxt.b1, k0, k1)
            if (row < 0).any():
                raise AssertionError(f"{game}: a child of ply {ply} is missing from ply {ply + 1}")
            child = values[ply + 1][row]
            if not scored:
                child = child - np.sign(child)  # one ply further from the end
            mine = child if ply % 2 == 0 else -child  # for the mover: the first moves at even plies
            longer = lengths[ply + 1][row] + 1
            order = np.lexsort((longer, mine, ch.parent))  # the best child of each parent last
            last = np.ones(order.size, dtype=bool)
            last[:-1] = ch.parent[order[1:]] != ch.parent[order[:-1]]
            best = order[last]
            value[live[ch.parent[best]]] = child[best]
            plies[live[ch.parent[best]]] = longer[best]
            budget.check(
                memory=held + ch.b0.size * 48,
                progress=f"solved {game} back to ply {ply} ({len(levels) - ply} of {len(levels)} plies)",
            )
        values[ply] = value
        lengths[ply] = plies
    # plies of wins and losses come from the value (WIN - n), the same as the longest line
    b0 = np.concatenate([lv.b0 for lv in levels])
    b1 = np.concatenate([lv.b1 for lv in levels])
    value = np.concatenate(values)
    plies = np.concatenate(lengths)
    order = np.lexsort((b1, b0))
    keys = np.stack([b0[order], b1[order]])
    value, plies = value[order], plies[order]
    outcome = np.sign(value).astype(np.int8)
    if scored:
        return SolvedTable(game, keys, outcome, plies.astype(np.uint16), value.astype(np.int16))
    won = value != 0
    plies[won] = WIN - np.abs(value[won])
    return SolvedTable(game, keys, outcome, plies.astype(np.uint16))


def load_table(path: str | os.PathLike[str], game: Game | None = None) -> Any:
    """A saved table of either kind, by the format mark in the file: a :class:`SolvedTable`
    (games that end) or a retrograde table (:class:`~noughts.retrograde.analysis.RetroTable`, games that
    need not end); with ``game``, checked to be a table of that game.
    """
    import zipfile

    from noughts.retrograde import analysis as retro

    if game is not None:
        return SolvedTable.load(path, game) if game.properties.bounded else retro.RetroTable.load(path, game)
    where = os.fspath(path)
    try:
        with np.load(where, allow_pickle=False) as npz:
            mark = npz["format"] if "format" in npz.files else None
    except FileNotFoundError:
        raise TableError(f"no such table file: {where}") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError, AttributeError) as e:
        raise TableError(f"{where} is not a readable noughts table ({e})") from None
    retrograde = (
        mark is not None and mark.shape == () and mark.dtype.kind == "U" and str(mark) == retro.FORMAT
    )
    return retro.RetroTable.load(path) if retrograde else SolvedTable.load(path)
