"""Tabular Q-learning by self-play, after the "RL Battle Arena" (003 §2.3, §5).

What 003 describes, and what noughts does with it:

* a table ``Q(s, a)`` (0 until visited), one entry per position and move; the position fixes
  who moves, so one table serves both players (003 keeps one per agent, the same thing when
  both share their hyper-parameters);
* epsilon-greedy self-play (003 §3.2 tier 3), ties among the best moves broken uniformly at
  random; epsilon decays once per episode, ``eps <- max(eps_min, eps * decay)`` (003 §5.3:
  ``eps_0 = 1``, ``decay = 0.998``, ``eps_min = 0.01``);
* at the end of each episode the outcome is propagated backwards (003 §5.2): every move
  ``(s_t, a_t)`` of player p is updated ``Q += alpha (gamma^(T-t) R_p - Q)``, where ``T - t`` is
  the number of plies from that move to the game's last move and ``R_p`` p's terminal reward
  (003 §5.1 lines 13-20; ``alpha = 0.2``, ``gamma = 0.95``, 003 §2.3);
* optional tactical reflexes during training (003 §3.2 tier 1: take a winning move, else block
  the opponent's), off by default; search is a tier of the *player*
  (:class:`noughts.agents.qlearning.QAgent`), not of training.

003's additions that change the game or the reward are explicit options, off by default:
``centre_ban`` (003 §6.4: no first move on the centre cell, or the central 2x2 on even
boards) and ``defender_bonus`` (003 §4.3: extra reward to the second player for a draw). The
rewards themselves (``win``, ``loss``, ``draw``) default to 003 §2.1's +1 / -1 / 0; 003 §4.3's
table is ``win=100, loss=-50, draw=0, defender_bonus=50``.

Two implementations, held to each other bit for bit by the tests: :func:`train_reference`
plays over the public :class:`~noughts.core.Position` API with Python dicts, and
:class:`QLearner` runs :mod:`noughts.learn._qlearning_kernels` (numba) over integer position
indices. Both draw their random numbers from :class:`noughts.kernels.rng.SplitMix64`, so a seed fixes a run.
Both take standard and misère rules on boards of up to 32 cells.

>>> import noughts
>>> learner = QLearner(noughts.game("tictactoe"), seed=3)
>>> stats = learner.train(500)
>>> int(stats.outcomes.size), learner.table.size > 100
(500, True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.agents.qlearning import QTable, centre_cells, check_q_game
from noughts.core import Game, LimitExceeded, NoughtsError, Outcome, Player, Position
from noughts.kernels.rng import MASK64, SplitMix64

__all__ = [
    "QConfig",
    "QLearner",
    "TrainingStats",
    "train_reference",
]

OUTCOME_CODE = {Outcome.FIRST: 0, Outcome.DRAW: 1, Outcome.SECOND: 2}


@dataclass(frozen=True)
class QConfig:
    """The hyper-parameters of a Q-learning run (defaults: 003 §2.3, §2.1, §5.3)."""

    alpha: float = 0.2
    gamma: float = 0.95
    epsilon: float = 1.0
    epsilon_decay: float = 0.998
    epsilon_min: float = 0.01
    win: float = 1.0
    loss: float = -1.0
    draw: float = 0.0
    defender_bonus: float = 0.0
    reflexes: bool = False
    centre_ban: bool = False

    def __post_init__(self) -> None:
        if not 0.0 < self.alpha <= 1.0:
            raise NoughtsError(f"alpha must lie in (0, 1], not {self.alpha}")
        if not 0.0 <= self.gamma <= 1.0:
            raise NoughtsError(f"gamma must lie in [0, 1], not {self.gamma}")
        for name in ("epsilon", "epsilon_decay", "epsilon_min"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise NoughtsError(f"{name} must lie in [0, 1], not {value}")
        for name in ("win", "loss", "draw", "defender_bonus"):
            if not np.isfinite(getattr(self, name)):
                raise NoughtsError(f"{name} must be a finite number")

    def params(self) -> npt.NDArray[np.float64]:
        return np.array(
            [
                self.alpha,
                self.gamma,
                self.epsilon_decay,
                self.epsilon_min,
                self.win,
                self.loss,
                self.draw,
                self.defender_bonus,
            ],
            dtype=np.float64,
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def position_key(position: Position) -> int:
    """A claim position's bit key ``first | second << cells``."""
    b0, b1 = position.owned(Player.FIRST), position.owned(Player.SECOND)
    return int(b0 | (b1 << position.game.board.num_cells))


@dataclass
class TrainingStats:
    """Per-episode outcome codes (0 first won, 1 draw, 2 second won) and lengths in plies."""

    outcomes: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    lengths: npt.NDArray[np.int16] = field(default_factory=lambda: np.zeros(0, dtype=np.int16))

    def extend(self, outcomes: npt.NDArray[np.int8], lengths: npt.NDArray[np.int16]) -> None:
        self.outcomes = np.concatenate([self.outcomes, outcomes])
        self.lengths = np.concatenate([self.lengths, lengths])


def _terminal_rewards(outcome: Outcome, config: QConfig) -> tuple[float, float]:
    if outcome is Outcome.DRAW:
        return config.draw, config.draw + config.defender_bonus
    if outcome is Outcome.FIRST:
        return config.win, config.loss
    return config.loss, config.win


def _completes_line(position: Position, player: int, move: int) -> bool:
    """Whether ``player`` claiming ``move`` would own a whole line (the reflex test)."""
    bits = position.owned(Player(player)) | (1 << move)
    return any(bits & m == m for m in position.game.board.masks_through[move])


def train_reference(
    game: Game, episodes: int, config: QConfig | None = None, seed: int = 0
) -> tuple[dict[int, list[float]], list[int], TrainingStats, float]:
    """The plain Q-learning loop over the public position API (what the kernel must match).

    Returns ``(q, order, stats, epsilon)``: ``q`` maps each visited position's bit key to its
    Q-row, ``order`` lists the keys in first-visit order (the kernel's position indices),
    ``stats`` the episodes' outcomes and lengths, ``epsilon`` the value after the last episode.
    """
    check_q_game(game)
    config = config or QConfig()
    rng = SplitMix64(seed)
    cells = game.board.num_cells
    banned = set(centre_cells(game)) if config.centre_ban else set()
    q: dict[int, list[float]] = {}
    order: list[int] = []
    outcomes: list[int] = []
    lengths: list[int] = []
    epsilon = config.epsilon
    for _ in range(episodes):
        position = game.start()
        history: list[tuple[int, int]] = []
        while not position.is_terminal():
            legal = [m for m in position.legal_moves() if not (not history and m in banned)]
            assert all(isinstance(m, int) for m in legal)
            moves: list[int] = legal  # type: ignore[assignment]
            key = position_key(position)
            row = q.get(key)
            if row is None:
                row = q[key] = [0.0] * cells
                order.append(key)
            mover = int(position.to_move)
            move = -1
            if config.reflexes:
                move = next((m for m in moves if _completes_line(position, mover, m)), -1)
                if move < 0:
                    move = next((m for m in moves if _completes_line(position, 1 - mover, m)), -1)
            if move < 0:
                if rng.uniform() < epsilon:
                    move = moves[int(rng.uniform() * len(moves))]
                else:
                    best = max(row[m] for m in moves)
                    ties = [m for m in moves if row[m] == best]
                    move = ties[0] if len(ties) == 1 else ties[int(rng.uniform() * len(ties))]
            history.append((key, move))
            position = position.play(move)
        outcome = position.outcome()
        assert outcome is not None
        r0, r1 = _terminal_rewards(outcome, config)
        d = 1.0
        for t in range(len(history) - 1, -1, -1):
            key, move = history[t]
            r = r0 if t % 2 == 0 else r1
            row = q[key]
            row[move] = row[move] + config.alpha * (r * d - row[move])
            d = d * config.gamma
        outcomes.append(OUTCOME_CODE[outcome])
        lengths.append(len(history))
        nxt = epsilon * config.epsilon_decay
        epsilon = nxt if nxt > config.epsilon_min else config.epsilon_min
    stats = TrainingStats(np.array(outcomes, dtype=np.int8), np.array(lengths, dtype=np.int16))
    return q, order, stats, epsilon


class QLearner:
    """The numba Q-learner: a table that grows as positions are visited, trained in chunks.

    ``max_states`` bounds the table (``LimitExceeded`` past it). The learner's whole state
    (table, epsilon, random stream, episode count) is arrays and a few numbers: a checkpoint
    (:meth:`checkpoint`, :meth:`from_checkpoint`) resumes a run bit for bit. It follows the
    :class:`noughts.learn.train.Learner` protocol, so ``noughts train qlearning`` drives it.
    """

    kind = "qlearning"

    def __init__(
        self,
        game: Game,
        config: QConfig | None = None,
        *,
        seed: int = 0,
        max_states: int = 20_000_000,
        **options: Any,
    ):
        self.game = check_q_game(game)
        if config is None:
            config = QConfig(**options)
        elif options:
            raise NoughtsError("give either config or its options, not both")
        self.config = config
        self.seed = seed
        self.max_states = max_states
        self.cells = game.board.num_cells
        self._tables = game.board.tables
        self._rule = int(game.claim_rule)  # type: ignore[arg-type]  # check_q_game: standard or misère
        self._banned = np.int64(sum(1 << c for c in centre_cells(game)))
        self._flags = np.array([int(config.reflexes), int(config.centre_ban)], dtype=np.int64)
        self._params = config.params()
        self._rng = np.array([seed & MASK64], dtype=np.uint64)
        self._eps = np.array([config.epsilon], dtype=np.float64)
        self._count = np.zeros(1, dtype=np.int64)
        capacity = 1024
        self._keys = np.zeros(capacity, dtype=np.int64)
        self._q = np.zeros((capacity, self.cells), dtype=np.float64)
        self._slots = np.full(2 * capacity, -1, dtype=np.int64)
        self.episodes = 0
        self.stats = TrainingStats()

    @classmethod
    def from_options(cls, game: Game, **options: Any) -> QLearner:
        """A learner from command-line options (the :class:`QConfig` fields, ``seed``,
        ``max_states``), given as numbers or strings.
        """
        fields = {f: type(v) for f, v in asdict(QConfig()).items()}
        kwargs: dict[str, Any] = {}
        seed, max_states = 0, 20_000_000
        for key, value in options.items():
            if key in ("seed", "max_states"):
                try:
                    number = int(value)
                except (TypeError, ValueError):
                    raise NoughtsError(f"qlearning option {key}={value!r} is not a whole number") from None
                seed, max_states = (number, max_states) if key == "seed" else (seed, number)
                continue
            kind = fields.get(key)
            if kind is None:
                known = ", ".join([*fields, "seed", "max_states"])
                raise NoughtsError(f"the qlearning learner takes no option {key!r}; known: {known}")
            if kind is bool:
                text = str(value).strip().lower()
                if text not in ("true", "false", "1", "0", "yes", "no"):
                    raise NoughtsError(f"qlearning option {key}={value!r} is true or false")
                kwargs[key] = text in ("true", "1", "yes")
            else:
                try:
                    kwargs[key] = float(value)
                except (TypeError, ValueError):
                    raise NoughtsError(f"qlearning option {key}={value!r} is not a number") from None
        return cls(game, QConfig(**kwargs), seed=seed, max_states=max_states)

    @property
    def epsilon(self) -> float:
        return float(self._eps[0])

    @property
    def table(self) -> QTable:
        n = int(self._count[0])
        return QTable(self.cells, self._keys[:n], self._q[:n], n)

    def _reserve(self, extra: int) -> None:
        from noughts.learn import _qlearning_kernels as k

        need = min(int(self._count[0]) + extra, self.max_states)
        capacity = self._keys.shape[0]
        if need <= capacity:
            return
        while capacity < need:
            capacity *= 2
        keys = np.zeros(capacity, dtype=np.int64)
        q = np.zeros((capacity, self.cells), dtype=np.float64)
        n = int(self._count[0])
        keys[:n] = self._keys[:n]
        q[:n] = self._q[:n]
        self._keys, self._q = keys, q
        self._slots = k.rehash(keys, n, 2 * capacity)

    def _run(self, episodes: int, rate: Any, delta: float, stop_on_rate: bool) -> tuple[int, bool]:
        """Up to ``episodes`` episodes through the kernel, in pieces that fit the table."""
        from noughts.learn import _qlearning_kernels as k

        if episodes < 0:
            raise NoughtsError(f"episodes must be 0 or more, not {episodes}")
        use_rate = rate is not None
        if rate is None:
            from noughts.learn.convergence import RateWindowState

            rate = RateWindowState.empty(2)
        played = 0
        while played < episodes:
            room = self.max_states - int(self._count[0])
            if room < self.cells + 1:
                raise LimitExceeded(
                    f"the Q-table reached max_states={self.max_states:,} positions after {self.episodes:,} episodes"
                )
            n = min(episodes - played, 4096, max(1, room // (self.cells + 1)))
            self._reserve(n * (self.cells + 1))
            outcomes = np.zeros(n, dtype=np.int8)
            lengths = np.zeros(n, dtype=np.int16)
            ran, fired = k.run_episodes(
                n,
                self.cells,
                self._rule,
                self._tables.line_bits,
                self._tables.through,
                self._tables.nthrough,
                self._tables.full_bits,
                self._slots,
                self._keys,
                self._q,
                self._count,
                self._rng,
                self._eps,
                self._params,
                self._flags,
                self._banned,
                outcomes,
                lengths,
                rate.counts,
                rate.buf,
                rate.sums,
                rate.shift,
                float(delta),
                use_rate,
                stop_on_rate,
            )
            self.stats.extend(outcomes[:ran], lengths[:ran])
            self.episodes += int(ran)
            played += int(ran)
            if fired:
                return played, True
        return played, False

    def train(
        self,
        episodes: int,
        *,
        chunk: int = 2000,
    ) -> TrainingStats:
        """Play and learn ``episodes`` more games, ``chunk`` at a time; their statistics."""
        if episodes < 0:
            raise NoughtsError(f"episodes must be 0 or more, not {episodes}")
        done = TrainingStats()
        left = episodes
        while left > 0:
            before = self.stats.outcomes.shape[0]
            self._run(min(chunk, left), None, 0.0, False)
            part = TrainingStats(self.stats.outcomes[before:], self.stats.lengths[before:])
            done.extend(part.outcomes, part.lengths)
            left -= part.outcomes.shape[0]
        return done

    # -- the training-loop protocol (noughts.learn.train.Learner) ------------------------------

    def play(self, episodes: int, rate: Any, delta: float, stop_on_rate: bool) -> tuple[int, bool]:
        """Play up to ``episodes`` episodes, pushing each outcome into ``rate`` (000 §4.2);
        stop early when ``stop_on_rate`` and the test holds. Returns (played, fired).
        """
        return self._run(episodes, rate, delta, stop_on_rate)

    def agent(self, **options: Any) -> Any:
        """The learned table as a :class:`noughts.agents.qlearning.QAgent` (options: its tiers;
        by default the learned tier alone, which is what a grade of the learner should measure).
        """
        from noughts.agents.qlearning import QAgent

        return QAgent(self.game, self.table.trimmed(), training=self.summary(), **options)

    def policy_signature(self) -> npt.NDArray[np.int64]:
        """The greedy move (first best) of every visited position, for the policy-stable criterion."""
        t = self.table
        b0 = t.keys & ((1 << self.cells) - 1)
        b1 = t.keys >> self.cells
        occupied = ((b0 | b1)[:, None] >> np.arange(self.cells)[None, :]) & 1
        q = np.where(occupied == 1, -np.inf, t.q)
        signature: npt.NDArray[np.int64] = np.argmax(q, axis=1).astype(np.int64)
        return signature

    def checkpoint(self) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
        """Everything needed to resume: the configuration, the counters, and the table."""
        meta = {
            "config": self.config.to_json(),
            "seed": self.seed,
            "max_states": self.max_states,
            "episodes": self.episodes,
            "epsilon": self.epsilon,
            "rng_state": str(int(self._rng[0])),
        }
        t = self.table
        return meta, {"keys": t.keys.copy(), "q": t.q.copy()}

    @classmethod
    def from_checkpoint(
        cls, game: Game, meta: dict[str, Any], arrays: dict[str, npt.NDArray[Any]]
    ) -> QLearner:
        """The learner a :meth:`checkpoint` describes (validated: ``NoughtsError`` if not)."""
        from noughts.agents.qlearning import from_saved

        try:
            config = QConfig(**meta["config"])
            learner = cls(game, config, seed=int(meta["seed"]), max_states=int(meta["max_states"]))
            episodes, epsilon, rng_state = (
                int(meta["episodes"]),
                float(meta["epsilon"]),
                int(meta["rng_state"]),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise NoughtsError(
                f"a Q-learning checkpoint's training state is incomplete or malformed ({e})"
            ) from None
        table = from_saved({"game": str(game)}, arrays).table  # validates keys and values
        if not 0 <= rng_state <= MASK64 or not 0.0 <= epsilon <= 1.0 or episodes < 0:
            raise NoughtsError("a Q-learning checkpoint's counters are out of range")
        learner._reserve(table.size)
        n = table.size
        learner._keys[:n] = table.keys
        learner._q[:n] = table.q
        learner._count[0] = n
        from noughts.learn import _qlearning_kernels as k

        learner._slots = k.rehash(learner._keys, n, 2 * learner._keys.shape[0])
        learner._rng[0] = np.uint64(rng_state)
        learner._eps[0] = epsilon
        learner.episodes = episodes
        return learner

    def summary(self) -> dict[str, Any]:
        counts = np.bincount(self.stats.outcomes.astype(np.int64), minlength=3)
        return {
            "learner": "qlearning",
            "episodes": self.episodes,
            "seed": self.seed,
            "epsilon": self.epsilon,
            "positions": int(self._count[0]),
            "first_wins": int(counts[0]),
            "draws": int(counts[1]),
            "second_wins": int(counts[2]),
            **self.config.to_json(),
        }
