"""The kernels' warm-up: every numba kernel that the arena's presets (their default opponents'
moves, the analysis, the engine's overlay), the engine and the CLI's solver use, compiled once
(or loaded from numba's cache, ``cache=True``) before the first request needs it.

:data:`STEPS` names each kernel and how to make it compile (a small position of a game that
needs it, under a small budget: a compile is never on a budget, the search after it is);
:func:`warm_up` runs them in order and reports each (``n of m kernels``). The arena runs it in
the process its workers are forked from (:mod:`noughts.web.preload`, through multiprocessing's
forkserver): a process that no task's budget kills, so a compile is never lost half done, the
cache is written for the next start, and every worker starts with the kernels in memory. The
last step plays every preset's first move with its default opponent, analyses it and shows the
engine's view of it: where a kernel is missing from the steps before it, it is compiled there,
and ``tests/web/test_web_warmup.py`` checks that nothing is.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["STEPS", "Step", "warm_up"]

SECONDS = 0.05
"""The budget of each search after its compile (the warm-up wants the compile, not the answer)."""

PRESET_SECONDS = 0.05
"""The budget of each task of the last step (every preset's first move): a check that the steps
before it left no kernel out, quick once they have run."""

MEMORY = 2**26
"""The memory budget of each search of the warm-up (64 MiB)."""


@dataclass(frozen=True)
class Step:
    """One kernel (or family of kernels compiled together) and what makes numba compile it."""

    name: str
    run: Callable[[], None]


def _budget(seconds: float = SECONDS) -> Any:
    from noughts.core.budget import Budget

    return Budget(max_seconds=seconds, max_memory=MEMORY)


def _solve(spec: str) -> Callable[[], None]:
    """The alpha-beta kernel of a game's rules and mask width (one word up to 64 cells)."""

    def run() -> None:
        import noughts
        from noughts.core import LimitExceeded
        from noughts.exact.fast import FastSolver

        game = noughts.game(spec)
        with contextlib.suppress(LimitExceeded):
            FastSolver(game, _budget()).value(game.start())

    return run


def _mcts(spec: str) -> Callable[[], None]:
    def run() -> None:
        import noughts
        from noughts.agents.mcts import MCTSAgent

        MCTSAgent(16).choose(noughts.game(spec).start(), np.random.default_rng(0))

    return run


def _minimax() -> None:
    import noughts
    from noughts.agents.minimax import MinimaxAgent

    MinimaxAgent(2).choose(noughts.game("mnk(4,4,3)").start(), np.random.default_rng(0))


def _engine() -> None:
    import noughts
    from noughts.agents.engine import EngineAgent

    start = noughts.game("mnk(4,4,3)").start()
    EngineAgent(0.01).choose(start, np.random.default_rng(0))
    EngineAgent(0.01).move_values(start, 0.01)  # the overlay's view


def _threats() -> None:
    """The engine on a big board: its root's threat search (the proof engine's, at order 1)."""
    _reply("mnk(15,15,5)", "engine", 1.0)


def _count() -> None:
    import noughts

    noughts.count("mnk(3,3,3)", symmetry=False)


def _breaker() -> None:
    from noughts.breaker.prover import prove_breaker
    from noughts.core import LimitExceeded

    with contextlib.suppress(LimitExceeded):
        prove_breaker("mnk(5,2,5)", budget=_budget(1.0))


def _proof() -> None:
    from noughts.core import LimitExceeded
    from noughts.solving import solve

    with contextlib.suppress(LimitExceeded):
        solve("mnk(4,4,3)", engine="proof", max_seconds=SECONDS, max_memory=MEMORY, value_only=True)


def _perfect(spec: str) -> Callable[[], None]:
    """The perfect player's first reply on a game (its table grows there: ``noughts.kernels.table.rehash``)."""

    def run() -> None:
        _reply(spec, "perfect", 0.5)

    return run


def _retro(*specs: str) -> Callable[[], None]:
    """The retrograde solver's kernels (games that need not end), for each variant's encoding."""

    def run() -> None:
        for spec in specs:
            _reply(spec, "perfect", 5.0)

    return run


def _reply(spec: str, agent: str, seconds: float) -> None:
    """The agent's reply to the first legal move of ``spec``, as a worker plays it."""
    import noughts
    from noughts.core import LimitExceeded, NoughtsError
    from noughts.web.work import Worker

    game = noughts.game(spec)
    start = game.start()
    first = start.play(start.legal_moves()[0])
    with contextlib.suppress(LimitExceeded, NoughtsError):
        Worker(2**30).move(spec, first.text(), agent, 0, seconds)


def _presets() -> None:
    """Every preset's first reply by its default opponent, its analysis and the overlay."""
    import noughts
    from noughts.core import LimitExceeded, NoughtsError
    from noughts.web.app import PRESETS
    from noughts.web.work import Worker

    worker = Worker(2**30)
    for spec, _name, _note, opponent in PRESETS:
        game = noughts.game(spec)
        start = game.start()
        first = start.play(start.legal_moves()[0]).text()
        with contextlib.suppress(LimitExceeded, NoughtsError):
            worker.move(spec, first, opponent, 0, PRESET_SECONDS)
        with contextlib.suppress(LimitExceeded, NoughtsError):
            worker.analyse(spec, None, PRESET_SECONDS)
        with contextlib.suppress(LimitExceeded, NoughtsError):
            worker.evaluate(spec, None, PRESET_SECONDS)
        worker.engines.clear()
        worker.agents.clear()
        worker.viewers.clear()


STEPS: tuple[Step, ...] = (
    Step("alpha-beta, one word", _solve("mnk(4,4,3)")),
    Step("alpha-beta, several words", _solve("hypercube(5,3)")),
    Step("alpha-beta misère, one word", _solve("misere(mnk(3,3,3))")),
    Step("alpha-beta Maker-Breaker, one word", _solve("maker_breaker(mnk(4,4,3))")),
    Step("alpha-beta Maker-Breaker, several words", _solve("maker_breaker(hypercube(5,3))")),
    Step("alpha-beta cumulative, one word", _solve("cumulative(mnk(3,3,3))")),
    Step("the perfect player's table", _perfect("hypercube(4,3)")),
    Step("MCTS, one word", _mcts("mnk(4,4,3)")),
    Step("MCTS, several words", _mcts("mnk(9,9,5)")),
    Step("minimax", _minimax),
    Step("the engine", _engine),
    Step("the threat search", _threats),
    Step("the proof engine", _proof),
    Step("the exact counter", _count),
    Step("the Breaker prover", _breaker),
    Step(
        "the retrograde solver",
        _retro("forget(tictactoe)", "morris", "morris(diagonals=false,diagonal_mills=false)"),
    ),
    Step("every preset's first move", _presets),
)
"""The kernels, in the order they are warmed (the presets' own first: the alpha-beta search
and the engine)."""


def warm_up(report: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Run every step of :data:`STEPS`, timing each and counting numba's compiles in it;
    ``report`` gets ``{"total": m}`` first, then ``{"step": i, "name": ..., "start": true}``
    and ``{"step": i, "name": ..., "done": true, "seconds": ..., "compiles": ...,
    "compile_seconds": ..., "error": ...}`` for each (``i`` from 1), and ``{"finished": true}``
    last. A step that fails (numba missing: the Python paths serve) is reported and the others
    still run. Returns the ``done`` reports.
    """
    say = report or (lambda _: None)
    say({"total": len(STEPS)})
    done: list[dict[str, Any]] = []
    for i, step in enumerate(STEPS, 1):
        say({"step": i, "name": step.name, "start": True})
        started = time.perf_counter()
        error = ""
        compiles, compiling = 0, 0.0
        try:
            from noughts.kernels.compiling import compile_watch

            with compile_watch() as watch:
                step.run()
            compiles, compiling = watch.compiles, watch.seconds
        except Exception as e:  # a step that fails leaves the others to run (and says why)
            error = f"{type(e).__name__}: {e}"
        entry = {
            "step": i,
            "name": step.name,
            "done": True,
            "seconds": round(time.perf_counter() - started, 3),
            "compiles": compiles,
            "compile_seconds": round(compiling, 3),
            "error": error,
        }
        done.append(entry)
        say(entry)
    say({"finished": True})
    return done


if __name__ == "__main__":  # ``python -m noughts.web.warmup``: warm the cache, one line a kernel
    import json

    warm_up(lambda r: print(json.dumps(r), flush=True))
