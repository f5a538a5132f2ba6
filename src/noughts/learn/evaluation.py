"""Evaluation functions that seed the value tables (000 §3.2.4 and §3.2.6), for claim games.

All three are written from the first player's side (positive favours the first player), so that
``V1(s) = scaled(s)`` and ``V2(s) = -V1(s)``; this is the paper's initialisation, whose two
cases (``d`` for the player to move, negated when the second player moves) say the same.

* **TCD**, triplet-coverage difference: the lines holding no cell of the second player minus the
  lines holding no cell of the first player.
* **WTCD**, weighted TCD: each line counts with the sum of its cells' weights. 000 §3.2.6 argues
  that a cell is worth more the more lines pass through it, then prints weights that contradict
  the argument (centre 2, *edges* 1.5, corners 1, though a corner lies on three lines and an edge
  on two). noughts follows the argument: a cell's weight is half the number of lines through it
  (centre 2, corners 1.5, edges 1 on 3x3), which also defines WTCD on every other board.
* **two-step look-ahead** (2SLA): the TCD now plus the best TCD the side to move can reach with
  one move (the largest for the first player, the smallest for the second).

Scaling. The paper maps TCD into [-1, 1] as ``(d - 1) / 3``, from claimed bounds -2 and 4 on
3x3; the authors' code does the same. Both bounds are wrong over the reachable positions of
``cumulative(tictactoe)`` (the true range is computed by :func:`bounds`; see the tests), so the
map leaves [-1, 1], and it also sends the neutral position (``d = 0``, the empty board) to
-1/3. noughts divides by the largest ``|d|`` over the reachable positions where play goes on:
the scaled values lie in [-1, 1], reach one of its ends, and keep 0 neutral.

The paper's own settings, for reproducing its figures like with like (the ``paper`` arm of the
``cumulative-td`` experiment):

* ``tcd-paper``: TCD mapped by ``(d - 1) / 3`` exactly as the authors' code does
  (``cumulative_tictactoe_core.tcd``: ``(d + 2) / 6 * 2 - 1``), values outside [-1, 1] included;
  ``V2 = -V1``. Defined on every claim board (the map is the paper's, whatever the board).
* ``wtcd-paper``: WTCD with the weights 000 §3.2.6 prints (centre 2, edges 1.5, corners 1; 3x3
  only, where "centre", "edge" and "corner" mean something), "normalized to [-1, 1] ... similar
  to the procedures in TCD". The paper gives no bounds for WTCD and the authors' code has no
  WTCD, so the procedure is applied with the true bounds: the affine map sending the least
  reachable value to -1 and the greatest to +1 (:func:`paper_scale`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from noughts.core import Game, NoughtsError, Position
from noughts.exact.states import StateSpace, terminal_values
from noughts.kernels.rng import SplitMix64, derive_seed

__all__ = [
    "EVALUATIONS",
    "INITS",
    "PAPER_INITS",
    "bounds",
    "cell_weights",
    "evaluation_table",
    "initial_values",
    "paper_cell_weights",
    "paper_scale",
    "tcd",
    "two_step",
    "wtcd",
]

FloatArray = npt.NDArray[np.float64]


def _claims_cells(game: Game) -> bool:
    """Whether each turn claims a cell of the one board (claim games and Otrio; not veto rules,
    whose turns open with a veto).
    """
    return game.line_rule is not None and not game.has_veto_step


def _claim_bits(position: Position) -> tuple[int, int]:
    if not _claims_cells(position.game):
        raise NoughtsError(f"the TCD family of evaluation functions needs a claim game, not {position.game}")
    return position.cell_masks()


def cell_weights(game: Game) -> tuple[float, ...]:
    """WTCD's weight of each cell: half the number of lines through it."""
    return tuple(len(t) / 2 for t in game.board.lines_through)


def paper_cell_weights(game: Game) -> tuple[float, ...]:
    """The WTCD weights 000 §3.2.6 prints for 3x3: centre 2, edges 1.5, corners 1.

    They are defined on the 3x3 board only (``NoughtsError`` elsewhere): a corner is a cell on
    three lines, an edge a cell on two, the centre the cell on four.
    """
    board = game.board
    if tuple(board.grid) != (3, 3) or len(board.lines) != 8:
        raise NoughtsError(f"000's printed WTCD weights are for the 3x3 board, not {game.board.spec}")
    by_lines = {4: 2.0, 2: 1.5, 3: 1.0}  # centre, edge, corner
    return tuple(by_lines[len(t)] for t in board.lines_through)


def tcd(position: Position) -> float:
    """The raw TCD of a position (reference, over the position API)."""
    b0, b1 = _claim_bits(position)
    masks = position.game.board.line_masks
    return float(sum(1 for m in masks if not b1 & m) - sum(1 for m in masks if not b0 & m))


def wtcd(position: Position) -> float:
    """The raw WTCD of a position (reference)."""
    return _weighted(position, cell_weights(position.game))


def wtcd_paper(position: Position) -> float:
    """The raw WTCD with 000's printed weights (reference; 3x3 only)."""
    return _weighted(position, paper_cell_weights(position.game))


def _weighted(position: Position, w: tuple[float, ...]) -> float:
    b0, b1 = _claim_bits(position)
    board = position.game.board
    line_w = [sum(w[c] for c in line) for line in board.lines]
    return float(
        sum(lw for m, lw in zip(board.line_masks, line_w, strict=True) if not b1 & m)
        - sum(lw for m, lw in zip(board.line_masks, line_w, strict=True) if not b0 & m)
    )


def two_step(position: Position, base: Callable[[Position], float] = tcd) -> float:
    """The raw two-step look-ahead: ``base`` now plus the best ``base`` the mover reaches in one
    move (on a full board, ``base`` twice).
    """
    now = base(position)
    moves = position.legal_moves()
    if not moves:
        return 2 * now
    after = [base(position.play(m)) for m in moves]
    best = max(after) if position.to_move == 0 else min(after)
    return now + best


EVALUATIONS: dict[str, Callable[[Position], float]] = {
    "tcd": tcd,
    "wtcd": wtcd,
    "2sla": two_step,
    "wtcd-paper": wtcd_paper,
}
"""The reference evaluation functions by name."""

PAPER_INITS = ("tcd-paper", "wtcd-paper")
"""The initialisations scaled as 000 does (see the module docstring)."""

INITS = ("zero", "random", "tcd", "wtcd", "2sla", *PAPER_INITS)
"""The initialisations of a value table that :func:`initial_values` knows."""


def paper_scale(name: str, d: FloatArray, lo: float, hi: float) -> FloatArray:
    """000's normalisation of raw values ``d`` of evaluation ``name``: ``(d - 1) / 3`` for TCD (the
    authors' map from claimed bounds -2 and 4), the affine map of ``[lo, hi]`` onto [-1, 1] for
    WTCD (the same procedure with the true bounds ``lo``, ``hi``; see the module docstring).
    """
    if name == "tcd":
        return (d - 1.0) / 3.0
    if name == "wtcd-paper":
        if hi <= lo:
            return np.zeros_like(d)
        return (2.0 * d - (hi + lo)) / (hi - lo)
    raise NoughtsError(f"000 gives no normalisation of {name!r}")


def evaluation_table(space: StateSpace, name: str) -> FloatArray:
    """The raw evaluation ``name`` of every state of ``space`` (vectorised; held to the
    reference functions by the tests). Finished positions get a value too (the look-ahead uses
    them), though tables never start from it there.
    """
    if name not in EVALUATIONS:
        raise NoughtsError(f"unknown evaluation {name!r}; known: {', '.join(EVALUATIONS)}")
    if not _claims_cells(space.game) or space.keys is None:
        raise NoughtsError(f"the TCD family of evaluation functions needs a claim game, not {space.game}")
    board = space.game.board
    b0, b1 = space.bits()
    lines = np.array(board.line_masks, dtype=np.uint64)
    if name in ("wtcd", "wtcd-paper"):
        w = cell_weights(space.game) if name == "wtcd" else paper_cell_weights(space.game)
        line_w = np.array([sum(w[c] for c in line) for line in board.lines], dtype=np.float64)
    else:
        line_w = np.ones(len(board.lines), dtype=np.float64)
    open0 = ((b1[:, None] & lines[None, :]) == 0) @ line_w  # lines the first player can still own
    open1 = ((b0[:, None] & lines[None, :]) == 0) @ line_w
    d: FloatArray = open0 - open1
    if name != "2sla":
        return d
    nxt = space.next
    legal: npt.NDArray[np.bool_] = np.asarray(nxt >= 0)
    child = np.where(legal, d[np.where(legal, nxt, 0)], np.nan)
    has_move: npt.NDArray[np.bool_] = np.asarray(legal.any(axis=1))
    best = np.where(
        space.to_move == 0,
        np.nanmax(np.where(has_move[:, None], child, 0.0), axis=1),
        np.nanmin(np.where(has_move[:, None], child, 0.0), axis=1),
    )
    return np.where(has_move, d + best, 2 * d)


def bounds(space: StateSpace, name: str) -> tuple[float, float]:
    """The least and greatest raw value of evaluation ``name`` over the reachable positions
    where play goes on.
    """
    d = evaluation_table(space, name)[space.nonterminal()]
    return float(d.min()), float(d.max())


def initial_values(space: StateSpace, init: str, seed: int = 0) -> tuple[FloatArray, FloatArray]:
    """The two value tables ``(V1, V2)`` before training (000 §3.2.3-3.2.4, §4.2 stage 2):
    finished positions hold their payoffs (``V2 = -V1`` there); every other position holds
    ``init``: ``zero``, ``random`` (each table independently uniform on [-1, 1), drawn in index
    order from a SplitMix64 stream derived from ``seed``), an evaluation function scaled by its
    largest absolute value over the reachable positions (``V2 = -V1``), or one of 000's own
    scalings, ``tcd-paper`` and ``wtcd-paper`` (:func:`paper_scale`, ``V2 = -V1``).
    """
    if init not in INITS:
        raise NoughtsError(f"unknown initialisation {init!r}; known: {', '.join(INITS)}")
    live = space.nonterminal()
    term = terminal_values(space)
    v1 = term.copy()
    v2 = -term
    if init == "random":
        rng = SplitMix64(derive_seed(seed, 1))
        n = space.size
        r1 = np.array([2.0 * rng.uniform() - 1.0 for _ in range(n)])
        r2 = np.array([2.0 * rng.uniform() - 1.0 for _ in range(n)])
        v1[live] = r1[live]
        v2[live] = r2[live]
    elif init in PAPER_INITS:
        name = "tcd" if init == "tcd-paper" else init
        d = evaluation_table(space, name)
        lo, hi = (float(d[live].min()), float(d[live].max())) if live.any() else (0.0, 0.0)
        scaled = paper_scale(name, d, lo, hi)
        v1[live] = scaled[live]
        v2[live] = -scaled[live]
    elif init != "zero":
        d = evaluation_table(space, init)
        scale = float(np.abs(d[live]).max()) if live.any() else 1.0
        scaled = d / scale if scale > 0 else np.zeros_like(d)
        v1[live] = scaled[live]
        v2[live] = -scaled[live]
    return v1, v2
