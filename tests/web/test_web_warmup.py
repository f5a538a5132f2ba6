"""The kernels' warm-up: it loads every kernel a move or an analysis needs, covers every preset's
first move, reports its progress (``n of m kernels``); a request asked meanwhile waits for it
instead of being killed at its budget, and a compile inside a task stops the task's clock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from noughts.web import Limits
from noughts.web.work import Worker
from noughts.web.workers import Busy, WarmUp, WorkerPool, _Worker

PROBE = """
import json
import noughts.web.preload
from noughts.agents import _engine_kernel, _minimax_kernel
from noughts.breaker import _kernels as _breaker_kernels
from noughts.proving import _tss_kernels
loaded = {
    "minimax": len(_minimax_kernel.run.signatures),
    "engine": len(_engine_kernel.root.signatures),
    "breaker": len(_breaker_kernels.search.signatures),
    "threats": len(_tss_kernels.threat_search.signatures),
}
print(json.dumps(loaded))
"""


def test_the_warm_up_loads_the_kernels_of_moves_and_analyses() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=900, check=True
    )
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded["minimax"] >= 1, loaded
    assert loaded["engine"] >= 1, loaded
    assert loaded["breaker"] >= 1, loaded  # the analysis of long lines (solve's Breaker row)
    assert loaded["threats"] >= 1, loaded  # the engine's root on big boards (15x15's first move)


@pytest.mark.slow
def test_from_an_empty_cache_the_steps_compile_every_kernel_the_presets_use(tmp_path: Path) -> None:
    """With an empty numba cache, every step runs without error and the last one (every preset's
    first move, analysis and overlay) compiles nothing: the steps before it cover them all."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-m", "noughts.web.warmup"],
        capture_output=True,
        text=True,
        timeout=3600,
        check=True,
        env=env,
    )
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    steps = [r for r in reports if r.get("done")]
    assert reports[0] == {"total": len(steps)}
    assert reports[-1] == {"finished": True}
    assert [r["error"] for r in steps] == [""] * len(steps)
    assert sum(r["compiles"] for r in steps[:-1]) > 10  # the cache was empty: they compiled
    assert steps[-1]["name"] == "every preset's first move"
    assert steps[-1]["compiles"] == 0, steps[-1]


def test_the_progress_reads_as_n_of_m_kernels() -> None:
    warm = WarmUp()
    assert warm.text() == "warming up (starting)"
    for line in (
        '{"total": 3}',
        '{"step": 1, "name": "alpha-beta", "start": true}',
        '{"step": 1, "name": "alpha-beta", "done": true, "compiles": 2, "compile_seconds": 4.5, "error": ""}',
        '{"step": 2, "name": "MCTS", "start": true}',
        "not json",
    ):
        warm.read(line)
    assert warm.text() == "warming up (1 of 3 kernels)"
    status = warm.status()
    assert (status["ready"], status["current"], status["compiles"], status["compile_seconds"]) == (
        False,
        "MCTS",
        2,
        4.5,
    )
    warm.read('{"step": 2, "name": "MCTS", "done": true, "compiles": 0, "error": "ImportError: no numba"}')
    warm.read('{"finished": true}')
    assert warm.finished.is_set()
    assert warm.status()["errors"] == ["MCTS: ImportError: no numba"]


def test_a_request_during_the_warm_up_waits_then_is_refused_with_its_progress() -> None:
    pool = WorkerPool(Limits(warm_wait=0.05))
    pool.started = True  # as if started: its warm-up is the one below, which has not ended
    pool.warm = WarmUp(total=17, done=3)
    with pytest.raises(Busy, match=r"warming up \(3 of 17 kernels\)") as refused:
        pool.run("count", {"game": "tictactoe", "seconds": 1.0}, seconds=1.0)
    assert refused.value.retry_after > 0
    assert pool.stats()["warmup"]["ready"] is False


def test_past_the_warm_up_queue_a_request_is_refused_at_once() -> None:
    pool = WorkerPool(Limits(warm_queue=0))
    pool.started = True
    pool.warm = WarmUp(total=17, done=5)
    with pytest.raises(Busy, match=r"warming up \(5 of 17 kernels\)"):
        pool.run("count", {"game": "tictactoe", "seconds": 1.0}, seconds=1.0)


def test_a_request_during_the_warm_up_is_answered_once_it_ends() -> None:
    pool = WorkerPool(Limits(warm_wait=600, workers=1))
    pool.started = True
    pool.warm = warm = WarmUp(total=2, done=1)

    def end_warm_up() -> None:
        time.sleep(0.2)
        warm.finish()
        pool._fill()

    threading.Thread(target=end_warm_up, daemon=True).start()
    try:
        result = pool.run("count", {"game": "tictactoe", "seconds": 30.0}, seconds=30.0, lane="play")
    finally:
        pool.close()
    assert result["positions"] == 5478


def test_a_compile_in_a_task_gives_its_budgets_the_time_back() -> None:
    worker = Worker(2**28)
    budget = worker.budget(1.0)
    before = budget.started
    worker.compiled(5.0)
    assert budget.started == before + 5.0


def test_the_pool_stops_a_tasks_clock_while_its_worker_compiles() -> None:
    """The worker says it compiles, stays silent past the task's budget and grace, then answers:
    the pool waits for it (a compile killed half done would be lost) and counts the compile."""
    import multiprocessing

    pool = WorkerPool(Limits(kill_grace=0.05))
    parent, child = multiprocessing.Pipe(duplex=True)
    worker = _Worker(None, parent, ready=True)

    def fake_worker() -> None:
        child.recv()  # the task
        child.send(("progress", {"compiling": True}))
        time.sleep(0.5)  # past the budget (0.05 s) and its grace (0.05 s)
        child.send(("progress", {"compiled": 0.5, "kernel": "noughts.exact._kernels.search"}))
        child.send(("ok", {"answer": 42}))

    threading.Thread(target=fake_worker, daemon=True).start()
    assert pool._exchange(worker, "count", {}, 0.05, None, None) == {"answer": 42}
    assert pool.stats()["compiled_in_tasks"] == {
        "compiles": 1,
        "seconds": 0.5,
        "kernels": ["noughts.exact._kernels.search"],
    }
    assert worker.killed is None
