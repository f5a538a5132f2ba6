"""AlphaZero: batched self-play guided by the network, a replay buffer, and training.

Silver et al., *A general reinforcement learning algorithm that masters chess, shogi, and Go
through self-play* (Science 2018), with the Gumbel search of Danihelka et al. (ICLR 2022),
which improves the policy with few simulations (:mod:`noughts.neural.model`). One *iteration*:

1. self-play: ``games`` games at once, every move chosen by the search (with Gumbel noise: the
   exploration); each position's search policy (the completed-Q ``action_weights``) is the
   policy target and the game's final result, from that position's mover's side, its value
   target. The whole game is one compiled ``lax.scan`` of as many moves as the board has cells
   (finished games stand still);
2. the positions go into a replay buffer (the last ``buffer`` positions);
3. ``updates`` steps of Adam on minibatches of ``batch`` positions: cross-entropy to the search
   policy plus the squared error of the value.

The run (:mod:`noughts.neural.run`) grades the network every few iterations and keeps the best.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import partial
from typing import Any, cast

import jax
import jax.numpy as jnp
import numpy as np
import optax

from noughts.core import NoughtsError
from noughts.neural.checkpoint import pack_state, unpack_state
from noughts.neural.env import State, value_for
from noughts.neural.model import Model

__all__ = ["AZConfig", "AZTrainer"]


@dataclass(frozen=True)
class AZConfig:
    """AlphaZero's settings (``--set KEY=VALUE`` on the command line)."""

    games: int = 64
    sims: int = 16
    updates: int = 16
    batch: int = 256
    buffer: int = 50_000
    lr: float = 2e-3
    weight_decay: float = 1e-4

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def check(self) -> None:
        for name in ("games", "sims", "updates", "batch", "buffer"):
            v = getattr(self, name)
            if not 1 <= v <= 10**7:
                raise NoughtsError(f"az setting {name} is a whole number from 1 to 10,000,000, not {v}")
        if self.sims < 2:
            raise NoughtsError("az setting sims is at least 2 (the search compares two moves at least)")
        if not 0 < self.lr < 1 or not 0 <= self.weight_decay < 1:
            raise NoughtsError("az settings: lr is above 0 and below 1, weight_decay from 0 to below 1")


class Buffer:
    """The last ``size`` positions of self-play: observations, legal masks, search policies and
    results (NumPy ring arrays).
    """

    def __init__(self, size: int, cells: int, features: int):
        self.size = size
        self.obs = np.zeros((size, cells, features), np.float32)
        self.legal = np.zeros((size, cells), bool)
        self.policy = np.zeros((size, cells), np.float32)
        self.value = np.zeros((size,), np.float32)
        self.count = 0
        self.at = 0

    def add(self, obs: np.ndarray, legal: np.ndarray, policy: np.ndarray, value: np.ndarray) -> None:
        n = min(len(obs), self.size)
        idx = (self.at + np.arange(n)) % self.size
        for mine, new in ((self.obs, obs), (self.legal, legal), (self.policy, policy), (self.value, value)):
            mine[idx] = new[len(new) - n :]
        self.at = int((self.at + n) % self.size)
        self.count = min(self.count + n, self.size)

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
        idx = rng.integers(self.count, size=n)
        return self.obs[idx], self.legal[idx], self.policy[idx], self.value[idx]


class AZTrainer:
    """AlphaZero's iterations on one game (see the module docstring)."""

    kind = "az"

    def __init__(self, model: Model, config: AZConfig, params: Any, seed: int, opt_state: Any = None):
        config.check()
        self.model = model
        self.config = config
        self.params = params
        self.optimizer = optax.adamw(config.lr, weight_decay=config.weight_decay)
        self.opt_state = self.optimizer.init(params)
        if opt_state is not None:
            self.opt_state = unpack_state(opt_state, self.opt_state)
        env = model.env
        self.buffer = Buffer(config.buffer, env.num_cells, 4)
        self.key = jax.random.PRNGKey(seed)
        self.np_rng = np.random.default_rng(seed)
        self.losses: tuple[float, float] = (float("nan"), float("nan"))

    def __eq__(self, other: object) -> bool:  # equal trainers share JAX's compiled functions
        return type(other) is type(self) and (self.model, self.config) == (other.model, other.config)

    def __hash__(self) -> int:
        return hash((self.kind, self.model, self.config))

    def packed_state(self) -> np.ndarray:
        return pack_state(self.opt_state)

    @partial(jax.jit, static_argnums=(0,))
    def _selfplay(self, params: Any, key: jax.Array) -> tuple[Any, ...]:
        env, cfg = self.model.env, self.config

        def move(carry: tuple[State, jax.Array], _: Any) -> tuple[tuple[State, jax.Array], Any]:
            state, key = carry
            key, sub = jax.random.split(key)
            out = self.model.search(params, sub, state, cfg.sims, 1.0)
            record = (env.observation(state), env.legal(state), out.action_weights, state.to_move, state.done)
            return (env.step(state, out.action), key), record

        (final, _), (obs, legal, policy, mover, done) = jax.lax.scan(
            move, (env.init(cfg.games), key), None, length=env.num_cells
        )
        value = value_for(final.winner[None, :], mover)  # (T, B)
        return obs, legal, policy, value, ~done, final.winner

    @partial(jax.jit, static_argnums=(0,))
    def _update(
        self, params: Any, opt_state: Any, batch: tuple[jax.Array, ...]
    ) -> tuple[Any, Any, jax.Array]:
        obs, legal, policy, value = batch

        def loss_fn(p: Any) -> tuple[jax.Array, jax.Array]:
            logits, v = cast(
                "tuple[jax.Array, jax.Array]", self.model.net.apply(p, obs, self.model.env.tables())
            )
            logits = jnp.where(legal, logits, -1e9)
            policy_loss = optax.softmax_cross_entropy(logits, policy).mean()
            value_loss = jnp.mean((v - value) ** 2)
            return policy_loss + value_loss, jnp.stack([policy_loss, value_loss])

        (_, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, parts

    def iterate(self) -> dict[str, float]:
        """One iteration (self-play, buffer, updates); returns what it saw (games, results, losses)."""
        self.key, sub = jax.random.split(self.key)
        obs, legal, policy, value, real, winner = (np.asarray(a) for a in self._selfplay(self.params, sub))
        keep = real.reshape(-1)

        def flat(a: np.ndarray) -> np.ndarray:  # (moves, games, ...) -> (positions played, ...)
            out: np.ndarray = a.reshape((-1, *a.shape[2:]))[keep]
            return out

        self.buffer.add(flat(obs), flat(legal), flat(policy), flat(value))
        parts = np.zeros(2)
        for _ in range(self.config.updates):
            batch = tuple(jnp.asarray(a) for a in self.buffer.sample(self.np_rng, self.config.batch))
            self.params, self.opt_state, p = self._update(self.params, self.opt_state, batch)
            parts += np.asarray(p)
        parts /= self.config.updates
        self.losses = (float(parts[0]), float(parts[1]))
        return {
            "games": float(self.config.games),
            "positions": float(keep.sum()),
            "first_wins": float((winner == 1).mean()),
            "draws": float((winner == 0).mean()),
            "policy_loss": self.losses[0],
            "value_loss": self.losses[1],
        }
