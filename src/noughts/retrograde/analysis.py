"""Retrograde analysis: exact values of games whose positions repeat.

Alpha-beta and proof-number search walk a game to its end, so they need a game that ends. Under
rules that remove or move marks (:mod:`noughts.core.loopy`) a game can go on for ever, but it
has finitely many positions, and the standard method for such games solves them: retrograde
analysis, as endgame tablebases of chess are built (Ströhlein 1970; Thompson, "Retrograde
analysis of certain endgames", ICCA Journal 9(3), 1986; Gasser's solution of Nine Men's Morris,
1996, solved the same kind of game the same way).

1. **Enumerate** every position reachable from the start: a :class:`StateGraph`, the states
   numbered (by their integer code where the game defines one, as :mod:`noughts.learn.states`
   numbers a claim game's positions by bit key), with each state's successors and predecessors
   as CSR arrays, who moves and how a finished state ended.
2. **Propagate** from the finished states backwards, with a counter per state of the successors
   not yet known to be lost for its mover (:func:`retrograde`): a state is **won in n** (for its
   mover) if some move leads to a state lost (for the opponent) in n - 1, the smallest such n;
   it is **lost in n** if every move leads to a state won by the opponent, in at most n - 1 plies
   with n - 1 the largest. States are decided in order of distance, so each distance is exact.
   States never decided are **draws**: from them neither side can force a win, and the side that
   would lose can always keep the game going.

The distances are the ones every solver in noughts reports (:mod:`noughts.exact.reference`):
plies to the end of the game when the winner wins as fast as it can and the loser delays as
long as it can. A draw here has no length: its ``plies`` is 0.

Two implementations of each step, held to each other by the tests on every state of the small
games: enumeration through the public position API (:func:`reference_graph`, any game) and by
numba kernels over the games' integer codes (:func:`fast_graph`, ``forget``, ``vanishing`` and
``morris`` on boards of at most 64 cells); propagation by a plain value iteration over the
whole graph until nothing changes (:func:`reference_values`, obviously right and slow) and by
the counter kernel (:func:`noughts.retrograde._kernels.propagate`). On bounded games the
values also agree with the minimax reference (:func:`noughts.exact.reference.reference_values`).

A solved game is a :class:`RetroTable` (value and distance of every state, by code), saved as a
versioned, checksummed ``.npz`` file and validated before use; :class:`RetroOracle` answers
:func:`noughts.exact.solve`, the perfect player and the web arena's overlay from one.
"""

from __future__ import annotations

import hashlib
import os
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.core import FadingMarks, Game, MovingPieces, NoughtsError, Outcome, Player, Position, Result
from noughts.core import game as make_game
from noughts.core.budget import Budget
from noughts.core.errors import TableError
from noughts.core.values import Value

__all__ = [
    "FORMAT",
    "VERSION",
    "RetroOracle",
    "RetroReport",
    "RetroTable",
    "StateGraph",
    "analyse",
    "canonical_codes",
    "fast_graph",
    "reference_graph",
    "reference_values",
    "retrograde",
    "solve_table",
    "sorted_unique",
    "state_graph",
    "supports_fast",
]

FORMAT = "noughts-retrograde-table"
VERSION = 1

DRAW_CODE = 2
"""``winner`` of a drawn state (0 and 1 are the players)."""

SLICE_EDGES = 1 << 22
"""Edges the propagation kernel examines between two budget checks (well under a second)."""

CHUNK_STATES = 1 << 18
"""States the enumeration kernels expand between two budget checks."""

_CHECK_EVERY = 4096

Progress = Callable[[str, int], None]
"""A progress callback: the stage (``enumerating``, ``propagating``) and how many states (or
edges) are done so far."""

IntArray = npt.NDArray[np.int32]
Int8Array = npt.NDArray[np.int8]
Int64Array = npt.NDArray[np.int64]
CodeArray = npt.NDArray[np.uint64]


def _budget(budget: Budget | None) -> Budget:
    return Budget(max_seconds=None, max_memory=None) if budget is None else budget


# -- the state graph ------------------------------------------------------------------------------


@dataclass(eq=False)
class StateGraph:
    """Every position reachable from the start of ``game``, numbered ``0 .. size-1``.

    ``codes``: each state's integer code (sorted; the numbering) where the game has codes that
    fit 64 bits, else None (then states are numbered in breadth-first order and ``positions``
    holds them). ``to_move``: 0 or 1. ``outcome``: :class:`~noughts.core.Result` codes (-1
    running, 0 or 1 the winner, 2 a draw). ``succ[succ_ptr[s]:succ_ptr[s+1]]``: the states the
    legal moves of ``s`` lead to, in ``legal_moves()`` order; ``pred`` likewise lists each
    state's predecessors (one entry per move into it). ``depth``: each state's distance in plies
    from the start (the fewest moves that reach it). ``start``: the start's number.
    """

    game: Game
    codes: CodeArray | None
    to_move: Int8Array
    outcome: Int8Array
    succ_ptr: Int64Array
    succ: IntArray
    pred_ptr: Int64Array
    pred: IntArray
    depth: IntArray
    start: int
    positions: list[Position] | None = None
    method: str = "reference"
    seconds: float = 0.0
    _index: dict[Position, int] | None = field(default=None, repr=False)

    @property
    def size(self) -> int:
        """The number of reachable states."""
        return int(self.to_move.shape[0])

    @property
    def edges(self) -> int:
        """The number of moves between them."""
        return int(self.succ.shape[0])

    @property
    def nbytes(self) -> int:
        arrays = (self.to_move, self.outcome, self.succ_ptr, self.succ, self.pred_ptr, self.pred, self.depth)
        return sum(a.nbytes for a in arrays) + (0 if self.codes is None else self.codes.nbytes)

    def successors(self, s: int) -> IntArray:
        return self.succ[self.succ_ptr[s] : self.succ_ptr[s + 1]]

    def predecessors(self, s: int) -> IntArray:
        return self.pred[self.pred_ptr[s] : self.pred_ptr[s + 1]]

    def index(self, position: Position) -> int:
        """The number of ``position``; ``NoughtsError`` if it is not reachable."""
        if position.game != self.game:
            raise NoughtsError(f"position of {position.game} given to a state graph of {self.game}")
        if self.codes is not None:
            code = _code(self.game, position)
            i = int(np.searchsorted(self.codes, np.uint64(code)))
            if i < self.size and int(self.codes[i]) == code:
                return i
        elif self._index is not None:
            found = self._index.get(position)
            if found is not None:
                return found
        raise NoughtsError(f"position {position.text()!r} is not reachable in {self.game}")

    def position(self, s: int) -> Position:
        """The position numbered ``s``."""
        if not 0 <= s < self.size:
            raise NoughtsError(f"state {s} is not in [0, {self.size})")
        if self.positions is not None:
            return self.positions[s]
        assert self.codes is not None
        return _from_code(self.game, int(self.codes[s]))

    def positions_by_depth(self) -> list[int]:
        """How many states lie at each distance from the start."""
        return [int(x) for x in np.bincount(self.depth)] if self.size else []


def _code(game: Game, position: Position) -> int:
    return game.code(position)  # a game that numbers no positions says so


def _from_code(game: Game, code: int) -> Position:
    return game.from_code(code)


def _has_codes(game: Game) -> bool:
    return game.loop is not None and game.code_bits is not None and game.code_bits <= 64


def sorted_unique(values: CodeArray) -> CodeArray:
    """``values`` sorted, each once (a sort and a comparison of neighbours)."""
    if values.size == 0:
        return values
    out = np.sort(values)
    keep = np.empty(out.size, dtype=bool)
    keep[0] = True
    np.not_equal(out[1:], out[:-1], out=keep[1:])
    return out[keep]


def _predecessors(succ_ptr: Int64Array, succ: IntArray, n: int) -> tuple[Int64Array, IntArray]:
    """Each state's predecessors (once per move into it, in increasing order)."""
    from noughts.retrograde._kernels import predecessor_lists

    ptr, pred = predecessor_lists(succ_ptr, succ, n)
    return ptr, pred


def reference_graph(
    game: Game | str, *, budget: Budget | None = None, max_states: int | None = None
) -> StateGraph:
    """The state graph by breadth-first search over the public position API (any game that has
    finitely many positions). Where the game has codes, states are renumbered by code, so the
    graph is the same array for array as :func:`fast_graph`'s.
    """
    g = make_game(game)
    budget = _budget(budget)
    started = time.perf_counter()
    start = g.start()
    positions = [start]
    index: dict[Position, int] = {start: 0}
    depth = [0]
    rows: list[list[int]] = []
    i = 0
    while i < len(positions):
        p = positions[i]
        row = []
        for m in p.legal_moves():
            q = p.play(m)
            j = index.get(q)
            if j is None:
                j = len(positions)
                if max_states is not None and j >= max_states:
                    raise NoughtsError(f"{g} has more than {max_states:,} reachable positions")
                index[q] = j
                positions.append(q)
                depth.append(depth[i] + 1)
            row.append(j)
        rows.append(row)
        i += 1
        if not i % _CHECK_EVERY:
            budget.check(memory=600 * len(positions), progress=f"{i:,} positions of {g} enumerated")
    n = len(positions)
    counts = np.array([len(r) for r in rows], dtype=np.int64)
    succ_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=succ_ptr[1:])
    succ = np.array([j for r in rows for j in r], dtype=np.int32)
    to_move = np.array([int(p.to_move) for p in positions], dtype=np.int8)
    outcome = np.array([int(Result.of(p.outcome())) for p in positions], dtype=np.int8)
    depths = np.array(depth, dtype=np.int32)
    codes: CodeArray | None = None
    start_index = 0
    kept: list[Position] | None = positions
    if _has_codes(g):
        raw = np.array([_code(g, p) for p in positions], dtype=np.uint64)
        order = np.argsort(raw)
        rank = np.empty(n, dtype=np.int32)
        rank[order] = np.arange(n, dtype=np.int32)
        codes = raw[order]
        to_move, outcome, depths = to_move[order], outcome[order], depths[order]
        counts = counts[order]
        succ_ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=succ_ptr[1:])
        succ = np.concatenate([rank[rows[k]] for k in order]).astype(np.int32) if n else succ
        start_index = int(rank[0])
        kept = [positions[k] for k in order]
        index = {p: s for s, p in enumerate(kept)}
    pred_ptr, pred = _predecessors(succ_ptr, succ, n)
    return StateGraph(
        g,
        codes,
        to_move,
        outcome,
        succ_ptr,
        succ,
        pred_ptr,
        pred,
        depths,
        start_index,
        kept,
        "reference",
        time.perf_counter() - started,
        index,
    )


def supports_fast(game: Game) -> bool:
    """Whether :func:`fast_graph` takes ``game``: ``forget``, ``vanishing`` or ``morris`` on a
    board of at most 64 cells whose codes fit 64 bits.
    """
    return _has_codes(game) and game.board.num_cells <= 64


class _Expander:
    """Runs the game's expansion kernel over arrays of codes."""

    def __init__(self, game: Game):
        from noughts.retrograde import _kernels as K

        self.K = K
        self.game = game
        t = game.board.tables
        self.lines = np.ascontiguousarray(t.line_bits)
        self.through = np.ascontiguousarray(t.through)
        self.nthrough = np.ascontiguousarray(t.nthrough)
        loop = game.loop
        if isinstance(loop, MovingPieces) and len(loop.line_indices) < len(game.board.lines):
            # the lines in play only (no diagonals), renumbered
            renumber = {j: i for i, j in enumerate(loop.line_indices)}
            self.lines = self.lines[list(loop.line_indices)].copy()
            through = [[renumber[j] for j in js if j in renumber] for js in game.board.lines_through]
            self.nthrough = np.array([len(js) for js in through], dtype=np.int32)
            self.through = np.full((len(through), max(1, int(self.nthrough.max()))), -1, dtype=np.int32)
            for c, js in enumerate(through):
                self.through[c, : len(js)] = js
        if isinstance(loop, MovingPieces):
            adj = loop.adjacent
            self.adj_ptr = np.zeros(len(adj) + 1, dtype=np.int64)
            np.cumsum([len(a) for a in adj], out=self.adj_ptr[1:])
            self.adj = np.array([v for a in adj for v in a], dtype=np.int64)

    def _run(
        self, codes: CodeArray, fill: bool, ptr: Int64Array, out: CodeArray
    ) -> tuple[Int8Array, Int64Array]:
        g = self.game
        outcome = np.empty(codes.size, dtype=np.int8)
        counts = np.empty(codes.size, dtype=np.int64)
        n = g.board.num_cells
        loop = g.loop
        if isinstance(loop, FadingMarks):
            self.K.fading_expand(
                codes,
                fill,
                ptr,
                out,
                outcome,
                counts,
                n,
                n.bit_length(),
                loop.lifetime,
                loop.judge_before,
                self.lines,
                self.through,
                self.nthrough,
            )
        else:
            assert isinstance(loop, MovingPieces)
            self.K.morris_expand(
                codes,
                fill,
                ptr,
                out,
                outcome,
                counts,
                n,
                loop.pieces,
                loop.judge_before,
                loop.passes_when_blocked,
                self.lines,
                self.through,
                self.nthrough,
                self.adj_ptr,
                self.adj,
            )
        return outcome, counts

    def expand(self, codes: CodeArray) -> tuple[Int8Array, Int64Array, CodeArray]:
        """Each state's outcome and number of children, and all children in order."""
        empty_ptr = np.zeros(1, dtype=np.int64)
        empty_out = np.zeros(1, dtype=np.uint64)
        outcome, counts = self._run(codes, False, empty_ptr, empty_out)
        ptr = np.zeros(codes.size + 1, dtype=np.int64)
        np.cumsum(counts, out=ptr[1:])
        out = np.empty(int(ptr[-1]), dtype=np.uint64)
        self._run(codes, True, ptr, out)
        return outcome, counts, out


def _in_sorted(values: CodeArray, sorted_pool: CodeArray) -> npt.NDArray[np.bool_]:
    i = np.searchsorted(sorted_pool, values)
    i[i == sorted_pool.size] = 0
    return sorted_pool[i] == values if sorted_pool.size else np.zeros(values.size, dtype=bool)


def fast_graph(
    game: Game | str, *, budget: Budget | None = None, progress: Progress | None = None
) -> StateGraph:
    """The state graph by the numba kernels over codes (see :func:`supports_fast`): a
    breadth-first search over sorted arrays of codes, then one more pass for the CSR arrays.
    """
    g = make_game(game)
    if not supports_fast(g):
        raise NoughtsError(
            f"the fast enumeration takes forget, vanishing and morris on boards of at most 64 cells, not {g}"
        )
    budget = _budget(budget)
    started = time.perf_counter()
    ex = _Expander(g)
    start = np.array([_code(g, g.start())], dtype=np.uint64)
    seen = start
    frontier = start
    levels = [start]
    while frontier.size:
        found: list[CodeArray] = []
        for lo in range(0, frontier.size, CHUNK_STATES):
            _, _, kids = ex.expand(frontier[lo : lo + CHUNK_STATES])
            found.append(sorted_unique(kids))
            budget.check(
                memory=seen.nbytes * 3 + sum(f.nbytes for f in found),
                progress=f"{seen.size:,} state{'' if seen.size == 1 else 's'} of {g} found,"
                f" {len(levels)} pl{'y' if len(levels) == 1 else 'ies'} from the start",
            )
        kids = sorted_unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.uint64)
        new = kids[~_in_sorted(kids, seen)]
        if new.size:
            seen = np.sort(np.concatenate([seen, new]), kind="stable")  # two sorted runs: a merge
            levels.append(new)
        frontier = new
        if progress is not None:
            progress("enumerating", int(seen.size))
    codes = seen
    n = codes.size
    depth = np.empty(n, dtype=np.int32)
    for d, level in enumerate(levels):
        depth[np.searchsorted(codes, level)] = d
    outcome = np.empty(n, dtype=np.int8)
    counts = np.empty(n, dtype=np.int64)
    parts: list[IntArray] = []
    held = codes.nbytes * 6
    for lo in range(0, n, CHUNK_STATES):
        o, c, kids = ex.expand(codes[lo : lo + CHUNK_STATES])
        outcome[lo : lo + o.size] = o
        counts[lo : lo + c.size] = c
        parts.append(np.searchsorted(codes, kids).astype(np.int32))
        held += parts[-1].nbytes
        budget.check(memory=held, progress=f"linked {lo + o.size:,} of {n:,} states of {g}")
    succ = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)
    succ_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=succ_ptr[1:])
    pred_ptr, pred = _predecessors(succ_ptr, succ, n)
    budget.check(memory=held * 2, progress=f"linked all {n:,} states of {g}")
    to_move = (codes & np.uint64(1)).astype(np.int8)
    start_index = int(np.searchsorted(codes, start[0]))
    return StateGraph(
        g,
        codes,
        to_move,
        outcome,
        succ_ptr,
        succ,
        pred_ptr,
        pred,
        depth,
        start_index,
        None,
        "fast",
        time.perf_counter() - started,
    )


def state_graph(
    game: Game | str, *, budget: Budget | None = None, method: str = "auto", progress: Progress | None = None
) -> StateGraph:
    """The state graph of ``game``: the kernels where they apply (``method="auto"``), or the
    reference (``"reference"``) or the kernels (``"fast"``) on request.
    """
    g = make_game(game)
    if method not in ("auto", "fast", "reference"):
        raise NoughtsError(f"method is 'auto', 'fast' or 'reference', not {method!r}")
    if method == "fast" or (method == "auto" and supports_fast(g)):
        return fast_graph(g, budget=budget, progress=progress)
    return reference_graph(g, budget=budget)


# -- propagation ------------------------------------------------------------------------------------


def _finished(graph: StateGraph) -> tuple[Int8Array, IntArray]:
    winner = np.full(graph.size, -1, dtype=np.int8)
    winner[graph.outcome == Result.FIRST] = 0
    winner[graph.outcome == Result.SECOND] = 1
    winner[graph.outcome == Result.DRAW] = DRAW_CODE
    return winner, np.zeros(graph.size, dtype=np.int32)


def retrograde(
    graph: StateGraph, *, budget: Budget | None = None, progress: Progress | None = None
) -> tuple[Int8Array, IntArray]:
    """Every state's value: ``winner`` (0 or 1 the player who can force a win, 2 a draw) and
    ``dist`` (plies to the end under best play; 0 for draws), by the counter kernel (see the
    module docstring). ``budget`` is checked between slices of :data:`SLICE_EDGES` edges.
    """
    from noughts.retrograde._kernels import propagate

    budget = _budget(budget)
    winner, dist = _finished(graph)
    counter = np.diff(graph.succ_ptr).astype(np.int32)
    finished_wins = np.flatnonzero((winner == 0) | (winner == 1)).astype(np.int32)
    queue = np.empty(graph.size, dtype=np.int32)
    queue[: finished_wins.size] = finished_wins
    cursor = np.array([0, finished_wins.size], dtype=np.int64)
    held = graph.nbytes + winner.nbytes + dist.nbytes + counter.nbytes + queue.nbytes
    done = 0
    while cursor[0] < cursor[1]:
        done += int(
            propagate(
                graph.pred_ptr, graph.pred, graph.to_move, winner, dist, counter, queue, cursor, SLICE_EDGES
            )
        )
        budget.check(
            memory=held,
            progress=f"{int(cursor[1]):,} of {graph.size:,} states of {graph.game} decided by retrograde analysis",
        )
        if progress is not None:
            progress("propagating", int(cursor[1]))
    winner[winner < 0] = DRAW_CODE
    return winner, dist


def reference_values(graph: StateGraph) -> tuple[Int8Array, IntArray]:
    """:func:`retrograde` by value iteration over the whole graph until a fixed point: each
    round recomputes every running state from its successors' values of the round before (won
    in 1 + the least distance of a successor it wins from, or lost in 1 + the largest distance
    if every successor is won by the opponent, else unknown). After round r every state whose
    outcome can be forced within r plies is known with its exact distance, so when a round
    changes nothing the unknown states are the draws. Plain Python, O(rounds x edges).
    """
    n = graph.size
    to_move = graph.to_move.tolist()
    outcome = graph.outcome.tolist()
    succ_ptr = graph.succ_ptr.tolist()
    succ = graph.succ.tolist()
    # value: None (unknown) or (winner, distance); winner 2 for a finished draw
    value: list[tuple[int, int] | None] = [None] * n
    for s in range(n):
        if outcome[s] >= 0:
            value[s] = (outcome[s], 0)
    running = [s for s in range(n) if outcome[s] < 0]
    while True:
        new = list(value)
        for s in running:
            mover = to_move[s]
            win: int | None = None
            lose: int | None = 0
            for c in succ[succ_ptr[s] : succ_ptr[s + 1]]:
                v = value[c]
                if v is not None and v[0] == mover:
                    win = v[1] if win is None else min(win, v[1])
                if v is None or v[0] != 1 - mover:
                    lose = None
                elif lose is not None:
                    lose = max(lose, v[1])
            if win is not None:
                new[s] = (mover, win + 1)
            elif lose is not None:
                new[s] = (1 - mover, lose + 1)
            else:
                new[s] = None
        if new == value:
            break
        value = new
    winner = np.array([DRAW_CODE if v is None else v[0] for v in value], dtype=np.int8)
    dist = np.array([0 if v is None else v[1] for v in value], dtype=np.int32)
    return winner, dist


def value_of(winner: int, dist: int) -> Value:
    """A state's :class:`~noughts.core.values.Value` from its ``winner`` and ``dist``."""
    if winner == DRAW_CODE:
        return Value(Outcome.DRAW, 0)
    return Value(Outcome.win_for(Player(winner)), int(dist))


# -- the solved table -------------------------------------------------------------------------------


_OUTCOME_CODE = {0: 1, 1: -1, DRAW_CODE: 0}


class RetroTable:
    """The value of every state reachable from the start of a game that need not end, by code.

    ``codes`` (uint64, sorted), ``outcome`` (int8: 1 the first player wins, -1 the second, 0 a
    draw) and ``plies`` (uint32: the distance of a win; 0 for a draw). Build one with
    :func:`solve_table`; :meth:`save` and :meth:`load` write and read a versioned ``.npz`` with a
    SHA-256 checksum, validated (format, version, spec, dtypes, shapes, order, ranges) before use.
    """

    nodes = 0  # a lookup searches nothing (for noughts.exact.solve)

    def __init__(
        self,
        game: Game,
        codes: CodeArray,
        outcome: Int8Array,
        plies: npt.NDArray[np.uint32],
    ):
        if not _has_codes(game):
            raise TableError(
                f"retrograde tables take forget, vanishing and morris games with 64-bit codes, not {game}"
            )
        self.game = game
        self.codes = codes
        self.outcome = outcome
        self.plies = plies

    @classmethod
    def from_values(cls, graph: StateGraph, winner: Int8Array, dist: IntArray) -> RetroTable:
        if graph.codes is None:
            raise TableError(f"{graph.game} has no codes: its values cannot be tabled")
        outcome = np.select([winner == 0, winner == 1], [1, -1], 0).astype(np.int8)
        return cls(graph.game, graph.codes, outcome, dist.astype(np.uint32))

    def __len__(self) -> int:
        return int(self.codes.shape[0])

    def __repr__(self) -> str:
        return f"<RetroTable of {self.game}: {len(self):,} states>"

    def index(self, position: Position) -> int | None:
        """The row of ``position``, or None if it is not in the table."""
        code = _code(self.game, position)
        if code >= 1 << 64:
            return None
        i = int(np.searchsorted(self.codes, np.uint64(code)))
        return i if i < len(self) and int(self.codes[i]) == code else None

    def value(self, position: Position) -> Value:
        """The exact value of ``position``; ``TableError`` if it is not in the table."""
        if position.game != self.game:
            raise TableError(f"the table is one of {self.game}, not of {position.game}")
        row = self.index(position)
        if row is None:
            raise TableError(
                f"position {position.text()!r} is not in the table of {self.game} (it is not reachable from the start)"
            )
        code = int(self.outcome[row])
        if code == 0:
            return Value(Outcome.DRAW, 0)
        return Value(Outcome.FIRST if code > 0 else Outcome.SECOND, int(self.plies[row]))

    def __contains__(self, position: object) -> bool:
        return (
            isinstance(position, Position) and position.game == self.game and self.index(position) is not None
        )

    # -- files ------------------------------------------------------------------------------------

    def _arrays(self) -> dict[str, npt.NDArray[Any]]:
        return {"codes": self.codes, "outcome": self.outcome, "plies": self.plies}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the table to ``path`` (a compressed ``.npz``; the name is used as given)."""
        spec = str(self.game)
        arrays = self._arrays()
        with open(path, "wb") as f:
            np.savez_compressed(
                f,
                format=np.array(FORMAT),
                version=np.array(VERSION, dtype=np.int64),
                spec=np.array(spec),
                checksum=np.array(_checksum(spec, VERSION, arrays)),
                **arrays,  # type: ignore[arg-type]
            )

    @classmethod
    def load(cls, path: str | os.PathLike[str], game: Game | None = None) -> RetroTable:
        """Read a table written by :meth:`save`, checking everything first; with ``game``, also
        that it is a table of that game. ``TableError`` says what is wrong.
        """
        where = os.fspath(path)
        try:
            loaded = np.load(where, allow_pickle=False)
            if not isinstance(loaded, np.lib.npyio.NpzFile):
                raise TableError(f"{where} is not a noughts retrograde table (not an .npz archive)")
            with loaded as npz:
                contents = {name: npz[name] for name in npz.files}
        except TableError:
            raise
        except FileNotFoundError:
            raise TableError(f"no such table file: {where}") from None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as e:
            raise TableError(f"{where} is not a readable noughts retrograde table ({e})") from None
        return cls._from_contents(contents, game, where)

    @classmethod
    def _from_contents(cls, c: dict[str, npt.NDArray[Any]], game: Game | None, where: str) -> RetroTable:
        def bad(why: str) -> TableError:
            return TableError(f"{where} is not a valid noughts retrograde table: {why}")

        if _text(c.get("format")) != FORMAT:
            raise TableError(f"{where} is not a noughts retrograde table (no '{FORMAT}' format mark)")
        version = c.get("version")
        if version is None or version.shape != () or version.dtype.kind not in "iu":
            raise bad("its format version is missing")
        if int(version) != VERSION:
            raise TableError(
                f"{where} has retrograde table version {int(version)}; this noughts reads {VERSION}"
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
        if not _has_codes(game):
            raise bad(f"{game} has no retrograde tables")
        expected = {"codes", "outcome", "plies"}
        known = expected | {"format", "version", "spec", "checksum"}
        missing, extra = expected - set(c), set(c) - known
        if missing or extra:
            raise bad(
                f"missing arrays {sorted(missing)}" if missing else f"unexpected arrays {sorted(extra)}"
            )
        codes, outcome, plies = c["codes"], c["outcome"], c["plies"]
        for name, array, dtype in (
            ("codes", codes, np.uint64),
            ("outcome", outcome, np.int8),
            ("plies", plies, np.uint32),
        ):
            if array.dtype != np.dtype(dtype) or array.ndim != 1:
                raise bad(f"{name} is {array.dtype}[{array.ndim}D], expected {np.dtype(dtype)}[1D]")
        n = codes.shape[0]
        if n == 0:
            raise bad("it holds no states")
        if outcome.shape[0] != n or plies.shape[0] != n:
            raise bad(f"its arrays have different lengths ({n}, {outcome.shape[0]}, {plies.shape[0]})")
        if _checksum(spec, VERSION, {k: c[k] for k in expected}) != _text(c.get("checksum")):
            raise bad("its checksum does not match its contents (the file was changed or damaged)")
        if not np.isin(outcome, (-1, 0, 1)).all():
            raise bad("outcome holds codes other than -1, 0 and 1")
        if (plies[outcome == 0] != 0).any():
            raise bad("a draw has a distance")
        if n > 1 and not (codes[1:] > codes[:-1]).all():
            raise bad("its codes are not sorted and distinct")
        assert game.code_bits is not None  # a game with codes (checked above) says how wide
        if int(codes.max()) >> game.code_bits:
            raise bad(f"a code is wider than {game}'s {game.code_bits} bits")
        table = cls(game, np.ascontiguousarray(codes), outcome, plies)
        if table.index(game.start()) is None:
            raise bad("it lacks the start position")
        return table


def _text(array: npt.NDArray[Any] | None) -> str | None:
    if array is None or array.shape != () or array.dtype.kind != "U":
        return None
    return str(array[()])


def _checksum(spec: str, version: int, arrays: dict[str, npt.NDArray[Any]]) -> str:
    h = hashlib.sha256()
    h.update(f"{FORMAT}\n{version}\n{spec}\n".encode())
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}\n".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def solve_table(
    game: Game | str,
    *,
    budget: Budget | None = None,
    method: str = "auto",
    progress: Progress | None = None,
) -> RetroTable:
    """Solve every reachable state of ``game`` (a game with codes: forget, vanishing, morris)
    by retrograde analysis and return the table.
    """
    g = make_game(game)
    if not _has_codes(g):
        raise TableError(
            f"retrograde tables take forget, vanishing and morris games with 64-bit codes, not {g}"
        )
    graph = state_graph(g, budget=budget, method=method, progress=progress)
    winner, dist = retrograde(graph, budget=budget, progress=progress)
    return RetroTable.from_values(graph, winner, dist)


class RetroOracle:
    """Exact values of the positions of one game that need not end, from its retrograde table,
    built on the first question under ``budget`` (a web request sets a fresh one before each
    question). The engine :func:`noughts.exact.api.make_engine` gives for such games.
    """

    engine = "retro"

    def __init__(self, game: Game, budget: Budget | None = None, table: RetroTable | None = None):
        if table is None and not _has_codes(game):
            raise NoughtsError(
                f"the retrograde solver numbers positions of forget, vanishing and morris, not {game}"
            )
        self.game = game
        self.budget = budget
        self.table = table
        self.nodes = 0
        self.progress: Callable[[int], None] | None = None

    def _table(self) -> RetroTable:
        if self.table is None:
            tick = self.progress

            def report(stage: str, done: int) -> None:
                if tick is not None:
                    tick(done)

            self.table = solve_table(self.game, budget=self.budget, progress=report)
            self.nodes = len(self.table)
        return self.table

    def value(self, position: Position) -> Value:
        if position.game != self.game:
            raise ValueError(f"the position belongs to {position.game}, not {self.game}")
        return self._table().value(position)


# -- symmetry and counting ------------------------------------------------------------------------------


def canonical_codes(game: Game, codes: CodeArray) -> CodeArray:
    """For each code, the least code among the images of its position under the board's
    symmetries (equal for two states exactly when one is an image of the other).
    """
    perms = np.array(game.symmetries, dtype=np.int64)
    n = game.board.num_cells
    one = np.uint64(1)
    if isinstance(game.loop, FadingMarks):
        w = n.bit_length()
        mask = np.uint64((1 << w) - 1)
        slots = min(game.loop.lifetime, n) + 1
        cells = np.stack(
            [((codes >> np.uint64(1 + w * j)) & mask).astype(np.int64) - 1 for j in range(slots)], axis=1
        )
        present = cells >= 0
        best = np.full(codes.shape, np.iinfo(np.uint64).max, dtype=np.uint64)
        for p in perms:
            image = codes & one
            mapped = np.where(present, p[np.where(present, cells, 0)] + 1, 0).astype(np.uint64)
            for j in range(slots):
                image |= mapped[:, j] << np.uint64(1 + w * j)
            best = np.minimum(best, image)
        return best
    if isinstance(game.loop, MovingPieces):
        full = np.uint64((1 << n) - 1)
        b0 = (codes >> one) & full
        b1 = (codes >> np.uint64(1 + n)) & full
        best = np.full(codes.shape, np.iinfo(np.uint64).max, dtype=np.uint64)
        for p in perms:
            i0 = np.zeros_like(codes)
            i1 = np.zeros_like(codes)
            for c in range(n):
                bit = np.uint64(1 << c)
                to = np.uint64(1 << int(p[c]))
                i0 |= np.where(b0 & bit, to, np.uint64(0))
                i1 |= np.where(b1 & bit, to, np.uint64(0))
            best = np.minimum(best, (codes & one) | (i0 << one) | (i1 << np.uint64(1 + n)))
        return best
    raise NoughtsError(f"{game} numbers no positions with codes")


# -- the whole analysis of a game, for people ---------------------------------------------------------


@dataclass(frozen=True)
class RetroReport:
    """What :func:`analyse` finds: the states (in all, up to symmetry, finished by outcome, by
    value), the value of the start and of each of its moves, the longest forced win of any
    state (and one state that has it), the times taken, and whether the reference agreed.
    """

    game: str
    states: int
    states_up_to_symmetry: int | None
    edges: int
    finished_by_outcome: dict[str, int]
    states_by_value: dict[str, int]
    start: Value
    moves: tuple[tuple[str, Value], ...]
    longest_win: int | None
    longest_win_position: str | None
    method: str
    enumerate_seconds: float
    propagate_seconds: float
    checked: bool | None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "states": self.states,
            "states_up_to_symmetry": self.states_up_to_symmetry,
            "edges": self.edges,
            "finished_by_outcome": dict(self.finished_by_outcome),
            "states_by_value": dict(self.states_by_value),
            "start": self.start.to_json(),
            "moves": [{"move": m, **v.to_json()} for m, v in self.moves],
            "longest_win": self.longest_win,
            "longest_win_position": self.longest_win_position,
            "method": self.method,
            "enumerate_seconds": round(self.enumerate_seconds, 6),
            "propagate_seconds": round(self.propagate_seconds, 6),
            "checked": self.checked,
        }


def analyse(
    game: Game | str,
    *,
    budget: Budget | None = None,
    method: str = "auto",
    check: bool = False,
    progress: Progress | None = None,
) -> tuple[RetroReport, RetroTable | None]:
    """Solve ``game`` by retrograde analysis and report on it (see :class:`RetroReport`). With
    ``check``, the graph is also enumerated by the reference and the values computed by the
    reference value iteration, and both must agree with the kernels on every state
    (``checked``; a disagreement raises ``AssertionError``). Returns the report and the table
    (None for games without codes).
    """
    g = make_game(game)
    budget = _budget(budget)
    graph = state_graph(g, budget=budget, method=method, progress=progress)
    started = time.perf_counter()
    winner, dist = retrograde(graph, budget=budget, progress=progress)
    propagate_seconds = time.perf_counter() - started
    checked: bool | None = None
    if check:
        ref = reference_graph(g, budget=budget)
        _assert_same_graph(graph, ref)
        w2, d2 = reference_values(ref)
        if not (np.array_equal(w2, winner) and np.array_equal(d2, dist)):
            bad = int(np.flatnonzero((w2 != winner) | (d2 != dist))[0])
            raise AssertionError(
                f"{g}: the kernel and the reference disagree on {graph.position(bad).text()!r}: "
                f"({winner[bad]}, {dist[bad]}) against ({w2[bad]}, {d2[bad]})"
            )
        checked = True
    classes = None
    if graph.codes is not None:
        classes = int(sorted_unique(canonical_codes(g, graph.codes)).size)
    elif graph.positions is not None:
        classes = len({p.canonical_key() for p in graph.positions})
    names = ("first", "second", "draw")
    finished = {k: int((graph.outcome == i).sum()) for i, k in enumerate(names)}
    by_value = {k: int((winner == i).sum()) for i, k in enumerate(names)}
    s = graph.start
    start_value = value_of(int(winner[s]), int(dist[s]))
    start_position = graph.position(s)
    moves = []
    for move, child in zip(start_position.legal_moves(), graph.successors(s), strict=True):
        moves.append((g.format_move(move), value_of(int(winner[child]), int(dist[child]))))
    won = np.flatnonzero(winner != DRAW_CODE)
    longest = None
    where = None
    if won.size:
        longest = int(dist[won].max())
        where = graph.position(int(won[np.argmax(dist[won])])).text()
    report = RetroReport(
        game=str(g),
        states=graph.size,
        states_up_to_symmetry=classes,
        edges=graph.edges,
        finished_by_outcome=finished,
        states_by_value=by_value,
        start=start_value,
        moves=tuple(moves),
        longest_win=longest,
        longest_win_position=where,
        method=graph.method,
        enumerate_seconds=graph.seconds,
        propagate_seconds=propagate_seconds,
        checked=checked,
    )
    table = RetroTable.from_values(graph, winner, dist) if graph.codes is not None else None
    return report, table


def _assert_same_graph(a: StateGraph, b: StateGraph) -> None:
    """The two enumerations found the same states, moves and outcomes (AssertionError if not)."""
    game = a.game
    if a.size != b.size:
        raise AssertionError(f"{game}: {a.size:,} states against {b.size:,} by the reference")
    if a.codes is not None and b.codes is not None:
        if not np.array_equal(a.codes, b.codes):
            raise AssertionError(f"{game}: the two enumerations number different states")
        for name in ("to_move", "outcome", "succ_ptr", "succ", "depth"):
            if not np.array_equal(getattr(a, name), getattr(b, name)):
                raise AssertionError(f"{game}: the two enumerations differ in {name}")
