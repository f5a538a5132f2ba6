"""The TD agent: greedy over the two value tables that TD self-play learned (000 §3.2, §4.2).

The player to move looks up, in its own table (``V1`` for the first player, ``V2`` for the
second), the value of the position each legal move leads to, and plays a move of greatest
value, ties broken at random (000 §4.2: "ties among maximizers were resolved randomly"). It is
trained by :class:`noughts.learn.td.TDLearner` (``noughts train td ...``) and saved as JSON
metadata plus ``v1``/``v2`` arrays (see :mod:`noughts.agents.saved`); a saved TD agent also
carries its training state, so ``noughts train --resume`` continues the run bit for bit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.agents.saved import saved_game
from noughts.core import Game, Move, NoughtsError, Position
from noughts.exact.states import StateSpace, state_space, terminal_values

__all__ = ["KIND", "TDAgent", "from_saved"]

KIND = "td"

FloatArray = npt.NDArray[np.float64]


class TDAgent:
    """Greedy play over learned value tables; ``evaluate`` gives ``V1`` (the first player's view)."""

    kind = KIND

    def __init__(
        self,
        game: Game,
        space: StateSpace,
        v1: FloatArray,
        v2: FloatArray,
        *,
        config: Mapping[str, Any] | None = None,
        training: Mapping[str, Any] | None = None,
        state: Mapping[str, npt.NDArray[Any]] | None = None,
    ):
        if space.game != game:
            raise NoughtsError(f"a state space of {space.game} given for {game}")
        if v1.shape != (space.size,) or v2.shape != (space.size,):
            raise NoughtsError(f"value tables of a TD agent for {game} have {space.size} entries each")
        self.game = game
        self.space = space
        self.v1 = v1
        self.v2 = v2
        self.config = dict(config or {})
        self.training = dict(training or {})
        self.state = dict(state or {})  # training state arrays (random stream, convergence) for resuming
        self.name = f"td({game})"

    def _check(self, position: Position) -> None:
        if position.game != self.game:
            raise NoughtsError(f"this TD agent was trained on {self.game}, not {position.game}")
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to choose")

    def move_values(self, position: Position) -> list[tuple[Move, float]]:
        """Each legal move with the mover's learned value of the position it leads to."""
        self._check(position)
        table = self.v1 if position.to_move == 0 else self.v2
        return [(m, float(table[self.space.index(position.play(m))])) for m in position.legal_moves()]

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        rated = self.move_values(position)
        best = max(v for _, v in rated)
        ties = [m for m, v in rated if v == best]
        return ties[0] if len(ties) == 1 else ties[int(rng.integers(len(ties)))]

    def evaluate(self, position: Position) -> float:
        """The first player's learned value of ``position`` (in [-1, 1])."""
        if position.game != self.game:
            raise NoughtsError(f"this TD agent was trained on {self.game}, not {position.game}")
        return float(self.v1[self.space.index(position)])

    def to_saved(self) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
        """JSON metadata and arrays for :func:`noughts.agents.saved.save_agent`."""
        meta = {
            "kind": KIND,
            "game": str(self.game),
            "positions": self.space.size,
            "numbering": self.space.fingerprint(),
            "config": self.config,
            "training": self.training,
        }
        arrays = {"v1": self.v1, "v2": self.v2}
        arrays.update({f"state_{k}": v for k, v in self.state.items()})
        return meta, arrays

    def __repr__(self) -> str:
        return f"TDAgent({str(self.game)!r}, positions={self.space.size}, {self.config})"


def from_saved(meta: Mapping[str, Any], arrays: Mapping[str, npt.NDArray[Any]]) -> TDAgent:
    """A :class:`TDAgent` from saved metadata and arrays, validated (``NoughtsError`` if bad)."""
    game = saved_game(meta, "TD agent")
    positions = meta.get("positions")
    if not isinstance(positions, int) or isinstance(positions, bool) or positions < 1:
        raise NoughtsError("a saved TD agent gives its number of positions under 'positions'")
    space = state_space(game, max(positions, 1))
    if space.size != positions or meta.get("numbering") != space.fingerprint():
        raise NoughtsError(
            f"a saved TD agent's positions are numbered differently from this version's numbering of "
            f"{game} ({positions} positions saved, {space.size} here)"
        )
    tables = []
    for name in ("v1", "v2"):
        a = arrays.get(name)
        if a is None:
            raise NoughtsError(f"a saved TD agent has a {name!r} array")
        if a.dtype.kind != "f" or a.shape != (space.size,):
            raise NoughtsError(f"{name!r} of a saved TD agent is a float array of {space.size} values")
        a = np.ascontiguousarray(a, dtype=np.float64)
        if not np.all(np.isfinite(a)) or np.abs(a).max() > 1.0 + 1e-9:
            raise NoughtsError(f"the values in {name!r} of a saved TD agent must be finite and in [-1, 1]")
        tables.append(a)
    v1, v2 = tables
    done = ~space.nonterminal()
    payoff = terminal_values(space)
    if not (np.array_equal(v1[done], payoff[done]) and np.array_equal(v2[done], -payoff[done])):
        raise NoughtsError("a saved TD agent's values of finished positions are not their payoffs")
    for key in ("config", "training"):
        if not isinstance(meta.get(key, {}), dict):
            raise NoughtsError(f"{key!r} of a saved TD agent is an object")
    state = {k[len("state_") :]: v for k, v in arrays.items() if k.startswith("state_")}
    return TDAgent(game, space, v1, v2, config=meta.get("config"), training=meta.get("training"), state=state)
