"""Long work the arena runs in the background: batches of games (and training runs).

A job is watched by a thread of the server and done by a worker process of the pool
(:mod:`noughts.web.workers`, the ``job`` lane), which sends its progress as it goes and is
killed if the job passes its time limit; the page polls the job's state. At most
:attr:`~noughts.web.limits.Limits.max_jobs` run at once (the machine's cores bound this, not
the number of users); a request for one more is refused with status 429. Every game a batch
plays is recorded in the store as one game of a match, when it ends; game ``i`` of a batch
seeded ``s`` draws its randomness from :func:`noughts.arena.match.game_rng` ``(s, i)``, as in
``noughts arena`` matches, so a batch repeats exactly.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from noughts.core import Game, NoughtsError, Outcome
from noughts.store import Store
from noughts.web.engines import AgentCatalogue
from noughts.web.limits import Limits
from noughts.web.workers import Busy, WorkerPool

__all__ = ["BatchJob", "Busy", "Job", "JobBoard"]


class Job:
    """A piece of background work with an id, a status and a stop flag."""

    kind = "job"

    def __init__(self, job_id: int):
        self.id = job_id
        self.status = "running"
        self.error: str | None = None
        self.started = time.perf_counter()
        self.finished_at: float | None = None
        self.stop_event = threading.Event()
        self._thread: threading.Thread | None = None

    def run(self) -> None:
        """The work itself (in the job's thread)."""
        raise NotImplementedError

    def _main(self, done: Callable[[Job], None]) -> None:
        try:
            self.run()
            self.status = "stopped" if self.stop_event.is_set() else "finished"
        except NoughtsError as e:
            self.status, self.error = "failed", str(e)
        except Exception as e:  # a job's failure is reported on its page, not lost in a thread
            self.status, self.error = "failed", f"{type(e).__name__}: {e}"
        finally:
            self.finished_at = time.perf_counter()
            done(self)

    def start(self, done: Callable[[Job], None]) -> None:
        self._thread = threading.Thread(
            target=self._main, args=(done,), name=f"noughts-{self.kind}-{self.id}"
        )
        self._thread.daemon = True
        self._thread.start()

    def stop(self) -> None:
        """Ask the job to stop at its next step."""
        self.stop_event.set()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the job's thread (for tests and shutdown)."""
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def seconds(self) -> float:
        end = self.finished_at if self.finished_at is not None else time.perf_counter()
        return end - self.started


class JobBoard:
    """The jobs of one arena, running and done, under one limit on how many run at once."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self._jobs: dict[tuple[str, int], Job] = {}
        self._running = 0
        self._lock = threading.Lock()

    def reserve(self) -> None:
        """Take a place for a job about to start; ``Busy`` if there is none."""
        with self._lock:
            if self._running >= self.limits.max_jobs:
                raise Busy(
                    f"the arena is already running {self._running} jobs (batches or training), its limit; "
                    "wait for one to finish or stop one"
                )
            self._running += 1

    def release(self) -> None:
        """Give back a place reserved with :meth:`reserve` for a job that never started."""
        with self._lock:
            self._running -= 1

    def start(self, job: Job) -> None:
        """Run ``job`` in its place reserved with :meth:`reserve`."""
        with self._lock:
            self._jobs[(job.kind, job.id)] = job
        job.start(self._done)

    def _done(self, job: Job) -> None:
        with self._lock:
            self._running -= 1

    def get(self, kind: str, job_id: int) -> Job | None:
        """The job of ``kind`` with id ``job_id``, if this arena ran it."""
        with self._lock:
            return self._jobs.get((kind, job_id))

    def all(self, kind: str) -> list[Job]:
        """Every job of ``kind``, newest first."""
        with self._lock:
            return sorted((j for (k, _), j in self._jobs.items() if k == kind), key=lambda j: -j.id)

    def stop_all(self, timeout: float = 5.0) -> None:
        """Stop every job and wait for them (server shutdown)."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            job.stop()
        for job in jobs:
            job.join(timeout)


class BatchJob(Job):
    """``games`` games of ``game`` between agents ``x`` (first) and ``o`` (second), each one
    recorded in the store under match ``match_id`` as it ends.
    """

    kind = "batch"

    def __init__(
        self,
        match_id: int,
        game: Game,
        x: str,
        o: str,
        games: int,
        seed: int,
        agents: AgentCatalogue,
        pool: WorkerPool,
        store: Store,
        limits: Limits,
    ):
        super().__init__(match_id)
        self.game = game
        self.players = (x, o)
        self.games = games
        self.seed = seed
        self.resolved = (agents.resolve(x), agents.resolve(o))
        self.pool = pool
        self.store = store
        self.limits = limits
        self.counts = {"first": 0, "second": 0, "draw": 0}
        self.played = 0

    def _record(self, done: dict[str, Any]) -> None:
        outcome = Outcome(done["outcome"])
        self.store.record_match_game(
            self.id,
            self.players[0],
            self.players[1],
            outcome,
            list(done["moves"]),
            metadata={"index": int(done["index"]), "seed": self.seed},
        )
        self.counts[outcome.value] += 1
        self.played += 1

    def run(self) -> None:
        seconds = max(r.seconds for r in self.resolved)
        self.pool.run(
            "batch",
            {
                "game": str(self.game),
                "x": self.resolved[0].spec,
                "o": self.resolved[1].spec,
                "games": self.games,
                "seed": self.seed,
                "seconds": seconds,
            },
            seconds=self.limits.max_batch_seconds,
            lane="job",
            client=f"job-{self.kind}-{self.id}",
            on_progress=self._record,
            stop=self.stop_event,
            wait=5.0,
        )

    def state(self) -> dict[str, Any]:
        """The batch as the API returns it (see :class:`noughts.web.models.BatchState`)."""
        return {
            "id": self.id,
            "game": str(self.game),
            "x": self.players[0],
            "o": self.players[1],
            "games": self.games,
            "played": self.played,
            **self.counts,
            "status": self.status,
            "error": self.error,
            "seconds": round(self.seconds, 3),
        }
