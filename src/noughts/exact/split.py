"""A solve split into independent subtrees, run through :mod:`noughts.parallel`.

The position's moves, or the positions a few plies deep (the *frontier*), become jobs: plain
data (the game's spec, a position's text, the budget left) that a worker process, or a Ray task
given an address, solves on its own with nothing shared. Each job is a value-only solve of its
position under the automatic engine policy (the alpha-beta kernel, then the proof engine), or
with a certificate the proof engine alone, whose strategies the worker writes out and sends
back. The parent puts the answers back together by minimax over the frontier: the value of the
position (with its distance where every job found one), every move's value, and, with a
certificate, the players' strategies joined under the frontier's nodes (the mover's move where
it is the strategy's player, every reply where it is not) into one certificate that
``noughts solve check`` verifies like any other.

Positions of the frontier that are images of each other under the board's symmetries are one
job (the certificate is keyed under the same symmetries, so the images find their records).
Each job gets the wall-clock time left when the work goes out, a share of the memory budget and
the whole CPU budget (CPU is counted per worker process). A job that runs out of budget leaves
its subtree unknown; the value is still given where the other jobs settle it (one winning move
suffices), with the moves that are known.

The value is given as soon as the jobs back settle it; when only the value is asked, the jobs
still running are then stopped (:meth:`noughts.parallel.Executor.map_until`) and the result
says how many. A split deeper than every game lasts solves the position in this process; a
tree deeper than :data:`MAX_TREE` positions is clamped to the deepest level that fits. The
engine policy is the caller's: ``exact`` cannot import the Breaker prover (:mod:`noughts.pairing`),
so :func:`noughts.solving.solve_split` passes :func:`noughts.solving.solve` down as the
``solver`` of every job.

This is the single-process solve's answer, computed another way: the tests hold it to
:func:`noughts.exact.api.solve` on the small games.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from noughts.core import Game, LimitExceeded, Move, NoughtsError, Outcome, Player, Position
from noughts.core.budget import Budget
from noughts.core.values import MoveValue, SolveResult, Value
from noughts.exact.api import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_SECONDS,
    as_game,
    as_position,
    value_of_best,
)
from noughts.exact.reference import after_move, move_key, terminal_value

if TYPE_CHECKING:
    from noughts.parallel.backends import Progress

__all__ = [
    "DEFAULT_DEPTH",
    "Job",
    "JobResult",
    "ProofJob",
    "ProofJobResult",
    "SplitProof",
    "prove_job",
    "prove_split",
    "solve_job",
    "solve_split",
]

DEFAULT_DEPTH = 1
"""Plies from the position to the frontier: 1 gives one job per move (up to symmetry)."""

MAX_JOBS = 100_000
"""A frontier with more positions than this is refused (choose a smaller depth)."""


@dataclass(frozen=True)
class Job:
    """One frontier position for a worker: the game's ``spec``, the position's ``text``, its
    budget (``deadline``: the wall-clock time, in seconds since the epoch, by which the whole
    solve ends; ``cpu_seconds`` for this job; ``memory`` in bytes; None for no limit) and whether
    to write out the strategies a certificate needs (the proof engine then answers).
    """

    spec: str
    text: str
    deadline: float | None
    cpu_seconds: float | None
    memory: int | None
    certificate: bool
    engine: str = "auto"


@dataclass(frozen=True)
class JobResult:
    """A worker's answer: the value (None where the budget ran out: ``stopped`` says how far it
    got), the engine that found it, the nodes searched, the seconds taken, and with a
    certificate the strategies as ``(player, goal, words, moves)`` rows (see
    :class:`noughts.proving.strategy.Strategy`).
    """

    text: str
    value: Value | None
    engine: str
    nodes: int
    seconds: float
    stopped: str | None = None
    strategies: tuple[tuple[int, int, np.ndarray, np.ndarray, int, int], ...] = ()


def solve_job(job: Job, solver: Callable[..., SolveResult]) -> JobResult:
    """Solve one frontier position (runs in a worker; module-level so that it pickles) with
    ``solver`` (:func:`noughts.solving.solve`; module-level too).
    """
    from noughts.core import game as make_game

    game = make_game(job.spec)
    position = game.parse(job.text)
    began = time.perf_counter()
    seconds = None if job.deadline is None else max(0.001, job.deadline - time.time())
    budget = Budget(max_seconds=seconds, max_memory=job.memory, max_cpu_seconds=job.cpu_seconds)
    if not job.certificate:
        try:
            result = solver(
                game,
                position,
                max_seconds=seconds,
                max_memory=job.memory,
                max_cpu_seconds=job.cpu_seconds,
                value_only=True,
                engine=job.engine,
            )
        except LimitExceeded as error:
            return JobResult(job.text, None, "", 0, time.perf_counter() - began, str(error))
        return JobResult(job.text, result.value, result.engine, result.nodes, time.perf_counter() - began)
    from noughts.proving.proof import ValueSearches

    searches = ValueSearches(game, budget)
    try:
        value = searches.value(position)
        strategies = _job_strategies(searches, position, value, budget)
    except LimitExceeded as error:
        return JobResult(job.text, None, "", searches.nodes, time.perf_counter() - began, str(error))
    return JobResult(
        job.text, value, "proof", searches.nodes, time.perf_counter() - began, strategies=strategies
    )


def _job_strategies(
    searches: Any, position: Position, value: Value, budget: Budget
) -> tuple[tuple[int, int, np.ndarray, np.ndarray, int, int], ...]:
    """The strategies of the players who do not lose from ``position``: the winner's, or both
    players' strategies to at least draw; each from the proof or disproof that gave the value.
    """
    from noughts.proving.proof import DRAW, WIN
    from noughts.proving.strategy import extract_strategy

    mover = position.to_move
    game = position.game
    if value.outcome is Outcome.win_for(mover):
        parts = [searches.search(mover, WIN)]
    elif value.outcome is Outcome.DRAW:
        parts = [searches.search(mover, DRAW), searches.search(mover, WIN)]
    else:
        parts = [searches.search(mover, DRAW if game.properties.has_draws else WIN)]
    out = []
    for search in parts:
        st = extract_strategy(search, search.prove(position), budget)
        goal = WIN if value.outcome.winner is st.player else DRAW
        out.append((int(st.player), goal, st.words, st.moves, st.positions, st.proofs))
    return tuple(out)


# -- the frontier --------------------------------------------------------------------------------


@dataclass
class _Node:
    position: Position
    job: int | None = None  # the index of the job that answers this position (a frontier leaf)
    children: list[tuple[Move, _Node]] = field(default_factory=list)
    value: Value | None = None


MAX_TREE = 100_000
"""The most positions the frontier's tree may hold: a deeper split is clamped to the deepest
level that fits (the tree is built in this process, before any job goes out)."""


def _frontier(
    root: Position, depth: int, key: Callable[[Position], Hashable]
) -> tuple[_Node, list[Position], int]:
    """The tree of the first ``depth`` plies (finished games are leaves with their value), the
    positions of its frontier (one per ``key``) and the depth used: ``depth``, or less where the
    next level would take the tree past :data:`MAX_TREE` positions (each level's size is
    bounded by its parents' moves before it is built, so a split far too deep is clamped at
    once, not after enumerating the game tree).
    """
    jobs: dict[Hashable, int] = {}
    texts: list[Position] = []
    top = _Node(root)
    level = [top]
    size = 1
    d = 0
    while level and d < depth:
        running = [node for node in level if not node.position.is_terminal()]
        nxt = sum(len(node.position.legal_moves()) for node in running)
        if size + nxt > MAX_TREE:
            break
        level = []
        for node in running:
            p = node.position
            for move in p.legal_moves():
                child = _Node(p.play(move))
                node.children.append((move, child))
                level.append(child)
        size += nxt
        d += 1
    for node in _leaves(top):
        p = node.position
        if p.is_terminal():
            node.value = terminal_value(p)
            continue
        k = key(p)
        index = jobs.get(k)
        if index is None:
            index = jobs[k] = len(texts)
            texts.append(p)
            if len(texts) > MAX_JOBS:
                raise NoughtsError(
                    f"the frontier {d} plies deep has more than {MAX_JOBS:,} positions: choose a smaller depth"
                )
        node.job = index
    return top, texts, d


def _leaves(top: _Node) -> list[_Node]:
    """The tree's leaves, depth first in move order (the order jobs are numbered in)."""
    out = []
    stack = [top]
    while stack:
        node = stack.pop()
        if node.children:
            stack.extend(c for _, c in reversed(node.children))
        else:
            out.append(node)
    return out


def _combine(node: _Node, results: list[JobResult]) -> Value | None:
    """The value of ``node`` by minimax over its subtree (None where it is not settled)."""
    if node.job is not None:
        node.value = results[node.job].value
        return node.value
    if not node.children:
        return node.value
    mover = node.position.to_move
    known = [v for _, c in node.children if (v := _combine(c, results)) is not None]
    if not known:
        return None
    best = max(known, key=lambda v: move_key(after_move(v), mover))
    complete = len(known) == len(node.children)
    game = node.position.game
    # without every child, only a win for the mover settles the node (nothing is better)
    if not complete and (game.properties.is_scored or best.outcome is not Outcome.win_for(mover)):
        return None
    if all(v.plies is not None for v in known) and complete:
        node.value = value_of_best(game, best)
    else:
        node.value = Value(best.outcome, None, best.score)
    return node.value


def _ranked(rated: list[MoveValue], mover: Player) -> list[MoveValue]:
    """Moves best first for ``mover``, ties in ``legal_moves()`` order, as the single-process
    solve orders them (by distance where every move has one, else by outcome and score).
    """
    if all(mv.value.plies is not None for mv in rated):
        return sorted(rated, key=lambda mv: move_key(after_move(mv.value), mover), reverse=True)
    return sorted(rated, key=lambda mv: _rank(mv.value, mover), reverse=True)


def _rank(value: Value, player: Player) -> int:
    if value.score is not None:
        return value.score if player is Player.FIRST else -value.score
    return 0 if value.outcome is Outcome.DRAW else 1 if value.outcome.winner is player else -1


def _position_words(position: Position, words: int) -> np.ndarray:
    row = np.zeros(2 * words, dtype=np.uint64)
    for i, player in enumerate((Player.FIRST, Player.SECOND)):
        mask = position.owned(player)
        for w in range(words):
            row[i * words + w] = (mask >> (64 * w)) & 0xFFFF_FFFF_FFFF_FFFF
    return row


def _strategy_rows(
    node: _Node,
    player: Player,
    results: list[JobResult],
    words: int,
    rows: list[tuple[np.ndarray, np.ndarray]],
) -> None:
    """Append ``player``'s strategy records under ``node`` (whose value ``player`` does not
    lose): its move where it moves, every reply where the other side does, the workers'
    strategies at the frontier.
    """
    if node.job is not None:
        for who, _goal, w, m, _n, _p in results[node.job].strategies:
            if who == int(player):
                rows.append((w, m))
                return
        raise AssertionError(f"the job at {node.position.text()!r} sent no strategy for {player}")
    if not node.children:
        return
    assert node.value is not None
    if node.position.to_move is player:
        need = _rank(node.value, player)
        move, child = next(
            (m, c) for m, c in node.children if c.value is not None and _rank(c.value, player) >= need
        )
        assert isinstance(move, int), "certificates are of claim games, whose moves are cells"
        rows.append((_position_words(node.position, words)[None, :], np.array([move], dtype=np.int32)))
        _strategy_rows(child, player, results, words, rows)
    else:
        for _, child in node.children:
            _strategy_rows(child, player, results, words, rows)


def _write_certificate(root: _Node, results: list[JobResult], path: str | Path, depth: int) -> dict[str, Any]:
    from noughts.proving.proof import DRAW, WIN
    from noughts.proving.strategy import Strategy, certificate_record

    position = root.position
    game = position.game
    value = root.value
    assert value is not None
    words = max(1, (game.board.num_cells + 63) // 64)
    if value.outcome is Outcome.DRAW:
        players = [(Player.FIRST, DRAW), (Player.SECOND, DRAW)]
        claim_value: Any = "draw"
    else:
        assert value.outcome.winner is not None
        players = [(value.outcome.winner, WIN)]
        claim_value = value.outcome.value
    strategies = []
    for player, goal in players:
        rows: list[tuple[np.ndarray, np.ndarray]] = []
        _strategy_rows(root, player, results, words, rows)
        w = np.concatenate([r[0] for r in rows]) if rows else np.zeros((0, 2 * words), dtype=np.uint64)
        m = np.concatenate([r[1].astype(np.int32) for r in rows]) if rows else np.zeros(0, dtype=np.int32)
        played = sum(int(s[4]) for r in results for s in r.strategies if s[0] == int(player))
        proofs = sum(int(s[5]) for r in results for s in r.strategies if s[0] == int(player))
        strategies.append(Strategy(position, player, goal, w, m, played, proofs, 0.0))
    extra = {"engine": "proof", "split": {"depth": depth, "jobs": len(results)}}
    return certificate_record(path, strategies, claim_value, extra)


# -- the driver ----------------------------------------------------------------------------------------


def solve_split(
    game: Game | str,
    position: Position | str | None = None,
    *,
    workers: int | None = None,
    address: str | None = None,
    depth: int = DEFAULT_DEPTH,
    engine: str = "auto",
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    max_cpu_seconds: float | None = None,
    value_only: bool = False,
    certificate: str | Path | None = None,
    progress: Progress | None = None,
    on_value: Callable[[Value], None] | None = None,
    on_move: Callable[[MoveValue, int, int], None] | None = None,
    solver: Callable[..., SolveResult],
) -> SolveResult:
    """Solve ``position`` (the start by default) of ``game`` as ``solver`` does, split ``depth``
    plies deep into jobs for ``workers`` local processes (default: the CPUs available), or for the Ray cluster at ``address`` (module docstring); each job solves
    its position with ``engine`` (as ``solve`` takes it; with a certificate the proof engine). The moves' values
    come with the position's (at depth 1 their jobs are the same), unless ``value_only``; there
    is no principal variation. ``max_seconds`` bounds the whole, ``max_memory`` is shared
    between the workers, ``max_cpu_seconds`` bounds each job. Raises ``LimitExceeded`` where
    the position's value is not settled.

    The value is reported (``on_value``) as soon as the jobs finished settle it (one winning
    move suffices); with ``value_only`` (and no certificate) the other jobs are then stopped,
    and ``result.split["jobs_stopped"]`` says how many. A ``depth`` whose tree would pass
    :data:`MAX_TREE` positions is clamped (``split["depth_asked"]`` keeps the one asked); where
    every game ends within the depth there are no jobs: the tree itself is the answer.
    A ``depth`` that reaches past the end of every game from the position (at least as many
    plies as are left) splits nothing: the position is solved in this process, and
    ``split["note"]`` says so.

    ``solver`` solves each job's position (and the position itself where nothing is split): a
    module-level function, so that it pickles. This is the driver: the one ``solve_split`` is
    :func:`noughts.solving.solve_split`, which passes :func:`noughts.solving.solve` (the one
    policy).

    >>> import noughts
    >>> r = solve_split("tictactoe", workers=1, solver=noughts.solve)
    >>> r.value.describe(r.game), len(r.moves)
    ('draw', 9)
    """
    from noughts.parallel import executor
    from noughts.proving.strategy import certificate_group

    game = as_game(game)
    position = as_position(game, position)
    _check_split(game, depth, engine, certificate is not None)
    budget = Budget(max_seconds=max_seconds, max_memory=max_memory, max_cpu_seconds=max_cpu_seconds)
    started = time.perf_counter()
    if certificate is not None and certificate_group(game) is None:
        key: Callable[[Position], Hashable] = lambda p: p  # noqa: E731 - the certificate has no symmetry
    else:
        key = lambda p: p.canonical_key()  # noqa: E731
    left = _plies_left(position)
    if depth >= left:
        return _solve_here(
            game, position, depth, left, solver, engine, budget, value_only, certificate, on_value, on_move
        )
    root, frontier, used = _frontier(position, depth, key)
    notes: dict[str, Any] = {} if used == depth else {"depth_asked": depth}
    settled: list[Value] = []

    def report(value: Value) -> None:
        if not settled:
            settled.append(value)
            if on_value is not None:
                on_value(value)

    with executor(workers, address) as ex:
        share = ex.workers
        backend = {"workers": ex.workers, "backend": ex.name}
        deadline, memory = _job_limits(budget, share)
        jobs = [
            Job(str(game), p.text(), deadline, max_cpu_seconds, memory, certificate is not None, engine)
            for p in frontier
        ]
        arrived: list[JobResult | None] = [None] * len(jobs)
        # finished games in the tree may settle the value before any job runs
        early = _combine(root, [_unknown(j) for j in jobs])
        if early is not None:
            report(early)
            if value_only and certificate is None:
                jobs = []

        def until(i: int, r: JobResult) -> bool:
            """Whether the jobs finished settle the value (only a decisive answer can, before
            every job is in); with ``value_only`` the rest is then stopped.
            """
            arrived[i] = r
            if settled or r.value is None or r.value.outcome is Outcome.DRAW or game.properties.is_scored:
                return False
            value = _combine(root, [a if a is not None else _unknown(jobs[j]) for j, a in enumerate(arrived)])
            if value is None:
                return False
            report(value)
            return value_only and certificate is None

        answers = ex.map_until(
            partial(solve_job, solver=solver),
            jobs,
            until,
            description=f"solving {game} in {len(jobs)} jobs" if progress else None,
            progress=progress,
        )
    if not jobs:  # settled by the tree's finished games: every job stopped before it started
        jobs = [Job(str(game), p.text(), None, None, None, False, engine) for p in frontier]
        answers = [None] * len(jobs)
    results = [a if a is not None else _unknown(j, STOPPED) for j, a in zip(jobs, answers, strict=True)]
    stopped_jobs = sum(1 for a in answers if a is None)
    if stopped_jobs:
        notes["jobs_stopped"] = stopped_jobs
    value = _combine(root, results)
    nodes = sum(r.nodes for r in results)
    finished = sum(1 for r in results if r.value is not None)
    stopped = next((r.stopped for r in results if r.stopped is not None and r.stopped != STOPPED), None)
    if value is None:
        raise LimitExceeded(
            f"{stopped}; {finished} of {len(results)} jobs finished; the position's value is not proved yet"
        )
    report(value)
    header = None
    if certificate is not None:
        if finished < len(results):
            raise LimitExceeded(
                f"{stopped}; {finished} of {len(results)} jobs finished: the certificate needs them all"
            )
        header = _write_certificate(root, results, certificate, used)
    mover = position.to_move
    rated = [] if value_only else _rated_children(root, on_move)
    engines = sorted({r.engine for r in results if r.engine})
    complete = value_only or len(rated) == len(root.children)
    return SolveResult(
        game,
        position,
        value,
        tuple(_ranked(rated, mover)),
        (),
        nodes,
        time.perf_counter() - started,
        engine="+".join(engines) if engines else "rules",
        complete=complete,
        moves_total=len(root.children),
        stopped=None if complete else f"{stopped or STOPPED}; {finished} of {len(results)} jobs finished",
        certificate=header,
        split={"depth": used, "jobs": len(results), "jobs_finished": finished, **notes, **backend},
    )


def _job_limits(budget: Budget, workers: int) -> tuple[float | None, int | None]:
    """Each job's limits from the whole's budget: the wall-clock deadline it leaves (a time
    stamp), and its share of the memory among ``workers``.
    """
    deadline = None if budget.max_seconds is None else time.time() + budget.max_seconds - budget.elapsed()
    memory = None if budget.max_memory is None else max(1, budget.max_memory // workers)
    return deadline, memory


def _check_split(game: Game, depth: int, engine: str, certify: bool) -> None:
    """``NoughtsError`` for a split :func:`solve_split` cannot do, before any work (the solver
    checks the engine's name).
    """
    if depth < 1:
        raise NoughtsError(f"the split depth is at least 1, not {depth}")
    if certify and engine not in ("auto", "proof"):
        raise NoughtsError(f"certificates come from the proof engine, not {engine}")
    if not game.properties.bounded:
        raise NoughtsError(f"{game} need not end: it is solved whole by retrograde analysis, not split")
    if certify:
        if game.claim_rule is None:
            raise NoughtsError(
                f"certificates come from the proof engine, which takes claim games; not {game}"
            )
        if game.properties.is_scored:
            raise NoughtsError("a split solve writes certificates of games without scores only")


def _rated_children(root: _Node, on_move: Callable[[MoveValue, int, int], None] | None) -> list[MoveValue]:
    """The values of the root's moves that the tree and the jobs settled, each reported to
    ``on_move`` in the order of the moves.
    """
    rated: list[MoveValue] = []
    for i, (move, child) in enumerate(root.children):
        if child.value is not None:
            mv = MoveValue(move, child.value)
            rated.append(mv)
            if on_move is not None:
                on_move(mv, i, len(root.children))
    return rated


STOPPED = "stopped once the other jobs settled the value"


def _unknown(job: Job, why: str = "not finished yet") -> JobResult:
    return JobResult(job.text, None, "", 0, 0.0, why)


def _plies_left(position: Position) -> int:
    """The most plies a game can still last from ``position`` (claim games: its empty cells)."""
    game = position.game
    if game.claim_rule is not None:
        return game.board.num_cells - position.occupied().bit_count()
    assert game.properties.max_length is not None  # the driver refuses games that need not end
    return game.properties.max_length


def _solve_here(
    game: Game,
    position: Position,
    depth: int,
    left: int,
    solver: Callable[..., SolveResult],
    engine: str,
    budget: Budget,
    value_only: bool,
    certificate: str | Path | None,
    on_value: Callable[[Value], None] | None,
    on_move: Callable[[MoveValue, int, int], None] | None,
) -> SolveResult:
    """The position solved in this process: a split ``depth`` plies deep would reach past the
    end of every game (``left`` plies at most), so there is nothing to split.
    """
    result = solver(
        game,
        position,
        max_seconds=budget.remaining() if budget.max_seconds is not None else None,
        max_memory=budget.max_memory,
        max_cpu_seconds=budget.max_cpu_seconds,
        engine=engine,
        value_only=value_only,
        certificate=certificate,
        anytime=True,
        on_value=on_value,
        on_move=on_move,
    )
    note = (
        f"a split {depth} plies deep reaches past the end of every game from here"
        f" ({left} plies at most): solved in one process, no jobs"
    )
    split = {"depth": 0, "depth_asked": depth, "jobs": 0, "jobs_finished": 0, "note": note}
    return dataclasses.replace(result, split={**split, "workers": 1, "backend": "in-process"})


# -- a proof split at the defender's replies -----------------------------------------------------


@dataclass(frozen=True)
class ProofJob:
    """One of the defender's replies for a worker: prove that ``attacker`` reaches ``goal``
    from the position ``text`` of ``spec`` with the proof engine (``options`` are
    :class:`~noughts.proving.proof.ProofSearch`'s), under the budget (as :class:`Job`'s), and with
    ``certificate`` write out the attacker's strategy.
    """

    spec: str
    text: str
    attacker: int
    goal: int
    deadline: float | None
    cpu_seconds: float | None
    memory: int | None
    certificate: bool
    options: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class ProofJobResult:
    """A worker's answer to a :class:`ProofJob`: ``proved`` (None where the budget ran out:
    ``stopped`` says how far it got), the nodes searched, the CPU and wall seconds, the search's
    statistics, and with a certificate the attacker's strategy (``words``, ``moves``, the
    positions played out and proved again).
    """

    text: str
    proved: bool | None
    nodes: int
    cpu_seconds: float
    seconds: float
    statistics: dict[str, int]
    stopped: str | None = None
    words: np.ndarray | None = None
    moves: np.ndarray | None = None
    positions: int = 0
    proofs: int = 0


def prove_job(job: ProofJob) -> ProofJobResult:
    """Prove one reply's position (runs in a worker; module-level so that it pickles)."""
    from noughts.core import game as make_game
    from noughts.proving.proof import ProofSearch
    from noughts.proving.strategy import extract_strategy

    game = make_game(job.spec)
    position = game.parse(job.text)
    began = time.perf_counter()
    cpu0 = time.process_time()
    seconds = None if job.deadline is None else max(0.001, job.deadline - time.time())
    budget = Budget(max_seconds=seconds, max_memory=job.memory, max_cpu_seconds=job.cpu_seconds)
    search = ProofSearch(game, Player(job.attacker), job.goal, budget, **dict(job.options))  # type: ignore[arg-type]
    try:
        proof = search.prove(position)
        words = moves = None
        positions = proofs = 0
        if job.certificate and proof.proved:
            st = extract_strategy(search, proof, budget)
            words, moves, positions, proofs = st.words, st.moves, st.positions, st.proofs
    except LimitExceeded as error:
        return ProofJobResult(
            job.text,
            None,
            search.nodes,
            time.process_time() - cpu0,
            time.perf_counter() - began,
            search.statistics(),
            str(error),
        )
    return ProofJobResult(
        job.text,
        proof.proved,
        search.nodes,
        time.process_time() - cpu0,
        time.perf_counter() - began,
        search.statistics(),
        None,
        words,
        moves,
        positions,
        proofs,
    )


@dataclass(frozen=True)
class SplitProof:
    """The answer of :func:`prove_split`: whether ``attacker`` reaches ``goal`` from
    ``position``; ``move`` its first move where it does; ``tried`` the first moves tried, in
    order, each with its jobs' results (the defender's replies up to the line automorphisms);
    ``certificate`` the header of the certificate written, if one was asked.
    """

    position: Position
    attacker: Player
    goal: int
    proved: bool
    move: Move | None
    tried: tuple[tuple[Move, tuple[ProofJobResult, ...]], ...]
    seconds: float
    workers: int
    certificate: dict[str, Any] | None = None

    @property
    def nodes(self) -> int:
        return sum(r.nodes for _, results in self.tried for r in results)

    @property
    def cpu_seconds(self) -> float:
        return sum(r.cpu_seconds for _, results in self.tried for r in results)


def prove_split(
    game: Game | str,
    position: Position | str | None = None,
    *,
    goal: int | None = None,
    workers: int | None = None,
    address: str | None = None,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    max_cpu_seconds: float | None = None,
    certificate: str | Path | None = None,
    options: dict[str, int] | None = None,
    first_moves: int | None = None,
    moves: list[Move] | None = None,
    progress: Progress | None = None,
    on_job: Callable[[Move, ProofJobResult], None] | None = None,
) -> SplitProof:
    """Prove that the side to move in ``position`` (the start by default) reaches ``goal``
    (default :data:`~noughts.proving.proof.WIN`) by the proof engine, split over ``workers``
    processes (or the Ray cluster at ``address``) at the defender's replies.

    The mover's first moves are tried up to the line automorphisms that key the proof engine's
    table (Qubic's 192), most lines through the cell first (``first_moves`` caps how many;
    ``moves`` names the ones to try, in order); for each, the defender's replies up to the same automorphisms are independent jobs, each a
    :class:`~noughts.proving.proof.ProofSearch` (``options``, with the eager threat searches a
    search for a win gets by default) in a worker. The first reply disproved drops that move
    (the jobs still running are stopped) and the next is tried; a move whose every reply is
    proved proves the position. With ``certificate`` every job writes out its strategy and
    they are joined under the first move (each reply's strategy is its class's, carried over by
    the automorphism that maps one onto the other) into one certificate that ``noughts solve
    check`` verifies. ``max_seconds`` bounds the whole, ``max_cpu_seconds`` each job,
    ``max_memory`` is shared between the workers. ``on_job(move, result)`` is called in this
    process as each job's answer arrives. Raises ``LimitExceeded`` where no answer came within
    the budget.
    """
    from noughts.parallel import executor
    from noughts.proving.proof import EAGER_WINS, WIN, ProofSearch, supports

    game = as_game(game)
    position = as_position(game, position)
    if not supports(game):
        raise NoughtsError(
            f"the proof engine takes claim games (standard, misère, Maker-Breaker, cumulative), not {game}"
        )
    if position.is_terminal():
        raise NoughtsError("the game is over: there is nothing to prove")
    if goal is None:
        goal = WIN
    if certificate is not None and (game.properties.is_scored or goal != WIN):
        raise NoughtsError("a split proof writes certificates of wins, in games without scores")
    attacker = position.to_move
    opts = dict(options or {})
    if goal >= WIN and not game.properties.is_scored:
        opts.setdefault("eager", EAGER_WINS)
    budget = Budget(max_seconds=max_seconds, max_memory=max_memory, max_cpu_seconds=max_cpu_seconds)
    started = time.perf_counter()
    keyer = ProofSearch(game, attacker, goal, tt_bytes=1 << 16, **opts)  # type: ignore[arg-type]
    firsts = _first_moves(keyer, position, moves, first_moves)
    tried: list[tuple[Move, tuple[ProofJobResult, ...]]] = []
    with executor(workers, address) as ex:
        nworkers = ex.workers
        for move, _ in firsts:
            child = position.play(move)
            if child.is_terminal():
                proved = _final_proves(child, attacker, goal)
                tried.append((move, ()))
                if proved:
                    return _split_proved(
                        game,
                        position,
                        attacker,
                        goal,
                        move,
                        tried,
                        [],
                        {},
                        started,
                        nworkers,
                        certificate,
                        keyer,
                    )
                continue
            replies = _classes(keyer, child, key=lambda m: m)
            deadline, memory = _job_limits(budget, nworkers)
            jobs, finished = _reply_jobs(
                child,
                replies,
                attacker,
                goal,
                (deadline, max_cpu_seconds, memory),
                certificate is not None,
                opts,
            )
            if any(not ok for ok in finished.values()):
                tried.append((move, ()))
                continue
            pending = [i for i in range(len(jobs)) if i not in finished]

            def until(_i: int, r: ProofJobResult, move: Move = move) -> bool:
                if on_job is not None:
                    on_job(move, r)
                return r.proved is False  # a reply refutes the move: stop its other jobs

            answers = ex.map_until(
                prove_job,
                [jobs[i] for i in pending],
                until,
                description=f"proving {game.format_move(move)} in {len(pending)} jobs" if progress else None,
                progress=progress,
            )
            results = [a for a in answers if a is not None]
            tried.append((move, tuple(results)))
            if any(r.proved is False for r in results):
                continue
            if len(results) < len(pending) or any(r.proved is None for r in results):
                stopped = next((r.stopped for r in results if r.stopped), "not finished")
                done = sum(1 for r in results if r.proved)
                raise LimitExceeded(
                    f"{stopped}; {done} of {len(pending)} replies to {game.format_move(move)} proved; "
                    "the position is not proved yet"
                )
            by_job = dict(zip(pending, results, strict=True))
            return _split_proved(
                game,
                position,
                attacker,
                goal,
                move,
                tried,
                replies,
                by_job,
                started,
                nworkers,
                certificate,
                keyer,
            )
    return SplitProof(
        position, attacker, goal, False, None, tuple(tried), time.perf_counter() - started, nworkers
    )


def _first_moves(
    keyer: Any, position: Position, moves: list[Move] | None, first_moves: int | None
) -> list[tuple[Move, list[Move]]]:
    """The mover's first moves :func:`prove_split` tries, in order: ``moves`` where given (each
    checked legal), else one per class of the proof engine's key, most lines through the cell
    first; at most ``first_moves`` of them.
    """
    tables = position.game.board.tables
    firsts = _classes(keyer, position, key=lambda m: (-int(tables.nthrough[m]), m))  # type: ignore[index]
    if moves is not None:
        legal = set(position.legal_moves())
        for m in moves:
            if m not in legal:
                raise NoughtsError(f"{m!r} is not a legal move here")
        firsts = [(m, [m]) for m in moves]
    if first_moves is not None:
        firsts = firsts[: max(1, first_moves)]
    return firsts


def _reply_jobs(
    child: Position,
    replies: list[tuple[Move, list[Move]]],
    attacker: Player,
    goal: int,
    limits: tuple[float | None, float | None, int | None],
    certify: bool,
    opts: dict[str, int],
) -> tuple[list[ProofJob], dict[int, bool]]:
    """One proof job per class of the defender's replies to a first move (``limits``: each
    job's deadline, CPU seconds and memory), and for the replies that end the game whether
    that ending proves the goal (by the job's index).
    """
    jobs: list[ProofJob] = []
    finished: dict[int, bool] = {}
    for reply, _ in replies:
        p = child.play(reply)
        if p.is_terminal():
            finished[len(jobs)] = _final_proves(p, attacker, goal)
        jobs.append(
            ProofJob(
                str(child.game),
                p.text(),
                int(attacker),
                goal,
                *limits,
                certify,
                tuple(sorted(opts.items())),
            )
        )
    return jobs, finished


def _classes(search: Any, position: Position, key: Callable[[Move], Any]) -> list[tuple[Move, list[Move]]]:
    """The moves of ``position`` grouped by the table key of the position they make (the line
    automorphisms of ``search``), each group led by its least move under ``key``, the groups in
    that order.
    """
    groups: dict[tuple[int, ...], list[Move]] = {}
    for move in sorted(position.legal_moves(), key=key):
        groups.setdefault(search.key(position.play(move)), []).append(move)
    return [(members[0], members) for members in groups.values()]


def _final_proves(position: Position, attacker: Player, goal: int) -> bool:
    from noughts.proving.proof import DRAW

    outcome = position.outcome()
    if outcome is Outcome.DRAW:
        return goal <= DRAW
    return outcome is Outcome.win_for(attacker)


def _split_proved(
    game: Game,
    position: Position,
    attacker: Player,
    goal: int,
    move: Move,
    tried: list[tuple[Move, tuple[ProofJobResult, ...]]],
    replies: list[tuple[Move, list[Move]]],
    by_job: dict[int, ProofJobResult],
    started: float,
    workers: int,
    certificate: str | Path | None,
    keyer: Any,
) -> SplitProof:
    header = None
    if certificate is not None:
        header = _join_certificate(game, position, attacker, goal, move, replies, by_job, certificate, keyer)
    return SplitProof(
        position, attacker, goal, True, move, tuple(tried), time.perf_counter() - started, workers, header
    )


def _join_certificate(
    game: Game,
    position: Position,
    attacker: Player,
    goal: int,
    move: Move,
    replies: list[tuple[Move, list[Move]]],
    by_job: dict[int, ProofJobResult],
    path: str | Path,
    keyer: Any,
) -> dict[str, Any]:
    """One certificate: the attacker's first move, then under every reply its class's strategy
    carried over by an automorphism that maps the class's position onto the reply's (once per
    position up to the board's symmetries, which the checker applies itself).
    """
    from noughts.proving.strategy import Strategy, certificate_record

    words = max(1, (game.board.num_cells + 63) // 64)
    child = position.play(move)
    perms = np.asarray(keyer.kernel_view().perms, dtype=np.int64)
    rows_w = [_position_words(position, words)[None, :]]
    rows_m = [np.array([move], dtype=np.int32)]
    played = proofs = 0
    for i, (lead, members) in enumerate(replies):
        result = by_job.get(i)
        if result is None or result.words is None or result.moves is None:
            continue  # a finished game: the checker sees it
        played += result.positions
        proofs += result.proofs
        rep = child.play(lead)
        covered: set[Any] = set()
        for reply in members:
            target = child.play(reply)
            seen = target.canonical_key()
            if seen in covered:
                continue
            covered.add(seen)
            sigma = _automorphism(perms, rep, target)
            rows_w.append(_permute_words(result.words, sigma, game.board.num_cells, words))
            rows_m.append(sigma[result.moves.astype(np.int64)].astype(np.int32))
    strategy = Strategy(
        position,
        attacker,
        goal,
        np.concatenate(rows_w),
        np.concatenate(rows_m),
        played,
        proofs,
        0.0,
    )
    extra = {"engine": "proof", "split": {"jobs": len(by_job), "at": "the defender's replies"}}
    return certificate_record(path, [strategy], Outcome.win_for(attacker).value, extra)


def _automorphism(perms: np.ndarray, source: Position, target: Position) -> np.ndarray:
    """A row of ``perms`` (cell c to ``perms[s, c]``) that maps ``source``'s cells onto
    ``target``'s, player by player.
    """
    cells = source.game.board.num_cells
    src = np.full(cells, -1, dtype=np.int8)
    dst = np.full(cells, -1, dtype=np.int8)
    for p in (Player.FIRST, Player.SECOND):
        for c in source.game.board.cells_in(source.owned(p)):
            src[c] = int(p)
        for c in target.game.board.cells_in(target.owned(p)):
            dst[c] = int(p)
    for sigma in perms:
        if np.array_equal(dst[sigma], src):  # cell c of the source lands on sigma[c]
            return np.asarray(sigma, dtype=np.int64)
    raise AssertionError("no automorphism of the table maps the class's position onto the reply's")


def _permute_words(rows: np.ndarray, sigma: np.ndarray, cells: int, words: int) -> np.ndarray:
    """Strategy rows (each player's cells as ``words`` uint64 words) with cell c moved to
    ``sigma[c]``.
    """
    out = np.zeros_like(rows)
    for c in range(cells):
        t = int(sigma[c])
        for p in (0, 1):
            bit = (rows[:, p * words + (c >> 6)] >> np.uint64(c & 63)) & np.uint64(1)
            out[:, p * words + (t >> 6)] |= bit << np.uint64(t & 63)
    return out
