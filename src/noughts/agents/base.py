"""The agent protocol and the agents that need nothing but the rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from noughts.core import Move, NoughtsError, Position

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent"]


@runtime_checkable
class Agent(Protocol):
    """A player. ``choose`` returns a legal move of a position that has not ended."""

    name: str

    def choose(self, position: Position, rng: np.random.Generator) -> Move: ...


class RandomAgent:
    """Plays a uniformly random legal move."""

    name = "random"

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        moves = position.legal_moves()
        if not moves:
            raise NoughtsError("the game is over: there is no move to choose")
        return moves[int(rng.integers(len(moves)))]


def _perfect(**options: str) -> Agent:
    """``perfect``, ``perfect:tie=random``, ``perfect:table=FILE`` (imported when asked for)."""
    from noughts.agents.perfect import PerfectAgent

    return PerfectAgent.from_options(**options)


_FACTORIES: dict[str, Callable[..., Agent]] = {"random": RandomAgent, "perfect": _perfect}


def agent_names() -> list[str]:
    """The agent names :func:`make_agent` knows."""
    return sorted(_FACTORIES)


def make_agent(spec: str) -> Agent:
    """An agent from a spec ``name`` or ``name:key=value,...``; ``NoughtsError`` if unknown."""
    name, _, options = spec.strip().partition(":")
    factory = _FACTORIES.get(name)
    if factory is None:
        raise NoughtsError(f"unknown agent {name!r}; known agents: {', '.join(agent_names())}")
    kwargs: dict[str, str] = {}
    for item in filter(None, options.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise NoughtsError(f"cannot read agent option {item!r}: write key=value")
        kwargs[key.strip()] = value.strip()
    try:
        return factory(**kwargs)
    except TypeError:
        raise NoughtsError(f"agent {name!r} takes no option(s) {', '.join(kwargs)}") from None
