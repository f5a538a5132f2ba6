"""Every reachable position of a small game, numbered, with its move table.

It lies below both ``agents`` and ``learn``: the tabular agents play from it and the learners
train over it. Tabular learners (TD, Q-learning) keep one number per position; their numba kernels work on
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
claim-game path takes the levels of the exact counter's NumPy kernels
(``ClaimDag`` in ``noughts.exact._count_kernels``: standard, misère, Maker-Breaker and cumulative
rules; here on boards of up to 32 cells). Claim-game states are keyed by
``first_bits | second_bits << cells`` and sorted, so a position's index is a binary search.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from noughts.core import Game, LimitExceeded, NoughtsError, Outcome, Position, require_bounded
from noughts.core.text import format_grid
from noughts.exact import _count_kernels as kernels
from noughts.exact.estimate import refuse_if_more

__all__ = [
    "DEFAULT_MAX_STATES",
    "OUTCOME_CODES",
    "StateSpace",
    "enumerate_reference",
    "state_space",
    "terminal_values",
]

DEFAULT_MAX_STATES = 5_000_000
"""The most positions a state space may hold unless the caller allows more."""

ESTIMATE_ABOVE = 200_000
"""Caps from which a state space is first estimated (below, listing up to the cap costs less)."""

OUTCOME_CODES: dict[Outcome | None, int] = {None: -1, Outcome.FIRST: 0, Outcome.DRAW: 1, Outcome.SECOND: 2}
"""How ``StateSpace.outcome`` stores how a game ended."""

_FROM_DAG = np.array(
    [-1, OUTCOME_CODES[Outcome.FIRST], OUTCOME_CODES[Outcome.SECOND], OUTCOME_CODES[Outcome.DRAW]],
    dtype=np.int8,
)
"""The counting kernels' outcome codes (``NONE, FIRST, SECOND, DRAW`` = -1..2), shifted by one,
mapped to :data:`OUTCOME_CODES`."""

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
            b0, b1 = position.cell_masks()
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
    more than ``max_states`` reachable positions: at once (about a second) when random games
    show it (:func:`noughts.exact.estimate.refuse_if_more`), else when the enumeration passes it.
    """
    require_bounded(game, "a learner's state space (values backed up from the ends of games)")
    key = (str(game), max_states)
    space = _CACHE.get(key)
    if space is None:
        if max_states >= ESTIMATE_ABOVE and 3 ** min(game.num_actions, 40) > max_states:  # a cheap look first
            refuse_if_more(
                game,
                max_states,
                f"the {max_states:,} a table of values may hold (allow more with max_states, or use a "
                "learner that generalises, such as linear)",
            )
        if _claim_supported(game):
            space = enumerate_claim(game, max_states)
        else:
            space = enumerate_reference(game, max_states)
        _CACHE[key] = space
    return space


def _claim_supported(game: Game) -> bool:
    """The four claim rules exactly (the kernels' test: subclasses such as Otrio are not
    claim games here) on a board whose two masks fit one 64-bit key.
    """
    return kernels.supports(game) and game.board.num_cells <= 32


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


def enumerate_claim(game: Game, max_states: int = DEFAULT_MAX_STATES) -> StateSpace:
    """The state space of a claim game from the levels of the counting kernels
    (``ClaimDag`` in ``noughts.exact._count_kernels``), numbered by sorted bit key.
    """
    if not _claim_supported(game):
        raise NoughtsError(f"{game} is not a claim game on at most 32 cells")
    cells = game.board.num_cells
    shift = np.uint64(cells)
    b0s, b1s, outcomes, movers = [], [], [], []
    total = 0
    for level in kernels.ClaimDag(game).levels():
        total += len(level)
        if total > max_states:
            raise _too_many(game, max_states)
        b0s.append(level.b0)
        b1s.append(level.b1)
        outcomes.append(level.outcome)
        movers.append(np.full(len(level), level.ply & 1, dtype=np.int8))  # FIRST moves at even plies
    keys = np.concatenate(b0s) | (np.concatenate(b1s) << shift)
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    b0, b1 = keys & np.uint64((1 << cells) - 1), keys >> shift
    outcome = _FROM_DAG[np.concatenate(outcomes)[order] + 1]
    to_move = np.concatenate(movers)[order]
    cell_bits = np.array([1 << c for c in range(cells)], dtype=np.uint64)
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


def terminal_values(space: StateSpace) -> npt.NDArray[np.float64]:
    """The first player's payoff at each finished position (+1, 0, -1), 0 elsewhere."""
    return np.select([space.outcome == 0, space.outcome == 2], [1.0, -1.0], 0.0)


def exact_values(space: StateSpace) -> npt.NDArray[np.int64]:
    """The exact value of every state, by backward induction over the move table.

    From the first player's side: the final score difference under scoring rules, else +1, 0 or
    -1. (The exact
    solver defines values; this is its cheap equivalent for whole state spaces, held to
    ``noughts.solve`` by the tests.)
    """
    require_bounded(space.game, "backward induction over the move table")
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
