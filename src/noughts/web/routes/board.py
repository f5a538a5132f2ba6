"""The analysis board: a position's board, one step from it, and the review of a record."""

from __future__ import annotations

import contextlib
from typing import Any

from fastapi import APIRouter, Request

from noughts.core import NoughtsError
from noughts.core.size import spec_key
from noughts.web import records
from noughts.web.arena import Arena
from noughts.web.models import BoardRequest, ReviewRequest, StepRequest
from noughts.web.routes.common import client_of, position_of, review_seconds, since
from noughts.web.sessions import check_game

__all__ = ["router"]


def router(arena: Arena) -> APIRouter:
    """``/api/board``, ``/api/step`` and ``/api/review``."""
    routes = APIRouter()
    limits = arena.limits
    pool = arena.pool

    @routes.post("/api/board", tags=["analysis"])
    def board(request: BoardRequest) -> dict[str, Any]:
        """A position's board, who is to move, its result and the game's name (``last``: the
        move that led there, marked on the board).
        """
        game = check_game(request.game, limits)
        return records.board(game, position_of(game, request.position), request.last)

    @routes.post("/api/step", tags=["analysis"])
    def step(request: StepRequest) -> dict[str, Any]:
        """Play one move from a position (``move`` in notation, or a board slot's ``key``): the
        move's notation, who made it, and the position after it with its board. Nothing is
        recorded: the analysis board keeps its own tree.
        """
        game = check_game(request.game, limits)
        return records.step(game, position_of(game, request.position), request.move, request.key)

    @routes.post("/api/review", tags=["analysis"])
    def review(request: ReviewRequest, http: Request) -> dict[str, Any]:
        """Review a record's main line against the solver within ``max_seconds`` (the arena's
        default otherwise): every position's value, every move classed best, inaccuracy or
        mistake, each side's accuracy (the ``noughts review --json`` document). Run out of
        time, it says so (``complete`` false) and keeps what it reviewed.
        """
        size = records.check_record_doc(request.record, limits)  # size before work: nothing built
        seconds = review_seconds(limits, request.max_seconds)
        spec = None
        with contextlib.suppress(NoughtsError):  # only which worker: one that knows the game
            spec = spec_key(size.games[0][0]) if size.games and size.games[0][0] else None
        result: dict[str, Any] = pool.run(
            "review",
            {"record": request.record, "seconds": seconds},  # the worker builds the record
            seconds=seconds,
            client=client_of(http),
            game=spec,
            since=since(http),
        )
        return result

    return routes
