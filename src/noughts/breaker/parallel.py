"""The Breaker prover split into independent subtrees, run through :mod:`noughts.parallel`.

Where Maker moves first, every Maker move must be answered, so the proof splits into one
subproof per Maker move (one per orbit of the position's symmetries: the others are images):
each is a Breaker question of its own, searched by its own prover in a worker process (or a Ray
task, given an address). The answers are put back together: proved iff every subproof is
proved, and the certificate's root is Maker's node whose branches are the subproofs and their
images. Where Breaker moves first, each Breaker reply is a subquestion and one proved reply
suffices (every reply is searched; the first proved one is kept).

The workers rebuild the game from its spec (a task is plain data), share nothing, and each runs
under the budget left when the work was sent out.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from noughts.breaker.question import BreakerQuestion
from noughts.breaker.search import (
    BreakerProver,
    BreakerResult,
    Progress,
    ProofStore,
    argument_for,
)
from noughts.core import Budget, NoughtsError, Player

__all__ = ["Subproof", "prove_parallel", "prove_task"]


@dataclass
class Subproof:
    """A worker's answer: the move it started from, proved or not, its numbers and proof store."""

    move: int
    proved: bool | None
    nodes: int
    pairings: int
    paired: int
    covered: int
    max_depth: int
    seconds: float
    stopped: str | None
    store: ProofStore | None


def _orbits(q: BreakerQuestion, limit: int) -> tuple[list[int], dict[int, tuple[int, int]]]:
    board = q.board
    syms = board.symmetries[:limit]
    taken = q.maker_cells | q.breaker_cells

    def fixes(p: tuple[int, ...]) -> bool:
        return (
            board.transform_mask(q.maker_cells, p) == q.maker_cells
            and board.transform_mask(q.breaker_cells, p) == q.breaker_cells
        )

    stab = [s for s, p in enumerate(syms) if fixes(p)]
    reps: list[int] = []
    images: dict[int, tuple[int, int]] = {}  # cell -> (representative, symmetry mapping rep to cell)
    for c in range(board.num_cells):
        if taken >> c & 1 or c in images:
            continue
        reps.append(c)
        for s in stab:
            v = syms[s][c]
            if v != c and v not in images:
                images[v] = (c, s)
    return reps, images


def prove_task(task: tuple[str, str, str, str, int, float | None, int | None, bool]) -> Subproof:
    """Prove one subquestion in a worker: ``(spec, position text, breaker, rules, move,
    seconds left, memory, record)``.
    """
    from noughts.breaker.question import question
    from noughts.core.registry import hypergraph

    spec, text, breaker_name, rules, move, seconds, memory, record = task
    game = hypergraph(spec)
    start = game.parse(text).play(move)
    q = question(game, start, breaker=Player.FIRST if breaker_name == "first" else Player.SECOND, rules=rules)
    budget = Budget(max_seconds=seconds, max_memory=memory)
    prover = BreakerProver(q, budget=budget, record=record)
    began = time.perf_counter()
    stopped = None
    code = None
    try:
        code = prover.run()
    except NoughtsError as error:  # the budget ran out in this subtree
        stopped = str(error)
    K = prover.K
    s = prover.stats
    proved = None if code is None else code == K.PROVED
    return Subproof(
        move=move,
        proved=proved,
        nodes=int(s[K.S_NODES]),
        pairings=int(s[K.S_PAIRINGS]),
        paired=int(s[K.S_PAIRED]),
        covered=int(s[K.S_COVERED]),
        max_depth=int(s[K.S_MAX_DEPTH]),
        seconds=time.perf_counter() - began,
        stopped=stopped,
        store=prover.store() if proved else None,
    )


def _merge(
    q: BreakerQuestion, parts: list[Subproof], images: dict[int, tuple[int, int]], perms: np.ndarray
) -> ProofStore:
    """One proof store: the subproofs' stores side by side, under a root of Maker's (every
    subproof and the images of the other moves) or of Breaker's (the proved reply).
    """
    kinds: list[np.ndarray] = []
    a_list: list[np.ndarray] = []
    b_list: list[np.ndarray] = []
    cells: list[np.ndarray] = []
    branches: list[np.ndarray] = []
    roots: dict[int, int] = {}
    n_nodes = n_cells = n_branches = 0
    for part in parts:
        st = part.store
        assert st is not None
        k = st.kinds.copy()
        a = st.a.copy()
        b = st.b.copy()
        leaf = (k == 0) | (k == 1)
        a[leaf] += n_cells
        brk = k == 2
        b[brk] += n_nodes
        mkr = k == 3
        a[mkr] += n_branches
        img = k == 4
        a[img] += n_nodes
        br = st.branches.copy()
        if br.size:
            br[:, 1] += n_nodes
        kinds.append(k)
        a_list.append(a)
        b_list.append(b)
        cells.append(st.cells)
        branches.append(br.reshape(-1, 2))
        roots[part.move] = st.root + n_nodes
        n_nodes += len(k)
        n_cells += len(st.cells)
        n_branches += len(br)
    extra_kinds: list[int] = []
    extra_a: list[int] = []
    extra_b: list[int] = []
    if q.maker_to_move:
        rows: list[tuple[int, int]] = [(m, r) for m, r in roots.items()]
        for cell, (rep, s) in images.items():
            extra_kinds.append(4)
            extra_a.append(roots[rep])
            extra_b.append(s)
            rows.append((cell, n_nodes + len(extra_kinds) - 1))
        branch_rows = np.array(rows, dtype=np.int64).reshape(-1, 2)
        root_index = n_nodes + len(extra_kinds)
        extra_kinds.append(3)
        extra_a.append(n_branches)
        extra_b.append(len(rows))
        branches.append(branch_rows)
    else:
        move, sub_root = next(iter(roots.items()))
        root_index = n_nodes
        extra_kinds.append(2)
        extra_a.append(move)
        extra_b.append(sub_root)
    return ProofStore(
        kinds=np.concatenate([*kinds, np.array(extra_kinds, dtype=np.int64)]),
        a=np.concatenate([*a_list, np.array(extra_a, dtype=np.int64)]),
        b=np.concatenate([*b_list, np.array(extra_b, dtype=np.int64)]),
        cells=np.concatenate(cells) if cells else np.zeros(0, dtype=np.int64),
        branches=np.concatenate(branches) if branches else np.zeros((0, 2), dtype=np.int64),
        perms=perms,
        root=root_index,
    )


def prove_parallel(
    q: BreakerQuestion,
    *,
    budget: Budget | None = None,
    progress: Callable[[Progress], None] | None = None,
    record: bool = False,
    workers: int | None = None,
    address: str | None = None,
) -> BreakerResult:
    """Prove ``q`` split by the first move (module docstring) over the parallel executor."""
    from noughts.breaker.search import MAX_SYMMETRIES
    from noughts.parallel import executor

    started = time.perf_counter()
    board = q.board
    limit = min(MAX_SYMMETRIES, len(board.symmetries))
    reps, images = _orbits(q, limit)
    if not q.maker_to_move:
        images = {}  # Breaker needs one reply: every candidate is searched, none is an image
    seconds = None if budget is None else budget.remaining()
    text = q.position.text()
    with executor(workers, address) as ex:
        memory = None  # the memory budget is shared by the workers that run at once
        if budget is not None and budget.max_memory is not None:
            memory = budget.max_memory // max(1, ex.workers)
        tasks = [
            (str(q.game), text, q.breaker.name.lower(), q.rules, m, seconds, memory, record) for m in reps
        ]
        parts = ex.map(prove_task, tasks, description="subproofs", chunksize=1)
        backend, n_workers = ex.name, ex.workers
    nodes = sum(p.nodes for p in parts)
    if progress is not None:
        progress(
            Progress(
                nodes,
                sum(p.pairings for p in parts),
                sum(p.paired for p in parts),
                0,
                0,
                time.perf_counter() - started,
            )
        )
    stopped = [p for p in parts if p.stopped]
    if q.maker_to_move:
        if any(p.proved is False for p in parts):
            proved: bool | None = False
        elif stopped:
            proved = None
        else:
            proved = True
        chosen = parts
    else:
        good = [p for p in parts if p.proved]
        proved = True if good else (None if stopped else False)
        chosen = good[:1]
    if proved is None:
        from noughts.core import LimitExceeded

        done = sum(1 for p in parts if p.proved is not None)
        raise LimitExceeded(
            f"{stopped[0].stopped} (in one of {len(parts)} subproofs; {done} settled, {nodes:,} nodes in all)"
        )
    argument, value = argument_for(q, proved, False)
    store = None
    if proved and record:
        perms = np.ascontiguousarray(board.tables.symmetry_perms(limit).astype(np.int64))
        store = _merge(q, chosen, images, perms)
    return BreakerResult(
        question=q,
        proved=proved,
        argument=argument,
        value=value,
        nodes=nodes,
        pairings=sum(p.pairings for p in parts),
        paired=sum(p.paired for p in parts),
        covered=sum(p.covered for p in parts),
        max_depth=1 + max((p.max_depth for p in parts), default=0),
        seconds=time.perf_counter() - started,
        zone=(),
        store=store,
        workers=n_workers,
        executor=backend,
        subproofs=[_summary(q, p) for p in parts],
    )


def _summary(q: BreakerQuestion, p: Subproof) -> dict[str, Any]:
    return {
        "move": q.game.format_move(p.move),
        "proved": p.proved,
        "nodes": p.nodes,
        "seconds": round(p.seconds, 3),
        "stopped": p.stopped,
    }
