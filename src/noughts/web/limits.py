"""The arena's limits: what one request may ask of the server, and what the server may spend.

Every endpoint that does work checks its input against these before starting, and refuses over
the limit with a 4xx answer saying which limit and how to stay under it. The heavy work runs in
the worker processes of :mod:`noughts.web.workers`, sized and capped by the fields below.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits"]


@dataclass(frozen=True)
class Limits:
    """Bounds on the work the web arena does for one request (or one job)."""

    max_cells: int = 1024
    """The largest board (cells on one board) a game may have; 7x7x7 has 343."""
    max_lines: int = 16_384
    """The most winning lines a board may have (32x32 with five in a row has 3,712; 2^8 with
    two in a row 32,640)."""
    max_solve_seconds: float = 10.0
    """The longest the solver may search for one answer (analysis, overlay, a perfect move)."""
    default_solve_seconds: float = 2.0
    """The solver's budget when a request gives none."""
    max_agent_seconds: float = 10.0
    """The longest move time limit an agent spec may ask for (``seconds=``)."""
    default_agent_seconds: float = 3.0
    """An agent's move time limit when its spec gives none."""
    max_request_bytes: int = 1_000_000
    """The largest request body (uploads included)."""
    max_review_seconds: float = 60.0
    """The longest one review of a game may take (it stops then, with the moves it reviewed)."""
    default_review_seconds: float = 15.0
    """A review's budget when the request gives none."""
    record_seconds: float = 10.0
    """The longest reading, importing or writing one request's records may take (a worker
    builds every game of the record; past it the request is refused with 422, nothing kept)."""
    max_batch_games: int = 10_000
    """The most games one batch may play."""
    max_jobs: int = 2
    """Batches or training runs running at once (the machine's cores, not the users, bound this);
    they run in workers of their own, beside the :attr:`workers`."""
    jobs_per_client: int = 1
    """Batches or training runs one client (an address) may have running at once."""
    max_live_games: int = 4096
    """Games kept in memory at once (older ones are reloaded from the store when asked for)."""
    max_engines: int = 16
    """Games whose solver engines (with their transposition tables) are kept between requests."""
    max_training_episodes: int = 2_000_000
    """The most episodes one training run may ask for."""
    max_minimax_depth: int = 6
    """The deepest minimax an agent spec may ask for (depth 12 would not answer in a move's time)."""
    max_mcts_simulations: int = 200_000
    """The most MCTS simulations per move an agent spec may ask for."""
    max_training_seconds: float = 300.0
    """The longest one training run may take (it stops then, and its agent can be saved)."""
    max_batch_seconds: float = 600.0
    """The longest one batch may take."""
    max_upload_unpacked: int = 64 * 2**20
    """The most bytes an uploaded agent's zip may unpack to."""
    max_memory: int = 1536 * 2**20
    """The ceiling on the server's memory, its workers included (1.5 GiB)."""
    server_memory: int = 512 * 2**20
    """What the ceiling keeps for the server's own process and the process workers are forked
    from; the rest is shared among the workers (the job lane's included)."""
    workers: int = 3
    """Worker processes for solves, counts, analyses and moves (batches and training runs have
    :attr:`max_jobs` more of their own)."""
    play_reserve: int = 1
    """Workers kept for the moves of games in play, whatever analyses and jobs are running."""
    per_client: int = 8
    """Tasks one client (an address) may have running at once."""
    queue_seconds: float = 0.25
    """The longest a request waits for a free worker before it is refused (429)."""
    start_seconds: float = 60.0
    """The longest the first requests wait while the workers start."""
    warm_wait: float = 600.0
    """The longest a request waits for the kernels' warm-up (:mod:`noughts.web.warmup`): it is
    queued and answered once the warm-up ends (its clock starts then), else answered 429 with
    the warm-up's progress (the page asks again and shows the progress meanwhile)."""
    warm_queue: int = 16
    """The most requests queued for the warm-up at once; past it a request is answered 429 with
    the warm-up's progress at once (the server's threads stay free for everything else)."""
    compile_seconds: float = 600.0
    """The longest a task's worker may compile a kernel the warm-up did not cover: the task's
    clock stops while it compiles (a killed compile would be lost, and asked again each time)."""
    kill_grace: float = 1.0
    """Seconds past its budget after which a task's worker is killed."""
    load_seconds: float = 20.0
    """Seconds a worker may take to build or load an agent (a saved agent's tables) before its
    move's clock starts."""
    read_seconds: float = 10.0
    """The time a client has to send one whole request, headers and body, before its connection
    is dropped (:mod:`noughts.web.timeouts`; ``noughts serve`` and the tests' live servers)."""
    allowed_hosts: tuple[str, ...] | None = None
    """Host headers the arena answers (None: any); ``noughts serve`` on a loopback address sets
    the loopback names, so a web page elsewhere cannot reach it by rebinding a name."""

    def worker_memory(self) -> int:
        """Each worker's share of the memory ceiling, in bytes."""
        processes = max(1, self.workers) + max(0, self.max_jobs)  # the job lane's workers too
        return max(64 * 2**20, (self.max_memory - self.server_memory) // processes)
