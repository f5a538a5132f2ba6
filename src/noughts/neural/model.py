"""The network over a batch of the environment's states, and the search that it guides.

:class:`Model` joins a game's :class:`~noughts.neural.env.Env` and a
:class:`~noughts.neural.net.LineNet`: ``evaluate`` gives each state's masked policy logits and
value from the mover's side; ``search`` runs mctx's Gumbel MuZero search (Danihelka et al.,
*Policy improvement by planning with Gumbel*, ICLR 2022) with the network as the prior and
value and the environment itself as the recurrent function (AlphaZero's setting: the model of
the game is exact). Two players alternate, so each step's reward is the mover's and the
discount is -1 (the next value is the opponent's), 0 once the game is over.
"""

from __future__ import annotations

from functools import partial
from typing import Any, cast

import jax
import jax.numpy as jnp
import mctx

from noughts.core import Game
from noughts.neural.env import Env, State
from noughts.neural.net import NetConfig, make_net

__all__ = ["Model"]

NEG = -1e9


class Model:
    """A game's environment with a network of ``config`` (see the module docstring)."""

    def __init__(self, game: Game, config: NetConfig):
        self.game = game
        self.env = Env(game)
        self.config = config
        self.net = make_net(config)

    def _key(self) -> tuple[str, NetConfig]:
        return (str(self.game), self.config)

    def __eq__(self, other: object) -> bool:  # equal models share JAX's compiled functions
        return isinstance(other, Model) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def evaluate(self, params: Any, state: State) -> tuple[jax.Array, jax.Array]:
        """(B, C) policy logits, illegal cells masked out, and (B,) values from the mover's side."""
        logits, value = cast(
            "tuple[jax.Array, jax.Array]",
            self.net.apply(params, self.env.observation(state), self.env.tables()),
        )
        legal = self.env.legal(state)
        logits = jnp.where(legal, logits - jnp.max(logits, axis=-1, keepdims=True), NEG)
        return logits, value

    def _recurrent(self, params: Any, rng: Any, action: jax.Array, state: State) -> tuple[Any, State]:
        after = self.env.step(state, action)
        reward = self.env.reward(state, after)
        logits, value = self.evaluate(params, after)
        value = jnp.where(after.done, 0.0, value)
        discount = jnp.where(after.done, 0.0, -1.0)
        out = mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=logits, value=value)
        return out, after

    @partial(jax.jit, static_argnums=(0, 4))
    def search(
        self, params: Any, rng: jax.Array, state: State, sims: int, gumbel_scale: float = 1.0
    ) -> mctx.PolicyOutput:
        """The Gumbel MuZero search (mctx) of ``sims`` simulations from every state of the batch."""
        logits, value = self.evaluate(params, state)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
        return mctx.gumbel_muzero_policy(
            params=params,
            rng_key=rng,
            root=root,
            recurrent_fn=self._recurrent,
            num_simulations=sims,
            invalid_actions=~self.env.legal(state),
            max_num_considered_actions=min(16, self.env.num_cells),
            gumbel_scale=gumbel_scale,
        )

    @partial(jax.jit, static_argnums=(0,))
    def greedy(self, params: Any, state: State) -> jax.Array:
        """The network's own move in each state: the legal cell of the highest prior."""
        logits, _ = self.evaluate(params, state)
        best: jax.Array = jnp.argmax(logits, axis=-1)
        return best
