"""Long work the arena runs in the background: batches of games (and training runs).

A job is watched by a thread of the server and done by a worker process of the pool
(:mod:`noughts.web.workers`, the ``job`` lane), which sends its progress as it goes and is
killed if the job passes its time limit; the page polls the job's state. At most
:attr:`~noughts.web.limits.Limits.max_jobs` run at once (the machine's cores bound this, not
the number of users); a request for one more is refused with status 429. Every game a batch
plays is recorded in the store as one game of a match, when it ends; game ``i`` of a batch
seeded ``s`` draws its randomness from :func:`noughts.arena.match.game_rng` ``(s, i)``, as in
``noughts arena`` matches, so a batch repeats exactly.

**Owners and lanes.** A job belongs to the client that started it: it is given an unguessable
token when it starts (returned once; only its SHA-256 is kept), and stopping it or saving its
agent needs the token (:class:`~noughts.web.sessions.NotOwner`, HTTP 403, otherwise); anyone may
watch its progress. One client (an address) runs at most :attr:`Limits.jobs_per_client` jobs at
once. Jobs run in the pool's ``job`` lane, whose workers are their own
(:attr:`Limits.max_jobs` of them), so analyses and moves never wait behind them.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from noughts.core import Game, NoughtsError, Outcome
from noughts.store import Store
from noughts.web.engines import AgentCatalogue
from noughts.web.limits import Limits
from noughts.web.sessions import NotOwner, token_hash
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
        self.client = "local"
        """Who started it (an address: its share of the job lane)."""
        self.owner: str | None = None
        """The SHA-256 of the job's token (see the module docstring)."""

    def claim(self, client: str) -> str:
        """Give the job to ``client``: its token (returned once; only its hash is kept)."""
        token = secrets.token_urlsafe(24)
        self.client, self.owner = client, token_hash(token)
        return token

    def check_owner(self, token: str | None) -> None:
        """``NotOwner`` unless ``token`` is this job's."""
        if self.owner is None:
            return
        if not token or not hmac.compare_digest(token_hash(token), self.owner):
            raise NotOwner(
                f"this {self.kind} belongs to whoever started it: you can watch it, but only they can stop it"
                + (" or save its agent" if self.kind == "training" else "")
            )

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
        self._clients: dict[str, int] = {}
        self._lock = threading.Lock()

    def reserve(self, client: str = "local") -> None:
        """Take a place for a job of ``client`` about to start; ``Busy`` if there is none (the
        arena's :attr:`Limits.max_jobs`, or the client's :attr:`Limits.jobs_per_client`).
        """
        with self._lock:
            mine = self._clients.get(client, 0)
            if mine >= self.limits.jobs_per_client:
                raise Busy(
                    f"you already have {mine} {'job' if mine == 1 else 'jobs'} running (batches or training), "
                    "the limit for one client; wait for it to finish or stop it",
                    retry_after=5.0,
                )
            if self._running >= self.limits.max_jobs:
                raise Busy(
                    f"the arena is already running {self._running} jobs (batches or training), its limit; "
                    "wait for one to finish",
                    retry_after=5.0,
                )
            self._running += 1
            self._clients[client] = mine + 1

    def release(self, client: str = "local") -> None:
        """Give back a place reserved with :meth:`reserve` for a job that never started."""
        with self._lock:
            self._running -= 1
            self._clients[client] = self._clients.get(client, 1) - 1
            if self._clients[client] <= 0:
                del self._clients[client]

    def start(self, job: Job) -> None:
        """Run ``job`` in its place reserved with :meth:`reserve`."""
        with self._lock:
            self._jobs[(job.kind, job.id)] = job
        job.start(self._done)

    def _done(self, job: Job) -> None:
        self.release(job.client)

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
