"""The Breaker prover: can one side stop the other from completing a line? With a certificate.

:func:`prove_breaker` answers the question of :mod:`noughts.pairing.breaker_setup` for any board
noughts builds (past the playing limit too, through :func:`noughts.core.registry.hypergraph`):
Breaker's replies are searched (best-first, df-pn) until Breaker has a *pairing* (pairs of free
cells, every line Maker could still complete holding one: 002 §3, generalised to lines that
overlap, :mod:`noughts.pairing.cover`), and every Maker move is answered, up to the symmetries
of the position and the *zones* of earlier answers (a proof leaves the cells outside its zone to
Maker, so the Maker moves there need no search of their own). The kernel is
:mod:`noughts.pairing._breaker_kernels`; :mod:`noughts.pairing.breaker_reference` is the plain
reference the tests hold it to.

**What a proof means.**

* ``maker_breaker(...)`` games: Breaker wins. A disproof: Maker wins.
* standard games (Maker the first player by default): under the game's own rules the first
  player cannot win. From the empty board the second player cannot win either (strategy
  stealing: an extra cell never hurts, so a second-player win would give the first player one;
  Beck 2008; 002 §2.4, Observation 3), so the game is a **draw**: the result says which
  argument it used. From another position a draw needs both sides' proofs
  (:func:`prove_draw` runs both).
* ``rules="maker_breaker"`` on a standard board asks the stronger question where Breaker never
  uses its own lines; its proof implies the standard one (Observation 2), its disproof does not
  (``mnk(5,5,4)``: Maker wins the Maker-Breaker game; the standard game is a draw).

Budgets: wall and CPU seconds and memory (:class:`noughts.core.Budget`), checked between
slices of :data:`SLICE_NODES` nodes; over budget, ``LimitExceeded`` says how far the search got.
``progress`` is called after every slice with a :class:`Progress`. A proof can be written as a
certificate (:mod:`noughts.pairing.breaker_certificate`) that a checker sharing no code with
the search verifies.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from noughts.core import Budget, Game, LimitExceeded, NoughtsError, Player, Position
from noughts.core.budget import format_bytes
from noughts.pairing.breaker_setup import BreakerQuestion, question

__all__ = [
    "SLICE_NODES",
    "BreakerProver",
    "BreakerResult",
    "DrawResult",
    "Progress",
    "ProofStore",
    "check_breaker_certificate",
    "prove_breaker",
    "prove_draw",
]

SLICE_NODES = 20_000
"""Nodes searched between two budget checks (well under a second)."""

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
the others, so the search stays with one move (measured on mnk(7,7,5): 5/4 searches 72,000 nodes,
3 43,000, 10 35,000, 30 36,000 with fewer pairing steps)."""

SEARCH_STEP_CAP = 1000
"""Augmenting paths per pairing search inside the prover: most pairings are found in fewer than
400 (measured on mnk(7,7,5)), and a search that fails usually fails for good; a missed pairing
only costs more search."""

STATUS = {0: "open", 1: "proved", 2: "disproved"}


@dataclass
class Progress:
    """How far a search has got: nodes entered, pairings found of searched, the root's proof and
    disproof numbers, seconds."""

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
    ``branches[a:a+b]``, each (Maker's cell, child); an image's node and symmetry)."""

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


def _argument(q: BreakerQuestion, proved: bool, pairing_at_root: bool) -> tuple[str, str | None]:
    how = "a pairing strategy from the position itself" if pairing_at_root else "a Breaker search with pairing leaves"
    if not proved:
        return ("a Maker win found by the same search", None)
    if q.rules == "standard" and not isinstance(q.game, type(None)):
        from noughts.core import StandardGame

        empty = q.maker_cells == 0 and q.breaker_cells == 0
        if type(q.game) is StandardGame and empty and q.breaker is Player.SECOND:
            return (f"{how} (the first player cannot win) and strategy stealing (the second player cannot win)", "draw")
    if q.rules == "maker_breaker" and type(q.game).__name__ == "StandardGame":
        empty = q.maker_cells == 0 and q.breaker_cells == 0
        if empty and q.breaker is Player.SECOND:
            return (
                f"{how} under Maker-Breaker rules, which stops the first player under standard rules too "
                "(002 §2.4, Observation 2), and strategy stealing (the second player cannot win)",
                "draw",
            )
    return (how, None)


class BreakerProver:
    """One search of one question: tables, the kernel's state and its proof store.

    ``record``: keep the proof store (for a certificate); ``tt_entries``: transposition table
    entries (a power of two); ``step_cap``: augmenting paths per pairing search.
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
    ):
        from noughts.pairing import _breaker_kernels as K
        from noughts.pairing.cover import CoverFinder

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
        self.prm[K.P_RULES] = K.STANDARD if q.rules == "standard" else K.MAKER_BREAKER
        self.prm[K.P_SYMS] = n_syms
        self.prm[K.P_STEP_CAP] = finder.step_cap
        self.prm[K.P_RECORD] = 1 if record else 0
        self.prm[K.P_MAX_DEPTH] = depth
        self.prm[K.P_EPS_NUM], self.prm[K.P_EPS_DEN] = EPSILON
        self.prm[K.P_AND_NUM], self.prm[K.P_AND_DEN] = AND_EPSILON
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
        self.tt_key = np.zeros((tt_entries, 2 * words), dtype=np.uint64)
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
            self.tt_key, self.tt_int, self.tt_zone, self.st_int, self.st_cells, self.st_branch, self.ch_cell,
            self.ch_int, self.score, self.f_int, self.f_zone, self.f_open, self.f_stab,
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
            int(s[K.S_NODES]), int(s[K.S_PAIRINGS]), int(s[K.S_PAIRED]), root_pn, root_dn, time.perf_counter() - started
        )

    def run(self, *, slice_nodes: int = SLICE_NODES) -> int:
        """Search until the question is settled; returns the kernel's result code (PROVED or
        DISPROVED). Checks the budget between slices (``LimitExceeded``)."""
        K = self.K
        started = time.perf_counter()
        while True:
            status = K.search(
                self.prm, self.line_cells, self.through, self.nthrough, self.perms, self.cover, self.own, self.cnt,
                self.mk, self.bk, self.moves, self.f_int, self.f_zone, self.f_open, self.f_stab, self.ch_cell,
                self.ch_int, self.tt_key, self.tt_int, self.tt_zone, self.st_int, self.st_cells, self.st_branch,
                self.scratch, self.scratch, self.score, self.seg_through, self.seg_pos, self.seg_nthrough, self.stats,
                slice_nodes,
            )
            if status == K.DONE:
                return int(self.stats[K.S_RESULT])
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


def prove_breaker(
    game: Game | str,
    position: Position | str | None = None,
    *,
    breaker: Player | str | None = None,
    rules: str | None = None,
    budget: Budget | None = None,
    progress: Callable[[Progress], None] | None = None,
    certificate: str | None = None,
    workers: int | None = 1,
    address: str | None = None,
    record: bool | None = None,
) -> BreakerResult:
    """Prove (or disprove) that Breaker stops Maker (module docstring).

    ``game``: a game or a spec (built past the playing limit if need be); ``position``: a
    position or its text (the start by default); ``breaker``: the breaking side of a standard
    game (``"first"``/``"second"``, default second); ``rules``: ``"maker_breaker"`` or
    ``"standard"`` (default: the game's own). ``certificate``: write the proof's certificate
    there (``.json`` and ``.npz``). ``workers``/``address``: split the proof by Maker's first
    moves over :mod:`noughts.parallel` (1: in this process).

    >>> prove_breaker("mnk(6,6,5)").describe()
    'proved: mnk(6,6,5) is a draw (a Breaker search with pairing leaves (the first player cannot win) and strategy stealing (the second player cannot win))'
    """
    from noughts.core.registry import hypergraph

    g = hypergraph(game) if isinstance(game, str) else game
    pos = None if position is None else (g.parse(position) if isinstance(position, str) else position)
    side = _side(breaker)
    q = question(g, pos, breaker=side, rules=rules)
    if record is None:
        record = certificate is not None
    started = time.perf_counter()
    if workers is not None and workers != 1 or address is not None:
        from noughts.pairing.breaker_parallel import prove_parallel

        result = prove_parallel(q, budget=budget, progress=progress, record=record, workers=workers, address=address)
    else:
        prover = BreakerProver(q, budget=budget, progress=progress, record=record)
        code = prover.run()
        K = prover.K
        proved = code == K.PROVED
        s = prover.stats
        argument, value = _argument(q, proved, int(s[K.S_NODES]) == 1 and proved)
        result = BreakerResult(
            question=q,
            proved=proved,
            argument=argument,
            value=value,
            nodes=int(s[K.S_NODES]),
            pairings=int(s[K.S_PAIRINGS]),
            paired=int(s[K.S_PAIRED]),
            covered=int(s[K.S_COVERED]),
            max_depth=int(s[K.S_MAX_DEPTH]),
            seconds=time.perf_counter() - started,
            zone=prover.zone(),
            store=prover.store() if proved else None,
        )
    if certificate is not None and result.proved:
        assert result.store is not None
        result.certificate, result.digest = write_certificate(certificate, result)
    result.seconds = time.perf_counter() - started
    return result


def certificate_arrays(store: ProofStore) -> tuple[dict[str, np.ndarray], int]:
    """The nodes of the store reached from its root, renumbered, as the certificate's arrays
    (:mod:`noughts.pairing.breaker_certificate`), and the root's new number."""
    K_IMAGE, K_BREAKER, K_MAKER = 4, 2, 3
    order: list[int] = []
    number: dict[int, int] = {}
    stack = [store.root]
    while stack:
        i = stack.pop()
        if i in number:
            continue
        number[i] = len(order)
        order.append(i)
        kind = int(store.kinds[i])
        if kind == K_BREAKER:
            stack.append(int(store.b[i]))
        elif kind == K_MAKER:
            lo, n = int(store.a[i]), int(store.b[i])
            stack.extend(int(store.branches[t, 1]) for t in range(lo, lo + n))
        elif kind == K_IMAGE:
            stack.append(int(store.a[i]))
    syms: dict[int, int] = {}
    kinds = np.zeros(len(order), dtype=np.int8)
    a = np.zeros(len(order), dtype=np.int64)
    b = np.zeros(len(order), dtype=np.int64)
    cells: list[int] = []
    branches: list[tuple[int, int]] = []
    for new, i in enumerate(order):
        kind = int(store.kinds[i])
        kinds[new] = kind
        if kind in (0, 1):  # a leaf's cells
            lo, n = int(store.a[i]), int(store.b[i])
            a[new], b[new] = len(cells), n
            cells.extend(int(c) for c in store.cells[lo : lo + n])
        elif kind == K_BREAKER:
            a[new], b[new] = int(store.a[i]), number[int(store.b[i])]
        elif kind == K_MAKER:
            lo, n = int(store.a[i]), int(store.b[i])
            a[new], b[new] = len(branches), n
            branches.extend((int(store.branches[t, 0]), number[int(store.branches[t, 1])]) for t in range(lo, lo + n))
        else:
            s = int(store.b[i])
            a[new], b[new] = number[int(store.a[i])], syms.setdefault(s, len(syms))
    perms = np.zeros((len(syms), store.perms.shape[1]), dtype=np.int32)
    for s, j in syms.items():
        perms[j] = store.perms[s]
    arrays = {
        "kind": kinds,
        "a": a,
        "b": b,
        "cells": np.array(cells, dtype=np.int32),
        "branches": np.array(branches, dtype=np.int32).reshape(len(branches), 2),
        "perms": perms,
    }
    return arrays, number[store.root]


def write_certificate(path: str | Path, result: BreakerResult) -> tuple[str, str]:
    """Write ``PATH.json`` and ``PATH.npz`` for a proved result; returns the header's path and
    the arrays' SHA-256."""
    import hashlib
    import json

    from noughts.pairing.breaker_certificate import FORMAT, KIND, VERSION

    assert result.store is not None and result.proved
    q = result.question
    arrays, root = certificate_arrays(result.store)
    path = Path(path)
    json_path = path if path.suffix == ".json" else path.with_suffix(".json")
    npz_path = json_path.with_suffix(".npz")
    header = {
        "format": FORMAT,
        "version": VERSION,
        "kind": KIND,
        "game": str(q.game),
        "position": q.position.text(),
        "claim": {
            "rules": q.rules,
            "maker": q.maker.name.lower(),
            "breaker": q.breaker.name.lower(),
            "statement": result.claim,
            "value": result.value,
            "argument": result.argument,
        },
        "root": root,
        "nodes": int(arrays["kind"].shape[0]),
        "pairing_leaves": int(np.sum(arrays["kind"] == 0)),
        "maker_nodes": int(np.sum(arrays["kind"] == 3)),
        "search": {
            "nodes": result.nodes,
            "seconds": round(result.seconds, 3),
            "workers": result.workers,
        },
    }
    try:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(npz_path, **arrays)  # type: ignore[arg-type]
        digest = hashlib.sha256(npz_path.read_bytes()).hexdigest()
        header["arrays"] = npz_path.name
        header["sha256"] = digest
        json_path.write_text(json.dumps(header, indent=2) + "\n", encoding="utf-8")
    except OSError as error:
        raise NoughtsError(f"cannot write the certificate {json_path}: {error.strerror or error}") from None
    return str(json_path), digest


@dataclass
class DrawResult:
    """What :func:`prove_draw` found: ``draw`` (True proved, False a side can force a win),
    the argument, and the Breaker results it rests on (one with strategy stealing, else two)."""

    game: Game
    position: Position
    draw: bool
    argument: str
    parts: list[BreakerResult]
    seconds: float

    def describe(self) -> str:
        if self.draw:
            return f"proved: {self.position.text()!r} of {self.game} is a draw ({self.argument})"
        return f"not a draw: {self.argument}"

    def to_json(self) -> dict[str, Any]:
        """The ``prove draw --json`` document."""
        return {
            "game": str(self.game),
            "position": self.position.text(),
            "draw": self.draw,
            "argument": self.argument,
            "parts": [p.to_json() for p in self.parts],
            "seconds": round(self.seconds, 3),
        }


def prove_draw(
    game: Game | str,
    position: Position | str | None = None,
    *,
    budget: Budget | None = None,
    progress: Callable[[Progress], None] | None = None,
    certificate: str | None = None,
    workers: int | None = 1,
    address: str | None = None,
) -> DrawResult:
    """Prove that a standard game is a draw from ``position``: neither side can force a win.

    From the empty board one Breaker proof suffices (the second player stops the first) with
    strategy stealing (the second player cannot win). Elsewhere both sides' Breaker proofs are
    needed (each stops the other); ``certificate`` then names two files, ``STEM-first.json``
    (the second player stops the first) and ``STEM-second.json``. A disproof of either means
    that side can force a win: not a draw.
    """
    from noughts.core import StandardGame
    from noughts.core.registry import hypergraph

    started = time.perf_counter()
    g = hypergraph(game) if isinstance(game, str) else game
    if type(g) is not StandardGame:
        raise NoughtsError(f"a draw is a result of standard games; {g} has none (try prove breaker)")
    pos = g.start() if position is None else (g.parse(position) if isinstance(position, str) else position)
    empty = pos.occupied() == 0
    stem = None if certificate is None else Path(certificate)
    if stem is not None and stem.suffix == ".json":
        stem = stem.with_suffix("")
    parts: list[BreakerResult] = []
    sides = (Player.SECOND,) if empty else (Player.SECOND, Player.FIRST)
    for breaker in sides:
        cert = None
        if stem is not None:
            cert = str(stem) if empty else f"{stem}-{breaker.other.name.lower()}.json"
        r = prove_breaker(
            g, pos, breaker=breaker, rules="standard", budget=budget, progress=progress, certificate=cert,
            workers=workers, address=address,
        )
        parts.append(r)
        if not r.proved:
            who = g.player_label(breaker.other)
            return DrawResult(g, pos, False, f"{who} can force a win ({r.describe()})", parts, time.perf_counter() - started)
    if empty:
        argument = parts[0].argument
    else:
        argument = "each side stops the other from completing a line first (two Breaker searches with pairing leaves)"
    return DrawResult(g, pos, True, argument, parts, time.perf_counter() - started)


def check_breaker_certificate(path: str | Path) -> Any:
    """Check a Breaker certificate with the independent checker
    (:func:`noughts.pairing.breaker_certificate.check_breaker_certificate`); the entry the
    ``kind -> checker`` dispatch of ``noughts solve check`` calls for kind ``"breaker"``."""
    from noughts.pairing.breaker_certificate import check_breaker_certificate as check

    return check(path)


def _side(breaker: Player | str | None) -> Player | None:
    if breaker is None or isinstance(breaker, Player):
        return breaker
    key = str(breaker).strip().lower()
    if key not in ("first", "second"):
        raise NoughtsError(f"the breaking side is 'first' or 'second', not {breaker!r}")
    return Player.FIRST if key == "first" else Player.SECOND


def memory_text(n: int) -> str:
    return format_bytes(n)


_ = LimitExceeded  # re-exported for the CLI's except clause
