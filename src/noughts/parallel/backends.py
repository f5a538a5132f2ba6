"""The executor interface and its backends (see :mod:`noughts.parallel`, which exports them)."""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import pickle  # the pool pickles work anyway; doing it here keeps failures in this thread
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Any, TypeVar

from noughts.core.errors import NoughtsError

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

T = TypeVar("T")
R = TypeVar("R")

PROGRESS_DELAY = 0.5
"""Seconds between two reports to a map's progress callback while no item finishes."""


class ParallelError(NoughtsError):
    """A worker failed (its exception, or a worker process that died); the message says where."""


def default_workers() -> int:
    """The number of CPUs this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def _run_chunk(fn: Callable[[Any], Any], start: int, chunk: Sequence[Any]) -> list[Any]:
    """Apply ``fn`` to a chunk; a failure names the item's index and keeps the worker's traceback."""
    out = []
    for offset, item in enumerate(chunk):
        try:
            out.append(fn(item))
        except Exception as error:
            detail = "".join(traceback.format_exception_only(type(error), error)).strip()
            raise _ChunkFailure(start + offset, detail, traceback.format_exc()) from None
    return out


def _run_payload(payload: bytes) -> list[Any]:
    """Run a chunk that the main process pickled itself (see :meth:`ProcessExecutor._map`)."""
    fn, start, chunk = pickle.loads(payload)  # bytes this process's parent made a moment ago
    return _run_chunk(fn, start, chunk)


class _ChunkFailure(Exception):
    """Raised in a worker; carries plain strings so it pickles across processes."""

    def __init__(self, index: int, detail: str, trace: str):
        super().__init__(index, detail, trace)
        self.index = index
        self.detail = detail
        self.trace = trace


def _failure(description: str | None, items: Sequence[Any], error: BaseException) -> ParallelError:
    what = description or "parallel work"
    if "pickl" in f"{type(error).__name__} {error}".lower():
        return ParallelError(
            f"{what}: the function or the items cannot be sent to worker processes ({error}); "
            "use a module-level function and plain data, or workers=1"
        )
    if isinstance(error, _ChunkFailure):
        item = repr(items[error.index])
        if len(item) > 80:
            item = item[:77] + "..."
        return ParallelError(f"{what}: a worker failed on item {error.index} ({item}): {error.detail}")
    return ParallelError(f"{what}: a worker failed: {type(error).__name__}: {error}")


def _chunks(n: int, chunksize: int) -> list[tuple[int, int]]:
    return [(i, min(n, i + chunksize)) for i in range(0, n, chunksize)]


Progress = Callable[[int, int, str], None]
"""A map's progress callback: ``(items finished, items, description)``, told as items finish and
every :data:`PROGRESS_DELAY` seconds while they run (the command line draws it; nothing here draws)."""


class _Bar:
    """The finished items of one map, told to a :data:`Progress` callback (nothing where it is None)."""

    def __init__(self, progress: Progress | None, description: str | None, total: int):
        self.progress = progress
        self.description = description or "parallel work"
        self.total = total
        self.done = 0

    def advance(self, n: int) -> None:
        self.done += n
        if self.progress is not None:
            self.progress(self.done, self.total, self.description)


class Executor(ABC):
    """Maps a function over items, in order; use as a context manager to release its workers."""

    workers: int
    """How many items may run at the same time."""

    name: str
    """The backend, for reports: ``in-process``, ``processes`` or ``ray``."""

    progress: Progress | None = None
    """Told the progress of every map that names no callback of its own (set by the command line,
    which draws it)."""

    def map(
        self,
        fn: Callable[[T], R],
        items: Iterable[T],
        *,
        description: str | None = None,
        chunksize: int | None = None,
        progress: Progress | None = None,
    ) -> list[R]:
        """``[fn(item) for item in items]``, computed by the workers, results in item order.

        ``chunksize`` items go to a worker at a time (default: about four chunks per worker).
        ``description`` names the work (in the progress and in errors); ``progress`` (default: the
        executor's :attr:`progress`) is told the items finished. A failure in a worker raises
        :class:`ParallelError` naming the item.
        """
        seq = list(items)
        if not seq:
            return []
        if chunksize is None:
            chunksize = max(1, math.ceil(len(seq) / (4 * self.workers)))
        if chunksize < 1:
            raise NoughtsError(f"chunksize must be at least 1, not {chunksize}")
        bar = _Bar(progress or self.progress, description, len(seq))
        return self._map(fn, seq, chunksize, bar, description)

    def map_until(
        self,
        fn: Callable[[T], R],
        items: Iterable[T],
        until: Callable[[int, R], bool],
        *,
        description: str | None = None,
        progress: Progress | None = None,
    ) -> list[R | None]:
        """:meth:`map` one item a task, stopped early: ``until(index, result)`` is called in this
        process with each result as it arrives (in the order they finish), and once it returns
        True the work still pending is dropped and the work running is stopped (the pool's
        worker processes are ended, Ray's tasks cancelled). The results in item order, None for
        the items that did not finish.
        """
        seq = list(items)
        if not seq:
            return []
        bar = _Bar(progress or self.progress, description, len(seq))
        return self._map_until(fn, seq, until, bar, description)

    @abstractmethod
    def _map(
        self, fn: Callable[[T], R], seq: list[T], chunksize: int, bar: _Bar, description: str | None
    ) -> list[R]: ...

    @abstractmethod
    def _map_until(
        self,
        fn: Callable[[T], R],
        seq: list[T],
        until: Callable[[int, R], bool],
        bar: _Bar,
        description: str | None,
    ) -> list[R | None]: ...

    def close(self) -> None:  # noqa: B027 - nothing to release unless a backend holds workers
        """Release the workers (idempotent)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} workers={self.workers}>"


class InProcessExecutor(Executor):
    """Runs everything in the calling process, one item after another (``workers=1``)."""

    def __init__(self) -> None:
        self.workers = 1
        self.name = "in-process"

    def _map(
        self, fn: Callable[[T], R], seq: list[T], chunksize: int, bar: _Bar, description: str | None
    ) -> list[R]:
        out: list[R] = []
        for start, stop in _chunks(len(seq), chunksize):
            try:
                out.extend(_run_chunk(fn, start, seq[start:stop]))
            except _ChunkFailure as error:
                raise _failure(description, seq, error) from None
            bar.advance(stop - start)
        return out

    def _map_until(
        self,
        fn: Callable[[T], R],
        seq: list[T],
        until: Callable[[int, R], bool],
        bar: _Bar,
        description: str | None,
    ) -> list[R | None]:
        out: list[R | None] = [None] * len(seq)
        for i in range(len(seq)):
            try:
                out[i] = result = _run_chunk(fn, i, seq[i : i + 1])[0]
            except _ChunkFailure as error:
                raise _failure(description, seq, error) from None
            bar.advance(1)
            if until(i, result):
                break
        return out


class ProcessExecutor(Executor):
    """A pool of ``workers`` local processes started with ``spawn`` (created on first use)."""

    def __init__(self, workers: int):
        if workers < 1:
            raise NoughtsError(f"workers must be at least 1, not {workers}")
        self.workers = workers
        self.name = "processes"
        self._pool: ProcessPoolExecutor | None = None

    def _get_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        if kind is not None and issubclass(kind, KeyboardInterrupt) and self._pool is not None:
            # Ctrl-C: end the workers now rather than wait for the jobs in flight to finish
            for process in list((getattr(self._pool, "_processes", None) or {}).values()):
                process.terminate()
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self.close()

    def _map(
        self, fn: Callable[[T], R], seq: list[T], chunksize: int, bar: _Bar, description: str | None
    ) -> list[R]:
        pool = self._get_pool()
        results: dict[int, list[R]] = {}
        pending: dict[Future[list[R]], tuple[int, int]] = {}
        try:
            for start, stop in _chunks(len(seq), chunksize):
                # Pickled here, not in the pool's feeder thread: work that cannot be pickled then
                # fails at once in this thread, instead of leaving the pool unable to shut down
                # (a failure in the feeder thread can hang ProcessPoolExecutor.shutdown).
                payload = pickle.dumps((fn, start, seq[start:stop]), protocol=pickle.HIGHEST_PROTOCOL)
                pending[pool.submit(_run_payload, payload)] = (start, stop)
            while pending:
                done, _ = wait(pending, timeout=PROGRESS_DELAY, return_when=FIRST_COMPLETED)
                if not done:
                    bar.advance(0)
                for future in done:
                    start, stop = pending.pop(future)
                    results[start] = future.result()
                    bar.advance(stop - start)
        except Exception as error:  # a worker's failure, a dead worker, or work that cannot be pickled
            for future in pending:
                future.cancel()
            if isinstance(error, BrokenProcessPool):
                self.close()
            raise _failure(description, seq, error) from None
        out: list[R] = []
        for start in sorted(results):
            out.extend(results[start])
        return out

    def _map_until(
        self,
        fn: Callable[[T], R],
        seq: list[T],
        until: Callable[[int, R], bool],
        bar: _Bar,
        description: str | None,
    ) -> list[R | None]:
        pool = self._get_pool()
        out: list[R | None] = [None] * len(seq)
        pending: dict[Future[list[R]], int] = {}
        try:
            for i in range(len(seq)):
                payload = pickle.dumps((fn, i, seq[i : i + 1]), protocol=pickle.HIGHEST_PROTOCOL)
                pending[pool.submit(_run_payload, payload)] = i
            while pending:
                done, _ = wait(pending, timeout=PROGRESS_DELAY, return_when=FIRST_COMPLETED)
                if not done:
                    bar.advance(0)
                for future in done:
                    i = pending.pop(future)
                    out[i] = result = future.result()[0]
                    bar.advance(1)
                    if until(i, result):
                        self._stop(pending)
                        return out
        except Exception as error:  # as in _map
            for future in pending:
                future.cancel()
            if isinstance(error, BrokenProcessPool):
                self.close()
            raise _failure(description, seq, error) from None
        return out

    def _stop(self, pending: dict[Future[list[R]], int]) -> None:
        """Drop the work not started and end the worker processes running the rest (the pool
        has no way to stop a running task); a later map starts a new pool.
        """
        for future in pending:
            future.cancel()
        if any(not f.cancelled() for f in pending) and self._pool is not None:
            # ProcessPoolExecutor's own record of its workers (``terminate_workers`` is 3.14's)
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


REACH_SECONDS = 3.0
"""How long :func:`check_ray_address` waits for a Ray head to accept a connection."""


def check_ray_address(address: str, timeout: float = REACH_SECONDS) -> None:
    """``NoughtsError`` at once unless ``address`` is ``local``, ``auto`` or a ``[ray://]host:port``
    that accepts a TCP connection within ``timeout`` seconds: ``ray.init`` retries an address
    where nothing listens for a minute or more, past any budget of the work.
    """
    import socket

    if address in ("local", "auto"):
        return
    hint = "give 'local' or the head's host:port ('ray start --head' prints it)"
    host, colon, port_text = address.removeprefix("ray://").rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise NoughtsError(f"the Ray address {address!r} is not host:port: {hint}")
    try:
        socket.create_connection((host, int(port_text)), timeout=timeout).close()
    except OSError as error:
        why = "no answer" if isinstance(error, TimeoutError) else (error.strerror or str(error))
        raise NoughtsError(f"cannot reach Ray at {address!r}: {why.lower()}; {hint}") from None


class RayExecutor(Executor):
    """Ray tasks on a cluster at ``address`` (``"local"``: start a local Ray with ``workers`` CPUs)."""

    def __init__(self, address: str, workers: int | None = None):
        try:
            import ray
        except ImportError:
            raise NoughtsError(
                "the Ray backend needs Ray: pip install -e '.[cluster]' in the clone, or pip install 'noughts[cluster]'"
                " (or leave out --address)"
            ) from None
        self._ray = ray
        self.name = "ray"
        self.address = address
        self._owns = False
        if not ray.is_initialized():
            check_ray_address(address)
            options: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": logging.ERROR,
            }
            try:
                if address == "local":
                    ray.init(num_cpus=workers or default_workers(), **options)
                else:
                    ray.init(address=address, **options)
            except Exception as error:  # ConnectionError, ValueError, RuntimeError from Ray
                raise NoughtsError(f"cannot start or reach Ray at {address!r}: {error}") from None
            self._owns = True
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        self.workers = workers if workers is not None else max(1, cpus)
        self._remote = ray.remote(_run_chunk)

    def _map(
        self, fn: Callable[[T], R], seq: list[T], chunksize: int, bar: _Bar, description: str | None
    ) -> list[R]:
        ray = self._ray
        refs = {}
        for start, stop in _chunks(len(seq), chunksize):
            refs[self._remote.remote(fn, start, seq[start:stop])] = (start, stop)
        results: dict[int, list[R]] = {}
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1, timeout=PROGRESS_DELAY)
                if not done:
                    bar.advance(0)
                for ref in done:
                    start, stop = refs[ref]
                    results[start] = ray.get(ref)
                    bar.advance(stop - start)
        except Exception as error:
            for ref in pending:
                ray.cancel(ref, force=True)
            cause = error if isinstance(error, _ChunkFailure) else getattr(error, "cause", None)
            raise _failure(description, seq, cause if isinstance(cause, _ChunkFailure) else error) from None
        out: list[R] = []
        for start in sorted(results):
            out.extend(results[start])
        return out

    def _map_until(
        self,
        fn: Callable[[T], R],
        seq: list[T],
        until: Callable[[int, R], bool],
        bar: _Bar,
        description: str | None,
    ) -> list[R | None]:
        ray = self._ray
        refs = {self._remote.remote(fn, i, seq[i : i + 1]): i for i in range(len(seq))}
        out: list[R | None] = [None] * len(seq)
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1, timeout=PROGRESS_DELAY)
                if not done:
                    bar.advance(0)
                for ref in done:
                    i = refs[ref]
                    out[i] = result = ray.get(ref)[0]
                    bar.advance(1)
                    if until(i, result):
                        for other in pending:
                            ray.cancel(other, force=True)
                        return out
        except Exception as error:
            for ref in pending:
                ray.cancel(ref, force=True)
            cause = error if isinstance(error, _ChunkFailure) else getattr(error, "cause", None)
            raise _failure(description, seq, cause if isinstance(cause, _ChunkFailure) else error) from None
        return out

    def close(self) -> None:
        if self._owns:
            self._ray.shutdown()
            self._owns = False


def executor(
    workers: int | None = None, address: str | None = None, progress: Progress | None = None
) -> Executor:
    """The executor for ``workers`` processes, or for a Ray cluster at ``address``.

    ``address=None``: local processes, ``workers`` of them (default: the CPUs available);
    ``workers=1`` runs in this process with no pool. ``address="local"`` starts a local Ray
    (with ``workers`` CPUs); any other address is passed to ``ray.init``. ``progress``: the
    executor's :attr:`~Executor.progress`.
    """
    made = _executor(workers, address)
    made.progress = progress
    return made


def _executor(workers: int | None, address: str | None) -> Executor:
    if workers is not None and workers < 1:
        raise NoughtsError(f"workers must be at least 1, not {workers}")
    if address is not None:
        if not address.strip():
            raise NoughtsError("the Ray address is empty: give 'local' or host:port")
        return RayExecutor(address.strip(), workers)
    n = default_workers() if workers is None else workers
    return InProcessExecutor() if n == 1 else ProcessExecutor(n)
