"""A checkpoint as an agent: ``az:FILE[,sims=N]`` and ``dqn:FILE`` wherever an agent goes.

``az:FILE`` plays the move of a Gumbel search of ``sims`` simulations (default 32) guided by the
network, without noise (the same move every time); ``sims=0`` plays the network's own choice,
the legal cell of the highest prior. ``dqn:FILE`` plays the legal cell of the highest action
value. A plain ``FILE.json`` of either kind loads the same way (the saved agents' registry),
and ``seconds=S`` puts any of them under the usual move clock.

``moves(positions)`` answers many positions in one batch (what grading does); ``choose`` asks
for one. Batches are padded to a few fixed sizes so that JAX compiles each once. ``explain``
shows what the network thinks of one position (003's "explainable" item): an az network's prior
of every legal move and its value, with the search's improved policy when it searches; a dqn
network's action value of every legal move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np

from noughts.core import Move, NoughtsError, Position
from noughts.neural.checkpoint import Checkpoint, from_meta, load_checkpoint
from noughts.neural.model import Model

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["NeuralAgent", "az_from_options", "dqn_from_options", "from_saved"]

DEFAULT_SIMS = 32
MAX_SIMS = 100_000
_SIZES = (1, 8, 64, 512)


class NeuralAgent:
    """A network's player (see the module docstring)."""

    def __init__(self, ckpt: Checkpoint, sims: int = 0, label: str = ""):
        if ckpt.kind == "dqn" and sims:
            raise NoughtsError("a dqn agent plays its action values; it takes no sims")
        if not 0 <= sims <= MAX_SIMS or sims == 1:
            raise NoughtsError(
                f"az option sims is 0 (the network alone) or from 2 to {MAX_SIMS:,}, not {sims}"
            )
        self.ckpt = ckpt
        self.game = ckpt.game
        self.sims = sims
        self.model = Model(ckpt.game, ckpt.config)
        self.params = ckpt.params
        self.name = label or (f"{ckpt.kind}:sims={sims}" if ckpt.kind == "az" else ckpt.kind)

    def moves(self, positions: Sequence[Position]) -> list[Move]:
        """This agent's move in each position (none may be over), in batches."""
        for p in positions[:1]:
            if p.game != self.game:
                raise NoughtsError(f"{self.name} was made for {self.game}; it cannot play {p.game}")
        out: list[Move] = []
        at = 0
        while at < len(positions):
            chunk = list(positions[at : at + _SIZES[-1]])
            size = next(s for s in _SIZES if s >= len(chunk))
            padded = chunk + [chunk[0]] * (size - len(chunk))
            state = self.model.env.encode(padded)
            if self.sims:
                key = jax.random.PRNGKey(0)
                actions = self.model.search(self.params, key, state, self.sims, 0.0).action
            else:
                actions = self.model.greedy(self.params, state)
            acts = np.asarray(actions)[: len(chunk)]
            for p, a in zip(chunk, acts, strict=True):
                if p.is_terminal():
                    raise NoughtsError("the game is over: there is no move to choose")
                move = self.game.move(int(a))
                if move not in p.legal_moves():  # cannot happen: the search masks the claimed cells
                    raise NoughtsError(f"{self.name} chose {move!r}, not a legal move of {p.text()!r}")
                out.append(move)
            at += len(chunk)
        return out

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        return self.moves([position])[0]

    def explain(self, position: Position) -> dict[str, Any]:
        """What the network makes of ``position`` (not over), for the mover: ``value`` (az: the
        value head; dqn: the best action value), ``move`` (what this agent plays) and ``moves``,
        one entry per legal move in ``legal_moves()`` order: ``move`` (its text), ``prior`` (az:
        the network's probability of the move, summing to 1 over the legal moves), ``q`` (dqn:
        its action value in [-1, 1]) and, for an az agent that searches, ``search`` (the search's
        improved policy, also summing to 1).
        """
        if position.game != self.game:
            raise NoughtsError(f"{self.name} was made for {self.game}; it cannot play {position.game}")
        if position.is_terminal():
            raise NoughtsError("the game is over: there are no moves to explain")
        state = self.model.env.encode([position])
        env = self.model.env  # the raw outputs: a dqn's action value is tanh of its own logit
        logits, value = self.model.net.apply(self.params, env.observation(state), env.tables())
        legal = position.legal_moves()
        cells = [int(self.game.action(m)) for m in legal]  # a claim is its cell's action
        row = np.asarray(logits, np.float64)[0]
        entries: list[dict[str, Any]] = [{"move": self.game.format_move(m)} for m in legal]
        if self.ckpt.kind == "dqn":
            q = np.tanh(row[cells])
            for e, v in zip(entries, q, strict=True):
                e["q"] = round(float(v), 4)
            best = float(q.max())
        else:
            prior = np.exp(row[cells] - row[cells].max())
            prior /= prior.sum()
            for e, v in zip(entries, prior, strict=True):
                e["prior"] = round(float(v), 4)
            best = float(np.asarray(value)[0])
            if self.sims:
                out = self.model.search(self.params, jax.random.PRNGKey(0), state, self.sims, 0.0)
                weights = np.asarray(jnp.asarray(out.action_weights), np.float64)[0]
                for e, v in zip(entries, weights[cells] / max(weights[cells].sum(), 1e-12), strict=True):
                    e["search"] = round(float(v), 4)
        return {
            "kind": self.ckpt.kind,
            "agent": self.name,
            "sims": self.sims,
            "value": round(best, 4),
            "move": self.game.format_move(self.moves([position])[0]),
            "moves": entries,
        }

    def set_params(self, params: Any) -> None:
        self.params = params


def from_saved(meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> NeuralAgent:
    """The agent of a saved checkpoint (the saved agents' registry calls this)."""
    ckpt = from_meta(meta, arrays)
    return NeuralAgent(ckpt, DEFAULT_SIMS if ckpt.kind == "az" else 0)


def _sims(text: str | None) -> int:
    if text is None:
        return DEFAULT_SIMS
    try:
        return int(text)
    except ValueError:
        raise NoughtsError(f"az option sims is a whole number, not {text!r}") from None


def az_from_options(file: str | None = None, sims: str | None = None) -> NeuralAgent:
    """``az:FILE[,sims=N]``."""
    if not file:
        raise NoughtsError("name the checkpoint: az:FILE.json (from 'noughts train az')")
    return NeuralAgent(load_checkpoint(file, "az"), _sims(sims))


def dqn_from_options(file: str | None = None) -> NeuralAgent:
    """``dqn:FILE``."""
    if not file:
        raise NoughtsError("name the checkpoint: dqn:FILE.json (from 'noughts train dqn')")
    return NeuralAgent(load_checkpoint(file, "dqn"))
