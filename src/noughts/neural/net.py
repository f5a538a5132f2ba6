"""The network: message passing over the board's lines, so its weights fit any board.

A board is a hypergraph: cells, and the winning lines over them. The network keeps a vector per
cell and, in each block, (1) sums the vectors of each line's cells into a line vector (a sum is
blind to the order of the cells, and a line is a set), passes it through a small MLP, and
(2) gives each cell the mean and the sum over the lines through it, with a residual update. The
policy head scores each cell from its vector; the value head pools the cells (mean and max).

No parameter depends on the number of cells, of lines or of lines through a cell, nor on the
dimension of the board: the same weights read tic-tac-toe, 5x5 with k = 4 and the 3x3x3 cube,
so a network trained on one board continues on a bigger one (003 §11.2's curriculum). And
since nothing but the lines tells cells apart, the network is equivariant under every
automorphism of the board's hypergraph (its symmetries included): no augmentation needed.

Graph networks over the cell-line incidence follow the hypergraph message passing of
Feng et al., *Hypergraph Neural Networks* (AAAI 2019), in the residual form of deep graph nets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp

__all__ = ["LineNet", "NetConfig"]


@dataclass(frozen=True)
class NetConfig:
    """The network's shape: ``width`` features per cell and line, ``blocks`` rounds of passing."""

    width: int = 32
    blocks: int = 3

    def to_json(self) -> dict[str, int]:
        return {"width": self.width, "blocks": self.blocks}


class _Block(nn.Module):
    width: int

    @nn.compact
    def __call__(self, h: jax.Array, tables: dict[str, Any]) -> jax.Array:
        line_cells, through, valid = tables["line_cells"], tables["through"], tables["through_valid"]
        lines = h[:, line_cells].sum(axis=2)  # (B, L, D): a line as the set of its cells
        lines = nn.Dense(self.width)(nn.relu(nn.Dense(self.width)(lines)))
        gathered = lines[:, through] * valid[None, :, :, None]  # (B, C, T, D)
        count = jnp.maximum(valid.sum(axis=1), 1)[None, :, None].astype(h.dtype)
        total = gathered.sum(axis=2)
        update = nn.Dense(self.width)(jnp.concatenate([h, total / count, total / 8.0], axis=-1))
        out: jax.Array = nn.LayerNorm()(h + nn.relu(update))
        return out


class LineNet(nn.Module):
    """Policy logits (B, C) and value (B,) in [-1, 1] (or, with ``q_head``, one value per
    cell in [-1, 1]: DQN's action values) from observations (B, C, F).
    """

    width: int = 32
    blocks: int = 3

    @nn.compact
    def __call__(self, x: jax.Array, tables: dict[str, Any]) -> tuple[jax.Array, jax.Array]:
        h = nn.Dense(self.width)(x)
        for _ in range(self.blocks):
            h = _Block(self.width)(h, tables)
        logits = nn.Dense(1)(nn.relu(nn.Dense(self.width)(h)))[..., 0]
        pooled = jnp.concatenate([h.mean(axis=1), h.max(axis=1)], axis=-1)
        value = jnp.tanh(nn.Dense(1)(nn.relu(nn.Dense(self.width)(pooled)))[..., 0])
        return logits, value


def make_net(config: NetConfig) -> LineNet:
    return LineNet(width=config.width, blocks=config.blocks)
