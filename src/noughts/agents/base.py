"""The agent protocol and the agents that need nothing but the rules."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from noughts.core import Move, NoughtsError, Position

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent", "read_options", "split_spec"]


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


_FACTORIES: dict[str, str] = {
    # name -> "module:callable"; the callable takes the spec's options as str keyword arguments.
    # Modules are imported when their agent is asked for, so heavy ones cost nothing until used.
    "random": "noughts.agents.base:RandomAgent",
    "perfect": "noughts.agents.perfect:PerfectAgent.from_options",  # perfect, perfect:tie=random, perfect:table=FILE
    "minimax": "noughts.agents.minimax:from_options",  # minimax:depth=3
    "mcts": "noughts.agents.mcts:from_options",  # mcts:sims=2000
    "engine": "noughts.agents.engine:from_options",  # engine:seconds=0.5
    "pairing": "noughts.agents.pairing:from_options",
    "qlearning": "noughts.agents.qlearning:from_options",  # 003's tiers without a table: qlearning:depth=2
}


def _factory(name: str) -> Callable[..., Agent] | None:
    target = _FACTORIES.get(name)
    if target is None:
        return None
    module_name, _, attr = target.partition(":")
    found: object = importlib.import_module(module_name)
    for part in attr.split("."):
        found = getattr(found, part)
    return cast("Callable[..., Agent]", found)


_TRUTH = {
    "true": True,
    "1": True,
    "yes": True,
    "on": True,
    "false": False,
    "0": False,
    "no": False,
    "off": False,
}


def read_options(agent: str, options: Mapping[str, object], types: Mapping[str, type]) -> dict[str, Any]:
    """The options of an agent spec (``name:key=value,...``) read as ``types`` says (``bool``,
    ``int``, ``float`` or ``str``). Only the options given come back, so callers keep their own
    defaults; an unknown name or an unreadable value is a ``NoughtsError`` naming the agent.

    >>> read_options("mcts", {"sims": "200", "solver": "yes"}, {"sims": int, "c": float, "solver": bool})
    {'sims': 200, 'solver': True}
    """
    unknown = sorted(set(options) - set(types))
    if unknown:
        known = f"it takes {', '.join(types)}" if types else "it takes none"
        raise NoughtsError(f"unknown option(s) {', '.join(unknown)} for agent {agent}: {known}")
    out: dict[str, Any] = {}
    for name, value in options.items():
        kind = types[name]
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            out[name] = value
        elif kind is bool:
            truth = _TRUTH.get(str(value).strip().lower())
            if truth is None:
                raise NoughtsError(f"{agent} option {name} is true or false, not {value!r}")
            out[name] = truth
        elif kind in (int, float):
            try:
                out[name] = kind(str(value).strip())
            except ValueError:
                what = "a whole number" if kind is int else "a number"
                raise NoughtsError(f"{agent} option {name} is {what}, not {value!r}") from None
        else:
            out[name] = str(value).strip()
    return out


def agent_names() -> list[str]:
    """The agent names :func:`make_agent` knows."""
    return sorted(_FACTORIES)


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """An agent spec ``name:key=value,...`` split into its name and its options (as text).

    >>> split_spec("minimax:depth=3,book=true")
    ('minimax', {'depth': '3', 'book': 'true'})
    """
    name, _, options = spec.strip().partition(":")
    kwargs: dict[str, str] = {}
    for item in filter(None, options.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise NoughtsError(f"cannot read agent option {item!r}: write key=value")
        kwargs[key.strip()] = value.strip()
    return name.strip(), kwargs


def make_agent(spec: str) -> Agent:
    """An agent from a spec ``name`` or ``name:key=value,...``; ``NoughtsError`` if unknown."""
    if spec.strip().endswith(".json") and spec.strip().partition(":")[0] not in _FACTORIES:
        # a saved agent (versioned JSON metadata + .npz arrays), validated on load
        from noughts.agents.saved import load_agent

        agent: Agent = load_agent(Path(spec.strip()))
        return agent
    name, kwargs = split_spec(spec)
    factory = _factory(name)
    if factory is None:
        raise NoughtsError(f"unknown agent {name!r}; known agents: {', '.join(agent_names())}")
    try:
        return factory(**kwargs)
    except TypeError:
        raise NoughtsError(f"unknown option(s) {', '.join(kwargs)} for agent {name}: it takes none") from None
