"""Checkpoints of the neural learners: a saved agent (versioned JSON + ``.npz``), never a pickle.

A checkpoint is a saved agent of kind ``az`` or ``dqn`` (:mod:`noughts.agents.saved`: the JSON
names the game, the network's shape and the training so far; the ``.npz`` holds ``weights``,
every parameter in one float32 vector in the order of the network's parameter tree, and for the
run's last checkpoint ``optimizer``, the optimiser's state in one vector). Loading checks the
vector against a network of the shape the JSON names (its length, floats, all finite): a file
that does not fit is refused with one message, before anything runs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from noughts.agents.saved import load_saved, save_parts, saved_game
from noughts.core import Game, NoughtsError
from noughts.neural.env import FEATURES, Env
from noughts.neural.net import NetConfig, make_net

__all__ = [
    "Checkpoint",
    "flatten",
    "init_params",
    "load_checkpoint",
    "pack_state",
    "save_checkpoint",
    "unflatten",
    "unpack_state",
]

KINDS = ("az", "dqn")
MAX_WIDTH = 1024
MAX_BLOCKS = 32


class Checkpoint:
    """A network's weights with what they are for: ``kind``, ``game``, ``config``, ``params`` (a
    flax parameter tree), ``opt_state`` (the optimiser's state packed in one vector, or None) and ``info``
    (the training so far: steps, games, the grade at saving; JSON-able).
    """

    def __init__(
        self,
        kind: str,
        game: Game,
        config: NetConfig,
        params: Any,
        info: dict[str, Any] | None = None,
        opt_state: np.ndarray | None = None,
    ):
        self.kind = kind
        self.game = game
        self.config = config
        self.params = params
        self.info = info or {}
        self.opt_state = opt_state


def init_params(config: NetConfig, env: Env, seed: int) -> Any:
    """Fresh weights of a network of ``config`` (which fit every board)."""
    x = jnp.zeros((1, env.num_cells, FEATURES), jnp.float32)
    return make_net(config).init(jax.random.PRNGKey(seed), x, env.tables())


def flatten(params: Any) -> np.ndarray:
    """The parameter tree as one float32 vector, the leaves in the tree's order."""
    leaves = jax.tree_util.tree_leaves(params)
    return (
        np.concatenate([np.asarray(a, np.float32).ravel() for a in leaves])
        if leaves
        else np.zeros(0, np.float32)
    )


def unflatten(vector: np.ndarray | None, like: Any, what: str) -> Any:
    """The parameter tree shaped as ``like`` from :func:`flatten`'s vector; ``NoughtsError``
    if it is missing, not float, of the wrong length or not finite.
    """
    leaves, tree = jax.tree_util.tree_flatten(like)
    total = sum(int(np.size(a)) for a in leaves)
    if vector is None:
        raise NoughtsError(f"{what}: it holds no weights")
    if vector.ndim != 1 or vector.dtype.kind != "f" or vector.size != total:
        raise NoughtsError(
            f"{what}: its weights do not fit its network ({vector.dtype}{list(vector.shape)}; "
            f"the network has {total:,} float weights)"
        )
    if not np.all(np.isfinite(vector)):
        raise NoughtsError(f"{what}: its weights are not all finite")
    out, at = [], 0
    for leaf in leaves:
        n = int(np.size(leaf))
        out.append(jnp.asarray(vector[at : at + n].reshape(np.shape(leaf)), dtype=leaf.dtype))
        at += n
    return jax.tree_util.tree_unflatten(tree, out)


def pack_state(tree: Any) -> np.ndarray:
    """An optimiser's state as one float64 vector (its step counts stay exact)."""
    leaves = jax.tree_util.tree_leaves(tree)
    return np.concatenate([np.asarray(a, np.float64).ravel() for a in leaves]) if leaves else np.zeros(0)


def unpack_state(vector: np.ndarray, like: Any) -> Any:
    """:func:`pack_state`'s inverse, shaped as a fresh state ``like``; ``NoughtsError`` if it does not fit."""
    leaves, tree = jax.tree_util.tree_flatten(like)
    total = sum(int(np.size(a)) for a in leaves)
    if vector.ndim != 1 or vector.size != total or not np.all(np.isfinite(vector)):
        raise NoughtsError("the checkpoint's optimiser state does not fit this optimiser")
    out, at = [], 0
    for leaf in leaves:
        n = int(np.size(leaf))
        out.append(jnp.asarray(vector[at : at + n].reshape(np.shape(leaf)), dtype=jnp.asarray(leaf).dtype))
        at += n
    return jax.tree_util.tree_unflatten(tree, out)


def save_checkpoint(ckpt: Checkpoint, path: str | os.PathLike[str]) -> Path:
    """Write ``ckpt`` as a saved agent at ``path`` (``.json``, with its ``.npz`` beside it)."""
    arrays = {"weights": flatten(ckpt.params)}
    if ckpt.opt_state is not None:
        arrays["optimizer"] = ckpt.opt_state
    meta = {
        "kind": ckpt.kind,
        "game": str(ckpt.game),
        "network": {"name": "linenet", **ckpt.config.to_json()},
        "neural": ckpt.info,
    }
    return save_parts(meta, arrays, path)


def read_config(meta: dict[str, Any], what: str) -> NetConfig:
    """The network shape a checkpoint's JSON names, checked."""
    net = meta.get("network")
    if not isinstance(net, dict) or net.get("name") != "linenet":
        raise NoughtsError(f"{what}: 'network' must name a linenet with its width and blocks")
    width, blocks = net.get("width"), net.get("blocks")
    for key, v, top in (("width", width, MAX_WIDTH), ("blocks", blocks, MAX_BLOCKS)):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= top:
            raise NoughtsError(f"{what}: the network's {key} must be a whole number from 1 to {top}")
    return NetConfig(width=int(width), blocks=int(blocks))  # type: ignore[arg-type]


def from_meta(meta: dict[str, Any], arrays: dict[str, np.ndarray], what: str = "checkpoint") -> Checkpoint:
    """A :class:`Checkpoint` from a saved agent's validated ``(meta, arrays)``."""
    kind = meta.get("kind")
    if kind not in KINDS:
        raise NoughtsError(f"{what}: not a neural checkpoint (kind {kind!r})")
    game = saved_game(meta, kind)
    env = Env(game)
    config = read_config(meta, what)
    x = jnp.zeros((1, env.num_cells, FEATURES), jnp.float32)
    shapes = jax.eval_shape(make_net(config).init, jax.random.PRNGKey(0), x, env.tables())  # no compute
    params = unflatten(arrays.get("weights"), shapes, what)
    info = meta.get("neural")
    if not isinstance(info, dict):
        raise NoughtsError(f"{what}: 'neural' (the training so far) must be an object")
    extra = sorted(arrays.keys() - {"weights", "optimizer"})
    if extra:
        raise NoughtsError(f"{what}: it holds arrays other than weights and optimizer ({extra[0]})")
    opt = arrays.get("optimizer")
    return Checkpoint(str(kind), game, config, params, info, opt)


def load_checkpoint(path: str | os.PathLike[str], kind: str | None = None) -> Checkpoint:
    """The checkpoint at ``path``, checked (see the module docstring); ``kind`` asks for one kind."""
    p = Path(path)
    meta, arrays = load_saved(p)
    ckpt = from_meta(meta, arrays, f"cannot load {p.name}")
    if kind is not None and ckpt.kind != kind:
        raise NoughtsError(f"cannot load {p.name}: it is a checkpoint of kind {ckpt.kind}, not {kind}")
    return ckpt
