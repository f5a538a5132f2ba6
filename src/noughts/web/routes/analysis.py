"""Analysis: exact values within a budget, counts, the engine's and minimax's views, hints."""

from __future__ import annotations

import math
import secrets
from typing import Any

from fastapi import APIRouter, Request

from noughts.core import LimitExceeded, NoughtsError
from noughts.web.arena import Arena
from noughts.web.models import (
    AnalyseRequest,
    Analysis,
    CountRequest,
    EstimateRequest,
    EvaluateRequest,
    Suggestion,
    SuggestRequest,
)
from noughts.web.routes.common import client_of, position_of, since, solve_seconds
from noughts.web.sessions import check_game

__all__ = ["router"]

ESTIMATE_WORK = 20_000
"""The most positions (legal moves to the power of the depth) one estimate may search."""

EVALUATE_SECONDS = 1.0
"""The engine's time for the overlay's view of a position when the request gives none."""


def router(arena: Arena) -> APIRouter:
    """``/api/analyse``, ``/api/count``, ``/api/estimate``, ``/api/evaluate`` and ``/api/suggest``."""
    routes = APIRouter()
    limits = arena.limits
    pool = arena.pool

    @routes.post("/api/analyse", tags=["analysis"], response_model=Analysis)
    def analyse(request: AnalyseRequest, http: Request) -> dict[str, Any]:
        """Solve a position exactly within a time budget: its value, every move's value and
        distance, the principal variation (the ``solve --json`` document), and the per-cell
        view of the evaluation overlay. Over budget: ``solved`` is false and ``reason`` says why.
        """
        game = check_game(request.game, limits)
        position = position_of(game, request.position)
        seconds = solve_seconds(limits, request.max_seconds)
        try:
            result: dict[str, Any] = pool.run(
                "analyse",
                {"game": str(game), "position": position.text(), "seconds": seconds},
                seconds=seconds,
                client=client_of(http),
                game=str(game),
                since=since(http),
            )
        except LimitExceeded as e:
            return {"solved": False, "reason": str(e)}
        return result

    @routes.post("/api/count", tags=["analysis"])
    def count(request: CountRequest, http: Request) -> dict[str, Any]:
        """Count a game exactly (positions, games by outcome and length, terminal positions,
        tree nodes, counts up to symmetry) within a time budget and a worker's memory.
        """
        game = check_game(request.game, limits)
        seconds = solve_seconds(limits, request.max_seconds)
        result: dict[str, Any] = pool.run(
            "count",
            {"game": str(game), "seconds": seconds},
            seconds=seconds,
            client=client_of(http),
            since=since(http),
        )
        return result

    @routes.post("/api/estimate", tags=["analysis"])
    def estimate(request: EstimateRequest, http: Request) -> dict[str, Any]:
        """The minimax agent's own score of every legal move, for the overlay where the solver
        runs out of budget: a heuristic for the side to move (larger is better), not a value.
        """
        game = check_game(request.game, limits)
        position = position_of(game, request.position)
        if position.is_terminal():
            raise NoughtsError("the game is over: there are no moves to estimate")
        width = len(position.legal_moves())
        if width**request.depth > ESTIMATE_WORK:
            raise LimitExceeded(
                f"an estimate at depth {request.depth} over {width} moves is too much work for the arena; "
                f"ask for depth {max(1, int(math.log(ESTIMATE_WORK, width)))}"
            )
        result: dict[str, Any] = pool.run(
            "estimate",
            {"game": str(game), "position": position.text(), "depth": request.depth},
            seconds=limits.max_solve_seconds,
            client=client_of(http),
            since=since(http),
        )
        return result

    @routes.post("/api/evaluate", tags=["analysis"])
    def evaluate(request: EvaluateRequest, http: Request) -> dict[str, Any]:
        """The engine's view of every legal move of a claim game, for the overlay where the
        solver runs out of budget: per move a value from -1 (lost) to 1 (won) for the side to
        move, a label (``W7``/``L12`` where the engine has a proof, ``+0.42`` an estimate), a
        grade (win, good, even, bad, loss) and its rank; within ``max_seconds`` (default 1 s).
        """
        game = check_game(request.game, limits)
        position = position_of(game, request.position)
        if position.is_terminal():
            raise NoughtsError("the game is over: there are no moves to evaluate")
        if game.claim_rule is None:
            raise NoughtsError(
                f"the engine values the moves of claim games; a turn of {game} is more than a claim"
            )
        seconds = (
            EVALUATE_SECONDS if request.max_seconds is None else solve_seconds(limits, request.max_seconds)
        )
        result: dict[str, Any] = pool.run(
            "evaluate",
            {"game": str(game), "position": position.text(), "seconds": seconds},
            seconds=seconds,
            client=client_of(http),
            game=str(game),
            since=since(http),
        )
        return result

    @routes.post("/api/suggest", tags=["analysis"], response_model=Suggestion)
    def suggest(request: SuggestRequest, http: Request) -> dict[str, Any]:
        """The move an agent would play in a position, within its move time limit (a hint
        where the solver cannot help); ``proven`` and ``note`` as in a game's ``decision``.
        """
        game = check_game(request.game, limits)
        position = position_of(game, request.position)
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to suggest")
        spec = arena.agents.check(request.agent)
        why = arena.agents.playable(spec, game)
        if why is not None:
            raise NoughtsError(f"{spec} cannot play {game}: {why}")
        if spec == "human":
            raise NoughtsError("a human's moves are made by the person at the board")
        resolved = arena.agents.resolve(spec)
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        decision: dict[str, Any] = pool.run(
            "move",
            {
                "game": str(game),
                "position": position.text(),
                "agent": resolved.spec,
                "seed": seed,
                "seconds": resolved.seconds,
            },
            seconds=resolved.seconds,
            client=client_of(http),
            lane="play",
            game=str(game),
            startup=limits.load_seconds,
            since=since(http),
        )
        return {
            "agent": spec,
            "move": decision["info"],
            "seconds": decision["seconds"],
            "proven": decision["proven"],
            "note": decision["note"],
        }

    return routes
