"""Q-learning self-play in which 003's agents choose with their tiers while they learn (003 §5.1).

:class:`noughts.learn.qlearning.QLearner` trains the table alone: epsilon-greedy on Q (with
optional reflexes). 003's agents do more while they train: ``A.choose_action(E, training=True)``
runs their whole hierarchy (003 §3.2): a winning move, else a block; the opening book on large
boards; then, unless exploring, the depth-limited search with the learned values breaking its
ties and, with the leaf blend, scoring its leaves (003 §6.1). :class:`HybridLearner` trains that
way: the same Q-table, rewards and backward propagation as :class:`QLearner`, the move chosen by
the tiers of :class:`SearchConfig` (the :class:`noughts.agents.qlearning.QAgent` options), in
the order of 003's code: reflexes, book, exploration, search, learned values, random ties.

It also records which (position, move) pairs training updated: 003 counts its table in such
entries ("Q-table size"), and a count of non-zero values misses every pair whose value is 0
(a draw's reward is 0).

:class:`HybridLearner` runs :mod:`noughts.learn._hybrid_kernels`; :func:`train_hybrid_reference`
is the plain loop over the position API and :class:`~noughts.agents.qlearning.QAgent`'s tiers
(its reference search), drawing the same random numbers; the tests hold the two to the same
table bit for bit, and, with the tiers off, the kernel to :class:`QLearner`.

>>> import noughts
>>> from noughts.learn.qlearning import QConfig
>>> learner = HybridLearner(noughts.game("tictactoe"), QConfig(reflexes=True), SearchConfig(depth=2), seed=1)
>>> stats = learner.train(200)
>>> int(stats.outcomes.size), learner.visited_pairs() > learner.table.size
(200, True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from noughts.agents.qlearning import DEPTH_RULES, QAgent, QTable, centre_cells, corner_cells, search_order
from noughts.core import Game, LimitExceeded, NoughtsError, Outcome, Player, Rule
from noughts.kernels.rng import MASK64, SplitMix64
from noughts.learn.qlearning import OUTCOME_CODE, QConfig, TrainingStats

__all__ = ["HybridLearner", "SearchConfig", "train_hybrid_reference"]


@dataclass(frozen=True)
class SearchConfig:
    """The tiers an agent uses while it trains (the :class:`QAgent` options of the same names);
    the defaults use none of them (``depth=0``: no search).
    """

    depth: int = 0
    depth_rule: str = "fixed"
    depth_bonus: int = 0
    iron_wall: bool = False
    leaf_blend: float = 0.0
    opening_book: bool = False

    def __post_init__(self) -> None:
        if self.depth < 0 or self.depth_bonus < 0:
            raise NoughtsError("depth and depth_bonus are 0 or more")
        if self.depth_rule not in DEPTH_RULES:
            raise NoughtsError(f"depth_rule is one of {', '.join(DEPTH_RULES)}, not {self.depth_rule!r}")
        if not (np.isfinite(self.leaf_blend) and self.leaf_blend >= 0):
            raise NoughtsError(f"leaf_blend is a number >= 0, not {self.leaf_blend}")

    @property
    def searches(self) -> bool:
        return bool(self.depth or self.depth_bonus or self.depth_rule != "fixed")

    def agent_options(self) -> dict[str, Any]:
        """The :class:`QAgent` options that play as this configuration trains."""
        return asdict(self)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _check(game: Game) -> Game:
    if game.claim_rule is not Rule.STANDARD or game.board.num_cells > 32:
        raise NoughtsError(f"the hybrid learner plays standard claim games of up to 32 cells, not {game}")
    return game


def _rewards(outcome: Outcome, config: QConfig) -> tuple[float, float]:
    if outcome is Outcome.DRAW:
        return config.draw, config.draw + config.defender_bonus
    if outcome is Outcome.FIRST:
        return config.win, config.loss
    return config.loss, config.win


def train_hybrid_reference(
    game: Game, episodes: int, config: QConfig, search: SearchConfig, seed: int = 0
) -> tuple[dict[int, list[float]], list[int], set[tuple[int, int]], TrainingStats, float]:
    """The plain loop (see the module docstring): ``(q, order, visited, stats, epsilon)``; ``q``
    maps position keys to rows, ``order`` lists keys in first-visit order (the kernel's indices),
    ``visited`` the (key, move) pairs updated.
    """
    _check(game)
    rng = SplitMix64(seed)
    cells = game.board.num_cells
    banned = set(centre_cells(game)) if config.centre_ban else set()
    q: dict[int, list[float]] = {}
    order: list[int] = []
    visited: set[tuple[int, int]] = set()
    outcomes: list[int] = []
    lengths: list[int] = []
    epsilon = config.epsilon
    options = search.agent_options()
    for _ in range(episodes):
        position = game.start()
        history: list[tuple[int, int]] = []
        while not position.is_terminal():
            moves: list[int] = [m for m in position.legal_moves() if not (not history and m in banned)]  # type: ignore[misc]
            key = position.owned(Player.FIRST) | (position.owned(Player.SECOND) << cells)
            if key not in q:
                q[key] = [0.0] * cells
                order.append(key)
            row = q[key]
            # the tiers read the table as it stands (the search's leaf blend included)
            keys = np.array(order, dtype=np.int64)
            table = QTable(
                cells, keys, np.array([q[k] for k in order]).reshape(len(order), cells), len(order)
            )
            agent = QAgent(game, table, reflexes=config.reflexes, engine="reference", **options)
            move = -1
            if config.reflexes:
                reflex = agent.reflex_move(position, moves)
                move = -1 if reflex is None else reflex
            if move < 0 and search.opening_book:
                book = agent.book_moves(position, moves)
                if len(book) == 1:
                    move = book[0]
                elif book:
                    move = book[int(rng.uniform() * len(book))]
            if move < 0:
                if rng.uniform() < epsilon:
                    move = moves[int(rng.uniform() * len(moves))]
                else:
                    depth = agent.search_depth(position, moves)
                    tied = agent.best_moves(position, moves, depth) if depth > 0 and len(moves) > 1 else moves
                    best = max(row[m] for m in tied)
                    tied = [m for m in tied if row[m] == best]
                    move = tied[0] if len(tied) == 1 else tied[int(rng.uniform() * len(tied))]
            history.append((key, move))
            position = position.play(move)
        outcome = position.outcome()
        assert outcome is not None
        r0, r1 = _rewards(outcome, config)
        d = 1.0
        for t in range(len(history) - 1, -1, -1):
            key, move = history[t]
            r = r0 if t % 2 == 0 else r1
            row = q[key]
            row[move] = row[move] + config.alpha * (r * d - row[move])
            visited.add((key, move))
            d = d * config.gamma
        outcomes.append(OUTCOME_CODE[outcome])
        lengths.append(len(history))
        nxt = epsilon * config.epsilon_decay
        epsilon = nxt if nxt > config.epsilon_min else config.epsilon_min
    stats = TrainingStats(np.array(outcomes, dtype=np.int8), np.array(lengths, dtype=np.int16))
    return q, order, visited, stats, epsilon


class HybridLearner:
    """Q-learning self-play with 003's tiers choosing the moves (numba); see the module docstring.

    The table grows as positions are visited (``max_states`` bounds it: ``LimitExceeded``).
    """

    kind = "qlearning"

    def __init__(
        self,
        game: Game,
        config: QConfig | None = None,
        search: SearchConfig | None = None,
        *,
        seed: int = 0,
        max_states: int = 20_000_000,
    ):
        self.game = _check(game)
        self.config = config or QConfig()
        self.search = search or SearchConfig()
        self.seed = seed
        self.max_states = max_states
        board = game.board
        cells = self.cells = board.num_cells
        tables = board.tables
        self._lines, self._through, self._nthrough = tables.line_bits, tables.through, tables.nthrough
        self._uthrough = tables.through_bits  # the search tier tests lines by their masks
        centre = centre_cells(game)
        self._centre_list = np.array(centre, dtype=np.int64)
        self._banned = np.int64(sum(1 << c for c in centre))
        near = np.zeros(cells, dtype=np.uint64)
        for c in range(cells):
            here = board.coords[c]
            near[c] = np.uint64(
                sum(
                    1 << m
                    for m in range(cells)
                    if max(abs(a - b) for a, b in zip(board.coords[m], here, strict=True)) == 1
                )
            )
        self._near = near
        self._order = np.array(search_order(game), dtype=np.int64)
        self._masks = np.array(board.line_masks, dtype=np.uint64)
        self._k = len(board.lines[0])
        self._centre = np.uint64(sum(1 << c for c in centre))
        self._corners = np.uint64(sum(1 << c for c in corner_cells(game)))
        s = self.search
        self._tiers = np.array(
            [s.depth, 1 if s.depth_rule == "003" else 0, s.depth_bonus, int(s.iron_wall), int(s.opening_book),
             min(board.grid)],
            dtype=np.int64,
        )  # fmt: skip
        self._flags = np.array([int(self.config.reflexes), int(self.config.centre_ban)], dtype=np.int64)
        self._params = self.config.params()
        self._rng = np.array([seed & MASK64], dtype=np.uint64)
        self._eps = np.array([self.config.epsilon], dtype=np.float64)
        self._count = np.zeros(1, dtype=np.int64)
        self._nodes = np.zeros(1, dtype=np.int64)
        capacity = 1024
        self._keys = np.zeros(capacity, dtype=np.int64)
        self._q = np.zeros((capacity, cells), dtype=np.float64)
        self._visits = np.zeros((capacity, cells), dtype=np.int8)
        self._slots = np.full(2 * capacity, -1, dtype=np.int64)
        self.episodes = 0
        self.stats = TrainingStats()

    @property
    def epsilon(self) -> float:
        return float(self._eps[0])

    @property
    def table(self) -> QTable:
        n = int(self._count[0])
        return QTable(self.cells, self._keys[:n], self._q[:n], n)

    def visited_pairs(self) -> int:
        """The (position, move) pairs training updated: 003's "Q-table entries"."""
        return int(self._visits[: int(self._count[0])].sum())

    def search_nodes(self) -> int:
        """Positions the search tier has visited so far (a measure of its cost)."""
        return int(self._nodes[0])

    def _reserve(self, extra: int) -> None:
        from noughts.learn import _qlearning_kernels as qk

        need = min(int(self._count[0]) + extra, self.max_states)
        capacity = self._keys.shape[0]
        if need <= capacity:
            return
        while capacity < need:
            capacity *= 2
        n = int(self._count[0])
        keys = np.zeros(capacity, dtype=np.int64)
        q = np.zeros((capacity, self.cells), dtype=np.float64)
        visits = np.zeros((capacity, self.cells), dtype=np.int8)
        keys[:n], q[:n], visits[:n] = self._keys[:n], self._q[:n], self._visits[:n]
        self._keys, self._q, self._visits = keys, q, visits
        self._slots = qk.rehash(keys, n, 2 * capacity)

    def train(self, episodes: int, *, chunk: int = 256) -> TrainingStats:
        """Play and learn ``episodes`` more games, ``chunk`` at a time; their statistics."""
        from noughts.learn import _hybrid_kernels as hk

        if episodes < 0:
            raise NoughtsError(f"episodes must be 0 or more, not {episodes}")
        done = TrainingStats()
        left = episodes
        while left > 0:
            room = self.max_states - int(self._count[0])
            if room < self.cells + 1:
                raise LimitExceeded(
                    f"the Q-table reached max_states={self.max_states:,} positions after {self.episodes:,} episodes"
                )
            n = min(left, chunk, max(1, room // (self.cells + 1)))
            self._reserve(n * (self.cells + 1))
            outcomes = np.zeros(n, dtype=np.int8)
            lengths = np.zeros(n, dtype=np.int16)
            hk.hybrid_episodes(
                n, self.cells, self._lines, self._through, self._nthrough, self._slots, self._keys, self._q, self._visits,
                self._count, self._rng, self._eps, self._params, self._flags, self._banned, self._tiers,
                float(self.search.leaf_blend), self._uthrough, self._order, self._masks, self._k, self._centre,
                self._corners, self._near, self._centre_list, outcomes, lengths, self._nodes,
            )  # fmt: skip
            self.stats.extend(outcomes, lengths)
            done.extend(outcomes, lengths)
            self.episodes += n
            left -= n
        return done

    def agent(self, **options: Any) -> QAgent:
        """The learned table as a :class:`QAgent`; ``options`` set its tiers (none by default:
        the learned tier alone, what a grade of the learner measures).
        """
        return QAgent(self.game, self.table.trimmed(), training=self.summary(), **options)

    def summary(self) -> dict[str, Any]:
        counts = np.bincount(self.stats.outcomes.astype(np.int64), minlength=3)
        return {
            "learner": "qlearning",
            "episodes": self.episodes,
            "seed": self.seed,
            "epsilon": self.epsilon,
            "positions": int(self._count[0]),
            "visited_pairs": self.visited_pairs(),
            "first_wins": int(counts[0]),
            "draws": int(counts[1]),
            "second_wins": int(counts[2]),
            **self.config.to_json(),
            "search": self.search.to_json(),
        }
