"""A checkpoint's network in plain NumPy: its priors, values and moves without JAX.

The network of :mod:`noughts.neural.net` is a few dense layers, sums over the board's lines and a
layer norm: nothing NumPy cannot do for one position at a time. This module reads a checkpoint
(the JSON and the ``weights`` vector of :mod:`noughts.neural.checkpoint`) without importing
JAX, lays the vector out as flax does (the parameter tree's leaves in sorted key order) and
evaluates the network in NumPy. It is what plays a checkpoint where JAX cannot go: the web
arena's workers run under an address-space cap that JAX's runtime does not fit in, so a saved
``az``/``dqn`` agent plays there as a :class:`LightAgent` (the network's own move: the legal
cell of the highest prior or action value; a search needs JAX and the ``az:FILE,sims=N`` agent)
and the arena's Neural page explains positions with it. ``tests/neural/test_light.py`` holds it
to the JAX network: the same logits and values on random positions of several boards.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from noughts.core import Game, Move, NoughtsError, Position, Rule

__all__ = ["LightAgent", "LightNet", "from_saved_light", "load_light", "param_layout"]

FEATURES = 4
KINDS = ("az", "dqn")
MAX_WIDTH = 1024
MAX_BLOCKS = 32
EPSILON = 1e-6  # flax LayerNorm's


def _relu(a: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.maximum(a, 0.0)
    return out


def _supported(game: Game) -> bool:
    """What :func:`noughts.neural.env.supports` says, without importing JAX."""
    if getattr(game, "board", None) is None or not game.cell_moves:
        return False
    notakto = game.properties.same_marks and hasattr(game, "live_boards") and hasattr(game, "board_marks")
    return notakto or game.claim_rule in (Rule.STANDARD, Rule.MISERE, Rule.MAKER_BREAKER)


def param_layout(width: int, blocks: int) -> list[tuple[str, tuple[int, ...]]]:
    """The network's parameters as (path, shape), in the order of flax's parameter tree leaves
    (dictionary keys sorted as strings, so ``_Block_10`` comes before ``_Block_2``).
    """
    w = width
    top: dict[str, dict[str, tuple[int, ...]]] = {
        "Dense_0": {"bias": (w,), "kernel": (FEATURES, w)},  # the input layer
        "Dense_1": {"bias": (1,), "kernel": (w, 1)},  # the policy head's output
        "Dense_2": {"bias": (w,), "kernel": (w, w)},  # the policy head's hidden layer
        "Dense_3": {"bias": (1,), "kernel": (w, 1)},  # the value head's output
        "Dense_4": {"bias": (w,), "kernel": (2 * w, w)},  # the value head's hidden layer
    }
    block = {
        "Dense_0": {"bias": (w,), "kernel": (w, w)},  # a line's second layer
        "Dense_1": {"bias": (w,), "kernel": (w, w)},  # a line's first layer
        "Dense_2": {"bias": (w,), "kernel": (3 * w, w)},  # the cell's update
        "LayerNorm_0": {"bias": (w,), "scale": (w,)},
    }
    tree: dict[str, dict[str, Any]] = {**top, **{f"_Block_{i}": block for i in range(blocks)}}
    out = []
    for name in sorted(tree):
        for layer in sorted(tree[name]):
            value = tree[name][layer]
            if isinstance(value, dict):
                for leaf in sorted(value):
                    out.append((f"{name}/{layer}/{leaf}", value[leaf]))
            else:
                out.append((f"{name}/{layer}", value))
    return out


class LightNet:
    """The network of a checkpoint (``width``, ``blocks``, its ``weights`` vector) over ``game``'s
    board, in NumPy. ``evaluate(positions)``: (B, C) logits (illegal cells included) and (B,) values.
    """

    def __init__(self, game: Game, width: int, blocks: int, weights: np.ndarray, what: str = "checkpoint"):
        if not _supported(game):
            raise NoughtsError(f"{what}: the network plays claim games and Notakto; not {game}")
        self.game = game
        self.width, self.blocks = width, blocks
        layout = param_layout(width, blocks)
        total = sum(int(np.prod(s)) for _, s in layout)
        if weights.ndim != 1 or weights.dtype.kind != "f" or weights.size != total:
            raise NoughtsError(
                f"{what}: its weights do not fit its network ({weights.dtype}{list(weights.shape)}; "
                f"the network has {total:,} float weights)"
            )
        if not np.all(np.isfinite(weights)):
            raise NoughtsError(f"{what}: its weights are not all finite")
        self.p: dict[str, np.ndarray] = {}
        at = 0
        for path, shape in layout:
            n = int(np.prod(shape))
            self.p[path] = weights[at : at + n].reshape(shape).astype(np.float32)
            at += n
        board = game.board
        tables = board.tables
        self.notakto = bool(game.properties.same_marks and hasattr(game, "live_boards"))
        self.boards = int(getattr(game, "boards", 1)) if self.notakto else 1
        n, lines = board.num_cells, len(board.lines)
        self.board_cells = n
        offsets = np.arange(self.boards)
        self.line_cells = (np.asarray(tables.line_cells)[None] + (offsets * n)[:, None, None]).reshape(
            lines * self.boards, board.k
        )
        one = np.asarray(tables.through)
        self.through_valid = np.tile(one >= 0, (self.boards, 1))
        self.through = (np.where(one >= 0, one, 0)[None] + (offsets * lines)[:, None, None]).reshape(
            n * self.boards, -1
        )

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        out: np.ndarray = x @ self.p[name + "/kernel"] + self.p[name + "/bias"]
        return out

    def features(self, positions: list[Position]) -> np.ndarray:
        """(B, C, 4) float32, as :meth:`noughts.neural.env.Env.observation` (the mover's side)."""
        game: Any = self.game
        rows = []
        for p in positions:
            first = np.full(self.board_cells * self.boards, float(int(p.to_move) == 0))
            if self.notakto:
                marks = game.board_marks(p)
                n = self.board_cells
                marked = np.array([(marks[c // n] >> (c % n)) & 1 for c in range(n * self.boards)], bool)
                live = set(game.live_boards(p))
                dead = np.repeat([b not in live for b in range(self.boards)], n)
                rows.append(np.stack([marked, dead, ~marked, first], axis=-1))
            else:
                owners = np.asarray(game.cell_owners(p))  # 0 the first player's, 1 the second's
                mover = int(p.to_move)
                empty = (owners != 0) & (owners != 1)
                rows.append(np.stack([owners == mover, owners == 1 - mover, empty, first], axis=-1))
        return np.asarray(rows, np.float32)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits (B, C) and values (B,) of features ``x`` (B, C, 4)."""
        relu = _relu
        h = self._dense(x, "Dense_0")
        valid = self.through_valid.astype(np.float32)
        count = np.maximum(valid.sum(axis=1), 1)[None, :, None]
        for i in range(self.blocks):
            b = f"_Block_{i}"
            lines = h[:, self.line_cells].sum(axis=2)
            lines = self._dense(relu(self._dense(lines, b + "/Dense_1")), b + "/Dense_0")
            total = (lines[:, self.through] * valid[None, :, :, None]).sum(axis=2)
            update = self._dense(np.concatenate([h, total / count, total / 8.0], axis=-1), b + "/Dense_2")
            y = h + relu(update)
            mean = y.mean(axis=-1, keepdims=True)
            var = np.maximum((y * y).mean(axis=-1, keepdims=True) - mean * mean, 0.0)
            h = (y - mean) / np.sqrt(var + EPSILON) * self.p[b + "/LayerNorm_0/scale"] + self.p[
                b + "/LayerNorm_0/bias"
            ]
        logits = self._dense(relu(self._dense(h, "Dense_2")), "Dense_1")[..., 0]
        pooled = np.concatenate([h.mean(axis=1), h.max(axis=1)], axis=-1)
        value = np.tanh(self._dense(relu(self._dense(pooled, "Dense_4")), "Dense_3")[..., 0])
        return logits, value

    def evaluate(self, positions: list[Position]) -> tuple[np.ndarray, np.ndarray]:
        return self.forward(self.features(positions))


class LightAgent:
    """A checkpoint's network playing its own move (see the module docstring): the legal cell of
    the highest logit (an az network's prior; a dqn network's action value).
    """

    def __init__(self, kind: str, net: LightNet, label: str = ""):
        self.kind = kind
        self.net = net
        self.game = net.game
        self.name = label or (f"{kind}:sims=0" if kind == "az" else kind)

    def _check(self, position: Position) -> None:
        if position.game != self.game:
            raise NoughtsError(f"{self.name} was made for {self.game}; it cannot play {position.game}")
        if position.is_terminal():
            raise NoughtsError("the game is over: there is no move to choose")

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        self._check(position)
        logits, _ = self.net.evaluate([position])
        legal = position.legal_moves()
        cells = [int(self.game.action(m)) for m in legal]
        return legal[int(np.argmax(logits[0, cells]))]

    def explain(self, position: Position) -> dict[str, Any]:
        """As :meth:`noughts.neural.agents.NeuralAgent.explain` with no search."""
        self._check(position)
        logits, value = self.net.evaluate([position])
        legal = position.legal_moves()
        cells = [int(self.game.action(m)) for m in legal]
        row = logits[0, cells].astype(np.float64)
        entries: list[dict[str, Any]] = [{"move": self.game.format_move(m)} for m in legal]
        if self.kind == "dqn":
            q = np.tanh(row)
            for e, v in zip(entries, q, strict=True):
                e["q"] = round(float(v), 4)
            best = float(q.max())
        else:
            prior = np.exp(row - row.max())
            prior /= prior.sum()
            for e, v in zip(entries, prior, strict=True):
                e["prior"] = round(float(v), 4)
            best = float(value[0])
        return {
            "kind": self.kind,
            "agent": self.name,
            "sims": 0,
            "value": round(best, 4),
            "move": self.game.format_move(legal[int(np.argmax(row))]),
            "moves": entries,
        }


def read_network(meta: dict[str, Any], what: str) -> tuple[int, int]:
    """The width and blocks a checkpoint's JSON names, checked."""
    net = meta.get("network")
    if not isinstance(net, dict) or net.get("name") != "linenet":
        raise NoughtsError(f"{what}: 'network' must name a linenet with its width and blocks")
    out = []
    for key, top in (("width", MAX_WIDTH), ("blocks", MAX_BLOCKS)):
        v = net.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= top:
            raise NoughtsError(f"{what}: the network's {key} must be a whole number from 1 to {top}")
        out.append(int(v))
    return out[0], out[1]


def from_saved_light(
    meta: dict[str, Any], arrays: dict[str, np.ndarray], what: str = "checkpoint"
) -> LightAgent:
    """The :class:`LightAgent` of a saved checkpoint's validated ``(meta, arrays)``."""
    from noughts.agents.saved import saved_game

    kind = meta.get("kind")
    if kind not in KINDS:
        raise NoughtsError(f"{what}: not a neural checkpoint (kind {kind!r})")
    game = saved_game(meta, str(kind))
    width, blocks = read_network(meta, what)
    extra = sorted(arrays.keys() - {"weights", "optimizer"})
    if extra:
        raise NoughtsError(f"{what}: it holds arrays other than weights and optimizer ({extra[0]})")
    weights = arrays.get("weights")
    if weights is None:
        raise NoughtsError(f"{what}: it holds no weights")
    return LightAgent(str(kind), LightNet(game, width, blocks, np.asarray(weights), what))


def load_light(path: str | os.PathLike[str]) -> LightAgent:
    """The checkpoint at ``path`` as a :class:`LightAgent` (no JAX), checked as the JAX loader does."""
    from noughts.agents.saved import load_saved

    p = Path(path)
    meta, arrays = load_saved(p)
    return from_saved_light(meta, arrays, f"cannot load {p.name}")
