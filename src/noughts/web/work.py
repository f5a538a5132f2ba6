"""The arena's heavy work, as it runs inside a worker process (:mod:`noughts.web.workers`).

Every task takes and returns plain data (specs, position texts, numbers, JSON-able dicts), so
nothing but text crosses between the server and its workers. A worker keeps, between tasks,
one perfect player per game (its solver engine and transposition table) and the agents it has
built, so the second question about a game costs far less than the first. Each task honours
its own budget cooperatively (the solver, the counter and the training loop check their
:class:`~noughts.core.budget.Budget`); the pool kills the process if it does not.

:func:`serve` is a worker's main loop: it caps the process's memory with ``resource.setrlimit``
(the address space it has now plus its share), reports ready, then answers tasks until told to
stop. A task's failure is sent back as ``("error", kind, message)``: ``limit`` (a budget ran
out), ``input`` (bad input), ``memory`` (the share ran out), ``internal`` (a bug).
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import time
from collections import OrderedDict
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from noughts.core import Game, LimitExceeded, NoughtsError
from noughts.core.budget import Budget

__all__ = ["TASKS", "Worker", "serve"]

Emit = Callable[[dict[str, Any]], None]
Stopped = Callable[[], bool]


class _Stop(Exception):
    """The server asked the running job to stop."""


def _game(spec: str) -> Game:
    import noughts

    return noughts.game(spec)


class Worker:
    """What one worker process keeps between tasks (see the module docstring)."""

    def __init__(self, memory: int):
        self.memory = memory
        self.emit: Emit = lambda payload: None
        """Sends a progress message to the server (set for each task by :func:`serve`)."""
        self.waited = 0.0
        """Seconds the task waited between the server sending it and this worker starting it."""
        self.budgets: list[Budget] = []
        """The budgets :meth:`budget` made for the task at work."""
        self.engines: OrderedDict[str, Any] = OrderedDict()
        self.agents: OrderedDict[str, Any] = OrderedDict()
        self.portfolios: OrderedDict[str, Any] = OrderedDict()
        """The policy's engines of each game the worker analysed lately (their tables kept)."""
        self.viewers: OrderedDict[str, Any] = OrderedDict()
        """One engine per game for the overlay's view of unsolved positions (its table kept)."""

    def budget(self, seconds: float, memory: int | None = None) -> Budget:
        """A budget of ``seconds`` whose clock started when the server sent the task (and stops
        while a kernel compiles: :meth:`compiled`).
        """
        made = Budget(max_seconds=seconds, max_memory=memory, started=time.perf_counter() - self.waited)
        self.budgets.append(made)
        return made

    def compiled(self, seconds: float) -> None:
        """A kernel the warm-up did not cover took ``seconds`` to compile inside this task: the
        task's budgets give that time back (a budget starts when its kernels are ready), and the
        pool, told by :func:`serve`, moves its deadline likewise.
        """
        for made in self.budgets:
            made.started += seconds

    # -- kept objects -------------------------------------------------------------------------

    def perfect(self, game: Game) -> Any:
        from noughts.agents.perfect import PerfectAgent

        agent = self.engines.get(game.spec)
        if agent is None:
            agent = self.engines[game.spec] = PerfectAgent(max_memory=self.memory // 3)
            while len(self.engines) > 4:
                self.engines.popitem(last=False)
        self.engines.move_to_end(game.spec)
        return agent

    def agent(self, spec: str) -> Any:
        from noughts.agents import make_agent

        found = self.agents.get(spec)
        if found is None:
            from noughts.web.neural import light_agent  # a network checkpoint: in NumPy, no JAX here

            found = light_agent(spec) or make_agent(spec)
            inner = getattr(found, "agent", found)  # under a TimeLimited wrapper
            if hasattr(inner, "max_memory"):  # the perfect player: its tables within this worker's share
                inner.max_memory = self.memory // 3
            self.agents[spec] = found
            while len(self.agents) > 16:
                self.agents.popitem(last=False)
        self.agents.move_to_end(spec)
        return found

    # -- tasks --------------------------------------------------------------------------------

    def analyse(self, game: str, position: str | None, seconds: float) -> dict[str, Any]:
        """Solve a position within ``seconds`` (see :func:`noughts.web.app` ``/api/analyse``):
        :func:`noughts.solving.solve`, the one policy, with this worker's engines of the game
        kept between tasks (their tables warm); the value and the moves the time allows.
        """
        from noughts.solving import solve
        from noughts.web.boards import evaluation_json

        g = _game(game)
        p = g.parse(position) if position else g.start()
        budget = self.budget(seconds, self.memory // 3)
        try:
            result = solve(g, p, budget=budget, anytime=True, portfolio=self.portfolio(g))
        except LimitExceeded as e:
            return {
                "solved": False,
                "reason": f"{g} is not solved within {seconds:g} s from this position ({e})",
            }
        return {"solved": True, "solve": result.to_json(), "evaluation": evaluation_json(result)}

    def portfolio(self, game: Game) -> Any:
        """The policy's engines of ``game`` (:func:`noughts.solving.engines_for`), kept between
        tasks with their tables (the four games asked last).
        """
        from noughts.solving import engines_for

        found = self.portfolios.get(game.spec)
        if found is None:
            found = self.portfolios[game.spec] = engines_for(game)
            while len(self.portfolios) > 4:
                self.portfolios.popitem(last=False)
        self.portfolios.move_to_end(game.spec)
        return found

    def count(self, game: str, seconds: float) -> dict[str, Any]:
        """Count a game exactly within ``seconds`` and this worker's memory."""
        from noughts.exact.count import count

        g = _game(game)
        result = count(g, budget=self.budget(seconds, self.memory // 2))
        return {"game": str(g), **result.to_json()}

    def estimate(self, game: str, position: str | None, depth: int) -> dict[str, Any]:
        """Minimax's own score of every legal move."""
        from noughts.agents.minimax import MinimaxAgent
        from noughts.web.boards import move_info

        g = _game(game)
        p = g.parse(position) if position else g.start()
        started = time.perf_counter()
        rated = MinimaxAgent(depth).move_scores(p)
        moves = [{**move_info(g, m), "score": int(v)} for m, v in rated.items()]
        moves.sort(key=lambda m: -m["score"])
        return {"agent": f"minimax:depth={depth}", "moves": moves, "seconds": time.perf_counter() - started}

    def evaluate(self, game: str, position: str | None, seconds: float) -> dict[str, Any]:
        """The engine's view of every legal move within ``seconds`` (``/api/evaluate``: the
        overlay where the solver runs out of budget), counted from when the task was sent.
        """
        from noughts.agents.engine import USE, VIEW_TABLE, EngineAgent
        from noughts.web.boards import engine_view_json

        g = _game(game)
        p = g.parse(position) if position else g.start()
        engine = self.viewers.get(g.spec)
        if engine is None:
            engine = self.viewers[g.spec] = EngineAgent(tt=VIEW_TABLE)
            while len(self.viewers) > 4:
                self.viewers.popitem(last=False)
        self.viewers.move_to_end(g.spec)
        budget = self.budget(seconds)
        left = budget.remaining()
        started = time.perf_counter()
        results = engine.move_values(p, max(0.01, USE * (seconds if left is None else left)))
        return engine_view_json(g, p, results, "engine", time.perf_counter() - started)

    def move(self, game: str, position: str, agent: str, seed: int, seconds: float) -> dict[str, Any]:
        """The agent's move within ``seconds``: the move's text, whether it is proven best, a note."""
        from noughts.agents.base import check_plays, decide
        from noughts.web.boards import move_info

        g = _game(game)
        p = g.parse(position)
        if p.is_terminal():
            raise NoughtsError("the game is over: there is no move to choose")
        loading = time.perf_counter()
        player = self.agent(agent)  # built or loaded (a saved agent) before the move's clock starts
        check_plays(player, g)
        self.emit({"clock": True, "loaded": time.perf_counter() - loading})
        decision = decide(player, p, np.random.default_rng(seed), self.budget(seconds))
        g.check_move(p, decision.move)
        return {
            "move": g.format_move(decision.move),
            "info": move_info(g, decision.move),
            "proven": decision.proven,
            "note": decision.note,
            "seconds": decision.seconds,
        }

    def network_view(self, agent: str, game: str, position: str | None, seconds: float) -> dict[str, Any]:
        """A checkpoint's view of a position beside the solver's (``web/neural.py``)."""
        from noughts.web.neural import network_view

        return network_view(self, agent, game, position, seconds)

    def train(
        self,
        emit: Emit,
        stopped: Stopped,
        game: str,
        learner: str,
        options: dict[str, str],
        episodes: int,
        seconds: float,
        out: str,
    ) -> dict[str, Any]:
        """Train a learner, sending a point of its series after each chunk; save its agent to
        ``out`` (a ``.json`` path the server chose) when it ends or is stopped. Every
        :data:`CHECKPOINT_SECONDS` the agent is also saved as a checkpoint (two slots beside
        ``out``, written in turn, each announced only once written whole), so a run killed at its
        memory cap or its time keeps what it learned up to its last checkpoint.
        """
        from noughts.agents.saved import save_agent
        from noughts.learn.train import DEFAULT_RATE, learner_class
        from noughts.learn.train import train as run_train

        g = _game(game)
        learner_obj: Any = learner_class(learner).from_options(g, **options)
        emit({"started": True})
        rate = DEFAULT_RATE.new_state()
        previous = [0, 0, 0]
        chunk = max(100, min(5000, episodes // 60))
        grade_every = max(chunk, episodes // GRADE_POINTS)
        next_grade = [grade_every]
        last: list[dict[str, Any]] = []
        checkpoint = [time.monotonic(), 0]  # when the last was written, which slot is next

        def save_checkpoint(done: int) -> None:
            slot = out.removesuffix(".json") + f".checkpoint{checkpoint[1]}.json"
            save_agent(learner_obj.agent(), slot)
            checkpoint[:] = [time.monotonic(), 1 - checkpoint[1]]
            emit({"checkpoint": slot, "episodes": int(done)})

        def on_chunk(done: int) -> None:
            counts = [int(rate.counts[i]) for i in range(3)]
            delta = [c - p for c, p in zip(counts, previous, strict=True)]
            previous[:] = counts
            total = max(sum(delta), 1)
            point: dict[str, Any] = {
                "episodes": int(done),
                "first": delta[0] / total,
                "draw": delta[1] / total,
                "second": delta[2] / total,
                "epsilon": _epsilon(learner_obj),
                "size": _table_size(learner_obj),
                "grade": None,
            }
            halt = stopped()
            if done >= next_grade[0] or done >= episodes or halt:  # on the schedule, and at the end
                point["grade"] = self.grade(learner_obj, g)
                next_grade[0] = (done // grade_every + 1) * grade_every
            last[:] = [point]
            emit(point)
            if halt:
                raise _Stop
            if time.monotonic() - checkpoint[0] >= CHECKPOINT_SECONDS:
                save_checkpoint(done)

        stop = "finished"
        try:
            result = run_train(
                learner_obj,
                max_episodes=episodes,
                max_seconds=seconds,
                chunk=chunk,
                rate=rate,
                on_chunk=on_chunk,
            )
            if result.stopped == "max-seconds":
                stop = "stopped"
        except _Stop:
            stop = "stopped"
        if last and last[0]["grade"] is None:  # stopped by the clock between grades: grade the end
            emit({**last[0], "grade": self.grade(learner_obj, g)})
        save_agent(learner_obj.agent(), out)
        return {"status": stop, "episodes": int(learner_obj.episodes), "file": out}

    def grade(self, learner: Any, game: Game) -> float | None:
        """The oracle grade of a learner's greedy policy (:func:`noughts.learn.train.oracle_grade`)
        for the training charts: the learner's own fast grade over every reachable position, else
        its agent's moves on :data:`GRADE_SAMPLE` positions (a seeded sample, the same at every
        point), within :data:`GRADE_SECONDS`; None where it cannot be had in time (a game the
        solver does not take, or too large).
        """
        from noughts.learn.train import oracle_grade

        engine = None
        if not hasattr(learner, "policy_grade"):
            try:
                engine = self.perfect(game).engine(game)
            except NoughtsError:
                return None
        try:  # a fast grade over every position, or the agent's moves on a sample of them
            return oracle_grade(
                learner,
                oracle=engine,
                sample=None if engine is None else GRADE_SAMPLE,
                max_seconds=GRADE_SECONDS,
            )
        except NoughtsError:  # LimitExceeded included: no grade at this point
            return None

    def review(self, record: dict[str, Any], seconds: float) -> dict[str, Any]:
        """Review a record's main line within ``seconds`` (``/api/review``): the ``review --json``
        document, partial (``complete`` false, ``stopped`` saying why) when the budget ran out.
        The worker's perfect player's engines of the game (the one policy's, tables kept) serve
        every position, each question under the review's budget.
        """
        from noughts.record import Record
        from noughts.review import ReviewStopped, review

        rec = Record.from_json(record)
        g = rec.game
        engine = None
        try:
            engine = self.perfect(g).engine(g)
        except LimitExceeded:
            raise
        except NoughtsError:  # no exact engine takes this game: estimates only
            engine = None
        try:
            done = review(
                rec,
                budget=self.budget(seconds, self.memory // 3),
                position_seconds=min(seconds, 5.0),
                oracle=engine,
            )
        except ReviewStopped as e:
            done = e.review
        return done.to_json()

    # -- records (the analysis board's read, import and write; reading builds every game) ------

    def read_records(self, text: str, seconds: float, names: dict[str, str]) -> dict[str, Any]:
        """Read a record's games (``/api/records/read``) within ``seconds``; ``names``: the
        presets' human names (the server's :data:`noughts.web.records.NAMES`).
        """
        from noughts.web.records import NAMES, read_document

        NAMES.update(names)

        return read_document(text, self.budget(seconds))

    def import_records(self, text: str, seconds: float, names: dict[str, str]) -> dict[str, Any]:
        """Read a record's games for the store (``/api/records/import``) within ``seconds``: the
        rows the server stores (no game is built in the server's process).
        """
        from noughts.web.records import import_rows

        return {"rows": import_rows(text, self.budget(seconds))}

    def write_record(
        self, record: dict[str, Any], as_json: bool, seconds: float, names: dict[str, str]
    ) -> dict[str, Any]:
        """Check a record given as JSON and write it (``/api/records/write``) within ``seconds``."""
        from noughts.web.records import NAMES, write_document

        NAMES.update(names)

        made = self.budget(seconds)
        out = write_document(record, as_json)
        made.check(progress="the record was written")
        return out

    def inspect(self, path: str) -> dict[str, Any]:
        """Load a saved agent (every check of :func:`noughts.agents.saved.load_agent`)."""
        from noughts.agents.saved import load_agent

        agent = load_agent(path)
        return {"name": str(getattr(agent, "name", "")), "game": str(getattr(agent, "game", ""))}

    def batch(
        self,
        emit: Emit,
        stopped: Stopped,
        game: str,
        x: str,
        o: str,
        games: int,
        seed: int,
        seconds: float,
    ) -> dict[str, Any]:
        """Play ``games`` games between agents ``x`` and ``o`` (each move within ``seconds``),
        sending each finished game.
        """
        from noughts.agents.base import check_plays, decide
        from noughts.arena.match import game_rng

        g = _game(game)
        players = (self.agent(x), self.agent(o))
        for player in players:
            check_plays(player, g)
        played = 0
        for index in range(games):
            if stopped():
                break
            rng = game_rng(seed, index)
            p = g.start()
            moves: list[str] = []
            while not p.is_terminal():
                decision = decide(players[p.to_move], p, rng, Budget(max_seconds=seconds, max_memory=None))
                moves.append(g.format_move(decision.move))
                p = p.play(decision.move)
                if stopped():
                    return {"played": played}
            outcome = p.outcome()
            assert outcome is not None
            emit({"index": index, "outcome": outcome.value, "moves": moves})
            played += 1
        return {"played": played}


def _epsilon(learner: Any) -> float | None:
    value = getattr(learner, "epsilon", None)
    if value is None:
        value = getattr(getattr(learner, "config", None), "epsilon", None)
    return None if value is None else float(value)


def _table_size(learner: Any) -> int | None:
    summary = getattr(learner, "summary", None)
    if summary is not None:
        data = summary()
        for key in ("positions", "states", "table_size"):
            if key in data:
                return int(data[key])
    space = getattr(learner, "space", None)
    size = getattr(space, "size", None)
    return None if size is None else int(size)


GRADE_POINTS = 20
"""A training run's oracle grade is charted every ``episodes / GRADE_POINTS`` episodes (at least
one chunk apart), and once at its end: a schedule of episodes, never of wall time."""

GRADE_SECONDS = 5.0
"""The most one grade of a training run may take."""

CHECKPOINT_SECONDS = 20.0
"""How often a training run saves its agent as a checkpoint (what a run killed at its memory cap
or its time keeps)."""

GRADE_SAMPLE = 300
"""Positions on which a learner without a fast grade of its own is graded (through its agent)."""

TASKS = (
    "analyse",
    "count",
    "estimate",
    "evaluate",
    "move",
    "inspect",
    "review",
    "read_records",
    "import_records",
    "write_record",
    "network_view",
)
"""Tasks answered at once."""

JOBS = ("train", "batch")
"""Tasks that report progress and can be asked to stop."""


def _address_space() -> int:
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def resident() -> int:
    """This process's resident memory, in bytes."""
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


NICE = 5
"""How much lower a worker's scheduling priority is than the server's."""


def _watch_compiles(conn: Connection, worker: Worker) -> None:
    """Tell the pool when numba starts and ends a compile in this worker (a kernel the warm-up
    did not cover): the pool stops the task's clock meanwhile, and the task's budgets give the
    time back (:meth:`Worker.compiled`), so a compile is never killed half done and a task's
    budget starts when its kernels are ready. Loading a kernel from numba's cache is no
    compile and says nothing.
    """
    from numba.core import event

    class _Listener(event.Listener):
        depth = 0
        began = 0.0

        kernel = ""

        def on_start(self, ev: object) -> None:
            if self.depth == 0:
                self.began = time.perf_counter()
                found = getattr(getattr(ev, "data", {}).get("dispatcher"), "py_func", None)
                self.kernel = f"{getattr(found, '__module__', '?')}.{getattr(found, '__qualname__', '?')}"
                with contextlib.suppress(OSError, ValueError):
                    conn.send(("progress", {"compiling": True}))
            self.depth += 1

        def on_end(self, ev: object) -> None:
            self.depth -= 1
            if self.depth == 0:
                spent = time.perf_counter() - self.began
                worker.compiled(spent)
                with contextlib.suppress(OSError, ValueError):
                    conn.send(("progress", {"compiled": spent, "kernel": self.kernel}))

    event.register("numba:compile", _Listener())  # type: ignore[no-untyped-call]


def serve(conn: Connection, memory: int) -> None:
    """A worker's main loop (see the module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's: it stops the workers
    try:
        limit = _address_space() + memory
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (OSError, ValueError):  # no /proc or no limit allowed: the pool's watchdog still holds
        pass
    with contextlib.suppress(OSError):
        os.nice(NICE)  # the server's own process answers first (the health check, routing)
    worker = Worker(memory)
    with contextlib.suppress(ImportError):  # without numba nothing compiles
        _watch_compiles(conn, worker)
    conn.send(("ready", resident()))
    pending_stop = False

    def stopped() -> bool:
        nonlocal pending_stop
        while not pending_stop and conn.poll(0):
            if conn.recv() == "stop":
                pending_stop = True
        return pending_stop

    def emit(payload: dict[str, Any]) -> None:
        conn.send(("progress", payload))

    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        if message == "stop":
            continue
        task, kwargs, sent_at = message
        pending_stop = False
        worker.budgets.clear()
        worker.emit = emit
        worker.waited = max(0.0, time.time() - sent_at)  # the task's clock started when it was sent
        try:
            if task in JOBS:
                result = getattr(worker, task)(emit, stopped, **kwargs)
            elif task in TASKS:
                result = getattr(worker, task)(**kwargs)
            else:
                raise NoughtsError(f"no task {task!r}")
            reply: tuple[Any, ...] = ("ok", result)
        except LimitExceeded as e:
            reply = ("error", "limit", str(e))
        except NoughtsError as e:
            reply = ("error", "input", str(e))
        except MemoryError:
            worker.engines.clear()
            worker.agents.clear()
            worker.viewers.clear()
            reply = ("error", "memory", "the work ran out of the memory the arena gives it")
        except RecursionError:
            reply = ("error", "limit", "the work went deeper than the arena allows")
        except Exception as e:  # a bug: say what, without a traceback or a path
            reply = ("error", "internal", f"{type(e).__name__}: {e}")
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
