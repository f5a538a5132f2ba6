"""What the routers share: the path and token parameters, and how a request's position, client,
arrival time, token and time budget are read.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Header, Query, Request
from fastapi import Path as PathParam

from noughts.core import Game, NoughtsError, Position
from noughts.web.limits import Limits

__all__ = [
    "BatchId",
    "GameId",
    "JobTokenHeader",
    "JobTokenQuery",
    "TokenHeader",
    "TokenQuery",
    "client_of",
    "position_of",
    "review_seconds",
    "since",
    "solve_seconds",
    "token_of",
]

GameId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="A game's id (from its record).")]
BatchId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="A batch's id (its match's id).")]


def review_seconds(limits: Limits, asked: float | None) -> float:
    if asked is None:
        return limits.default_review_seconds
    if asked > limits.max_review_seconds:
        raise NoughtsError(
            f"max_seconds is at most {limits.max_review_seconds:g} for a review, not {asked:g}"
        )
    return asked


def solve_seconds(limits: Limits, asked: float | None) -> float:
    if asked is None:
        return limits.default_solve_seconds
    if asked > limits.max_solve_seconds:
        raise NoughtsError(f"max_seconds is at most {limits.max_solve_seconds:g} in the arena, not {asked:g}")
    return asked


def position_of(game: Game, text: str | None) -> Position:
    """The position a request names by its text; the start when it names none."""
    return game.parse(text) if text else game.start()


def since(request: Request) -> float | None:
    """When the request arrived (set by :class:`noughts.web.security.Guard`)."""
    arrived = getattr(request.state, "arrived", None)
    return float(arrived) if arrived is not None else None


def client_of(request: Request) -> str:
    """Who asks: the client's address (each address has its share of the workers)."""
    return request.client.host if request.client is not None else "local"


TokenHeader = Annotated[
    str | None,
    Header(alias="X-Game-Token", max_length=200, description="The game's token, as given when it started."),
]
TokenQuery = Annotated[
    str | None, Query(alias="token", max_length=200, description="The game's token (or send X-Game-Token).")
]


def token_of(header: str | None, query: str | None) -> str | None:
    return header or query


# -- owners of jobs (batches, training runs): a token each, as games have --------------------------------

JobTokenHeader = Annotated[
    str | None,
    Header(alias="X-Job-Token", max_length=200, description="The job's token, as given when it started."),
]
JobTokenQuery = Annotated[
    str | None, Query(alias="token", max_length=200, description="The job's token (or send X-Job-Token).")
]
