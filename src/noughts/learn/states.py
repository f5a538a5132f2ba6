"""Every reachable position of a small game, numbered, with its move table.

Tabular learners (TD, Q-learning) keep one number per position; their numba kernels work on
integer position indices and a transition table instead of :class:`~noughts.core.Position`
objects. :class:`StateSpace` is that numbering:

* ``next[s, a]``: the index of the position that action ``a`` leads to from position ``s``, or
  ``-1`` where ``a`` is illegal (every action of a finished position is illegal);
* ``to_move[s]``: 0 or 1, the player to move;
* ``outcome[s]``: ``-1`` while the game runs, else 0 (first player won), 1 (draw) or 2 (second
  player won) — the :data:`OUTCOME_CODES`;
* ``start``: the index of the starting position.

Two ways to build it, held to each other by the tests on every 3x3 claim game:
:func:`enumerate_reference` walks the public position API breadth first (any game), and the
claim-game path enumerates bit boards level by level with NumPy (standard, misère,
Maker-Breaker and cumulative rules on boards of up to 32 cells). Claim-game states are keyed by
``first_bits | second_bits << cells`` and sorted, so a position's index is a binary search.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.core import (
    ClaimGame,
    CumulativeGame,
    Game,
    LimitExceeded,
    MakerBreakerGame,
    MisereGame,
    NoughtsError,
    Outcome,
    Position,
    StandardGame,
)
from noughts.core.text import format_grid

__all__ = ["DEFAULT_MAX_STATES", "OUTCOME_CODES", "StateSpace", "enumerate_reference", "state_space"]

DEFAULT_MAX_STATES = 5_000_000
"""The most positions a state space may hold unless the caller allows more."""

OUTCOME_CODES: dict[Outcome | None, int] = {None: -1, Outcome.FIRST: 0, Outcome.DRAW: 1, Outcome.SECOND: 2}
"""How ``StateSpace.outcome`` stores how a game ended."""

_CLAIM_RULES = (StandardGame, MisereGame, MakerBreakerGame, CumulativeGame)

IntArray = npt.NDArray[np.int32]
Int8Array = npt.NDArray[np.int8]


@dataclass(eq=False)
class StateSpace:
    """The reachable positions of ``game``, numbered ``0 .. size-1``; see the module docstring."""

    game: Game
    next: IntArray
    to_move: Int8Array
    outcome: Int8Array
    start: int
    keys: npt.NDArray[np.uint64] | None = None  # claim games: sorted bit keys, one per state
    _positions: list[Position] | None = None  # other games: the position of each index
    _index: dict[Position, int] | None = field(default=None, repr=False)

    @property
    def size(self) -> int:
        """The number of reachable positions."""
        return int(self.next.shape[0])

    @property
    def num_actions(self) -> int:
        return int(self.next.shape[1])

    def index(self, position: Position) -> int:
        """The index of ``position``; ``NoughtsError`` if it is not a position of this space."""
        if position.game != self.game:
            raise NoughtsError(f"position of {position.game} given to a state space of {self.game}")
        if self.keys is not None:
            b0, b1 = position.state[0], position.state[1]
            key = np.uint64(b0 | (b1 << self.game.board.num_cells))
            i = int(np.searchsorted(self.keys, key))
            if i < self.keys.shape[0] and self.keys[i] == key:
                return i
        elif self._index is not None:
            found = self._index.get(position)
            if found is not None:
                return found
        raise NoughtsError(f"position {position.text()!r} is not reachable in {self.game}")

    def position(self, i: int) -> Position:
        """The position with index ``i``."""
        if not 0 <= i < self.size:
            raise NoughtsError(f"state index {i} is not in [0, {self.size})")
        if self._positions is not None:
            return self._positions[i]
        assert self.keys is not None
        key = int(self.keys[i])
        cells = self.game.board.num_cells
        return claim_position(self.game, key & ((1 << cells) - 1), key >> cells)

    def bits(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
        """Claim games: each state's (first player's, second player's) cell bit masks."""
        if self.keys is None:
            raise NoughtsError(f"{self.game} is not a claim game: its positions have no cell bits")
        cells = self.game.board.num_cells
        mask = np.uint64((1 << cells) - 1)
        return self.keys & mask, self.keys >> np.uint64(cells)

    def nonterminal(self) -> npt.NDArray[np.bool_]:
        """True at each position where the game has not ended."""
        return self.outcome < 0

    def fingerprint(self) -> str:
        """A short digest of the numbering (game, table): saved agents check it on load."""
        import hashlib

        h = hashlib.sha256(str(self.game).encode())
        h.update(np.ascontiguousarray(self.next).tobytes())
        h.update(np.ascontiguousarray(self.outcome).tobytes())
        return h.hexdigest()[:32]


_CACHE: dict[tuple[str, int], StateSpace] = {}


def state_space(game: Game, max_states: int = DEFAULT_MAX_STATES) -> StateSpace:
    """The state space of ``game`` (cached per game): the bit-board path for claim games on up
    to 32 cells, the reference enumeration otherwise. Raises ``LimitExceeded`` when the game has
    more than ``max_states`` reachable positions.
    """
    key = (str(game), max_states)
    space = _CACHE.get(key)
    if space is None:
        if _claim_supported(game):
            space = enumerate_claim(game, max_states)
        else:
            space = enumerate_reference(game, max_states)
        _CACHE[key] = space
    return space


def _claim_supported(game: Game) -> bool:
    return isinstance(game, _CLAIM_RULES) and game.board.num_cells <= 32


def _too_many(game: Game, max_states: int) -> LimitExceeded:
    return LimitExceeded(
        f"{game} has more than {max_states:,} reachable positions: too many for a table of values "
        "(allow more with max_states, or use a learner that generalises, such as linear)"
    )


def enumerate_reference(game: Game, max_states: int = DEFAULT_MAX_STATES) -> StateSpace:
    """The state space by breadth-first search over the public position API (any game)."""
    start = game.start()
    positions: list[Position] = [start]
    index: dict[Position, int] = {start: 0}
    rows: list[list[int]] = []
    frontier = 0
    while frontier < len(positions):
        position = positions[frontier]
        frontier += 1
        row = [-1] * game.num_actions
        for move in position.legal_moves():
            child = position.play(move)
            j = index.get(child)
            if j is None:
                j = len(positions)
                if j >= max_states:
                    raise _too_many(game, max_states)
                index[child] = j
                positions.append(child)
            row[game.action(move)] = j
        rows.append(row)
    nxt = np.array(rows, dtype=np.int32).reshape(len(positions), game.num_actions)
    to_move = np.array([int(p.to_move) for p in positions], dtype=np.int8)
    outcome = np.array([OUTCOME_CODES[p.outcome()] for p in positions], dtype=np.int8)
    return StateSpace(game, nxt, to_move, outcome, 0, None, positions, index)


def claim_position(game: Game, first_bits: int, second_bits: int) -> Position:
    """The position of a claim game with these cells claimed (read through ``game.parse``)."""
    marks = _claim_marks(game)
    board = game.board
    chars = [
        marks[0] if first_bits >> c & 1 else marks[1] if second_bits >> c & 1 else "."
        for c in range(board.num_cells)
    ]
    return game.parse(format_grid(board, chars))


def _claim_marks(game: Game) -> tuple[str, str]:
    """The marks the first and second player draw, read off the public API."""
    p = game.start().play(0)
    q = p.play(1)
    marks = q.game.marks(q)
    return marks[0], marks[1]


def _owned_lines(bits: npt.NDArray[np.uint64], lines: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """For each bit mask, how many lines it owns completely."""
    owned: npt.NDArray[np.int64] = np.count_nonzero(
        (bits[:, None] & lines[None, :]) == lines[None, :], axis=1
    )
    return owned


def _untouched_lines(bits: npt.NDArray[np.uint64], lines: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """For each bit mask, how many lines hold none of its cells."""
    untouched: npt.NDArray[np.int64] = np.count_nonzero((bits[:, None] & lines[None, :]) == 0, axis=1)
    return untouched


def claim_outcomes(
    game: ClaimGame, b0: npt.NDArray[np.uint64], b1: npt.NDArray[np.uint64]
) -> npt.NDArray[np.int8]:
    """The outcome code of each claim-game position, judged from its bits alone (positions
    reached by play: at most the last mover can own a line under standard and misère rules).
    """
    lines = np.array(game.board.line_masks, dtype=np.uint64)
    full = (b0 | b1) == np.uint64(game.board.full_mask)
    out = np.full(b0.shape[0], -1, dtype=np.int8)
    if isinstance(game, CumulativeGame):
        s0, s1 = _owned_lines(b0, lines), _owned_lines(b1, lines)
        out[full] = np.where(s0 > s1, 0, np.where(s1 > s0, 2, 1))[full]
        return out
    if isinstance(game, MakerBreakerGame):
        maker, breaker = (b1, b0) if game.breaker_first else (b0, b1)
        maker_code, breaker_code = (2, 0) if game.breaker_first else (0, 2)
        out[_untouched_lines(breaker, lines) == 0] = breaker_code
        out[_owned_lines(maker, lines) > 0] = maker_code
        return out
    w0, w1 = _owned_lines(b0, lines) > 0, _owned_lines(b1, lines) > 0
    out[full] = 1
    if isinstance(game, MisereGame):
        out[w0] = 2
        out[w1] = 0
    else:
        out[w0] = 0
        out[w1] = 2
    return out


def enumerate_claim(game: Game, max_states: int = DEFAULT_MAX_STATES) -> StateSpace:
    """The state space of a claim game by levels of bit boards (vectorised NumPy)."""
    if not _claim_supported(game):
        raise NoughtsError(f"{game} is not a claim game on at most 32 cells")
    assert isinstance(game, ClaimGame)
    cells = game.board.num_cells
    shift = np.uint64(cells)
    cell_bits = np.array([1 << c for c in range(cells)], dtype=np.uint64)
    levels: list[npt.NDArray[np.uint64]] = [np.zeros(1, dtype=np.uint64)]
    total = 1
    frontier_b0 = np.zeros(1, dtype=np.uint64)
    frontier_b1 = np.zeros(1, dtype=np.uint64)
    ply = 0
    while frontier_b0.shape[0]:
        mover_first = ply % 2 == 0  # players are named by turn order: FIRST moves at even plies
        occupied = frontier_b0 | frontier_b1
        empty = (occupied[:, None] & cell_bits[None, :]) == 0
        rows, cols = np.nonzero(empty)
        if mover_first:
            c0 = frontier_b0[rows] | cell_bits[cols]
            c1 = frontier_b1[rows]
        else:
            c0 = frontier_b0[rows]
            c1 = frontier_b1[rows] | cell_bits[cols]
        child = np.unique(c0 | (c1 << shift))
        total += child.shape[0]
        if total > max_states:
            raise _too_many(game, max_states)
        levels.append(child)
        cb0, cb1 = child & np.uint64((1 << cells) - 1), child >> shift
        live = claim_outcomes(game, cb0, cb1) < 0
        frontier_b0, frontier_b1 = cb0[live], cb1[live]
        ply += 1
    keys = np.concatenate(levels)
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    b0, b1 = keys & np.uint64((1 << cells) - 1), keys >> shift
    outcome = claim_outcomes(game, b0, b1)
    counts0 = _popcount(b0)
    counts1 = _popcount(b1)
    to_move = np.where(counts0 > counts1, 1, 0).astype(np.int8)
    nxt = np.full((keys.shape[0], cells), -1, dtype=np.int32)
    live_rows = np.nonzero(outcome < 0)[0]
    occupied = b0[live_rows] | b1[live_rows]
    for c in range(cells):
        bit = cell_bits[c]
        ok = (occupied & bit) == 0
        rows = live_rows[ok]
        mover0 = to_move[rows] == 0
        child = np.where(
            mover0, (b0[rows] | bit) | (b1[rows] << shift), b0[rows] | ((b1[rows] | bit) << shift)
        )
        nxt[rows, c] = np.searchsorted(keys, child).astype(np.int32)
    start = int(np.searchsorted(keys, np.uint64(0)))
    return StateSpace(game, nxt, to_move, outcome, start, keys)


def _popcount(bits: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    out = np.zeros(bits.shape[0], dtype=np.int64)
    b = bits.copy()
    while np.any(b):
        out += (b & np.uint64(1)).astype(np.int64)
        b >>= np.uint64(1)
    return out


def describe(space: StateSpace) -> dict[str, Any]:
    """Counts for people: positions, finished positions, positions by outcome."""
    out = space.outcome
    return {
        "game": str(space.game),
        "positions": space.size,
        "terminal": int(np.count_nonzero(out >= 0)),
        "first_wins": int(np.count_nonzero(out == 0)),
        "draws": int(np.count_nonzero(out == 1)),
        "second_wins": int(np.count_nonzero(out == 2)),
    }


def exact_values(space: StateSpace) -> npt.NDArray[np.int64]:
    """The exact value of every state, by backward induction over the move table.

    From the first player's side: the final score difference under scoring rules, else +1, 0 or
    -1. (The exact
    solver defines values; this is its cheap equivalent for whole state spaces, held to
    ``noughts.solve`` by the tests.)
    """
    n = space.size
    values = np.zeros(n, dtype=np.int64)
    scored = space.game.properties.is_scored
    done = np.zeros(n, dtype=bool)
    for i in np.nonzero(space.outcome >= 0)[0]:
        if scored:
            score = space.position(int(i)).score()
            assert score is not None
            values[i] = score[0] - score[1]
        else:
            values[i] = (1, 0, -1)[space.outcome[i]]
        done[i] = True
    nxt = space.next
    # iterative post-order depth-first search from the start
    stack = [space.start]
    while stack:
        s = stack[-1]
        if done[s]:
            stack.pop()
            continue
        children = nxt[s][nxt[s] >= 0]
        pending = [int(c) for c in children if not done[c]]
        if pending:
            stack.extend(pending)
            continue
        child_values = values[children]
        values[s] = child_values.max() if space.to_move[s] == 0 else child_values.min()
        done[s] = True
        stack.pop()
    return values


def optimal_action_sets(space: StateSpace) -> npt.NDArray[np.uint64]:
    """Per state, the bit set of actions that keep its exact value (0 at finished positions)."""
    if space.num_actions > 64:
        raise NoughtsError("action bit sets need at most 64 actions")
    values = exact_values(space)
    nxt = space.next
    out = np.zeros(space.size, dtype=np.uint64)
    for a in range(space.num_actions):
        legal = nxt[:, a] >= 0
        keep = legal & (values[np.where(legal, nxt[:, a], 0)] == values)
        out[keep] |= np.uint64(1 << a)
    out[space.outcome >= 0] = 0
    return out
