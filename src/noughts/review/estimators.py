"""Estimators: what a review asks where the exact solver does not finish within its budget.

An estimator is anything with a ``label`` and ``estimate(position, budget) -> list[MoveEstimate]``
(:class:`Estimator`): the value, as an :class:`~noughts.review.evaluation.Evaluation`, of the
position each legal move leads to. The review classes the moves of an estimated position from
these, marks every such value and class as an estimate, and names the estimator.

Two are built in, over the agents' own searches:

* ``minimax:depth=D`` (:class:`MinimaxEstimator`): the minimax agent's score of each move
  (:meth:`~noughts.agents.minimax.MinimaxAgent.move_scores`, every move searched with a full
  window). A score that is a win or a loss inside the horizon is a proven result with its
  distance; any other score is the heuristic, squashed onto (-1, 1) by ``tanh(score / 2000)``
  (the heuristic's threat weights are in the thousands), so it says which side the search
  favours and how strongly, nothing more.
* ``mcts:sims=N`` (:class:`MCTSEstimator`): each move's mean result after N simulations
  (already on [-1, 1]); with ``solver=true`` (the default here) a move the search proves is a
  proven result, without a distance. The random stream is seeded per estimate, so a review
  repeats.

* ``engine:seconds=S`` (:class:`EngineEstimator`): the engine's view of every move of a claim
  game (:meth:`~noughts.agents.engine.EngineAgent.move_values`, the arena's overlay) within S
  seconds a position (default 1); a move the engine proved is a proven result with its
  distance, any other value its estimate on (-1, 1).

``auto`` is minimax at depth 2 where a position has at most 50 legal moves; past that, the
engine on claim games (gomoku's boards) and minimax at depth 1 on the others
(:func:`make_estimator`). :data:`ESTIMATORS` maps names to factories, so an engine agent
(issue 13) plugs in with one line.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from noughts.core import Move, NoughtsError, Outcome, Player, Position
from noughts.core.budget import Budget
from noughts.review.advice import WIDE_MOVES
from noughts.review.evaluation import Evaluation

if TYPE_CHECKING:
    from noughts.agents.engine import EngineAgent

__all__ = [
    "ESTIMATORS",
    "AutoEstimator",
    "EngineEstimator",
    "Estimator",
    "MCTSEstimator",
    "MinimaxEstimator",
    "MoveEstimate",
    "make_estimator",
]

SQUASH = 2000.0
"""Minimax heuristic scores are mapped to (-1, 1) by ``tanh(score / SQUASH)``."""


@dataclass(frozen=True)
class MoveEstimate:
    """A legal move and the estimated value of the position it leads to."""

    move: Move
    value: Evaluation


class Estimator(Protocol):
    """Estimates the value of every legal move of a position (see the module docstring)."""

    label: str

    def estimate(self, position: Position, budget: Budget) -> list[MoveEstimate]: ...


class MinimaxEstimator:
    """The minimax agent's full-window score of every move (see the module docstring)."""

    def __init__(self, depth: int = 2):
        from noughts.agents.minimax import MinimaxAgent

        self.agent = MinimaxAgent(depth, reflexes=False, tie_break="first")
        self.depth = depth
        self.label = f"minimax:depth={depth}"

    def estimate(self, position: Position, budget: Budget) -> list[MoveEstimate]:
        from noughts.agents.minimax import WIN

        mover = position.to_move
        scored = position.game.properties.is_scored
        out = []
        for move, v in self.agent.move_scores(position).items():  # v: for the mover, searched from ply 1
            if not scored and abs(v) > WIN // 2:  # a result seen inside the horizon: exact
                winner = mover if v > 0 else mover.other
                plies = WIN - abs(v) - 1  # from the child position to the end
                value = Evaluation.estimate(0.0, self.label, outcome=Outcome.win_for(winner), plies=plies)
            else:
                mine = math.tanh(v / SQUASH)
                value = Evaluation.estimate(mine if mover is Player.FIRST else -mine, self.label)
            out.append(MoveEstimate(move, value))
        budget.check(progress=f"{self.label} estimated {len(out)} moves")
        return out


class MCTSEstimator:
    """Each move's mean result after an MCTS search (see the module docstring)."""

    def __init__(self, sims: int = 2000, *, solver: bool = True, seed: int = 0):
        from noughts.agents.mcts import MCTSAgent

        self.agent = MCTSAgent(sims, solver=solver)
        self.seed = seed
        self.label = self.agent.name

    def estimate(self, position: Position, budget: Budget) -> list[MoveEstimate]:
        found = self.agent.search(
            position, np.random.default_rng([self.seed, zlib.crc32(position.text().encode())])
        )
        mover = position.to_move
        out = []
        for s in found.children:
            if s.lower == s.upper:  # proven: 1 win, 0 draw, -1 loss for the mover
                outcome = (
                    Outcome.DRAW if s.lower == 0 else Outcome.win_for(mover if s.lower > 0 else mover.other)
                )
                value = Evaluation.estimate(0.0, self.label, outcome=outcome)
            else:
                value = Evaluation.estimate(s.mean if mover is Player.FIRST else -s.mean, self.label)
            out.append(MoveEstimate(s.move, value))
        return _in_move_order(position, out, budget, self.label)


def _in_move_order(
    position: Position, out: list[MoveEstimate], budget: Budget, label: str
) -> list[MoveEstimate]:
    """``out`` in the order of ``position``'s legal moves, after a look at ``budget``."""
    order = {m: i for i, m in enumerate(position.legal_moves())}
    out.sort(key=lambda e: order[e.move])
    budget.check(progress=f"{label} estimated {len(out)} moves")
    return out


class EngineEstimator:
    """The engine's view of every move of a claim game's position (see the module docstring)."""

    def __init__(self, seconds: float = 1.0):
        if not 0 < seconds < math.inf:
            raise NoughtsError(f"an engine estimate takes a number of seconds above 0, not seconds={seconds}")
        self.seconds = seconds
        self.label = f"engine:seconds={seconds:g}"
        self._agent: EngineAgent | None = None  # made on first use (it loads the kernels)

    def estimate(self, position: Position, budget: Budget) -> list[MoveEstimate]:
        from noughts.agents.engine import VIEW_TABLE, EngineAgent

        if position.game.claim_rule is None:
            raise NoughtsError(f"the engine estimates claim games, not {position.game}")
        if self._agent is None:
            self._agent = EngineAgent(tt=VIEW_TABLE)
        agent = self._agent
        left = budget.remaining()
        seconds = self.seconds if left is None else max(0.01, min(self.seconds, 0.85 * left))
        mover = position.to_move
        out = []
        for r in agent.move_values(position, seconds):
            if r.proven is not None:
                winner = mover if r.proven == "win" else mover.other
                plies = None if r.plies is None else r.plies - 1  # from the child position to the end
                value = Evaluation.estimate(0.0, self.label, outcome=Outcome.win_for(winner), plies=plies)
            else:
                value = Evaluation.estimate(r.value if mover is Player.FIRST else -r.value, self.label)
            out.append(MoveEstimate(r.move, value))
        return _in_move_order(position, out, budget, self.label)


class AutoEstimator:
    """Minimax at depth 2 on positions of at most ``wide`` legal moves; past that the engine on
    claim games, minimax at depth 1 on the others.
    """

    def __init__(self, wide: int = WIDE_MOVES):
        self.wide = wide
        self._deep = MinimaxEstimator(2)
        self._shallow = MinimaxEstimator(1)
        self._engine = EngineEstimator()
        self.label = (
            f"minimax:depth=2 (past {wide} moves: {self._engine.label} on claim games, else minimax:depth=1)"
        )

    def estimate(self, position: Position, budget: Budget) -> list[MoveEstimate]:
        if len(position.legal_moves()) <= self.wide:
            return self._deep.estimate(position, budget)
        if position.game.claim_rule is not None:
            return self._engine.estimate(position, budget)
        return self._shallow.estimate(position, budget)


def _minimax(options: dict[str, str]) -> Estimator:
    from noughts.agents.base import read_options

    o = read_options("minimax", options, {"depth": int})
    depth = o.get("depth", 2)
    if not 1 <= depth <= 8:
        raise NoughtsError(f"a minimax estimate searches 1 to 8 plies, not depth={depth}")
    return MinimaxEstimator(depth)


def _mcts(options: dict[str, str]) -> Estimator:
    from noughts.agents.base import read_options

    o = read_options("mcts", options, {"sims": int, "solver": bool, "seed": int})
    sims = o.get("sims", 2000)
    if not 1 <= sims <= 10_000_000:
        raise NoughtsError(f"an mcts estimate runs 1 to 10,000,000 simulations, not sims={sims}")
    return MCTSEstimator(sims, solver=o.get("solver", True), seed=o.get("seed", 0))


def _engine(options: dict[str, str]) -> Estimator:
    from noughts.agents.base import read_options

    o = read_options("engine", options, {"seconds": float})
    seconds = o.get("seconds", 1.0)
    if not 0 < seconds <= 600:
        raise NoughtsError(f"an engine estimate takes 0 to 600 seconds a position, not seconds={seconds}")
    return EngineEstimator(seconds)


ESTIMATORS: dict[str, Callable[[dict[str, str]], Estimator]] = {
    "auto": lambda options: AutoEstimator(),
    "engine": _engine,
    "minimax": _minimax,
    "mcts": _mcts,
}
"""Estimator names and their factories (each takes the spec's options as strings)."""


def make_estimator(spec: str | None) -> Estimator | None:
    """An estimator from a spec: ``auto``, ``minimax:depth=2``, ``mcts:sims=2000``,
    ``engine:seconds=1``; ``none`` (or
    None) for no estimates at all (positions the solver does not finish stay unknown).
    """
    if spec is None or spec.strip().lower() == "none":
        return None
    from noughts.agents.base import split_spec

    name, options = split_spec(spec)
    factory = ESTIMATORS.get(name)
    if factory is None:
        raise NoughtsError(f"unknown estimator {name!r}; known: {', '.join(ESTIMATORS)}, none")
    if name == "auto" and options:
        raise NoughtsError("the auto estimator takes no options")
    return factory(options)
