"""The arena's players: agent specs as a web client may write them, checked and resolved.

Agents are named by the specs of :func:`noughts.agents.make_agent`, checked here first: a web
client never names a server path, so ``.json`` specs, ``perfect:table=FILE`` and
``pairing:file=FILE`` are refused, and saved agents are named ``saved:NAME`` (a name in the
store's registry, resolved here to its file for the worker that loads it). Names are read
exactly as written (``HuMaN`` is refused, with a hint, rather than half understood). Numbers are
held to the arena's limits (minimax depth, MCTS simulations, the move time limit ``seconds``),
and every agent gets a move time limit: its own ``seconds=`` or
:attr:`Limits.default_agent_seconds`. The moves themselves are made in the worker processes
(:mod:`noughts.web.work`), which keep the agents and the solver engines between moves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from noughts.agents import agent_names, make_agent
from noughts.agents.base import COMMON_OPTIONS, check_plays, split_spec
from noughts.core import Game, NoughtsError
from noughts.web.limits import Limits

__all__ = ["HUMAN", "INLINE", "AgentCatalogue", "Resolved", "SavedRecord", "check_agent_spec"]

HUMAN = "human"
"""The player name of a person at the board (the page plays for them)."""

INLINE = ("random",)
"""Agents whose moves cost nothing: made in the server's process, not a worker's."""

_NUMERIC_LIMITS = {("minimax", "depth"): "max_minimax_depth", ("mcts", "sims"): "max_mcts_simulations"}
_FILE_OPTIONS = {("perfect", "table"), ("pairing", "file"), ("az", "file"), ("dqn", "file")}


def check_agent_spec(spec: str, limits: Limits) -> tuple[str, dict[str, str]]:
    """Read an agent spec as a web client may write it: ``human``, ``name`` or
    ``name:key=value,...`` of a known agent, or ``saved:NAME``; no server paths; numbers within
    the arena's limits. Returns the name and options; ``NoughtsError`` saying what is wrong.
    """
    text = spec.strip()
    if not text:
        raise NoughtsError("an agent spec is empty; write e.g. 'perfect', 'minimax:depth=3' or 'saved:NAME'")
    if text == HUMAN:
        return HUMAN, {}
    if text.lower() == HUMAN:
        raise NoughtsError(f"unknown agent {spec!r}: a person at the board is 'human' (names are lower case)")
    if "/" in text or "\\" in text or text.lower().endswith(".json") or ".json:" in text.lower():
        raise NoughtsError(
            f"agent {spec!r} names a file; the arena names saved agents by their registry name, 'saved:NAME'"
        )
    name, _, rest = text.partition(":")
    name = name.strip()
    if name == "saved":
        saved, _, options = rest.partition(",")
        if not saved.strip():
            raise NoughtsError("write a saved agent as 'saved:NAME' (see the agents list)")
        opts = split_spec("saved:" + options)[1] if options else {}
        unknown = set(opts) - set(COMMON_OPTIONS)
        if unknown:
            raise NoughtsError(f"a saved agent takes only seconds=S, not {', '.join(sorted(unknown))}")
        _check_seconds(opts, limits)
        return name, {"name": saved.strip(), **opts}
    if name not in agent_names():
        hint = next((n for n in [HUMAN, *agent_names(), "saved"] if n == name.lower()), None)
        known = (
            f"did you mean {hint!r}? (names are lower case)"
            if hint
            else f"known agents: {', '.join([HUMAN, *agent_names(), 'saved:NAME'])}"
        )
        raise NoughtsError(f"unknown agent {name!r}; {known}")
    _, opts = split_spec(text)
    for agent, key in _FILE_OPTIONS:
        if name == agent and key in opts:
            raise NoughtsError(f"the arena's {agent} agent takes no {key}= (no files from a web client)")
    for (agent, key), limit_name in _NUMERIC_LIMITS.items():
        if name == agent and key in opts:
            limit = getattr(limits, limit_name)
            try:
                number = int(opts[key])
            except ValueError:
                raise NoughtsError(f"{agent}: {key} must be a whole number, not {opts[key]!r}") from None
            if not 1 <= number <= limit:
                raise NoughtsError(
                    f"{agent}: {key}={number} is refused in the arena, which allows 1 to {limit}: a move must "
                    "come within its time limit (seconds=, at most "
                    f"{limits.max_agent_seconds:g} s)"
                )
    _check_seconds(opts, limits)
    return name, opts


def _check_seconds(opts: dict[str, str], limits: Limits) -> None:
    if "seconds" not in opts:
        return
    try:
        seconds = float(opts["seconds"])
    except ValueError:
        raise NoughtsError(f"seconds is a number, not {opts['seconds']!r}") from None
    if not 0 < seconds <= limits.max_agent_seconds:
        raise NoughtsError(
            f"a move's time limit in the arena is above 0 and at most {limits.max_agent_seconds:g} s, not {seconds:g}"
        )


@dataclass(frozen=True)
class SavedRecord:
    """What the registry says of a saved agent: its file, kind and game."""

    path: str
    kind: str
    game: str | None


@dataclass(frozen=True)
class Resolved:
    """An agent spec made ready for a worker: the spec the worker builds (a saved agent's file),
    and the move time limit.
    """

    spec: str
    seconds: float


class AgentCatalogue:
    """The agents of one arena: specs checked, resolved for the workers, and matched to games.

    ``saved(name)`` looks a saved agent up in the registry (``NoughtsError`` if unknown).
    """

    def __init__(self, limits: Limits, saved: Callable[[str], SavedRecord]):
        self.limits = limits
        self.saved = saved
        self._built: dict[str, Any] = {}

    def check(self, spec: str) -> str:
        """The spec, stripped, once it is one the arena plays (see :func:`check_agent_spec`); a
        built-in agent is built, so that bad options are refused now; a saved agent must exist.
        """
        name, opts = check_agent_spec(spec, self.limits)
        if name == "saved":
            self.saved(opts["name"])
        elif name != HUMAN:
            self._agent(spec.strip())
        return spec.strip()

    def _agent(self, spec: str) -> Any:
        found = self._built.get(spec)
        if found is None:
            try:
                found = make_agent(spec)
            except ImportError:
                raise NoughtsError(f"the agent {spec!r} is not available in this installation") from None
            if len(self._built) > 256:
                self._built.clear()
            self._built[spec] = found
        return found

    def resolve(self, spec: str) -> Resolved:
        """What a worker needs to play ``spec`` (checked)."""
        name, opts = check_agent_spec(spec, self.limits)
        if name == HUMAN:
            raise NoughtsError("a human's moves are made by the person at the board")
        seconds = float(opts.get("seconds", self.limits.default_agent_seconds))
        if name == "saved":
            record = self.saved(opts["name"])
            return Resolved(record.path, seconds)
        return Resolved(spec.strip(), seconds)

    def playable(self, spec: str, game: Game) -> str | None:
        """Why ``spec`` cannot play ``game`` (None if it can): a saved agent plays the game it
        was trained on; the Q-learning tiers and pairings have their own games.
        """
        try:
            name, opts = check_agent_spec(spec, self.limits)
            if name == HUMAN:
                return None
            if name == "saved":
                record = self.saved(opts["name"])
                if record.game is not None and record.game != str(game):
                    return f"{opts['name']} was trained on {record.game}"
                return None
            check_plays(self._agent(spec.strip()), game)
        except NoughtsError as e:
            return str(e)
        return None

    def warm(self, specs: list[str]) -> None:
        """Build the agents of ``specs`` now (their modules imported: a pairing's brings SciPy),
        so that no request of a running server waits on a first import.
        """
        for spec in specs:
            if spec.partition(":")[0] in agent_names():
                self._agent(spec)

    def inline(self, spec: str) -> Any | None:
        """The agent itself when its moves are made in the server's process (see :data:`INLINE`)."""
        name = spec.partition(":")[0]
        return self._agent(spec) if name in INLINE else None
