"""The fast exact solver: numba alpha-beta over bitboards (:mod:`noughts.exact._kernels`).

:class:`FastSolver` gives the exact value of any position of a claim game (standard, misère,
Maker-Breaker or cumulative rules) on any board noughts builds, with exact distances: the
winner wins as fast as possible and the loser loses as slowly as possible. Boards of at most 64
cells go to the one-word kernel (a player's cells are one uint64), larger ones to the
multi-word kernel (one uint64 per 64 cells): one search, :func:`noughts.exact._kernels.search_kernel`,
that numba compiles once for each of the two mask representations. Both are held to the
plain memoised minimax of :mod:`noughts.exact.reference` by the tests on every reachable position of the 3x3 games (the
multi-word kernel forced on them with one and two words) and on every position reachable from
sampled deep positions of larger boards, 4x4 to 12x11.

The value of a position comes from a few null-window searches (MTD(f), Plaat, Schaeffer,
Pijls and de Bruin, "Best-first fixed-depth minimax algorithms", Artificial Intelligence 87,
1996): "a win within n plies?" for n = 1, 3, ..., :data:`DEEPEN_PLIES` (iterative deepening on the
distance: a short win is found without ever looking at long ones), then "is it a win at all?",
then "a win in fewer plies?" until the distance is pinned down (or "is it a draw?", or "a
slower loss?"). The transposition table keeps both bounds of every position it
has seen, node-relative (see :mod:`noughts.core.values`), so it serves every later search and
every later :meth:`FastSolver.value` call on the same solver: the children of a position, and
the principal variation, are then mostly table look-ups.

The search runs in slices sized by the kernel's count of its work (not its nodes, whose cost
varies by hundreds of times within one search), each about :data:`SLICE_SECONDS`, with the
budget checked between them. Under misère rules the kernel also takes the board's **mirrors**
(:func:`mirrors`): the symmetries a side can answer every move with, which settle the first
player's draw in misère 5x5 (k = 4) at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from noughts.core import Game, Player, Position
from noughts.core.board import MAX_CELLS as BOARD_MAX_CELLS
from noughts.core.board import Board
from noughts.core.budget import Budget
from noughts.core.tables import split_words
from noughts.core.values import WIN, Value, from_int
from noughts.exact import _kernels as K
from noughts.kernels.codes import CUMULATIVE, DONE, ENTER, MAKER_BREAKER, MISERE
from noughts.kernels.table import TWO_TIER, move_payload, rehash

__all__ = ["MAX_CELLS", "WORD_CELLS", "FastSolver", "Slice", "supports"]

MAX_CELLS = BOARD_MAX_CELLS
"""The largest board the kernels take (every board noughts builds)."""

WORD_CELLS = 64
"""Boards of at most this many cells go to the one-word kernel (masks of one uint64), larger
ones to the multi-word kernel (masks of one uint64 word per 64 cells; both are
:func:`noughts.exact._kernels.search_kernel`). The one-word kernel is the faster on the boards both
take (``bench/solve_targets.py --wide`` measures the two side by side)."""

MAX_SYMMETRIES = 64
"""At most this many symmetries (the first listed) key the table; more would cost more per
node than they save. Any set of symmetries gives a sound key (a key is always an image of the
position), a larger one merges more positions."""

ENTRY_BYTES = 2 * 8 + 2 * 4 + 1 + 1
"""Bytes per table entry of the one-word kernel: the key (two uint64), two int32 bounds, the
best move and the work."""


def entry_bytes(words: int) -> int:
    """Bytes per table entry of the multi-word kernel: a key of ``2 * words`` uint64, two int32
    bounds, the best move (int16) and the work.
    """
    return 2 * 8 * words + 2 * 4 + 2 + 1


SLICE_NODES = 1 << 20
"""The most nodes searched between two budget checks."""

SLICE_SECONDS = 0.1
"""The time a slice of the search aims at. A slice is measured in the kernel's **work** (the
steps of its inner loops: lines scanned, moves scored and shifted, pairing steps, key lookups;
``stats[S_WORK]``), not in nodes: a node's cost varies by hundreds of times within one search
(on 7x7x7 a node deep in a narrow line costs 1.5 us, one that orders 300 moves or looks for a
pairing 0.3 ms), while a step's cost varies by a few times at most. Slices start at
:data:`FIRST_WORK` steps and are resized after each one from its measured time per step,
growing at most :data:`GROWTH` fold, so a budget check comes every few tenths of a second."""

FIRST_WORK = 1 << 14
"""The work of the first slice (well under a millisecond on any board)."""

GROWTH = 8
"""A slice does at most this many times the work of the one before."""

DEEPEN_PLIES = 13
"""How far the driver deepens "a win within n plies?" before one unbounded search. Measured
(CPU seconds, value of the start): mnk(8,8,4) 0.08 s with 11 or 13, over 60 s with 9 or
without deepening; mnk(7,6,4) 0.02 s against 2.2 s without; mnk(5,5,4), a draw, 0.025 s
against 0.020 s without (the shallow tests all fail there). Positions whose shortest win is
longer get no help from it, and pay for the shallow tests."""

FIRST_ENTRIES = 1 << 16
"""The table starts this small (1.7 MB) and grows eightfold, up to ``tt_bytes``, each time more
entries have been written to it than it holds: small searches stay cheap to start (a large
table costs its zeroing, about 0.1 s per GB, on the first touch of each page)."""


class Slice(NamedTuple):
    """One slice of the search that ran to its limit (the budget is checked after each)."""

    nodes: int
    """The nodes it searched."""
    work: int
    """The work it did, in the kernel's steps (a node is not begun past ``limit``)."""
    limit: int
    """The work it was given: :data:`FIRST_WORK` first, then at most :data:`GROWTH` times the
    limit before (sized from the time the slice before took per step)."""


Int64Array = npt.NDArray[np.int64]
UInt64Array = npt.NDArray[np.uint64]


def supports(game: Game) -> bool:
    """Whether :class:`FastSolver` solves ``game``: standard, misère, Maker-Breaker or cumulative
    rules (not Otrio, whose quotas are not a claim rule) on a board of at most
    :data:`MAX_CELLS` cells.
    """
    return game.claim_rule is not None and game.board.num_cells <= MAX_CELLS


def words_needed(game: Game) -> int:
    """The uint64 words a player's cells take on ``game``'s board."""
    return max(1, (game.board.num_cells + 63) // 64)


def default_tt_bytes(game: Game, words: int | None = None) -> int:
    """The most table used when none is given: 2^22 entries (104 MiB with one-word keys, more
    with wider ones), fewer on small boards. ``words``: the multi-word kernel's key width
    (None: the kernel the board gets by default).
    """
    cells = game.board.num_cells
    entries = 1 << max(12, min(22, cells - 2))
    if words is None and cells > WORD_CELLS:
        words = words_needed(game)
    return entries * (ENTRY_BYTES if words is None else entry_bytes(words))


class FastSolver:
    """Exact values of positions of one game, sharing one transposition table.

    ``budget`` bounds the time (checked between slices of the search that take about
    :data:`SLICE_SECONDS` each, sized by the kernel's work rather than its nodes; over it,
    ``LimitExceeded`` says how far the search got) and the memory (the table's size is checked
    against it when the solver is made). ``tt_bytes`` sets the table's size (default
    :func:`default_tt_bytes`, capped at half the budget's memory). ``progress``, if given, is
    called with the node count after every slice of the search.

    Boards of at most :data:`WORD_CELLS` cells go to the one-word kernel, larger ones to the
    multi-word kernel; ``words`` forces the multi-word kernel with that many words per mask
    (at least the board needs), on any board (the tests hold it to the reference that way).
    """

    engine = "alpha-beta"
    """The engine's name in solve results (:func:`noughts.exact.api.engine_name`)."""

    def __init__(
        self,
        game: Game,
        budget: Budget | None = None,
        tt_bytes: int | None = None,
        progress: Callable[[int], None] | None = None,
        *,
        words: int | None = None,
    ):
        if not supports(game):
            raise ValueError(
                f"the fast solver takes standard, misere, maker_breaker and cumulative games on boards of "
                f"at most {MAX_CELLS} cells, not {game}"
            )
        if words is None and game.board.num_cells > WORD_CELLS:
            words = words_needed(game)
        if words is not None and words < words_needed(game):
            raise ValueError(f"{game} needs {words_needed(game)} words per mask, not {words}")
        self.words = words
        """None for the one-word kernel, else the multi-word kernel's words per mask."""
        self._entry_bytes = ENTRY_BYTES if words is None else entry_bytes(words)
        self.game = game
        self.budget = budget
        self.progress = progress
        self.nodes = 0
        self.work = 0
        """The kernel's work so far, in steps of its inner loops (see :data:`SLICE_SECONDS`)."""
        self._work_slice = FIRST_WORK
        self.slices: list[Slice] = []
        """Each slice that ran to its limit, in order: after each the budget is checked."""
        board = game.board
        tables = board.tables
        rule = int(game.claim_rule)  # type: ignore[arg-type]  # supports() checked it
        cells = board.num_cells
        nlines = len(board.lines)
        self._scored = rule == CUMULATIVE
        self._search = K.search_kernel(rule)

        if tt_bytes is None:
            tt_bytes = default_tt_bytes(game, words)
            if budget is not None and budget.max_memory is not None:
                tt_bytes = min(tt_bytes, budget.max_memory // 2)
        entries = 2
        while entries * 2 * self._entry_bytes <= tt_bytes:
            entries *= 2
        self.tt_bytes = entries * self._entry_bytes
        """The most memory the table may take (it starts smaller and grows)."""
        self._max_entries = entries
        if budget is not None:
            budget.check(memory=self.tt_bytes, progress="before the search (the table alone)")

        # the board's int32 tables widened to int64, as the kernel indexed them before the kernels
        # layer (a copy of a few hundred bytes; its effect on speed is within the benchmark's noise)
        self._through: Int64Array = tables.through.astype(np.int64)
        self._nthrough: Int64Array = tables.nthrough.astype(np.int64)
        syms = min(MAX_SYMMETRIES, len(board.symmetries))
        k = board.k
        self._weights = _order_weights(rule, k)

        depth = cells + 2
        self._stack = np.zeros((depth, K.NUM_FIELDS), dtype=np.int64)
        self._cnt = np.zeros((max(1, nlines), 2), dtype=np.int64)
        self._stats = np.zeros(K.NUM_STATS, dtype=np.int64)
        self._prm = np.zeros(K.NUM_PARAMS, dtype=np.int64)
        self._prm[K.P_RULE] = rule
        self._prm[K.P_K] = k
        self._prm[K.P_CELLS] = cells
        self._prm[K.P_LINES] = nlines
        self._prm[K.P_SYMS] = syms
        self._symtab: npt.NDArray[np.uint64] | npt.NDArray[np.int32]
        self._lines: UInt64Array
        if words is None:
            self._lines = tables.line_bits
            self._symtab = tables.symmetry_bytes(syms)
            self._bits = np.zeros((depth, 3), dtype=np.uint64)  # mover's, opponent's, moves to order
            self._keys = np.zeros((depth, 2), dtype=np.uint64)
            self._moves = np.zeros((depth, cells), dtype=np.int64)
            self._scratch = np.zeros(max(cells + 1, 64 + 6 * nlines + 3), dtype=np.int64)
            self._full: np.uint64 | UInt64Array = tables.full_bits
            self._tmp = np.zeros(K.NUM_TMP, dtype=np.uint64)  # unused: one-word masks live in registers
            self._prm[K.P_BYTES] = self._symtab.shape[1]
            self._prm[K.P_WORDS] = 1
        else:
            self._lines = tables.line_words if words == tables.words else split_words(board.line_masks, words)
            self._symtab = tables.symmetry_perms(syms)
            self._bits = np.zeros((depth, 3, words), dtype=np.uint64)
            self._keys = np.zeros((depth, 2 * words), dtype=np.uint64)
            self._moves = np.zeros((depth, cells), dtype=np.int16)
            self._scratch = np.zeros(cells + 6 * nlines + 3, dtype=np.int64)
            self._full = (
                tables.full_words if words == tables.words else split_words((board.full_mask,), words)[0]
            )
            self._tmp = np.zeros((K.NUM_TMP, 2 * words), dtype=np.uint64)
            self._prm[K.P_WORDS] = words
        # a board given by its lines lists fewer (its symmetries cut back to a subgroup): the
        # kernel must be told the rows it has, or it reads past them
        syms = int(self._symtab.shape[0])
        self._prm[K.P_SYMS] = syms
        self._mirrors = (
            mirrors(board, syms, words or 1) if rule == MISERE else np.zeros((0, 2), dtype=np.int64)
        )
        self._prm[K.P_MAKER] = 0 if game.maker is None else int(game.maker)
        self._prm[K.P_TT_MIN_EMPTY] = 2
        # misère keys carry the number of dead empty cells above the board's cells (< 64 of them)
        self._prm[K.P_DEAD_KEY] = 1 if rule == MISERE and cells <= K.DEAD_SHIFT else 0
        self._allocate(min(entries, FIRST_ENTRIES))

    def _allocate(self, entries: int) -> None:
        wide = self.words is not None
        self._tt_key = np.zeros((entries, 2 * (self.words or 1)), dtype=np.uint64)
        self._tt_val = np.zeros((entries, 2), dtype=np.int32)
        self._tt_move = np.zeros(entries, dtype=np.int16 if wide else np.int8)
        self._tt_work = np.zeros(entries, dtype=np.uint8)
        self._prm[K.P_TT_MASK] = entries - 1

    @property
    def table_bytes(self) -> int:
        """The memory the table takes now."""
        return len(self._tt_work) * self._entry_bytes

    def _grow_if_full(self) -> None:
        entries = len(self._tt_work)
        if entries >= self._max_entries or self._stats[K.S_STORES] <= entries:
            return
        old_key, old_work, old = self._tt_key, self._tt_work, (self._tt_val, self._tt_move)
        self._allocate(min(self._max_entries, 8 * entries))
        origin = np.zeros(len(self._tt_work), dtype=np.int64)
        self._stats[K.S_STORES] = rehash(old_key, old_work, self._tt_key, self._tt_work, origin, TWO_TIER)
        move_payload(self._tt_work, origin, old, (self._tt_val, self._tt_move))

    # -- the public face --------------------------------------------------------------------------

    def value(self, position: Position) -> Value:
        """The exact value of ``position`` (a position of this solver's game)."""
        if position.game != self.game:
            raise ValueError(f"the position is one of {position.game}, not of {self.game}")
        b0, b1 = position.owned(Player.FIRST), position.owned(Player.SECOND)
        empty = self.game.board.num_cells - (b0 | b1).bit_count()
        mover = position.to_move
        outcome = position.outcome()
        if outcome is not None:
            score = _score_difference(position) if self._scored else None
            return Value(outcome, 0, score)
        me, op = (b0, b1) if mover is Player.FIRST else (b1, b0)
        if self.budget is not None:
            self.budget.check(self.table_bytes, f"{self.nodes:,} positions searched")
        v = self._solve(me, op, int(mover), empty)
        if self._scored:
            v += _score_difference(position) * (1 if mover is Player.FIRST else -1)
        return from_int(v, mover, empty, self._scored)

    def mover_wins(self, me: int, op: int, mover: int, empty: int) -> bool:
        """Whether the side to move (``mover``, holding ``me``; the other side holds ``op``;
        ``empty`` cells left) can force a win: one null-window search, from the masks of a
        position whose game is not over (no Position is built: strategy writers ask this of
        many positions). Not for cumulative games.
        """
        self._set_root(me, op, mover, empty)
        return self._test(1) >= 1

    def mover_draws(self, me: int, op: int, mover: int, empty: int) -> bool:
        """Whether the side to move can at least draw (see :meth:`mover_wins`)."""
        self._set_root(me, op, mover, empty)
        return self._test(0) >= 0

    # -- the driver -------------------------------------------------------------------------------

    def _solve(self, me: int, op: int, mover: int, empty: int) -> int:
        """The search's value of the root (mover-relative; cumulative: the score still to come)."""
        self._set_root(me, op, mover, empty)
        lo, hi = -K.INF, K.INF
        if not self._scored:
            # "a win within n plies?" for n = 1, 3, 5, ... up to DEEPEN_PLIES: the horizon prunes
            # every line that cannot end in time, so a short win is found before any long one
            # is looked at; past that, one unbounded search settles the rest
            n = 1
            while True:
                gamma = WIN - min(n, empty)
                r = self._test(gamma)
                if r >= gamma:
                    lo = r
                    break
                hi = min(hi, r)
                if hi <= 0 or n >= min(empty, DEEPEN_PLIES):
                    break
                n += 2
        gamma = 1  # ask "can the mover win (score more)?" unless that is settled
        while lo < hi:
            if self._scored:
                gamma = lo + 1 if lo > -K.INF else (hi if hi < K.INF else 1)
            elif lo > 0:
                gamma = lo + 1  # a faster win?
            elif hi < 0:
                gamma = hi  # a slower loss?
            elif hi > 0:
                gamma = 1
            else:
                gamma = 0  # value <= 0: is it a draw?
            r = self._test(gamma)
            if r >= gamma:
                lo = r
            else:
                hi = r
        return lo

    def _set_root(self, me: int, op: int, mover: int, empty: int) -> None:
        """Set the root of the searches up: its masks in ``bits[0]``, its line counts in ``cnt``.
        Once per root: a search that ends (DONE) leaves both as it found them (it undoes every
        move it made), so the null-window tests of one root share this; a search stopped by the
        budget leaves them half-way, but the next root sets them afresh.
        """
        self._prm[K.P_ROOT_MOVER] = mover
        self._prm[K.P_ROOT_EMPTY] = empty
        b = (me, op) if mover == 0 else (op, me)
        if self.words is None:
            self._bits[0, 0] = me
            self._bits[0, 1] = op
            count_lines(self._lines, np.uint64(b[0]), np.uint64(b[1]), self._cnt)
        else:
            words = split_words((me, op, b[0], b[1]), self.words)
            self._bits[0, 0] = words[0]
            self._bits[0, 1] = words[1]
            count_lines(self._lines, words[2], words[3], self._cnt)

    def _test(self, gamma: int) -> int:
        """One null-window search of the root set up (:meth:`_set_root`): a value >= gamma (a
        lower bound) or < gamma (an upper one).
        """
        self._stack[0, K.F_ALPHA] = gamma - 1
        self._stack[0, K.F_BETA] = gamma
        stats = self._stats
        stats[K.S_DEPTH] = 0
        stats[K.S_MODE] = ENTER
        stats[K.S_RET] = 0
        stats[K.S_NODES] = self.nodes
        while True:
            growing = len(self._tt_work) < self._max_entries
            # while the table grows, at most as many nodes as it has entries before it is looked at
            limit = min(SLICE_NODES, len(self._tt_work)) if growing else SLICE_NODES
            work_limit = self._work_slice
            args = (
                self._prm,
                self._lines,
                self._through,
                self._nthrough,
                self._symtab,
                self._weights,
                self._tt_key,
                self._tt_val,
                self._tt_move,
                self._tt_work,
                self._bits,
                self._keys,
                self._stack,
                self._moves,
                self._cnt,
                stats,
                self._scratch,
                self._full,
                self._tmp,
                self._mirrors,
                limit,
                work_limit,
            )
            # at most `limit` nodes and about `work_limit` steps, then back here to check the budget
            started = time.perf_counter()
            status = self._search(*args)
            took = time.perf_counter() - started
            done = int(stats[K.S_NODES]) - self.nodes
            worked = int(stats[K.S_WORK]) - self.work
            self.nodes = int(stats[K.S_NODES])
            self.work = int(stats[K.S_WORK])
            if status != DONE:
                self.slices.append(Slice(done, worked, work_limit))
            if worked >= work_limit:  # a full slice: size the next one to take about SLICE_SECONDS
                per_step = took / max(worked, 1)
                wanted = SLICE_SECONDS / max(per_step, 1e-12)
                self._work_slice = int(min(GROWTH * work_limit, max(FIRST_WORK, wanted)))
            if growing:
                self._grow_if_full()
            if status == DONE:
                return int(stats[K.S_RET])
            if self.progress is not None:
                self.progress(self.nodes)
            if self.budget is not None:
                self.budget.check(self.table_bytes, f"{self.nodes:,} positions searched")


MAX_MIRRORS = 4
"""At most this many symmetries are tried as mirrors at a misère node (:func:`mirrors`)."""


def mirrors(board: Board, syms: int, words: int) -> Int64Array:
    """The symmetries among the first ``syms`` of ``board`` that a side can mirror a misère game
    by: rows of the symmetry's index and the words of its fixed cells (as int64), at most
    :data:`MAX_MIRRORS` of them.

    A symmetry s qualifies when it is an involution (s(s(c)) = c) and every line through one
    of its fixed cells F holds two cells c and s(c) outside F. Then in a position where the
    side N not to move holds F and the image of the mover's cells, N never loses: it answers
    each move c with s(c) (empty, since the empty cells are symmetric, and not c, since F is
    taken). Were N to complete a line L, L would not meet F (N cannot hold both c and s(c) of a
    line through F, holding s(c) only where the mover holds c), so s(L), a line too, would be
    the mover's: completed before, and the mover lost first (s(L) = L is impossible: L would
    be both players'). The first player's draw in misère 5x5 (k = 4) is this: the centre, then
    the point reflection; on a board with an even side the second player's is (no fixed cell).
    """
    perms = board.tables.symmetry_perms(syms)
    line_sets = [frozenset(line) for line in board.lines]
    rows: list[list[int]] = []
    for s in range(len(perms)):
        perm = [int(c) for c in perms[s]]
        if any(perm[perm[c]] != c for c in range(len(perm))):
            continue
        fixed = {c for c in range(len(perm)) if perm[c] == c}
        if len(fixed) == len(perm):
            continue  # the identity
        if any(
            line & fixed and not any(c not in fixed and perm[c] in line for c in line) for line in line_sets
        ):
            continue
        mask = sum(1 << c for c in fixed)
        as_words = split_words((mask,), words)[0] if words > 1 else np.array([mask], dtype=np.uint64)
        rows.append([s, *(int(x) for x in as_words.view(np.int64))])
        if len(rows) == MAX_MIRRORS:
            break
    return np.array(rows, dtype=np.int64).reshape(len(rows), 1 + words)


def count_lines(
    lines: UInt64Array, first: np.uint64 | UInt64Array, second: np.uint64 | UInt64Array, cnt: Int64Array
) -> None:
    """Fill ``cnt[j, p]``: player p's cells on line j, for the masks ``first`` and ``second``
    (one word each with ``lines`` one word per line, or W words each with ``lines`` of shape
    ``(lines, W)``). Once per search, so NumPy (no kernel to compile).
    """
    for p, mask in enumerate((first, second)):
        hits = np.bitwise_count(lines & mask)
        cnt[: len(lines), p] = hits if hits.ndim == 1 else hits.sum(axis=1)


def _score_difference(position: Position) -> int:
    score = position.score()
    assert score is not None, "a cumulative position has a score"
    return score[0] - score[1]


def _order_weights(rule: int, k: int) -> Int64Array:
    """``w[role, a, b]``: what a line holding ``a`` of the mover's cells and ``b`` of the
    opponent's adds to the ordering score of its empty cells (role 1: Breaker to move).

    Lines the mover can still complete count ``4^a``, the opponent's ``3^b``; in misère the
    mover's own lines count against a cell; Maker counts the surviving lines by its cells in
    them, and Breaker likewise (they are the lines it must hit).
    """
    w = np.zeros((2, k + 1, k + 1), dtype=np.int64)
    for a in range(k + 1):
        for b in range(k + 1):
            own = 4 ** min(a, 20) if b == 0 else 0
            theirs = 3 ** min(b, 20) if a == 0 else 0
            if rule == MISERE:
                w[0, a, b] = -own
            elif rule == MAKER_BREAKER:
                w[0, a, b] = own  # Maker: a Maker cells, no Breaker cell
                w[1, a, b] = 4 ** min(b, 20) if a == 0 else 0  # Breaker: b Maker cells, no Breaker cell
            else:
                w[0, a, b] = own + theirs
    return w
