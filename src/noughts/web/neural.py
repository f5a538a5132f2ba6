"""The arena's neural panel: training runs' grades over time, and what a network thinks of a position.

Three endpoints (the page is ``static/neural.js``):

* ``GET /api/neural/runs``: the neural training runs the store records (``noughts train az|dqn``
  records each run when it starts, with its ``--out`` file) with their **grades over time**, read
  from the CSV the run writes beside its checkpoint at every grade (so a page that polls it
  watches a run while it learns), and the saved checkpoints of kinds ``az`` and ``dqn`` in the
  registry (what ``saved:NAME`` plays, on the Play page as anywhere);
* ``GET /api/neural/runs/{id}``: one run and its curve;
* ``POST /api/neural/explain``: a saved checkpoint's view of a position **beside the exact
  values**: the network's prior (az) or action value (dqn) of every legal move and its value of
  the position, computed in a worker (task ``network_view``, :func:`network_view`); the
  solver's value of every move within ``max_seconds`` (the analysis overlay's ``evaluation``,
  or ``solved: false`` and why); and the board's view, so the page draws both heatmaps on the
  same cells.

**No JAX in the arena.** The workers cap their address space, and JAX's runtime does not start
under the cap; so the network runs there in NumPy (:mod:`noughts.neural.light`, held to the JAX
network in the tests): :func:`light_agent` is how a worker builds a saved checkpoint's player
(its own move, no search), for the Play page's seats as for the explanations.

Only registered checkpoints are named (``saved:NAME``), never files; the run list reads only the
files the store names, each CSV bounded in size.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from noughts.core import NoughtsError
from noughts.store import StoreError
from noughts.web.boards import board_view
from noughts.web.specs import check_game

__all__ = ["CURVE_COLUMNS", "ExplainRequest", "light_agent", "network_view", "read_curve", "register_neural"]

NEURAL_KINDS = ("az", "dqn")
RUN_NAMES = tuple(f"train {k}" for k in NEURAL_KINDS)
MAX_CURVE_BYTES = 2 * 1024 * 1024
MAX_RUNS = 50
CURVE_COLUMNS = (
    "iteration",
    "games",
    "seconds",
    "optimal_move_rate",
    "positions",
    "blunders",
    "first_wins",
    "first_draws",
    "first_losses",
    "second_wins",
    "second_draws",
    "second_losses",
    "random_rate",
)


class ExplainRequest(BaseModel):
    """A saved checkpoint's view of a position beside the solver's."""

    model_config = ConfigDict(extra="forbid")

    agent: str = Field(
        min_length=1, max_length=60, description="saved:NAME, a registered az or dqn checkpoint."
    )
    game: str = Field(min_length=1, max_length=200, description="The game spec (the checkpoint's own game).")
    position: str | None = Field(
        default=None, max_length=4000, description="The position (default: the start)."
    )
    max_seconds: float = Field(
        default=2.0, gt=0, le=10, description="The solver's budget for the exact values."
    )


def read_curve(out: str | Path) -> list[dict[str, float]]:
    """The grades of the run saved as ``out`` (``runs/az.json`` -> ``runs/az.csv``), oldest first:
    ``CURVE_COLUMNS`` of each row; [] when there is no such file yet, or it is not a grade file.
    """
    path = Path(out)
    path = path.with_name(path.stem + ".csv")
    try:
        if not path.is_file() or path.stat().st_size > MAX_CURVE_BYTES:
            return []
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    rows = []
    for rec in csv.DictReader(io.StringIO(text)):
        try:
            rows.append({k: float(rec[k]) for k in CURVE_COLUMNS})
        except (KeyError, TypeError, ValueError):
            return []
    return rows


def _run_json(run: Any, with_curve: bool) -> dict[str, Any]:
    curve = read_curve(run.path) if run.path else []
    last = curve[-1] if curve else None
    best = max(curve, key=lambda r: r["optimal_move_rate"]) if curve else None
    doc: dict[str, Any] = {
        "id": run.id,
        "learner": run.config.get("learner", run.name.removeprefix("train ")),
        "game": run.config.get("game"),
        "status": run.status,
        "created": run.created,
        "updated": run.updated,
        "grades": len(curve),
        "last": last,
        "best": best,
    }
    if with_curve:
        doc["curve"] = curve
    return doc


def light_agent(spec: str) -> Any | None:
    """A worker's player for ``spec`` when it is the file of a neural checkpoint (its network in
    NumPy, :mod:`noughts.neural.light`); None for any other spec (the worker builds that one).
    """
    path = Path(spec)
    if not spec.endswith(".json") or not path.is_file():
        return None
    try:
        with path.open(encoding="utf-8") as f:
            head = json.loads(f.read(1 << 20))
    except (OSError, ValueError):
        return None
    if not isinstance(head, dict) or head.get("kind") not in NEURAL_KINDS:
        return None
    from noughts.neural.light import load_light

    return load_light(path)


def network_view(worker: Any, agent: str, game: str, position: str | None, seconds: float) -> dict[str, Any]:
    """The worker's side of ``POST /api/neural/explain``: the checkpoint file ``agent``'s view of
    the position (:meth:`noughts.neural.light.LightAgent.explain`) and the solver's values
    within ``seconds`` (the worker's ``analyse``).
    """
    player = light_agent(agent)
    if player is None:
        raise NoughtsError("the saved agent is not a network checkpoint (az or dqn)")
    if str(player.game) != game:
        raise NoughtsError(f"the checkpoint was trained on {player.game}, not {game}")
    p = player.game.parse(position) if position else player.game.start()
    network = player.explain(p)
    worker.emit({"clock": True})
    exact: dict[str, Any] = worker.analyse(game, position, seconds)
    return {"network": network, "exact": exact}


def register_neural(app: APIRouter, arena: Any) -> None:
    """Add the neural panel's endpoints (see the module docstring) to ``app`` (the router of
    :mod:`noughts.web.routes.neural`).
    """
    limits = arena.limits

    @app.get("/api/neural/runs", tags=["neural"])
    def neural_runs() -> dict[str, Any]:
        """The neural training runs (newest first, with their latest and best grades) and the
        saved az and dqn checkpoints.
        """
        runs = [r for r in arena.store.runs(limit=1000) if r.name in RUN_NAMES][:MAX_RUNS]
        agents = []
        for kind in NEURAL_KINDS:
            for a in arena.store.agents(kind=kind):
                agents.append({"name": a.name, "kind": a.kind, "game": a.spec, "metadata": a.metadata})
        return {"runs": [_run_json(r, with_curve=False) for r in runs], "agents": agents}

    @app.get("/api/neural/runs/{run_id}", tags=["neural"])
    def neural_run(run_id: int = PathParam(ge=1, le=2**62)) -> dict[str, Any]:
        """One neural training run with its grades over time (``curve``: one row per grade)."""
        try:
            run = arena.store.run(run_id)
        except StoreError:
            raise NoughtsError(f"there is no run {run_id}") from None
        if run.name not in RUN_NAMES:
            raise NoughtsError(f"run {run_id} is not a neural training run")
        return _run_json(run, with_curve=True)

    @app.post("/api/neural/explain", tags=["neural"])
    def neural_explain(request: ExplainRequest, http: Request) -> dict[str, Any]:
        """A saved az/dqn checkpoint's priors (or action values) of every legal move and its value
        of the position, beside the solver's value of every move, and the board to draw them on.
        """
        game = check_game(request.game, limits)
        position = game.parse(request.position) if request.position else game.start()
        if position.is_terminal():
            raise NoughtsError("the game is over: there are no moves to explain")
        spec = request.agent.strip()
        if not spec.startswith("saved:"):
            raise NoughtsError(
                "name a saved checkpoint: saved:NAME (noughts train az|dqn registers its best one)"
            )
        try:
            record = arena.store.agent(spec.removeprefix("saved:"))
        except StoreError:
            raise NoughtsError(f"there is no saved agent named {spec.removeprefix('saved:')!r}") from None
        if record.kind not in NEURAL_KINDS or not record.path:
            raise NoughtsError(f"{spec} is a {record.kind} agent, not a network (az or dqn)")
        if record.spec is not None and record.spec != str(game):
            raise NoughtsError(f"{spec} was trained on {record.spec}, not {game}")
        seconds = request.max_seconds
        client = http.client.host if http.client is not None else "local"
        result: dict[str, Any] = arena.pool.run(
            "network_view",
            {
                "agent": str(record.path),
                "game": str(game),
                "position": position.text(),
                "seconds": seconds,
            },
            seconds=seconds,
            client=client,
            lane="play",
            game=str(game),
            startup=limits.load_seconds,
        )
        return {"agent": spec, "game": str(game), "board": board_view(game, position), **result}
