"""The arena's limits: what one request may ask of the server.

Every endpoint that does work checks its input against these before starting, and refuses over
the limit with a 4xx answer saying which limit and how to stay under it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits"]


@dataclass(frozen=True)
class Limits:
    """Bounds on the work the web arena does for one request (or one job)."""

    max_cells: int = 1024
    """The largest board (cells on one board) a game may have; 7x7x7 has 343."""
    max_solve_seconds: float = 10.0
    """The longest the solver may search for one answer (analysis, overlay, a perfect move)."""
    default_solve_seconds: float = 2.0
    """The solver's budget when a request gives none."""
    max_agent_seconds: float = 10.0
    """The longest an agent's move may take before the request is refused."""
    max_request_bytes: int = 1_000_000
    """The largest request body (uploads included)."""
    max_batch_games: int = 10_000
    """The most games one batch may play."""
    max_jobs: int = 2
    """Batches or training runs running at once (the machine's cores, not the users, bound this)."""
    max_live_games: int = 4096
    """Games kept in memory at once (older ones are reloaded from the store when asked for)."""
    max_engines: int = 16
    """Games whose solver engines (with their transposition tables) are kept between requests."""
    max_training_episodes: int = 2_000_000
    """The most episodes one training run may ask for."""
    max_minimax_depth: int = 12
    """The deepest minimax an agent spec may ask for."""
    max_mcts_simulations: int = 200_000
    """The most MCTS simulations per move an agent spec may ask for."""
