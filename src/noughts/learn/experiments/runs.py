"""Running an experiment's jobs so that nothing finished is lost: each job's result is saved as it
arrives and read back by a later start (after Ctrl-C, a failure, a closed laptop), with a progress
bar meanwhile; and the check, before any work, that matplotlib (the ``plots`` extra) is there.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from noughts.core import NoughtsError

__all__ = ["FINISHED", "PLOTS_HINT", "clear_finished", "job_key", "need_plots", "run_jobs"]

Job = dict[str, Any]

PLOTS_HINT = (
    "pip install -e '.[plots]' in the clone (make test installs it too), or pip install 'noughts[plots]'"
)
"""How to add matplotlib, which the base install (``make run``) leaves out."""


def need_plots(what: str) -> None:
    """``NoughtsError`` before any work when matplotlib, which ``what`` draws its figures with,
    is not installed (it is the ``plots`` extra, not a base dependency).
    """
    from importlib.util import find_spec

    if find_spec("matplotlib") is None:
        raise NoughtsError(
            f"{what} draws its figures with matplotlib, which this install lacks: {PLOTS_HINT}"
        )


FINISHED = "finished"
"""The folder, inside an experiment's, that holds each finished run (a job's result, one JSON file
a job) while the experiment runs, so that a run stopped by Ctrl-C or a failure loses only the jobs
in flight; removed once the experiment has written its report."""


def job_key(fn: Callable[[Job], Job], job: Job) -> str:
    """The name of ``fn(job)``'s file in :data:`FINISHED`: a digest of the function's name and
    the job's content, so that a changed setting never reads back another job's result.
    """
    text = json.dumps([fn.__module__, fn.__qualname__, job], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def run_jobs(
    executor: Any,
    fn: Callable[[Job], Job],
    jobs: list[Job],
    out_dir: Path | None = None,
    name: str = "experiment",
) -> list[Job]:
    """``fn`` over ``jobs``, results in job order: on ``executor`` (a :mod:`noughts.parallel`
    executor) or, when it is None, in this process; the executor's
    ``progress`` callback, if it has one, is told the runs finished (``name: N runs``; the
    command line draws it).

    With ``out_dir``, each result is written to ``out_dir/finished/KEY.json`` as soon as its job
    finishes (:func:`job_key`), and the results an earlier start of the same jobs left there are
    read back instead of computed again (lines on stderr say so before the work). Every result goes
    through JSON (as saved), so a resumed run reports exactly what a run in one go reports.
    """
    from noughts.parallel import InProcessExecutor

    ex = executor if executor is not None and hasattr(executor, "map_until") else InProcessExecutor()
    if out_dir is None:
        out = ex.map_until(fn, jobs, lambda i, r: False, description=f"{name}: {len(jobs)} runs")
        return [r for r in out if r is not None]
    folder = Path(out_dir) / FINISHED
    keys = [job_key(fn, job) for job in jobs]
    results: list[Job | None] = [None] * len(jobs)
    for i, key in enumerate(keys):
        with contextlib.suppress(OSError, ValueError):  # not there, or cut short: run it (again)
            results[i] = json.loads((folder / f"{key}.json").read_text())
    todo = [i for i, r in enumerate(results) if r is None]
    print(
        f"noughts: {name}: {len(jobs)} runs into {out_dir}; each is saved as it finishes (Ctrl-C stops,"
        " the same command goes on)",
        file=sys.stderr,
        flush=True,
    )
    if len(todo) < len(jobs):
        print(
            f"noughts: {name}: {len(jobs) - len(todo)} of {len(jobs)} runs were finished by an earlier start"
            f" (saved in {folder}); running the other {len(todo)}",
            file=sys.stderr,
            flush=True,
        )
    folder.mkdir(parents=True, exist_ok=True)

    def keep(index: int, result: Job) -> bool:
        i = todo[index]
        text = json.dumps(result, default=_plain)
        part = folder / f"{keys[i]}.json.part"
        part.write_text(text)
        part.replace(folder / f"{keys[i]}.json")  # whole or not at all
        results[i] = json.loads(text)
        return False

    if todo:
        ex.map_until(fn, [jobs[i] for i in todo], keep, description=f"{name}: {len(todo)} runs")
    done = [r for r in results if r is not None]
    assert len(done) == len(jobs), "every job finished or raised"
    return done


def _plain(x: Any) -> Any:
    """NumPy scalars and arrays as JSON (a job's result may hold them)."""
    if hasattr(x, "tolist"):
        return x.tolist()
    raise TypeError(f"{type(x).__name__} is not JSON")


def clear_finished(fn: Callable[[Job], Job], jobs: list[Job], out_dir: Path) -> None:
    """Remove the saved results of ``jobs`` (once the report that holds them is written), and
    the :data:`FINISHED` folder if nothing else is left in it.
    """
    folder = Path(out_dir) / FINISHED
    for job in jobs:
        (folder / f"{job_key(fn, job)}.json").unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # other settings' results are kept
        folder.rmdir()
