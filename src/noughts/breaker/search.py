"""The Breaker prover's search: the kernel's driver (:class:`BreakerProver`), its settings and
what it returns (:class:`BreakerResult`, :class:`ProofStore`, :class:`Progress`).

:mod:`noughts.breaker.prover` is the face (``prove_breaker``, ``prove_draw``, certificates);
:mod:`noughts.breaker.parallel` runs several of these searches over
:mod:`noughts.parallel`. The kernel is :mod:`noughts.breaker._kernels`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from noughts.breaker.question import BreakerQuestion
from noughts.core import Budget, NoughtsError, Player, Rule
from noughts.kernels.codes import DONE

__all__ = [
    "AND_EPSILON",
    "EPSILON",
    "MAX_SYMMETRIES",
    "SEARCH_STEP_CAP",
    "SLICE_NODES",
    "BreakerProver",
    "BreakerResult",
    "Progress",
    "ProofStore",
    "argument_for",
]

SLICE_NODES = 20_000
"""At most this many nodes between two budget checks. A node's cost grows with the board (about
0.1 ms on mnk(7,7,5), tens of milliseconds on the 10,000 cells of hypercube(10,4)), so the
driver starts with :data:`FIRST_SLICE` nodes and doubles or halves the slice to keep each one
near :data:`SLICE_SECONDS`."""

FIRST_SLICE = 16
SLICE_SECONDS = 0.2

MAX_SYMMETRIES = 48
"""At most this many of the board's symmetries (the first listed) are used at each node."""

DEFAULT_TT_BYTES = 1 << 28
"""The transposition table takes at most this much (or a third of the memory budget)."""
STORE_START = 1 << 15
EPSILON = (5, 4)
"""The 1 + epsilon trick: a child may use up to 5/4 of its sibling's number before the search
switches (Pawlewicz and Lew 2006)."""

AND_EPSILON = (30, 1)
"""The same at Maker's nodes, far larger: proving one Maker move gives a zone that answers most of
the others, so the search stays with one move (on mnk(7,7,5) 5/4 searches more nodes than 30:
``python bench/breaker.py --caps``)."""

SEARCH_STEP_CAP = 200
"""Augmenting paths per pairing search inside the prover (beyond the one matching of the runs
with no choice). A search that fails usually fails for good, and a missed pairing only costs
more search: on mnk(7,7,5) a cap of 1,000 proves the draw in 35,793 nodes and 4.8 million
augmenting paths, a cap of 200 in 47,034 nodes and 2.4 million paths, in less time
(``python bench/breaker.py --caps``)."""

STATUS = {0: "open", 1: "proved", 2: "disproved"}


@dataclass
class Progress:
    """How far a search has got: nodes entered, pairings found of searched, the root's proof and
    disproof numbers, seconds.
    """

    nodes: int
    pairings: int
    paired: int
    proof_number: int
    disproof_number: int
    seconds: float


@dataclass
class ProofStore:
    """The proved nodes of a search (the kernel's proof store), from which certificates are cut:
    ``kinds[i]`` (0 pairs, 1 witness, 2 Breaker's move, 3 Maker's node, 4 image), ``a``/``b``
    (a leaf's cells in ``cells[a:a+b]``; Breaker's cell and child; a Maker node's branches in
    ``branches[a:a+b]``, each (Maker's cell, child); an image's node and symmetry).
    """

    kinds: np.ndarray
    a: np.ndarray
    b: np.ndarray
    cells: np.ndarray
    branches: np.ndarray
    perms: np.ndarray
    root: int


@dataclass
class BreakerResult:
    """What :func:`prove_breaker` found.

    ``proved``: Breaker wins the question (None: not settled, only with ``anytime=True``);
    ``value``: for standard games from the empty board proved with Breaker second, ``"draw"``;
    ``argument``: how the claim follows; ``zone``: the cells the proof (or disproof) mentions.
    """

    question: BreakerQuestion
    proved: bool | None
    argument: str
    value: str | None
    nodes: int
    pairings: int
    paired: int
    covered: int
    max_depth: int
    seconds: float
    zone: tuple[int, ...]
    store: ProofStore | None = field(default=None, repr=False)
    certificate: str | None = None
    digest: str | None = None
    workers: int = 1
    executor: str = "in-process"
    subproofs: list[dict[str, Any]] | None = None
    """With workers: one entry per subproof (Maker's or Breaker's first move)."""

    @property
    def claim(self) -> str:
        """The claim in words (proved or not)."""
        q = self.question
        maker = q.game.player_label(q.maker)
        breaker = q.game.player_label(q.breaker)
        where = "" if q.maker_cells == q.breaker_cells == 0 else f" from {_short(q.position.text())!r}"
        if q.rules == "standard":
            return f"{maker} cannot win {q.game}{where}: {breaker} stops every line first"
        return f"{breaker} stops {maker} from completing a line of {q.board}{where}"

    def describe(self) -> str:
        """The answer in one line."""
        q = self.question
        if self.proved is None:
            return f"not settled: {self.claim}"
        if not self.proved:
            maker = q.game.player_label(q.maker)
            if q.rules == "standard":
                return f"disproved: {maker} can force a win of {q.game}"
            return f"disproved: {maker} completes a line whatever Breaker does (Maker-Breaker rules on {q.board})"
        if self.value == "draw":
            return f"proved: {q.game} is a draw ({self.argument})"
        return f"proved: {self.claim} ({self.argument})"

    def to_json(self) -> dict[str, Any]:
        """The ``prove breaker --json`` document."""
        q = self.question
        return {
            "game": str(q.game),
            "position": q.position.text(),
            "maker": q.maker.name.lower(),
            "breaker": q.breaker.name.lower(),
            "rules": q.rules,
            "proved": self.proved,
            "claim": self.claim,
            "value": self.value,
            "argument": self.argument,
            "nodes": self.nodes,
            "pairing_searches": self.pairings,
            "pairings_found": self.paired,
            "covered_by_zones": self.covered,
            "max_depth": self.max_depth,
            "seconds": round(self.seconds, 3),
            "certificate": self.certificate,
            "sha256": self.digest,
            "workers": self.workers,
            "executor": self.executor,
            "subproofs": self.subproofs,
        }


def _short(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[: most - 3] + "..."


def argument_for(q: BreakerQuestion, proved: bool, pairing_at_root: bool) -> tuple[str, str | None]:
    how = (
        "a pairing strategy from the position itself"
        if pairing_at_root
        else "a Breaker search with pairing leaves"
    )
    if not proved:
        return ("a Maker win found by the same search", None)
    empty = q.maker_cells == 0 and q.breaker_cells == 0
    standard_game = q.game.claim_rule is Rule.STANDARD
    if standard_game and empty and q.breaker is Player.SECOND:
        if q.rules == "standard":
            return (
                f"{how} (the first player cannot win) and strategy stealing (the second player cannot win)",
                "draw",
            )
        return (
            f"{how} under Maker-Breaker rules, which stops the first player under standard rules too "
            "(002 §2.4, Observation 2), and strategy stealing (the second player cannot win)",
            "draw",
        )
    return (how, None)


class BreakerProver:
    """One search of one question: tables, the kernel's state and its proof store.

    ``record``: keep the proof store (for a certificate); ``tt_entries``: transposition table
    entries (a power of two); ``step_cap``: augmenting paths per pairing search;
    ``and_epsilon``: the 1 + epsilon of Maker's nodes (a fraction, :data:`AND_EPSILON`).
    """

    def __init__(
        self,
        q: BreakerQuestion,
        *,
        budget: Budget | None = None,
        progress: Callable[[Progress], None] | None = None,
        record: bool = True,
        tt_entries: int | None = None,
        step_cap: int | None = None,
        and_epsilon: tuple[int, int] = AND_EPSILON,
    ):
        from noughts.breaker import _kernels as K
        from noughts.breaker.cover import CoverFinder

        self.K = K
        self.q = q
        self.budget = budget
        self.progress = progress
        self.record = record
        board = q.board
        tables = board.tables
        n_cells = board.num_cells
        n_lines = len(board.lines)
        words = tables.words
        self.words = words
        syms = len(board.symmetries) if board.symmetry_count <= MAX_SYMMETRIES * 8 else 1
        n_syms = min(MAX_SYMMETRIES, syms)
        self.perms = np.ascontiguousarray(tables.symmetry_perms(n_syms).astype(np.int64))
        finder = CoverFinder(board, step_cap=step_cap or SEARCH_STEP_CAP)
        self.finder = finder
        free_cells = n_cells - (q.maker_cells | q.breaker_cells).bit_count()
        depth = min(free_cells + 2, max(24, (1 << 25) // max(1, 48 * n_cells)))
        self.depth = depth
        self.prm = np.zeros(K.NUM_P, dtype=np.int64)
        self.prm[K.P_K] = board.k
        self.prm[K.P_CELLS] = n_cells
        self.prm[K.P_LINES] = n_lines
        self.prm[K.P_WORDS] = words
        self.prm[K.P_RULE] = int(Rule.STANDARD if q.rules == "standard" else Rule.MAKER_BREAKER)
        self.prm[K.P_SYMS] = len(self.perms)  # a board given by its lines lists a subgroup: fewer
        self.prm[K.P_STEP_CAP] = finder.step_cap
        self.prm[K.P_RECORD] = 1 if record else 0
        self.prm[K.P_MAX_DEPTH] = depth
        self.prm[K.P_EPS_NUM], self.prm[K.P_EPS_DEN] = EPSILON
        self.prm[K.P_AND_NUM], self.prm[K.P_AND_DEN] = and_epsilon
        self.line_cells = np.ascontiguousarray(tables.line_cells.astype(np.int64))
        self.through = np.ascontiguousarray(tables.through.astype(np.int64))
        self.nthrough = np.ascontiguousarray(tables.nthrough.astype(np.int64))
        seg = tables.segments
        self.seg_through = np.ascontiguousarray(seg.through.astype(np.int64))
        self.seg_pos = np.ascontiguousarray(seg.position.astype(np.int64))
        self.seg_nthrough = np.ascontiguousarray(seg.nthrough.astype(np.int64))
        self.cover = (
            finder.seg_cells.astype(np.int64),
            finder.seg_len.astype(np.int64),
            finder.seg_window.astype(np.int64),
            finder.comp_ptr,
            finder.comp_parts_ptr,
            finder.comp_parts,
            finder.work,
            finder.d_seg,
            finder.d_lo,
            finder.d_hi,
            finder.d_live,
            finder.mate_copy,
            finder.mate_cell,
            finder.snap_copy,
            finder.snap_cell,
            finder.par,
            finder.seen,
            finder.queue,
            finder.order,
            finder.d_level,
            finder.conflict,
            finder.stats,
            np.zeros(n_cells, dtype=np.uint8),
            np.zeros(n_lines, dtype=np.uint8),
        )
        # the position
        self.own = np.zeros(n_cells, dtype=np.int64)
        self.cnt = np.zeros((n_lines, 2), dtype=np.int64)
        self.mk = np.zeros((1, words), dtype=np.uint64)
        self.bk = np.zeros((1, words), dtype=np.uint64)
        for c in board.cells_in(q.maker_cells):
            self._put(c, 1)
        for c in board.cells_in(q.breaker_cells):
            self._put(c, 2)
        # the stack
        self.moves = np.full(depth + 1, -1, dtype=np.int64)
        self.f_int = np.zeros((depth + 1, 12), dtype=np.int64)
        self.f_zone = np.zeros((depth + 1, words), dtype=np.uint64)
        self.f_open = np.zeros((depth + 1, words), dtype=np.uint64)
        self.f_stab = np.zeros((depth + 1, max(1, n_syms)), dtype=np.int64)
        width = n_cells
        self.ch_cell = np.zeros((depth + 1, width), dtype=np.int64)
        self.ch_int = np.zeros((depth + 1, width, 4), dtype=np.int64)
        self.score = np.zeros((depth + 1, width), dtype=np.int64)
        self.f_int[0, 0] = 0 if q.maker_to_move else 1
        self.f_int[0, 1] = K.INF
        self.f_int[0, 2] = K.INF
        # the table
        entry = 2 * 8 * words + 7 * 8 + 8 * words
        if tt_entries is None:
            room = DEFAULT_TT_BYTES
            if budget is not None and budget.max_memory is not None:
                room = min(room, budget.max_memory // 3)
            tt_entries = 1 << 20
            while tt_entries > 1024 and tt_entries * entry > room:
                tt_entries //= 2
        tt_entries = 1 << max(4, int(tt_entries).bit_length() - 1)
        # one row more than the table's slots: the kernel's key buffer (_breaker_kernels._probe_key)
        self.tt_key = np.zeros((tt_entries + 1, 2 * words), dtype=np.uint64)
        self.tt_int = np.zeros((tt_entries, 7), dtype=np.int64)
        self.tt_zone = np.zeros((tt_entries, words), dtype=np.uint64)
        self.prm[K.P_TT_MASK] = tt_entries - 1
        # the proof store
        size = STORE_START if record else 1
        self.st_int = np.zeros((size, 3), dtype=np.int64)
        self.st_cells = np.zeros(size, dtype=np.int64)
        self.st_branch = np.zeros((size, 2), dtype=np.int64)
        self.scratch = np.zeros((3, words), dtype=np.uint64)
        self.stats = np.zeros(K.NUM_S, dtype=np.int64)
        if budget is not None:
            budget.check(memory=self.memory(), progress="before the search (its tables alone)")

    def _put(self, c: int, side: int) -> None:
        self.own[c] = side
        for j in self.q.board.lines_through[c]:
            self.cnt[j, side - 1] += 1
        row = self.mk if side == 1 else self.bk
        row[0, c >> 6] |= np.uint64(1) << np.uint64(c & 63)

    def memory(self) -> int:
        """Bytes held by the search's arrays."""
        arrays = (
            self.tt_key,
            self.tt_int,
            self.tt_zone,
            self.st_int,
            self.st_cells,
            self.st_branch,
            self.ch_cell,
            self.ch_int,
            self.score,
            self.f_int,
            self.f_zone,
            self.f_open,
            self.f_stab,
        )
        return int(sum(a.nbytes for a in arrays)) + int(sum(a.nbytes for a in self.cover))

    def _grow(self) -> None:
        K = self.K
        if self.stats[K.S_DEPTH] + 2 >= self.depth:
            raise NoughtsError(f"the proof goes deeper than {self.depth} plies, more than this prover keeps")
        for name in ("st_int", "st_cells", "st_branch"):
            old = getattr(self, name)
            new = np.zeros((old.shape[0] * 2, *old.shape[1:]), dtype=old.dtype)
            new[: old.shape[0]] = old
            setattr(self, name, new)

    def progress_now(self, started: float) -> Progress:
        K = self.K
        s = self.stats
        root_pn, root_dn = int(self.f_int[0, 6]), int(self.f_int[0, 7])
        return Progress(
            int(s[K.S_NODES]),
            int(s[K.S_PAIRINGS]),
            int(s[K.S_PAIRED]),
            root_pn,
            root_dn,
            time.perf_counter() - started,
        )

    def run(self, *, slice_nodes: int = SLICE_NODES) -> int:
        """Search until the question is settled; returns the kernel's result code (PROVED or
        DISPROVED). Checks the budget between slices (``LimitExceeded``) of at most
        ``slice_nodes`` nodes, sized to take about :data:`SLICE_SECONDS` each.
        """
        K = self.K
        started = time.perf_counter()
        nodes = min(slice_nodes, FIRST_SLICE)
        while True:
            began = time.perf_counter()
            status = K.search(
                self.prm,
                self.line_cells,
                self.through,
                self.nthrough,
                self.perms,
                self.cover,
                self.own,
                self.cnt,
                self.mk,
                self.bk,
                self.moves,
                self.f_int,
                self.f_zone,
                self.f_open,
                self.f_stab,
                self.ch_cell,
                self.ch_int,
                self.tt_key,
                self.tt_int,
                self.tt_zone,
                self.st_int,
                self.st_cells,
                self.st_branch,
                self.scratch,
                self.scratch,
                self.score,
                self.seg_through,
                self.seg_pos,
                self.seg_nthrough,
                self.stats,
                nodes,
            )
            if status == DONE:
                return int(self.stats[K.S_RESULT])
            took = time.perf_counter() - began
            if took < SLICE_SECONDS / 2:
                nodes = min(slice_nodes, 2 * nodes)
            elif took > SLICE_SECONDS * 2:
                nodes = max(1, nodes // 2)
            if status == K.FULL:
                self._grow()
            if self.progress is not None:
                self.progress(self.progress_now(started))
            if self.budget is not None:
                p = self.progress_now(started)
                self.budget.check(
                    memory=self.memory(),
                    progress=f"{p.nodes:,} nodes searched, {p.paired:,} pairings found; the question is not settled",
                )

    def store(self) -> ProofStore | None:
        """The proof store (None unless ``record``), rooted at the root's proof."""
        K = self.K
        if not self.record or self.stats[K.S_RESULT] != K.PROVED:
            return None
        n = int(self.stats[K.S_STORE_NODES])
        return ProofStore(
            kinds=self.st_int[:n, 0].copy(),
            a=self.st_int[:n, 1].copy(),
            b=self.st_int[:n, 2].copy(),
            cells=self.st_cells[: int(self.stats[K.S_STORE_CELLS])].copy(),
            branches=self.st_branch[: int(self.stats[K.S_STORE_BRANCHES])].copy(),
            perms=self.perms,
            root=int(self.stats[K.S_ROOT_CERT]),
        )

    def zone(self) -> tuple[int, ...]:
        row = self.f_zone[0]
        return tuple(c for c in range(self.q.board.num_cells) if int(row[c >> 6]) >> (c & 63) & 1)
