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
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from noughts.core import Game, NoughtsError, Position
from noughts.exact.states import StateSpace, terminal_values
from noughts.learn.rng import SplitMix64, derive_seed

__all__ = [
    "EVALUATIONS",
    "INITS",
    "bounds",
    "cell_weights",
    "evaluation_table",
    "initial_values",
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


def tcd(position: Position) -> float:
    """The raw TCD of a position (reference, over the position API)."""
    b0, b1 = _claim_bits(position)
    masks = position.game.board.line_masks
    return float(sum(1 for m in masks if not b1 & m) - sum(1 for m in masks if not b0 & m))


def wtcd(position: Position) -> float:
    """The raw WTCD of a position (reference)."""
    b0, b1 = _claim_bits(position)
    board = position.game.board
    w = cell_weights(position.game)
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


EVALUATIONS: dict[str, Callable[[Position], float]] = {"tcd": tcd, "wtcd": wtcd, "2sla": two_step}
"""The reference evaluation functions by name."""

INITS = ("zero", "random", "tcd", "wtcd", "2sla")
"""The initialisations of a value table that :func:`initial_values` knows."""


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
    if name == "wtcd":
        w = cell_weights(space.game)
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
    order from a SplitMix64 stream derived from ``seed``), or an evaluation function scaled by its
    largest absolute value over the reachable positions (``V2 = -V1``).
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
    elif init != "zero":
        d = evaluation_table(space, init)
        scale = float(np.abs(d[live]).max()) if live.any() else 1.0
        scaled = d / scale if scale > 0 else np.zeros_like(d)
        v1[live] = scaled[live]
        v2[live] = -scaled[live]
    return v1, v2
