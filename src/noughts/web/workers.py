"""The arena's worker processes: a bounded pool that runs the heavy work, each task killed at its
budget.

Solves, counts, analyses, estimates, agents' moves, batches and training runs all run here, never
in the server's own process, so a request can always be stopped (a thread cannot be; a process
can be killed) and the server keeps answering whatever is asked of it. The pool holds
:attr:`Limits.workers` processes forked from one process that has the compiled kernels loaded
(:mod:`noughts.web.warmup`, through multiprocessing's forkserver), so a worker starts warm and
shares those pages.

* **Warm-up.** The process the workers are forked from compiles (or loads from numba's cache)
  every kernel the arena's presets, the engine and the solver use before the first worker
  starts (:mod:`noughts.web.preload`, through :mod:`noughts.web.warmup`): a process no budget
  kills, so a compile is never lost half done. Its progress (``n of m kernels``) is in
  :meth:`WorkerPool.stats` and so in ``/api/health``; a request asked meanwhile waits for it
  (at most :attr:`Limits.warm_wait`, then 429 with the progress; the page asks again), and its
  clock starts once a worker takes it. A kernel the warm-up did not cover is compiled by the
  worker that needs it, with the task's clock stopped meanwhile (the worker says when it
  compiles; at most :attr:`Limits.compile_seconds`), so that compile too is never killed.
* **Budgets.** A task is given its time budget; the work honours it cooperatively, and the pool
  kills the worker :attr:`Limits.kill_grace` seconds past it if it has not answered (then
  starts a fresh one). A request waits at most :attr:`Limits.queue_seconds` for a worker, so it
  answers within its budget plus about two seconds, whatever happens.
* **Memory.** Each worker caps its own address space (``resource.setrlimit``) at what it had
  when it started plus its share of :attr:`Limits.max_memory`; a watchdog also kills a worker
  whose resident memory grows past its share. The server's total stays under the ceiling.
* **Fairness.** One client (an address) has at most :attr:`Limits.per_client` tasks at once;
  work of the analysis kind (``work`` lane: analyses, counts, estimates, jobs) leaves
  :attr:`Limits.play_reserve` workers to the moves of games in play (``play`` lane); jobs
  (batches, training: ``job`` lane) have :attr:`Limits.max_jobs` workers of their own beside
  the :attr:`Limits.workers`, so two long jobs never leave analyses without a worker. Past any
  of these the request is refused at once with :class:`Busy` (HTTP 429 with ``Retry-After``).
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from noughts.core import LimitExceeded, NoughtsError
from noughts.web.limits import Limits

__all__ = ["Busy", "WarmUp", "WorkerFailed", "WorkerPool", "warm_up"]

LANES = ("play", "work", "job")


class Busy(NoughtsError):
    """The arena (or this client's share of it) is fully used; try again in ``retry_after`` s."""

    def __init__(self, message: str, retry_after: float = 1.0):
        super().__init__(message)
        self.retry_after = retry_after


class WorkerFailed(RuntimeError):
    """A worker's task failed with a bug (the message says what, without a traceback)."""


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


WARM_LOG = "NOUGHTS_WARMUP_LOG"
"""The environment variable that names the file the warm-up writes its progress to (JSON lines,
:func:`noughts.web.warmup.warm_up`'s reports), read by :class:`WarmUp`."""


@dataclass(eq=False)
class WarmUp:
    """The kernels' warm-up as the server sees it: ``done`` of ``total`` kernels compiled (or
    loaded from numba's cache), the one at work, the seconds spent and how many of them were
    compiling; ``finished`` is set when it has ended (every kernel ready, or the warm-up gone).
    One per server process, since the process the workers are forked from is one.
    """

    total: int = 0
    done: int = 0
    current: str = ""
    compile_seconds: float = 0.0
    compiles: int = 0
    errors: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    def finish(self, error: str | None = None) -> None:
        if error is not None:
            self.errors.append(error)
        if self.ended is None:
            self.ended = time.monotonic()
        self.current = ""
        self.finished.set()

    def status(self) -> dict[str, Any]:
        """What ``/api/health`` shows of it."""
        end = self.ended if self.ended is not None else time.monotonic()
        return {
            "ready": self.finished.is_set(),
            "done": self.done,
            "total": self.total,
            "current": self.current,
            "seconds": round(end - self.started, 1),
            "compile_seconds": round(self.compile_seconds, 1),
            "compiles": self.compiles,
            "errors": list(self.errors),
        }

    def text(self) -> str:
        """``warming up (n of m kernels)``, what the page and a refused request say."""
        if self.total == 0:
            return "warming up (starting)"
        return f"warming up ({self.done} of {self.total} kernels)"

    def read(self, line: str) -> None:
        """Take one line of the warm-up's log (see :func:`noughts.web.warmup.warm_up`)."""
        try:
            report = json.loads(line)
        except ValueError:
            return
        if not isinstance(report, dict):
            return
        if "total" in report:
            self.total = int(report["total"])
        if report.get("start"):
            self.current = str(report.get("name", ""))
        if report.get("done"):
            self.done = int(report.get("step", self.done + 1))
            self.compile_seconds += float(report.get("compile_seconds", 0.0))
            self.compiles += int(report.get("compiles", 0))
            if report.get("error"):
                self.errors.append(f"{report.get('name', '')}: {report['error']}")
        if report.get("finished"):
            self.finish()


_WARM: WarmUp | None = None
_WARM_LOCK = threading.Lock()


def warm_up(ctx: Any) -> WarmUp:
    """Start the process the workers are forked from (multiprocessing's forkserver, which
    imports :mod:`noughts.web.preload`: the warm-up) and follow its progress; once per server
    process. Where there is no forkserver the warm-up is finished at once (each worker then
    compiles what it needs, with its task's clock stopped).
    """
    global _WARM
    with _WARM_LOCK:
        if _WARM is not None:
            return _WARM
        warm = _WARM = WarmUp()
        if ctx.get_start_method() != "forkserver":  # pragma: no cover (no forkserver)
            warm.finish()
            return warm
        from multiprocessing import forkserver

        server: Any = getattr(forkserver, "_forkserver", None)
        if server is not None and getattr(server, "_forkserver_pid", None) is not None:
            warm.finish()  # started before (by other code): whatever it loaded, it has loaded
            return warm
        fd, path = tempfile.mkstemp(prefix="noughts-warmup-", suffix=".jsonl")
        os.close(fd)
        os.environ[WARM_LOG] = path
        try:
            forkserver.ensure_running()
        finally:
            os.environ.pop(WARM_LOG, None)
        pid = getattr(server, "_forkserver_pid", None)
        threading.Thread(target=_follow, args=(warm, path, pid), name="noughts-warm-up", daemon=True).start()
        return warm


def _follow(warm: WarmUp, path: str, pid: int | None) -> None:
    """Read the warm-up's log as it is written, until it says it has finished (or its process
    is gone).
    """
    try:
        with open(path) as f:
            pending = ""
            while not warm.finished.is_set():
                chunk = f.read()
                if chunk:
                    pending += chunk
                    *lines, pending = pending.split("\n")
                    for line in lines:
                        warm.read(line)
                    continue
                if pid is not None and not _alive(pid):
                    warm.finish("the warm-up's process ended before the warm-up did")
                    return
                time.sleep(0.1)
    except OSError as e:  # pragma: no cover (the temporary file went away)
        warm.finish(f"the warm-up's progress could not be read ({e.strerror})")
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _warming(warm: WarmUp) -> Busy:
    """The answer to a request the warm-up cannot take now (429, with its progress)."""
    return Busy(
        f"the arena is {warm.text()}: compiling its kernels once; ask again in a moment", retry_after=2.0
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # pragma: no cover (not ours to signal: alive)
        return True
    return True


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    ready: bool = False
    baseline: int = 0
    busy: str | None = None  # the lane of the task it runs
    games: set[str] = field(default_factory=set)  # games whose engines it keeps warm
    killed: str | None = None  # why the pool killed it (memory, time)

    @property
    def pid(self) -> int:
        return int(self.process.pid or 0)


class WorkerPool:
    """The pool of one arena (see the module docstring)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.size = max(1, limits.workers) + max(0, limits.max_jobs)  # the job lane's own workers
        self.share = limits.worker_memory()
        self._ctx: Any = None
        self._workers: list[_Worker] = []
        self._lock = threading.Condition()
        self._clients: dict[str, int] = {}
        self._closed = False
        self._watchdog: threading.Thread | None = None
        self.started = False
        self.killed = {"time": 0, "memory": 0}
        """How many workers the pool has killed, and why."""
        self.warm: WarmUp | None = None
        self._warm_waiters = 0
        self.compiled = {"compiles": 0, "seconds": 0.0}
        """Kernels the workers compiled inside tasks (the warm-up did not cover them), and the
        seconds it took: time their tasks' clocks did not count."""
        self.compiled_kernels: list[str] = []
        """Which kernels those were (the first 16), for whoever extends the warm-up."""

    # -- processes ---------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the workers (in the background: the first requests wait for them)."""
        with self._lock:
            if self.started or self._closed:
                return
            self.started = True
        self.warm = warm_up(self._context())
        threading.Thread(target=self._start, name="noughts-pool-start", daemon=True).start()
        self._watchdog = threading.Thread(target=self._watch, name="noughts-pool-watchdog", daemon=True)
        self._watchdog.start()

    def _context(self) -> Any:
        if self._ctx is None:
            methods = multiprocessing.get_all_start_methods()
            if "forkserver" in methods:
                ctx: Any = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["noughts.web.preload"])
            else:  # pragma: no cover (Windows, macOS without forkserver)
                ctx = multiprocessing.get_context("spawn")
            self._ctx = ctx
        return self._ctx

    def _spawn(self) -> _Worker | None:
        from noughts.web.work import serve

        ctx = self._context()
        parent, child = ctx.Pipe(duplex=True)
        process = ctx.Process(target=serve, args=(child, self.share), daemon=True, name="noughts-worker")
        try:
            process.start()
        except (OSError, RuntimeError):
            parent.close()
            child.close()
            return None
        child.close()
        worker = _Worker(process, parent)
        if parent.poll(120):
            try:
                kind, rss = parent.recv()
                worker.ready, worker.baseline = kind == "ready", int(rss)
            except (EOFError, OSError, ValueError, TypeError):
                worker.ready = False
        if not worker.ready:
            self._kill(worker)
            return None
        return worker

    def _start(self) -> None:
        """Fill the pool once the warm-up has ended: workers forked then start with every kernel
        loaded.
        """
        assert self.warm is not None
        while not self.warm.finished.wait(0.2):
            if self._closed:
                return
        self._fill()

    def _fill(self) -> None:
        """Bring the pool back to its size (at start, and after a worker is killed)."""
        try:
            self._fill_now()
        except Exception:  # shutting down (the interpreter, or the pool): nothing to bring back
            if not self._closed:
                raise

    def _fill_now(self) -> None:
        while True:
            with self._lock:
                if self._closed or len(self._workers) >= self.size:
                    return
                self._workers.append(placeholder := _Worker(None, None, busy="starting"))  # type: ignore[arg-type]
            worker = self._spawn()
            with self._lock:
                self._workers.remove(placeholder)
                if worker is not None and not self._closed:
                    self._workers.append(worker)
                    self._lock.notify_all()
                elif worker is not None:
                    self._kill(worker)
            if worker is None:
                time.sleep(1.0)

    def _kill(self, worker: _Worker, reason: str | None = None) -> None:
        if reason is not None and worker.killed is None:
            worker.killed = reason
            self.killed[reason] = self.killed.get(reason, 0) + 1
        if worker.process is not None and worker.process.is_alive():
            with contextlib.suppress(OSError):
                os.kill(worker.pid, signal.SIGKILL)
            # reaped in the background: the request that waited on it answers now
            threading.Thread(target=worker.process.join, args=(30,), daemon=True).start()
        if worker.conn is not None:
            with contextlib.suppress(OSError):
                worker.conn.close()

    def _watch(self) -> None:
        """Kill a worker whose resident memory passes its share (the rlimit's second line)."""
        while not self._closed:
            with self._lock:
                workers = [w for w in self._workers if w.ready and w.killed is None]
            for w in workers:
                if _rss(w.pid) - w.baseline > self.share:
                    self._kill(w, "memory")
            time.sleep(0.05)

    def close(self) -> None:
        """Stop every worker."""
        with self._lock:
            self._closed = True
            workers = list(self._workers)
            self._workers.clear()
            self._lock.notify_all()
        for w in workers:
            if w.conn is not None and w.busy is None:
                with contextlib.suppress(OSError):
                    w.conn.send(None)
            if w.process is not None:
                w.process.join(0.5)
            self._kill(w)

    # -- admission -------------------------------------------------------------------------------

    def _counts(self) -> dict[str, int]:
        counts = dict.fromkeys(LANES, 0)
        for w in self._workers:
            if w.busy in counts:
                counts[w.busy] += 1
        return counts

    def _allowed(self, lane: str) -> bool:
        counts = self._counts()
        if lane == "play":
            return True
        if lane == "job":  # the job lane's own workers, never the analyses'
            return counts["job"] < self.limits.max_jobs
        return counts["work"] < max(1, self.limits.workers - self.limits.play_reserve)

    def _acquire(self, lane: str, client: str, game: str | None, wait: float) -> _Worker:
        deadline = time.monotonic() + wait
        with self._lock:
            if self._closed:
                raise Busy("the arena is shutting down")
            if self._clients.get(client, 0) >= self.limits.per_client:
                raise Busy(
                    f"you already have {self.limits.per_client} requests running, the most one client may;"
                    " wait for one to answer",
                    retry_after=1.0,
                )
            while True:
                if self._allowed(lane):
                    free = [w for w in self._workers if w.ready and w.busy is None and w.killed is None]
                    if free:
                        warm = [w for w in free if game is not None and game in w.games]
                        worker = (warm or free)[0]
                        worker.busy = lane
                        self._clients[client] = self._clients.get(client, 0) + 1
                        return worker
                left = deadline - time.monotonic()
                if left <= 0:
                    starting = not any(w.ready for w in self._workers)
                    what = "starting its workers" if starting else "busy: every worker it may use is at work"
                    raise Busy(
                        f"the arena is {what}; try again in a moment", retry_after=2.0 if starting else 1.0
                    )
                self._lock.wait(left)

    def _release(self, worker: _Worker, client: str) -> None:
        replace = False
        with self._lock:
            self._clients[client] = max(0, self._clients.get(client, 0) - 1)
            if not self._clients[client]:
                del self._clients[client]
            if worker.killed is not None or not worker.process.is_alive():
                if worker in self._workers:
                    self._workers.remove(worker)
                replace = not self._closed
            else:
                worker.busy = None
            self._lock.notify_all()
        if replace:
            self._kill(worker)
            threading.Thread(target=self._fill, name="noughts-pool-refill", daemon=True).start()

    # -- running tasks -------------------------------------------------------------------------------

    def run(
        self,
        task: str,
        args: dict[str, Any],
        *,
        seconds: float,
        client: str = "local",
        lane: str = "work",
        game: str | None = None,
        on_progress: Callable[[dict[str, Any]], None] | None = None,
        stop: threading.Event | None = None,
        wait: float | None = None,
        startup: float = 0.0,
        since: float | None = None,
    ) -> Any:
        """Run ``task`` (a method of :class:`noughts.web.work.Worker`) with ``args`` in a worker
        and return its result; the worker is killed ``kill_grace`` seconds past ``seconds``.
        ``LimitExceeded`` when the budget or the memory share ran out, ``NoughtsError`` for bad
        input, :class:`Busy` when no worker can be had within ``wait`` (default
        :attr:`Limits.queue_seconds`; longer while the pool is starting). ``startup``: seconds
        allowed before the task's clock starts (loading a saved agent before its move), which
        the worker marks by sending ``{"clock": true}``. ``since``: when the request arrived
        (``time.monotonic()``); the budget counts from then, the wait for a worker included.
        """
        if lane not in LANES:
            raise ValueError(f"lane is one of {LANES}, not {lane!r}")
        self.start()
        if wait is None:
            wait = self.limits.queue_seconds
        warm = self.warm
        if warm is not None and not warm.finished.is_set():
            self._wait_for_warm_up(warm)
            since = None  # the warm-up is not the work's time
        with self._lock:
            if not any(w.ready for w in self._workers):  # the first requests wait for the start,
                wait = max(wait, self.limits.start_seconds)
                since = None  # which is not their work's time
        worker = self._acquire(lane, client, game, wait)
        try:
            return self._exchange(worker, task, args, seconds, on_progress, stop, startup, since)
        finally:
            if game is not None and worker.killed is None:
                worker.games.add(game)
                if len(worker.games) > 8:
                    worker.games.pop()
            self._release(worker, client)

    def _wait_for_warm_up(self, warm: WarmUp) -> None:
        """Queue a request until the warm-up ends (:attr:`Limits.warm_wait` at most, and at
        most :attr:`Limits.warm_queue` requests at once); else :class:`Busy` with its progress.
        """
        with self._lock:
            if self._warm_waiters >= self.limits.warm_queue:
                raise _warming(warm)
            self._warm_waiters += 1
        try:
            if not warm.finished.wait(self.limits.warm_wait):
                raise _warming(warm)
        finally:
            with self._lock:
                self._warm_waiters -= 1

    def _exchange(
        self,
        worker: _Worker,
        task: str,
        args: dict[str, Any],
        seconds: float,
        on_progress: Callable[[dict[str, Any]], None] | None,
        stop: threading.Event | None,
        startup: float = 0.0,
        since: float | None = None,
    ) -> Any:
        now = time.monotonic()
        sent = now if since is None else min(since, now)
        deadline = sent + startup + seconds + self.limits.kill_grace
        asked_stop = False
        left_then = 0.0  # the task's time left when a compile stopped its clock
        try:
            # the task's clock runs from now: the worker takes off the time the message waited
            worker.conn.send((task, args, time.time() - (now - sent)))
            while True:
                if stop is not None and stop.is_set() and not asked_stop:
                    worker.conn.send("stop")
                    asked_stop = True
                left = deadline - time.monotonic()
                if left <= 0:
                    self._kill(worker, "time")
                    raise LimitExceeded(
                        f"the work did not finish within its {seconds:g} s and was stopped (the arena's worker"
                        " was ended)"
                    )
                if not worker.conn.poll(min(left, 0.1 if stop is not None else 0.5)):
                    continue
                message = worker.conn.recv()
                if message[0] == "progress":
                    if message[1].get("compiling"):  # a kernel the warm-up missed: its clock stops
                        paused = time.monotonic()
                        left_then = deadline - paused
                        deadline = paused + self.limits.compile_seconds
                        continue
                    if "compiled" in message[1]:
                        spent = float(message[1]["compiled"])
                        with self._lock:
                            self.compiled["compiles"] += 1
                            self.compiled["seconds"] += spent
                            if len(self.compiled_kernels) < 16:
                                self.compiled_kernels.append(str(message[1].get("kernel", "?")))
                        deadline = time.monotonic() + max(left_then, 0.0)
                        continue
                    if message[1].get("clock"):  # loading done: only the loading is not the task's time
                        loaded = float(message[1].get("loaded", 0.0))
                        deadline = sent + min(startup, loaded) + seconds + self.limits.kill_grace
                        continue
                    if on_progress is not None:
                        on_progress(message[1])
                    continue
                if message[0] == "ok":
                    return message[1]
                _, kind, text = message
                if kind in ("limit", "memory"):
                    raise LimitExceeded(text)
                if kind == "input":
                    raise NoughtsError(text)
                raise WorkerFailed(text)
        except (EOFError, OSError, BrokenPipeError):
            why = worker.killed
            if why is None:
                self._kill(worker, "memory")  # it died on its own: its memory cap, most likely
                why = "memory"
            if why == "memory":
                raise LimitExceeded(
                    f"the work ran out of the memory the arena gives one task ({self.share // 2**20} MiB) "
                    "and was stopped"
                ) from None
            raise LimitExceeded(f"the work did not finish within its {seconds:g} s and was stopped") from None

    # -- state ------------------------------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        """Workers ready and busy by lane, clients with work running, workers killed."""
        with self._lock:
            counts = self._counts()
            return {
                "workers": self.size,
                "ready": sum(w.ready for w in self._workers),
                "busy": counts,
                "clients": len(self._clients),
                "killed": dict(self.killed),
                "worker_memory": self.share,
                "pids": [w.pid for w in self._workers if w.ready],
                "warmup": self.warm.status() if self.warm is not None else None,
                "compiled_in_tasks": {
                    "compiles": self.compiled["compiles"],
                    "seconds": round(self.compiled["seconds"], 2),
                    "kernels": list(self.compiled_kernels),
                },
            }
