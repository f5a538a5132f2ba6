"""The LMS linear agent of 001 as a player: one weight vector over six line features + bias.

The agent moves to the successor with the best estimate ``V^(b) = W . X(b)`` for its side:
the highest when it plays the first player (the weights are from x's side), the lowest when it
plays the second. It is trained by :func:`noughts.learn.linear.train_lms` and saved as JSON
metadata plus a ``weights`` array (see :mod:`noughts.agents.saved`).

>>> import noughts, numpy as np
>>> g = noughts.game("tictactoe")
>>> agent = LinearAgent(g, [0, 0, 0, 0, 0, 100, -100])   # values only won lines
>>> g.format_move(agent.choose(g.parse("xx./oo./..."), np.random.default_rng(0)))
'c1'

The six board features (001 §3.3) are generalised to any claim board and k. 001 defines, for 3x3 with three in a row, six counts over rows and columns plus a bias
``x0 = 1``: ``x1``/``x2`` an X/O alone in an open row or column, ``x3``/``x4`` two X/O in a
row, ``x5``/``x6`` three X/O in a row. noughts counts over *every* winning line of the board
(each line has k cells), so the same six numbers mean the same thing on 4x4 with k = 4, on
5x5 with k = 3, on n^d cubes and odd shapes:

====  ==========================================================================
x0    1 (bias)
x1    lines holding exactly one x and no o (x alone in an open line)
x2    lines holding exactly one o and no x
x3    lines holding exactly k - 1 x and no o (one cell short of a line of x)
x4    lines holding exactly k - 1 o and no x
x5    lines wholly x (k x: won)
x6    lines wholly o
====  ==========================================================================

For k = 3 these are 001's features, except that 001 counts rows and columns only, and so
misses diagonals: its worked example (Figure 12, ``o../xxx/xoo``) gives ``x3 = 0`` where the
anti-diagonal ``c1 b2 a3`` holds two x and an empty cell; noughts gives ``x3 = 1`` there.
For k = 2, ``x1`` and ``x3`` (and ``x2``, ``x4``) count the same lines.

"x" is the first player's mark and "o" the second's, whatever the rules call them, so a
weight vector is always from the first player's side (001 trains one vector playing both).

001's own feature set is available as ``feature_set="rowcol"``: the same six counts over the
rows and columns only (on any board: the lines along one axis, whose cells differ in one
coordinate), which gives 001's Figure 12 exactly.

>>> features(g.parse("o../xxx/xoo"), "rowcol").tolist()
[1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0]

>>> import noughts
>>> g = noughts.game("tictactoe")
>>> features(g.parse("o../xxx/xoo")).tolist()
[1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.agents.saved import saved_game
from noughts.core import Game, Move, NoughtsError, Position

__all__ = [
    "FEATURE_NAMES",
    "FEATURE_SETS",
    "KIND",
    "NUM_FEATURES",
    "LineFeatures",
    "LinearAgent",
    "check_claim_game",
    "feature_lines",
    "features",
    "from_saved",
]

KIND = "linear"
TIE_BREAKS = ("random", "first")

NUM_FEATURES = 7
FEATURE_SETS = ("lines", "rowcol")
"""The lines the features count over: every winning line (noughts), or rows and columns (001)."""
FEATURE_NAMES = (
    "bias",
    "x alone in an open line",
    "o alone in an open line",
    "x one short of a line",
    "o one short of a line",
    "x lines",
    "o lines",
)


def check_claim_game(game: Game) -> Game:
    """``game`` if it is a claim game (players claim cells of one board: ``game.claim_rule``),
    else a clear ``NoughtsError``.
    """
    if game.claim_rule is None:
        raise NoughtsError(
            f"the linear (LMS) features are defined over the marks of one board; {game} is not a claim game"
        )
    lengths = {len(line) for line in game.board.lines}
    if len(lengths) != 1:
        raise NoughtsError(f"the lines of {game.board.spec} differ in length; the features need one k")
    return game


def feature_lines(game: Game, feature_set: str = "lines") -> list[tuple[int, ...]]:
    """The lines the features of ``feature_set`` count over: every winning line (``lines``) or
    the axis-parallel ones, whose cells differ in one coordinate only (``rowcol``: 001's rows
    and columns).
    """
    if feature_set not in FEATURE_SETS:
        raise NoughtsError(f"the feature set is one of {', '.join(FEATURE_SETS)}, not {feature_set!r}")
    board = check_claim_game(game).board
    if feature_set == "lines":
        return list(board.lines)
    coords = board.coords
    return [
        line
        for line in board.lines
        if sum(len({coords[c][axis] for c in line}) > 1 for axis in range(len(coords[0]))) == 1
    ]


class LineFeatures:
    """The feature extractor of one board: its line masks, computed once."""

    def __init__(self, game: Game, feature_set: str = "lines"):
        claim = check_claim_game(game)
        self.game = claim
        self.k = len(claim.board.lines[0])
        self.feature_set = feature_set
        lines = feature_lines(claim, feature_set)
        self.masks = [sum(1 << c for c in line) for line in lines]

    def of_bits(self, first: int, second: int) -> npt.NDArray[np.float64]:
        """The feature vector of the board with ``first``'s and ``second``'s cells as bit masks:
        the lines counted by how many x and o they hold, read off as the table above says (the
        plain form the LMS kernel, :mod:`noughts.learn._linear_kernels`, is held to).
        """
        k = self.k
        lines = Counter(((first & m).bit_count(), (second & m).bit_count()) for m in self.masks)
        x = [1, lines[1, 0], lines[0, 1], lines[k - 1, 0], lines[0, k - 1], lines[k, 0], lines[0, k]]
        return np.array(x, dtype=np.float64)

    def __call__(self, position: Position) -> npt.NDArray[np.float64]:
        """The feature vector of ``position`` (which must be a position of this game)."""
        if position.game != self.game:
            raise NoughtsError(f"a position of {position.game}, not of {self.game}")
        return self.of_bits(*position.cell_masks())


def features(position: Position, feature_set: str = "lines") -> npt.NDArray[np.float64]:
    """The seven-entry feature vector ``[1, x1, ..., x6]`` of ``position`` (see the module docs)."""
    return LineFeatures(position.game, feature_set)(position)


class LinearAgent:
    """Plays the successor of best linear estimate; ties by ``tie_break`` (random or first)."""

    def __init__(
        self,
        game: Game,
        weights: Sequence[float] | npt.NDArray[np.float64],
        *,
        tie_break: str = "random",
        training: Mapping[str, Any] | None = None,
        feature_set: str = "lines",
    ):
        if tie_break not in TIE_BREAKS:
            raise NoughtsError(f"tie_break is 'random' or 'first', not {tie_break!r}")
        w = np.array(weights, dtype=np.float64)
        if w.shape != (NUM_FEATURES,):
            raise NoughtsError(f"a linear agent has {NUM_FEATURES} weights, not an array of shape {w.shape}")
        if not np.all(np.isfinite(w)):
            raise NoughtsError("a linear agent's weights must be finite numbers")
        self.game = game
        self.weights = w
        self.tie_break = tie_break
        self.training = dict(training or {})
        self.features = LineFeatures(game, feature_set)
        self.feature_set = feature_set
        self.name = "linear"

    def evaluate(self, position: Position) -> float:
        """``V^(position)`` from the first player's side (001 eq. 1)."""
        return float(self.weights @ self.features(position))

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        moves = position.legal_moves()
        if not moves:
            raise NoughtsError("the game is over: there is no move to choose")
        values = [self.evaluate(position.play(m)) for m in moves]
        best = max(values) if position.to_move == 0 else min(values)
        ties = [m for m, v in zip(moves, values, strict=True) if v == best]
        if self.tie_break == "first" or len(ties) == 1:
            return ties[0]
        return ties[int(rng.integers(len(ties)))]

    def to_saved(self) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
        """JSON metadata and arrays for :func:`noughts.agents.saved.save_agent`."""
        meta = {
            "kind": KIND,
            "game": str(self.game),
            "tie_break": self.tie_break,
            "features": list(FEATURE_NAMES),
            "feature_set": self.feature_set,
            "training": self.training,
        }
        return meta, {"weights": self.weights.copy()}

    def __repr__(self) -> str:
        return f"LinearAgent({str(self.game)!r}, weights={self.weights.round(3).tolist()})"


def from_saved(meta: Mapping[str, Any], arrays: Mapping[str, npt.NDArray[Any]]) -> LinearAgent:
    """A :class:`LinearAgent` from saved metadata and arrays, validated (``NoughtsError`` if bad)."""
    game = saved_game(meta, "linear agent")
    if "weights" not in arrays:
        raise NoughtsError("a saved linear agent has a 'weights' array")
    weights = np.asarray(arrays["weights"])
    if weights.dtype.kind not in "fiu":
        raise NoughtsError(f"a linear agent's weights are numbers, not {weights.dtype}")
    tie_break = meta.get("tie_break", "random")
    if not isinstance(tie_break, str):
        raise NoughtsError("'tie_break' of a saved linear agent is a string")
    training = meta.get("training") or {}
    if not isinstance(training, dict):
        raise NoughtsError("'training' of a saved linear agent is an object")
    feature_set = meta.get("feature_set", "lines")
    if not isinstance(feature_set, str):
        raise NoughtsError("'feature_set' of a saved linear agent is a string")
    return LinearAgent(
        game, weights.astype(np.float64), tie_break=tie_break, training=training, feature_set=feature_set
    )
