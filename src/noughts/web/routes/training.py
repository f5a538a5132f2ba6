"""Training runs in the background, owned by who started them, and the saved agents' files."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response

from noughts.core import NoughtsError
from noughts.web.arena import Arena
from noughts.web.models import SaveRequest, TrainingRequest
from noughts.web.routes.common import BatchId, JobTokenHeader, JobTokenQuery, client_of, token_of
from noughts.web.sessions import GameNotFound, check_game
from noughts.web.training import TrainingJob, check_name, learners, wait_started

__all__ = ["router"]


def router(arena: Arena) -> APIRouter:
    """``/api/learners``, ``/api/training`` (start, list, watch, stop, save) and the agents' download and upload."""
    routes = APIRouter()
    limits = arena.limits
    pool = arena.pool

    @routes.get("/api/learners", tags=["train"])
    def list_learners() -> list[dict[str, str]]:
        """The learners a training run can use, and their options."""
        return learners()

    @routes.post("/api/training", tags=["train"], status_code=202)
    def new_training(request: TrainingRequest, http: Request) -> dict[str, Any]:
        """Train a learner by self-play in the background, in a worker; poll its state for the
        charts. Bad options and games too large for the learner are refused in the answer. The
        answer carries the run's ``token``, given only here: stopping the run and saving its
        agent need it (``X-Job-Token``, or ``?token=``).
        """
        game = check_game(request.game, limits)
        if request.learner not in learners_kinds():
            raise NoughtsError(f"unknown learner {request.learner!r}; known: {', '.join(learners_kinds())}")
        if request.episodes > limits.max_training_episodes:
            raise NoughtsError(
                f"a run has at most {limits.max_training_episodes:,} episodes in the arena, not {request.episodes:,}"
            )
        client = client_of(http)
        arena.jobs.reserve(client)
        try:
            config = {
                "game": str(game),
                "learner": request.learner,
                "options": request.options,
                "episodes": request.episodes,
                "source": "web",
            }
            run_id = arena.store.new_run(f"web {request.learner} on {game}", config)
            out = arena.agent_files.folder / "runs" / f"run-{run_id}.json"
            job = TrainingJob(
                run_id,
                game,
                request.learner,
                dict(request.options),
                request.episodes,
                arena.store,
                pool,
                limits,
                out,
            )
            token = job.claim(client)
        except BaseException:
            arena.jobs.release(client)
            raise
        arena.jobs.start(job)
        wait_started(job)
        return job.state() | {"token": token}

    def _run(run_id: int) -> TrainingJob:
        job = arena.jobs.get("training", run_id)
        if not isinstance(job, TrainingJob):
            raise GameNotFound(f"there is no training run {run_id} running or run since the server started")
        return job

    @routes.get("/api/training", tags=["train"])
    def list_training() -> list[dict[str, Any]]:
        """The runs this server has trained since it started, newest first (without series)."""
        return [{k: v for k, v in job.state().items() if k != "series"} for job in arena.jobs.all("training")]  # type: ignore[attr-defined]

    @routes.get("/api/training/{run_id}", tags=["train"])
    def get_training(run_id: BatchId) -> dict[str, Any]:
        """A run's progress and its series of points for the charts."""
        return _run(run_id).state()

    @routes.post("/api/training/{run_id}/stop", tags=["train"])
    def stop_training(
        run_id: BatchId, token: JobTokenHeader = None, token_q: JobTokenQuery = None
    ) -> dict[str, Any]:
        """Stop a run after the chunk of episodes in hand (needs its token; its agent can then
        be saved).
        """
        job = _run(run_id)
        job.check_owner(token_of(token, token_q))
        job.stop()
        return {k: v for k, v in job.state().items() if k != "series"}

    @routes.post("/api/training/{run_id}/save", tags=["train"])
    def save_training(
        run_id: BatchId, request: SaveRequest, token: JobTokenHeader = None, token_q: JobTokenQuery = None
    ) -> dict[str, Any]:
        """Save a finished or stopped run's agent to the registry as ``saved:NAME`` (needs the
        run's token; the agent keeps its owner's token hash).
        """
        job = _run(run_id)
        job.check_owner(token_of(token, token_q))
        if job.status == "running":
            raise NoughtsError("the run is still training: stop it or wait for it to finish, then save")
        if job.status == "failed" or job.file is None:
            raise NoughtsError(f"the run failed ({job.error}); there is no agent to save")
        check_name(request.name)
        saved = arena.agent_files.register(
            request.name, job.file, {"run": job.id, "episodes": job.done, "owner": job.owner}
        )
        job.saved = request.name
        return saved

    @routes.get(
        "/api/agents/{name}/download",
        tags=["agents"],
        response_class=Response,
        responses={200: {"content": {"application/zip": {}}, "description": "the agent's .json and .npz"}},
    )
    def download_agent(name: str = PathParam(min_length=1, max_length=40)) -> Response:
        """A saved agent's files (its JSON and .npz) as one zip."""
        data = arena.agent_files.zip_of(check_name(name))
        return Response(
            data,
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="{name}.zip"'},
        )

    @routes.post(
        "/api/agents/upload",
        tags=["agents"],
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
            }
        },
    )
    async def upload_agent(
        request: Request, name: str = Query(min_length=1, max_length=40)
    ) -> dict[str, Any]:
        """Add a saved agent from a zip of its .json and .npz (as Download gives; send the
        header X-Noughts-Client). The zip is checked from its directory before anything is
        unpacked, then the agent is loaded and validated in a worker.
        """
        data = await request.body()
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(arena.agent_files.upload, check_name(name), data, client_of(request))

    return routes


def learners_kinds() -> list[str]:
    """The learner kinds of :data:`noughts.learn.train.LEARNERS`."""
    from noughts.learn.train import LEARNERS

    return list(LEARNERS)
