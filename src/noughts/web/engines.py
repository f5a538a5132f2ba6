"""The arena's players and solver engines, kept between requests.

A solver engine keeps a transposition table that makes the second question about a game far
cheaper than the first, so the arena keeps one :class:`~noughts.agents.perfect.PerfectAgent`
per game (the perfect player makes its engine once per game) and answers every perfect move,
hint, overlay and analysis of that game from it. Engines are not safe to share between threads
in the middle of a search, so each game's engine has a lock; the least recently used games are
dropped past :attr:`Limits.max_engines`.

Agents are named by the specs of :func:`noughts.agents.make_agent`, checked first: a web
client never names a server path, so ``.json`` specs and ``perfect:table=FILE`` are refused, and
saved agents are named ``saved:NAME`` (a name in the store's registry, resolved here).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from noughts.agents import Agent, agent_names, make_agent
from noughts.agents.base import split_spec
from noughts.agents.perfect import PerfectAgent
from noughts.core import Game, LimitExceeded, Move, NoughtsError, Position
from noughts.core.budget import Budget
from noughts.exact.api import ValueOracle, move_values, principal_variation, value_of_best
from noughts.exact.reference import terminal_value
from noughts.exact.result import SolveResult
from noughts.web.limits import Limits

__all__ = ["HUMAN", "AgentPool", "EngineCache", "check_agent_spec"]

HUMAN = "human"
"""The player name of a person at the board (the page plays for them)."""

ENGINE_MEMORY = 256 * 2**20
"""Bytes of tables one game's engine may hold."""


@dataclass
class _Entry:
    game: Game
    agent: PerfectAgent
    lock: threading.Lock = field(default_factory=threading.Lock)


class EngineCache:
    """One perfect player (and so one solver engine) per game, shared by every request."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def _entry(self, game: Game) -> _Entry:
        with self._lock:
            entry = self._entries.get(game.spec)
            if entry is None:
                entry = _Entry(game, PerfectAgent(max_memory=ENGINE_MEMORY))
                self._entries[game.spec] = entry
                while len(self._entries) > self.limits.max_engines:
                    self._entries.popitem(last=False)
            else:
                self._entries.move_to_end(game.spec)
            return entry

    def _run(self, game: Game, max_seconds: float, work: Callable[[ValueOracle, PerfectAgent], Any]) -> Any:
        """Run ``work(engine, agent)`` under the game's lock with a time budget on the engine."""
        entry = self._entry(game)
        with entry.lock:
            engine = entry.agent.engine(game)
            if hasattr(engine, "budget"):
                engine.budget = Budget(max_seconds=max_seconds, max_memory=ENGINE_MEMORY)
            return work(engine, entry.agent)

    def analyse(self, game: Game, position: Position, max_seconds: float) -> SolveResult:
        """Solve ``position`` exactly (its value, every move's value, the principal variation)
        with the game's kept engine, within ``max_seconds``; ``LimitExceeded`` past it.
        """
        started = time.perf_counter()
        if position.is_terminal():
            return SolveResult(game, position, terminal_value(position), (), (), 0, 0.0)

        def work(engine: ValueOracle, agent: PerfectAgent) -> SolveResult:
            before = int(getattr(engine, "nodes", 0))
            rated = move_values(engine, position)
            value = value_of_best(game, rated[0].value)
            pv = principal_variation(engine, position, value)
            nodes = int(getattr(engine, "nodes", 0)) - before
            return SolveResult(game, position, value, tuple(rated), pv, nodes, time.perf_counter() - started)

        try:
            result: SolveResult = self._run(game, max_seconds, work)
        except LimitExceeded as e:
            raise LimitExceeded(
                f"{game} is not solved within {max_seconds:g} s from this position ({e})"
            ) from None
        return result

    def perfect_move(
        self, game: Game, position: Position, tie_break: str, rng: np.random.Generator, max_seconds: float
    ) -> Move:
        """The perfect player's move (first or random among the best), within ``max_seconds``."""

        def work(engine: ValueOracle, agent: PerfectAgent) -> Move:
            best = agent.best_moves(position)
            if not best:
                raise NoughtsError("the game is over: there is no move to choose")
            if tie_break == "random" and len(best) > 1:
                return best[int(rng.integers(len(best)))]
            return best[0]

        try:
            move: Move = self._run(game, max_seconds, work)
        except LimitExceeded:
            raise LimitExceeded(
                f"the perfect player could not solve {game} within {max_seconds:g} s; "
                "choose minimax or mcts for a game this large"
            ) from None
        return move

    def __len__(self) -> int:
        return len(self._entries)


# -- agent specs ------------------------------------------------------------------------------------

MAX_AGENT_SECONDS = 10.0
"""The longest clock per move an agent spec may ask for in the arena."""

_NUMERIC_LIMITS = {("minimax", "depth"): "max_minimax_depth", ("mcts", "sims"): "max_mcts_simulations"}


def check_agent_spec(spec: str, limits: Limits) -> tuple[str, dict[str, str]]:
    """Read an agent spec as a web client may write it: ``name`` or ``name:key=value,...``,
    a known agent, no server paths, numbers within the arena's limits. Returns the name and
    options; raises ``NoughtsError`` saying what is wrong.
    """
    text = spec.strip()
    if not text:
        raise NoughtsError("an agent spec is empty; write e.g. 'perfect', 'minimax:depth=3' or 'saved:NAME'")
    if text.lower() == HUMAN:
        return HUMAN, {}
    if "/" in text or "\\" in text or text.lower().endswith(".json"):
        raise NoughtsError(
            f"agent {spec!r} names a file; the arena names saved agents by their registry name, 'saved:NAME'"
        )
    name, _, options = text.partition(":")
    name = name.strip()
    if name == "saved":
        if not options.strip():
            raise NoughtsError("write a saved agent as 'saved:NAME' (see the agents list)")
        return name, {"name": options.strip()}
    if name not in agent_names():
        raise NoughtsError(
            f"unknown agent {name!r}; known agents: {', '.join([HUMAN, *agent_names(), 'saved'])}"
        )
    _, opts = split_spec(text)
    if name == "perfect" and "table" in opts:
        raise NoughtsError(
            "the arena's perfect player needs no table: write 'perfect' or 'perfect:tie=random'"
        )
    for (agent, key), limit_name in _NUMERIC_LIMITS.items():
        if name == agent and key in opts:
            limit = getattr(limits, limit_name)
            try:
                number = int(opts[key])
            except ValueError:
                raise NoughtsError(f"{agent}: {key} must be a whole number, not {opts[key]!r}") from None
            if not 1 <= number <= limit:
                raise NoughtsError(f"{agent}: {key} must be between 1 and {limit} in the arena, not {number}")
    if "seconds" in opts:  # a clock per move (engine, mcts, minimax): no seat may stall a game
        try:
            seconds = float(opts["seconds"])
        except ValueError:
            raise NoughtsError(f"{name}: seconds must be a number, not {opts['seconds']!r}") from None
        if not 0 < seconds <= MAX_AGENT_SECONDS:
            raise NoughtsError(f"{name}: seconds must be above 0 and at most {MAX_AGENT_SECONDS:g} in the arena")
    return name, opts


class AgentPool:
    """Agents by spec, made once and kept; the perfect player's moves go to the engine cache.

    ``resolve_saved(name)`` turns a registry name into an agent (the store's registry); without
    it, ``saved:NAME`` specs are refused.
    """

    def __init__(
        self,
        engines: EngineCache,
        limits: Limits,
        resolve_saved: Callable[[str], Agent] | None = None,
    ):
        self.engines = engines
        self.limits = limits
        self.resolve_saved = resolve_saved
        self._agents: OrderedDict[str, tuple[Agent, threading.Lock]] = OrderedDict()
        self._lock = threading.Lock()

    def check(self, spec: str) -> str:
        """The spec, stripped, once it passes :func:`check_agent_spec` (and names a saved agent
        that exists); raises ``NoughtsError`` otherwise.
        """
        name, opts = check_agent_spec(spec, self.limits)
        if name == "perfect":
            tie = opts.pop("tie", "first")
            if opts or tie not in ("first", "random"):
                raise NoughtsError("the perfect player takes one option, tie=first or tie=random")
        elif name == "saved":
            self._get(spec.strip())  # loads it, so a missing name is refused now
        elif name != HUMAN:
            self._get(spec.strip())  # builds it, so bad options are refused now
        return spec.strip()

    def _get(self, spec: str) -> tuple[Agent, threading.Lock]:
        with self._lock:
            found = self._agents.get(spec)
            if found is not None:
                self._agents.move_to_end(spec)
                return found
        name, opts = check_agent_spec(spec, self.limits)
        if name == "saved":
            if self.resolve_saved is None:
                raise NoughtsError("this arena has no registry of saved agents")
            agent = self.resolve_saved(opts["name"])
        else:
            try:
                agent = make_agent(spec)
            except ImportError:
                raise NoughtsError(f"the agent {name!r} is not available in this installation") from None
        with self._lock:
            found = self._agents.setdefault(spec, (agent, threading.Lock()))
            while len(self._agents) > 64:
                self._agents.popitem(last=False)
        return found

    def forget(self, spec: str) -> None:
        """Drop a kept agent (after a saved agent of that name is replaced)."""
        with self._lock:
            self._agents.pop(spec, None)

    def choose(self, spec: str, position: Position, rng: np.random.Generator) -> Move:
        """The move the agent named ``spec`` makes in ``position``."""
        name, opts = check_agent_spec(spec, self.limits)
        game = position.game
        if name == HUMAN:
            raise NoughtsError("a human's moves are made by the person at the board")
        if name == "perfect":
            max_seconds = self.limits.max_agent_seconds
            return self.engines.perfect_move(game, position, opts.get("tie", "first"), rng, max_seconds)
        agent, lock = self._get(spec)
        with lock:
            return agent.choose(position, rng)
