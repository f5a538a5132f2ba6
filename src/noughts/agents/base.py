"""The agent protocol, the move time limit every agent takes, and the agents that need nothing
but the rules.

**Every agent has a move time limit.** Any agent spec takes ``seconds=S`` (``random:seconds=1``,
``minimax:depth=3,seconds=2``, ``agents/td.json:seconds=1``): :func:`make_agent` reads it, the
same way for every agent, and wraps the agent in :class:`TimeLimited`. A move is then asked for
through :func:`decide`, which hands an agent that can honour a clock (one with a
``decide(position, rng, budget)`` method: the perfect player, and the anytime searches) a
:class:`~noughts.core.budget.Budget` of ``S`` seconds, and tells what came back: a
:class:`Decision` (the move, whether it is proven best, a note, the time it took). Agents without
an anytime search cannot stop themselves; where the limit must hold whatever the agent does (the
web arena), the caller runs the move in a process it kills at the limit.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from noughts.core import Game, Move, NoughtsError, Position
from noughts.core.budget import Budget

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "COMMON_OPTIONS",
    "Agent",
    "AgentForfeit",
    "Decision",
    "RandomAgent",
    "TimeLimited",
    "agent_names",
    "check_plays",
    "decide",
    "make_agent",
    "read_options",
    "split_spec",
]


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


class AgentForfeit(NoughtsError):
    """An agent that cannot go on with its game (an engine process that crashed, hung or played
    an illegal move): the game is lost by the agent that raised it, with this message as the
    reason (:func:`noughts.arena.match.play_game` scores it so).
    """


@dataclass(frozen=True)
class Decision:
    """An agent's move and what it can say about it.

    ``proven``: True when the move is proven best (the exact solver finished), False when the
    agent meant to prove it and could not (the perfect player out of time, playing its fallback's
    move), None when the agent claims nothing. ``note`` says why, in a sentence, when there is
    something to say; ``seconds`` is the time the move took.
    """

    move: Move
    proven: bool | None = None
    note: str = ""
    seconds: float = 0.0


def decide(
    agent: Agent, position: Position, rng: np.random.Generator, budget: Budget | None = None
) -> Decision:
    """``agent``'s move in ``position`` as a :class:`Decision`: agents with a
    ``decide(position, rng, budget)`` method get ``budget`` (None: their own limit, if any);
    any other agent is asked ``choose(position, rng)``.
    """
    started = time.perf_counter()
    method = getattr(agent, "decide", None)
    if method is not None:
        decision: Decision = method(position, rng, budget)
        return decision
    return Decision(agent.choose(position, rng), seconds=time.perf_counter() - started)


def check_plays(agent: Agent, game: Game) -> None:
    """``NoughtsError`` saying why unless ``agent`` can play ``game``: an agent with a
    ``check_game(game)`` method decides itself (the Q-learning tiers, pairings); an agent bound to
    one game (a saved agent, with a ``game``) plays that game only; others play every game.
    """
    check = getattr(agent, "check_game", None)
    if check is not None:
        check(game)
        return
    own = getattr(agent, "game", None)
    if isinstance(own, Game) and own != game:
        raise NoughtsError(f"{agent.name} was made for {own}; it cannot play {game}")


class TimeLimited:
    """An agent with a move time limit of ``seconds`` (see the module docstring); it plays as
    ``agent`` does and is named ``agent``'s name with ``seconds=S`` added.
    """

    def __init__(self, agent: Agent, seconds: float):
        if not seconds > 0 or seconds != seconds or seconds == float("inf"):
            raise NoughtsError(f"an agent's move time limit is a number of seconds above 0, not {seconds!r}")
        self.agent = agent
        self.seconds = float(seconds)
        sep = "," if ":" in agent.name else ":"
        self.name = f"{agent.name}{sep}seconds={self.seconds:g}"

    def __getattr__(self, name: str) -> Any:  # the agent's own attributes (game, spec, ...)
        if name == "agent":
            raise AttributeError(name)
        return getattr(self.agent, name)

    def decide(self, position: Position, rng: np.random.Generator, budget: Budget | None = None) -> Decision:
        """The move within this agent's limit (or ``budget``'s, if that ends sooner)."""
        limit = self.seconds
        if budget is not None and budget.remaining() is not None:
            limit = min(limit, budget.remaining() or 0.0)
        return decide(self.agent, position, rng, Budget(max_seconds=limit, max_memory=None))

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        return self.decide(position, rng).move

    def __repr__(self) -> str:
        return f"TimeLimited({self.agent!r}, seconds={self.seconds:g})"


COMMON_OPTIONS: dict[str, type] = {"seconds": float}
"""Options every agent spec takes, read by :func:`make_agent` for every agent alike."""


_FACTORIES: dict[str, str] = {
    # name -> "module:callable"; the callable takes the spec's options as str keyword arguments.
    # Modules are imported when their agent is asked for, so heavy ones cost nothing until used.
    "random": "noughts.agents.base:RandomAgent",
    "perfect": "noughts.agents.perfect:PerfectAgent.from_options",  # perfect, perfect:tie=random, perfect:table=FILE
    "minimax": "noughts.agents.minimax:from_options",  # minimax:depth=3
    "mcts": "noughts.agents.mcts:from_options",  # mcts:sims=2000
    "engine": "noughts.agents.engine:from_options",  # engine:seconds=0.5
    "pbrain": "noughts.agents.pbrain:from_options",  # pbrain:PATH,seconds=1: an external Gomocup engine
    "pairing": "noughts.agents.pairing:from_options",
    "qlearning": "noughts.agents.qlearning:from_options",  # 003's tiers without a table: qlearning:depth=2
    # the neural learners' checkpoints (the [neural] extra: JAX), az:FILE[,sims=N] and dqn:FILE
    "az": "noughts.neural.agents:az_from_options",
    "dqn": "noughts.neural.agents:dqn_from_options",
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


_POSITIONAL: dict[str, str] = {"pbrain": "path", "az": "file", "dqn": "file"}
"""Agents whose spec starts with a value without a key (``pbrain:PATH,seconds=1``,
``az:FILE,sims=64``): that
value is the option named here."""


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
    The :data:`COMMON_OPTIONS` (``seconds``) are every agent's: :func:`make_agent` reads them,
    so they are checked here and not given back.

    >>> read_options("mcts", {"sims": "200", "solver": "yes"}, {"sims": int, "c": float, "solver": bool})
    {'sims': 200, 'solver': True}
    >>> read_options("random", {"speed": "1"}, {})
    Traceback (most recent call last):
    ...
    noughts.core.errors.NoughtsError: unknown option(s) speed for agent random: it takes seconds
    """
    for key in COMMON_OPTIONS.keys() & options.keys():
        _read_value(agent, key, options[key], COMMON_OPTIONS[key])  # checked here, read by make_agent
    options = {k: v for k, v in options.items() if k not in COMMON_OPTIONS or k in types}
    unknown = sorted(set(options) - set(types))
    if unknown:
        names = [*types, *(k for k in COMMON_OPTIONS if k not in types)]
        raise NoughtsError(
            f"unknown option(s) {', '.join(unknown)} for agent {agent}: it takes {', '.join(names)}"
        )
    return {name: _read_value(agent, name, value, types[name]) for name, value in options.items()}


MAX_OPTION_INT = 10**9
"""The largest whole number an agent option takes (simulations, depth, ...)."""


def _read_value(agent: str, name: str, value: object, kind: type) -> Any:
    if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
        out: Any = value
    elif kind is bool:
        out = _TRUTH.get(str(value).strip().lower())
        if out is None:
            raise NoughtsError(f"{agent} option {name} is true or false, not {value!r}")
    elif kind in (int, float):
        try:
            out = kind(str(value).strip())
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise NoughtsError(f"{agent} option {name} is {what}, not {value!r}") from None
    else:
        out = str(value).strip()
    if kind is int and abs(out) > MAX_OPTION_INT:  # a search's sims or depth: 10**20 never ends
        raise NoughtsError(f"{agent} option {name} is at most {MAX_OPTION_INT:,}, not {value!r}")
    if kind is float and name != "seconds" and not math.isfinite(out):
        raise NoughtsError(f"{agent} option {name} is a finite number, not {value!r}")
    if name == "seconds" and not (0 < out < float("inf")):
        raise NoughtsError(f"{agent} option seconds is a number of seconds above 0, not {value!r}")
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


def _seconds(agent: str, options: Mapping[str, str], exact: bool = False) -> float | None:
    """The ``seconds`` option of a spec's options, read (None if not given); with ``exact``, no
    other option is allowed.
    """
    if exact and set(options) - set(COMMON_OPTIONS):
        others = ", ".join(sorted(set(options) - set(COMMON_OPTIONS)))
        raise NoughtsError(
            f"unknown option(s) {others} for agent {agent}: it takes {', '.join(COMMON_OPTIONS)}"
        )
    value = options.get("seconds")
    return None if value is None else float(_read_value(agent, "seconds", value, float))


def make_agent(spec: str) -> Agent:
    """An agent from a spec ``name`` or ``name:key=value,...``, or a saved agent's ``FILE.json``
    (``FILE.json:seconds=S`` for a time limit), or a neural checkpoint ``az:FILE[,sims=N]`` /
    ``dqn:FILE`` (the ``[neural]`` extra); ``NoughtsError`` if unknown. Names are read
    exactly as written (``Random`` is not ``random``). ``seconds=S`` gives any agent a move time
    limit (:class:`TimeLimited`).
    """
    text = spec.strip()
    name = text.partition(":")[0].strip()
    head, sep, tail = text.partition(".json:")
    if name not in _POSITIONAL and (
        text.endswith(".json") or (sep and head.partition(":")[0] not in _FACTORIES)
    ):
        # a saved agent (versioned JSON metadata + .npz arrays), validated on load
        from noughts.agents.saved import load_agent

        path, options = (text, {}) if not sep else (head + ".json", split_spec("saved:" + tail)[1])
        seconds = _seconds(Path(path).name, options, exact=True)
        agent: Agent = load_agent(Path(path))
        return agent if seconds is None else TimeLimited(agent, seconds)
    name, colon, rest = text.partition(":")
    key = _POSITIONAL.get(name.strip())
    if key is not None and colon and "=" not in rest.split(",", 1)[0]:
        text = f"{name}:{key}={rest}"  # pbrain:PATH,... is pbrain:path=PATH,...
    name, kwargs = split_spec(text)
    factory = _factory(name)
    if factory is None:
        hint = next((n for n in _FACTORIES if n == name.lower()), None)
        known = (
            f"did you mean {hint!r}? (names are lower case)"
            if hint
            else f"known agents: {', '.join(agent_names())}"
        )
        raise NoughtsError(f"unknown agent {name!r}; {known}")
    seconds = _seconds(name, kwargs)
    options = {k: v for k, v in kwargs.items() if k not in COMMON_OPTIONS}
    try:
        agent = factory(**options)
    except TypeError:
        raise NoughtsError(
            f"unknown option(s) {', '.join(options)} for agent {name}: it takes {', '.join(COMMON_OPTIONS)}"
        ) from None
    return agent if seconds is None else TimeLimited(agent, seconds)
