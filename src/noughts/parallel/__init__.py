"""Execution backends: map a function over items on local processes or on a Ray cluster.

One interface, :class:`Executor`, with three implementations chosen by :func:`executor`:

* ``workers=1``: in this process, no pool (for debugging and for tiny jobs);
* a local process pool (the default): :class:`concurrent.futures.ProcessPoolExecutor` with the
  ``spawn`` start method, so it behaves the same on Linux, macOS and Windows and never forks a
  process that holds threads (numba, Rich);
* Ray, given a cluster address (``"local"`` starts a local Ray); Ray is imported only then.

Work goes out in chunks (``chunksize`` items per task), results come back in the order of the
items, a ``progress`` callback (of the map, or the executor's) is told ``(done, total,
description)`` as items finish (the command line draws it; nothing here draws), and a failure in a worker becomes one :class:`ParallelError`
naming the item that failed. The function and the items must be picklable (a module-level
function, plain data) for the pool and Ray backends::

    with executor(2) as ex:
        squares = ex.map(pow2, range(10), description="squaring")
"""

from __future__ import annotations

from noughts.parallel.backends import (
    Executor,
    InProcessExecutor,
    ParallelError,
    ProcessExecutor,
    RayExecutor,
    check_ray_address,
    default_workers,
    executor,
)

__all__ = [
    "Executor",
    "InProcessExecutor",
    "ParallelError",
    "ProcessExecutor",
    "RayExecutor",
    "check_ray_address",
    "default_workers",
    "executor",
]
