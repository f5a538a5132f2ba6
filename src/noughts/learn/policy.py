"""Exact play of tabular policies over a whole state space: outcome probabilities, best replies.

A policy here is, for every position of a :class:`~noughts.learn.states.StateSpace`, the bit set
of the actions it may play; it plays one of them uniformly at random (the greedy agents break
ties that way). Two such policies, one per side, define a Markov chain from the start, and the
probability of each outcome follows exactly by one pass over the positions, children before
parents. That replaces sampled games wherever the state space can be numbered (3x3 boards,
cumulative 3x3): "lost 10 of 10 games as second" becomes "loses with probability 0.62".

* :func:`outcome_probabilities`: P(first wins), P(draw), P(second wins) from every position;
* :func:`versus`: an agent's exact results as first and as second against an opponent;
* :func:`all_moves`: the uniformly random player; :func:`perfect_moves`: the exact solver's
  best moves (the perfect player, ties at random);
* :func:`successor_value_moves`: the greedy moves of a value function (first player maximises,
  second minimises: the linear agent of 001);
* :func:`best_against_random`: the greatest probability of winning that any policy reaches
  against the uniformly random player, as first and as second (an expectimax over the space):
  the ceiling for 003's "win rate vs random".

The reference for all of this is :func:`outcome_reference`, a plain recursion over the position
API that the tests hold the array version to.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.core import NoughtsError, Outcome, Position
from noughts.exact.states import StateSpace, optimal_action_sets

__all__ = [
    "agent_moves",
    "all_moves",
    "best_against_random",
    "children_first",
    "expected_length",
    "live_positions",
    "outcome_probabilities",
    "outcome_reference",
    "perfect_moves",
    "successor_value_moves",
    "versus",
]

Sets = npt.NDArray[np.uint64]
FloatArray = npt.NDArray[np.float64]


def _check(space: StateSpace) -> None:
    if space.num_actions > 64:
        raise NoughtsError("action bit sets need at most 64 actions")


def children_first(space: StateSpace) -> npt.NDArray[np.int64]:
    """The reachable positions ordered so that every position comes after all its successors."""
    nxt = space.next
    order: list[int] = []
    state = np.zeros(space.size, dtype=np.int8)  # 0 new, 1 open, 2 done
    stack = [space.start]
    while stack:
        s = stack[-1]
        if state[s] == 2:
            stack.pop()
            continue
        if state[s] == 0:
            state[s] = 1
            pending = [int(c) for c in nxt[s] if c >= 0 and state[c] == 0]
            if pending:
                stack.extend(pending)
                continue
        state[s] = 2
        order.append(s)
        stack.pop()
    return np.array(order, dtype=np.int64)


def _levels(space: StateSpace) -> list[npt.NDArray[np.int64]]:
    """Groups of positions, deepest first, each group's successors all in earlier groups: the
    claim plies (cells taken) where the space has bit keys, else one position at a time.
    """
    if space.keys is not None:
        b0, b1 = space.bits()
        ply = np.bitwise_count(b0 | b1).astype(np.int64)
        return [np.nonzero(ply == k)[0] for k in range(int(ply.max()), -1, -1)]
    return [np.array([s], dtype=np.int64) for s in children_first(space)]


def _chosen(space: StateSpace, rows: npt.NDArray[np.int64], sets: Sets) -> npt.NDArray[np.bool_]:
    """``(len(rows), num_actions)``: which actions each row's set holds."""
    bits = np.uint64(1) << np.arange(space.num_actions, dtype=np.uint64)
    chosen: npt.NDArray[np.bool_] = (sets[rows][:, None] & bits[None, :]) != 0
    return chosen


def all_moves(space: StateSpace) -> Sets:
    """Every legal action of every position (the uniformly random player)."""
    _check(space)
    out = np.zeros(space.size, dtype=np.uint64)
    for a in range(space.num_actions):
        out[space.next[:, a] >= 0] |= np.uint64(1 << a)
    return out


def live_positions(space: StateSpace) -> list[Position]:
    """The unfinished positions of ``space`` in index order (build them once, for
    :func:`agent_moves` called on many agents).
    """
    return [space.position(int(s)) for s in np.nonzero(space.outcome < 0)[0]]


def agent_moves(
    space: StateSpace, candidates: Callable[[Position], list[Any]], positions: list[Position] | None = None
) -> Sets:
    """Any agent as a policy: ``candidates(position)`` lists the moves it chooses among
    uniformly (e.g. :meth:`noughts.agents.qlearning.QAgent.candidates`), asked at every
    unfinished position (``positions``: :func:`live_positions`, if already built).
    """
    _check(space)
    game = space.game
    live = np.nonzero(space.outcome < 0)[0]
    if positions is None:
        positions = live_positions(space)
    if len(positions) != live.size:
        raise NoughtsError("the positions given are not the unfinished positions of the space")
    out = np.zeros(space.size, dtype=np.uint64)
    for s, p in zip(live, positions, strict=True):
        bits = 0
        for m in candidates(p):
            bits |= 1 << game.action(m)
        out[s] = np.uint64(bits)
    return out


def perfect_moves(space: StateSpace, strict: bool = True) -> Sets:
    """The perfect player's choices at every position. ``strict`` (the default): the best moves
    of :class:`noughts.agents.perfect.PerfectAgent` (keep the value, win as fast and lose as
    slowly as possible: the player :func:`noughts.arena.grade.grade` plays against); else every
    move that keeps the exact value.
    """
    _check(space)
    if not strict:
        return optimal_action_sets(space)
    from noughts.agents.perfect import PerfectAgent
    from noughts.exact.table import build_table

    game = space.game
    try:
        table = build_table(game)  # a backward pass over arrays: each look-up is then a search
    except NoughtsError:
        table = None
    perfect = PerfectAgent(game, tie_break="random", table=table)
    out = np.zeros(space.size, dtype=np.uint64)
    for s in np.nonzero(space.outcome < 0)[0]:
        bits = 0
        for m in perfect.best_moves(space.position(int(s))):
            bits |= 1 << game.action(m)
        out[s] = np.uint64(bits)
    return out


def successor_value_moves(space: StateSpace, values: FloatArray) -> Sets:
    """Per position, the actions whose successor has the best ``values`` for the mover: the
    greatest when the first player moves, the least when the second does (values from the
    first player's side, as 001's linear agent reads its estimate).
    """
    _check(space)
    nxt = space.next
    legal = nxt >= 0
    child = np.where(legal, values[np.where(legal, nxt, 0)], np.nan)
    signed = np.where(space.to_move[:, None] == 0, child, -child)
    with np.errstate(invalid="ignore"):
        best = np.nanmax(np.where(legal, signed, -np.inf), axis=1)
    out = np.zeros(space.size, dtype=np.uint64)
    for a in range(space.num_actions):
        out[legal[:, a] & (signed[:, a] == best)] |= np.uint64(1 << a)
    out[space.outcome >= 0] = 0
    return out


def outcome_probabilities(space: StateSpace, first: Sets, second: Sets) -> FloatArray:
    """``(size, 3)``: from each position, the probabilities that the first player wins, that the
    game is drawn and that the second player wins, when the first player plays uniformly among
    ``first[s]`` and the second among ``second[s]``.
    """
    _check(space)
    if first.shape != (space.size,) or second.shape != (space.size,):
        raise NoughtsError("a policy has one action set per position of the space")
    nxt = space.next
    probs = np.zeros((space.size, 3), dtype=np.float64)
    finished = space.outcome >= 0
    probs[finished, space.outcome[finished]] = 1.0
    sets = np.where(space.to_move == 0, first, second)
    for level in _levels(space):
        rows = level[~finished[level]]
        if rows.size == 0:
            continue
        chosen = _chosen(space, rows, sets)
        count = chosen.sum(axis=1)
        if np.any(count == 0):
            raise NoughtsError(
                f"the policy has no move at position {int(rows[count == 0][0])} of {space.game}"
            )
        children = nxt[rows]
        if np.any(chosen & (children < 0)):
            raise NoughtsError(f"the policy plays an illegal move in {space.game}")
        picked = probs[np.where(chosen, children, 0)] * chosen[:, :, None]
        probs[rows] = picked.sum(axis=1) / count[:, None]
    return probs


def expected_length(space: StateSpace, first: Sets, second: Sets) -> float:
    """The expected number of moves of a game from the start between the two policies."""
    _check(space)
    nxt = space.next
    length = np.zeros(space.size, dtype=np.float64)
    finished = space.outcome >= 0
    sets = np.where(space.to_move == 0, first, second)
    for level in _levels(space):
        rows = level[~finished[level]]
        if rows.size == 0:
            continue
        chosen = _chosen(space, rows, sets)
        count = chosen.sum(axis=1)
        if np.any(count == 0):
            raise NoughtsError(f"the policy has no move in {space.game}")
        picked = np.where(chosen, length[np.where(chosen, nxt[rows], 0)], 0.0)
        length[rows] = 1.0 + picked.sum(axis=1) / count
    return float(length[space.start])


def versus(space: StateSpace, agent: Sets, opponent: Sets) -> dict[str, dict[str, float]]:
    """``agent``'s exact results against ``opponent``: ``{"as_first": {...}, "as_second":
    {...}}``, each with the probabilities of ``win``, ``draw`` and ``loss``.
    """
    a = outcome_probabilities(space, agent, opponent)[space.start]
    b = outcome_probabilities(space, opponent, agent)[space.start]
    return {
        "as_first": {"win": float(a[0]), "draw": float(a[1]), "loss": float(a[2])},
        "as_second": {"win": float(b[2]), "draw": float(b[1]), "loss": float(b[0])},
    }


def best_against_random(space: StateSpace) -> tuple[float, float]:
    """The greatest probability of winning any policy reaches against the uniformly random
    player: (playing first, playing second). Their mean bounds the win rate of any agent that
    alternates sides against random (003 §9.2's metric).
    """
    _check(space)
    nxt = space.next
    finished = space.outcome >= 0
    best = np.zeros((space.size, 2), dtype=np.float64)  # column p: agent plays side p
    best[finished, 0] = space.outcome[finished] == 0
    best[finished, 1] = space.outcome[finished] == 2
    for level in _levels(space):
        rows = level[~finished[level]]
        if rows.size == 0:
            continue
        legal = nxt[rows] >= 0
        values = best[np.where(legal, nxt[rows], 0)]  # (rows, actions, side)
        mover = space.to_move[rows].astype(np.int64)
        for side in (0, 1):
            v = values[:, :, side]
            top = np.where(legal, v, -np.inf).max(axis=1)  # the agent's move
            mean = np.where(legal, v, 0.0).sum(axis=1) / legal.sum(axis=1)  # the random player's
            best[rows, side] = np.where(mover == side, top, mean)
    return float(best[space.start, 0]), float(best[space.start, 1])


def outcome_reference(
    start: Position,
    first: Callable[[Position], list[Any]],
    second: Callable[[Position], list[Any]],
) -> dict[Outcome, Fraction]:
    """The outcome distribution, exactly (fractions), by plain recursion over the position API;
    ``first(p)``/``second(p)`` list the moves the player to move chooses among uniformly.
    """
    memo: dict[Position, dict[Outcome, Fraction]] = {}

    def walk(p: Position) -> dict[Outcome, Fraction]:
        done = memo.get(p)
        if done is not None:
            return done
        outcome = p.outcome()
        if outcome is not None:
            result = {outcome: Fraction(1)}
        else:
            moves = (first if p.to_move == 0 else second)(p)
            result = {}
            for m in moves:
                for o, q in walk(p.play(m)).items():
                    result[o] = result.get(o, Fraction(0)) + q / len(moves)
        memo[p] = result
        return result

    return walk(start)
