"""The batches: games between two agents played in the background, owned by who started them."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request

from noughts.core import NoughtsError
from noughts.web.arena import Arena
from noughts.web.jobs import BatchJob
from noughts.web.models import BatchRequest, BatchState, StartedBatch
from noughts.web.routes.common import BatchId, JobTokenHeader, JobTokenQuery, client_of, token_of
from noughts.web.sessions import GameNotFound, check_game

__all__ = ["router"]


def router(arena: Arena) -> APIRouter:
    """``/api/batches``: start, list, watch and stop (with the batch's token)."""
    routes = APIRouter()
    limits = arena.limits
    pool = arena.pool

    @routes.post("/api/batches", tags=["watch"], response_model=StartedBatch, status_code=202)
    def new_batch(request: BatchRequest, http: Request) -> dict[str, Any]:
        """Play a batch of games between two agents in the background (poll its state). The
        answer carries the batch's ``token``, given only here: stopping it needs it
        (``X-Job-Token``, or ``?token=``).
        """
        game = check_game(request.game, limits)
        x, o = arena.agents.check(request.x), arena.agents.check(request.o)
        if "human" in (x, o):
            raise NoughtsError("a batch is played by two agents; choose an agent for each seat")
        for spec in (x, o):
            why = arena.agents.playable(spec, game)
            if why is not None:
                raise NoughtsError(f"{spec} cannot play {game}: {why}")
        if request.games > limits.max_batch_games:
            raise NoughtsError(f"a batch has at most {limits.max_batch_games:,} games, not {request.games:,}")
        client = client_of(http)
        arena.jobs.reserve(client)
        try:
            seed = request.seed if request.seed is not None else secrets.randbits(63)
            match_id = arena.store.new_match(
                str(game), x, o, {"games": request.games, "seed": seed, "source": "web"}
            )
            job = BatchJob(match_id, game, x, o, request.games, seed, arena.agents, pool, arena.store, limits)
            token = job.claim(client)
        except BaseException:
            arena.jobs.release(client)
            raise
        arena.jobs.start(job)
        return job.state() | {"token": token}

    @routes.get("/api/batches", tags=["watch"], response_model=list[BatchState])
    def list_batches() -> list[dict[str, Any]]:
        """The batches this server has run since it started, newest first."""
        return [job.state() for job in arena.jobs.all("batch")]  # type: ignore[attr-defined]

    def _batch(batch_id: int) -> BatchJob:
        job = arena.jobs.get("batch", batch_id)
        if not isinstance(job, BatchJob):
            raise GameNotFound(f"there is no batch {batch_id} running or run since the server started")
        return job

    @routes.get("/api/batches/{batch_id}", tags=["watch"], response_model=BatchState)
    def get_batch(batch_id: BatchId) -> dict[str, Any]:
        """A batch's progress and results so far."""
        return _batch(batch_id).state()

    @routes.post("/api/batches/{batch_id}/stop", tags=["watch"], response_model=BatchState)
    def stop_batch(
        batch_id: BatchId, token: JobTokenHeader = None, token_q: JobTokenQuery = None
    ) -> dict[str, Any]:
        """Stop a batch now (needs its token); the games it finished stay recorded (the one in
        play is dropped).
        """
        job = _batch(batch_id)
        job.check_owner(token_of(token, token_q))
        job.stop()
        return job.state()

    return routes
