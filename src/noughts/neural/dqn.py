"""DQN: a deep Q-network with action masking, a target network and replay (003 §11.2's first item).

Mnih et al., *Human-level control through deep reinforcement learning* (Nature 2015), for two
players taking turns in a zero-sum game: the value of the position after a move is the
opponent's, so the target of a move is its reward (+1 won, -1 lost, 0 otherwise) if it ended
the game, and else minus the target network's best action value in the next position (the
negamax form of the Bellman target; Q-values lie in [-1, 1]). Illegal cells are masked out of
both the max and the behaviour policy (action masking). One *iteration*: ``games`` games at once
with epsilon-greedy moves (epsilon decaying linearly from ``epsilon`` to ``epsilon_end`` over
``decay`` games), their transitions into the replay buffer, then ``updates`` steps of Adam on
minibatches (Huber loss); the target network copies the online one every ``target_every`` updates.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from noughts.core import NoughtsError
from noughts.neural.checkpoint import pack_state, unpack_state
from noughts.neural.env import State
from noughts.neural.model import Model

__all__ = ["DQNConfig", "DQNTrainer"]


@dataclass(frozen=True)
class DQNConfig:
    """DQN's settings (``--set KEY=VALUE`` on the command line)."""

    games: int = 64
    updates: int = 32
    batch: int = 256
    buffer: int = 50_000
    lr: float = 1e-3
    epsilon: float = 1.0
    epsilon_end: float = 0.1
    decay: int = 20_000
    target_every: int = 100

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def check(self) -> None:
        for name in ("games", "updates", "batch", "buffer", "decay", "target_every"):
            v = getattr(self, name)
            if not 1 <= v <= 10**8:
                raise NoughtsError(f"dqn setting {name} is a whole number from 1 to 100,000,000, not {v}")
        if not 0 < self.lr < 1:
            raise NoughtsError("dqn setting lr is above 0 and below 1")
        if not (0 <= self.epsilon_end <= 1 and 0 <= self.epsilon <= 1):
            raise NoughtsError("dqn settings epsilon and epsilon_end are from 0 to 1")


class Replay:
    """The last ``size`` transitions (NumPy ring arrays)."""

    def __init__(self, size: int, cells: int, features: int):
        self.size = size
        self.arrays = {
            "obs": np.zeros((size, cells, features), np.float32),
            "action": np.zeros((size,), np.int32),
            "reward": np.zeros((size,), np.float32),
            "done": np.zeros((size,), bool),
            "next_obs": np.zeros((size, cells, features), np.float32),
            "next_legal": np.zeros((size, cells), bool),
        }
        self.count = 0
        self.at = 0

    def add(self, items: dict[str, np.ndarray]) -> None:
        total = len(items["action"])
        n = min(total, self.size)
        idx = (self.at + np.arange(n)) % self.size
        for name, mine in self.arrays.items():
            mine[idx] = items[name][total - n :]
        self.at = int((self.at + n) % self.size)
        self.count = min(self.count + n, self.size)

    def sample(self, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
        idx = rng.integers(self.count, size=n)
        return {name: a[idx] for name, a in self.arrays.items()}


class DQNTrainer:
    """DQN's iterations on one game (see the module docstring)."""

    kind = "dqn"

    def __init__(self, model: Model, config: DQNConfig, params: Any, seed: int, opt_state: Any = None):
        config.check()
        self.model = model
        self.config = config
        self.params = params
        self.target = params
        self.optimizer = optax.adam(config.lr)
        self.opt_state = self.optimizer.init(params)
        if opt_state is not None:
            self.opt_state = unpack_state(opt_state, self.opt_state)
        self.replay = Replay(config.buffer, model.env.num_cells, 4)
        self.key = jax.random.PRNGKey(seed)
        self.np_rng = np.random.default_rng(seed)
        self.games_played = 0
        self.update_count = 0

    def __eq__(self, other: object) -> bool:  # equal trainers share JAX's compiled functions
        return type(other) is type(self) and (self.model, self.config) == (other.model, other.config)

    def __hash__(self) -> int:
        return hash((self.kind, self.model, self.config))

    def packed_state(self) -> np.ndarray:
        return pack_state(self.opt_state)

    def _q(self, params: Any, obs: jax.Array) -> jax.Array:
        logits, _ = self.model.net.apply(params, obs, self.model.env.tables())
        return jnp.tanh(logits)

    @partial(jax.jit, static_argnums=(0,))
    def _play(self, params: Any, key: jax.Array, epsilon: jax.Array) -> tuple[Any, ...]:
        env, cfg = self.model.env, self.config

        def move(carry: tuple[State, jax.Array], _: Any) -> tuple[tuple[State, jax.Array], Any]:
            state, key = carry
            key, k1, k2 = jax.random.split(key, 3)
            obs, legal = env.observation(state), env.legal(state)
            q = jnp.where(legal, self._q(params, obs), -2.0)
            noise = jax.random.uniform(k1, legal.shape)
            explore = jax.random.uniform(k2, state.done.shape) < epsilon
            action = jnp.where(explore, jnp.argmax(jnp.where(legal, noise, -1.0), -1), jnp.argmax(q, -1))
            after = env.step(state, action)
            record = (
                obs,
                action,
                env.reward(state, after),
                after.done,
                env.observation(after),
                env.legal(after),
                state.done,
            )
            return (after, key), record

        (final, _), records = jax.lax.scan(move, (env.init(cfg.games), key), None, length=env.num_cells)
        return (*records, final.winner)

    @partial(jax.jit, static_argnums=(0,))
    def _update(
        self, params: Any, target: Any, opt_state: Any, batch: dict[str, jax.Array]
    ) -> tuple[Any, ...]:
        next_q = jnp.where(batch["next_legal"], self._q(target, batch["next_obs"]), -2.0).max(axis=-1)
        y = jnp.where(batch["done"], batch["reward"], -next_q)

        def loss_fn(p: Any) -> jax.Array:
            q = self._q(p, batch["obs"])
            chosen = jnp.take_along_axis(q, batch["action"][:, None], axis=-1)[:, 0]
            loss: jax.Array = optax.huber_loss(chosen, jax.lax.stop_gradient(y)).mean()
            return loss

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    def epsilon(self) -> float:
        cfg = self.config
        t = min(1.0, self.games_played / cfg.decay)
        return cfg.epsilon + t * (cfg.epsilon_end - cfg.epsilon)

    def iterate(self) -> dict[str, float]:
        """One iteration (play, replay, updates); returns what it saw."""
        self.key, sub = jax.random.split(self.key)
        eps = self.epsilon()
        obs, action, reward, done, next_obs, next_legal, was_done, winner = (
            np.asarray(a) for a in self._play(self.params, sub, jnp.float32(eps))
        )
        keep = ~was_done.reshape(-1)

        def flat(a: np.ndarray) -> np.ndarray:  # (moves, games, ...) -> (positions played, ...)
            out: np.ndarray = a.reshape((-1, *a.shape[2:]))[keep]
            return out

        self.replay.add(
            {
                "obs": flat(obs),
                "action": flat(action),
                "reward": flat(reward),
                "done": flat(done),
                "next_obs": flat(next_obs),
                "next_legal": flat(next_legal),
            }
        )
        self.games_played += self.config.games
        total = 0.0
        for _ in range(self.config.updates):
            batch = {k: jnp.asarray(v) for k, v in self.replay.sample(self.np_rng, self.config.batch).items()}
            self.params, self.opt_state, loss = self._update(self.params, self.target, self.opt_state, batch)
            total += float(loss)
            self.update_count += 1
            if self.update_count % self.config.target_every == 0:
                self.target = self.params
        return {
            "games": float(self.config.games),
            "positions": float(keep.sum()),
            "first_wins": float((winner == 1).mean()),
            "draws": float((winner == 0).mean()),
            "loss": total / self.config.updates,
            "epsilon": eps,
        }
