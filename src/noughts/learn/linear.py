"""The LMS linear agent of 001: a linear value function trained by self-play.

001 (after Mitchell, *Machine Learning*, ch. 1) builds the learner from four parts, and so
does this module, one class each:

* :class:`ExperimentGenerator` proposes the position a training game starts from: the start
  (001's choice) or, with ``opening_plies``, a start followed by that many random moves.
* :class:`PerformanceSystem` plays the game against itself with the current hypothesis: the
  first player (x) moves to the successor of highest estimate ``V^(b) = W . X(b)``, the second
  player (o) to the lowest (one weight vector, from x's side, plays both sides, 001 Table 1:
  "Agent(X) playing against Itself(O)"). Ties are broken uniformly at random; 001 gives no
  tie rule, and a deterministic one would replay one game forever. ``epsilon`` (0 in 001)
  adds exploration.
* :class:`Critic` turns the game's trace ``b_0 .. b_T`` into training examples: the final
  board gets its true value (+100 x won, 0 drawn, -100 x lost, 001 §3.2), every earlier board
  the current estimate of its successor, ``V_train(b_t) = V^(b_{t+1})`` (001 eq. 2).
* :class:`Generalizer` fits the weights to the examples with the LMS rule
  ``w_i <- w_i + eta (V_train(b) - V^(b)) x_i`` (001 eq. 3), one example at a time in trace
  order, ``V^(b)`` recomputed with the weights as they are being updated (001 Algorithm 1,
  lines 13-18).

The weights start at 0.5 each (001 Algorithm 1). The features are those of
:mod:`noughts.agents.linear`, defined over lines of length k, so the same learner
runs on 3x3, 4x4 with k = 4, or any claim board (standard, misère, Maker-Breaker or
cumulative rules; the final value follows the outcome).

001's own settings and the variants that come closer to its Table 1 are options, off by
default: ``features="rowcol"`` (001's rows and columns, :func:`noughts.agents.linear.feature_lines`),
``opponent="random"`` (the second player moves uniformly at random instead of by the weights:
x learns against a random o) and ``normalised`` (the normalised LMS rule
``w_i <- w_i + eta (V_train - V^) x_i / |X|^2``, stable for any ``0 < eta < 2``).

LMS with raw counts is stable only while ``eta * |X(b)|^2 < 2``; 001's ``eta = 0.4`` breaks
that on every board after the first move (|X|^2 >= 2), so its weights grow without bound
(:class:`LMSDiverged` says when). 001 reports bounded weights (Table 2) without saying how.

>>> import noughts
>>> run = train_lms(noughts.game("tictactoe"), games=200, eta=0.001, seed=1)
>>> run.wins + run.losses + run.draws
200
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.agents.linear import FEATURE_SETS, NUM_FEATURES, LineFeatures, check_claim_game
from noughts.core import Game, NoughtsError, Outcome, Position, Rule
from noughts.kernels.rng import MASK64, SplitMix64

__all__ = [
    "Critic",
    "ExperimentGenerator",
    "Generalizer",
    "LMSCheckpoint",
    "LMSConfig",
    "LMSDiverged",
    "LMSRun",
    "PerformanceSystem",
    "final_value",
    "train_lms",
]

FloatArray = npt.NDArray[np.float64]


class LMSDiverged(NoughtsError):
    """The LMS weights left the finite numbers: ``eta`` is too large for the features."""


@dataclass(frozen=True)
class LMSConfig:
    """Everything that defines an LMS training run (001 §3-4). ``eta`` defaults to 0.01: 001's
    0.4 makes LMS over raw counts diverge within a few hundred games (see the module docs).
    """

    eta: float = 0.01
    initial_weight: float = 0.5
    win: float = 100.0
    draw: float = 0.0
    loss: float = -100.0
    epsilon: float = 0.0
    opening_plies: int = 0
    features: str = "lines"
    opponent: str = "self"
    normalised: bool = False

    def __post_init__(self) -> None:
        if not (self.eta > 0 and np.isfinite(self.eta)):
            raise NoughtsError(f"eta must be a positive number, not {self.eta}")
        if self.features not in FEATURE_SETS:
            raise NoughtsError(f"features is one of {', '.join(FEATURE_SETS)}, not {self.features!r}")
        if self.opponent not in OPPONENTS:
            raise NoughtsError(f"opponent is one of {', '.join(OPPONENTS)}, not {self.opponent!r}")
        if not 0.0 <= self.epsilon <= 1.0:
            raise NoughtsError(f"epsilon must lie in [0, 1], not {self.epsilon}")
        if self.opening_plies < 0:
            raise NoughtsError(f"opening_plies must be 0 or more, not {self.opening_plies}")

    def to_json(self) -> dict[str, Any]:
        return {
            "eta": self.eta,
            "initial_weight": self.initial_weight,
            "final_values": {"win": self.win, "draw": self.draw, "loss": self.loss},
            "epsilon": self.epsilon,
            "opening_plies": self.opening_plies,
            "features": self.features,
            "opponent": self.opponent,
            "normalised": self.normalised,
        }


OPPONENTS = ("self", "random")
"""Who plays the second side in training: the weights (001's self-play) or a uniformly random player."""


def final_value(outcome: Outcome, config: LMSConfig) -> float:
    """``V(b)`` of a finished board from x's (the first player's) side: 001's +100 / 0 / -100."""
    if outcome is Outcome.FIRST:
        return config.win
    if outcome is Outcome.SECOND:
        return config.loss
    return config.draw


def dot(w: Sequence[float], x: Sequence[float]) -> float:
    """``w . x`` summed left to right (the kernel sums in the same order, so values agree exactly)."""
    s = 0.0
    for wi, xi in zip(w, x, strict=True):
        s += wi * xi
    return s


class Hypothesis:
    """``V^(b) = W . X(b)``: the weights and the board's feature extractor."""

    def __init__(self, game: Game, weights: Sequence[float] | FloatArray, feature_set: str = "lines"):
        self.features = LineFeatures(game, feature_set)
        w = np.array(weights, dtype=np.float64)
        if w.shape != (NUM_FEATURES,):
            raise NoughtsError(f"a linear hypothesis has {NUM_FEATURES} weights, not {w.shape}")
        self.weights: list[float] = [float(v) for v in w]

    def feature_list(self, position: Position) -> list[float]:
        return [float(v) for v in self.features(position)]

    def value(self, position: Position) -> float:
        return dot(self.weights, self.feature_list(position))


class ExperimentGenerator:
    """Proposes the position each training game starts from (001 §4): the start, or the start
    followed by ``opening_plies`` uniformly random moves (a "randomized state").
    """

    def __init__(self, game: Game, opening_plies: int = 0):
        self.game = game
        self.opening_plies = opening_plies

    def new_problem(self, rng: SplitMix64) -> Position:
        position = self.game.start()
        for _ in range(self.opening_plies):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(moves[rng.below(len(moves))])
        return position


class PerformanceSystem:
    """Plays one game against itself with the current hypothesis and returns its trace
    (with ``opponent="random"``, the second player moves uniformly at random).
    """

    def __init__(self, hypothesis: Hypothesis, epsilon: float = 0.0, opponent: str = "self"):
        self.hypothesis = hypothesis
        self.epsilon = epsilon
        self.random_second = opponent == "random"

    def choose(self, position: Position, rng: SplitMix64) -> Position:
        """The successor the mover picks: best estimate for its side, ties at random."""
        moves = position.legal_moves()
        if self.random_second and position.to_move == 1:
            return position.play(moves[rng.below(len(moves))])
        if self.epsilon > 0.0 and rng.uniform() < self.epsilon:
            return position.play(moves[rng.below(len(moves))])
        successors = [position.play(m) for m in moves]
        values = [self.hypothesis.value(s) for s in successors]
        best = max(values) if position.to_move == 0 else min(values)
        ties = [s for s, v in zip(successors, values, strict=True) if v == best]
        return ties[rng.below(len(ties))] if len(ties) > 1 else ties[0]

    def play(self, start: Position, rng: SplitMix64) -> list[Position]:
        trace = [start]
        position = start
        while not position.is_terminal():
            position = self.choose(position, rng)
            trace.append(position)
        return trace


class Critic:
    """Training examples ``(X(b), V_train(b))`` from a finished game's trace (001 §3.5)."""

    def __init__(self, config: LMSConfig):
        self.config = config

    def examples(self, trace: Sequence[Position], hypothesis: Hypothesis) -> list[tuple[list[float], float]]:
        feats = [hypothesis.feature_list(b) for b in trace]
        final = trace[-1].outcome()
        if final is None:
            raise NoughtsError("the critic needs a finished game")
        w = hypothesis.weights
        out = [(feats[t], dot(w, feats[t + 1])) for t in range(len(trace) - 1)]
        out.append((feats[-1], final_value(final, self.config)))
        return out


class Generalizer:
    """The LMS rule (001 eq. 3), applied to each example in turn; with ``normalised`` the step
    is divided by ``|X|^2`` (normalised LMS).
    """

    def __init__(self, eta: float, normalised: bool = False):
        self.eta = eta
        self.normalised = normalised

    def update(
        self, weights: Sequence[float], examples: Sequence[tuple[Sequence[float], float]]
    ) -> list[float]:
        w = [float(v) for v in weights]
        eta = self.eta
        for x, v_train in examples:
            err = v_train - dot(w, x)
            if self.normalised:
                norm = dot(x, x)
                for i in range(len(w)):
                    w[i] = w[i] + eta * err * x[i] / norm
                continue
            for i in range(len(w)):
                w[i] = w[i] + eta * err * x[i]
        return w


def _summary(config: LMSConfig, seed: int, games: int, counts: tuple[int, int, int]) -> dict[str, Any]:
    """The training record of a run or a learner (saved with its agent): x's wins, losses, draws."""
    wins, losses, draws = counts
    return {
        "learner": "linear",
        "games": games,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "seed": seed,
        **config.to_json(),
    }


@dataclass(frozen=True)
class LMSCheckpoint:
    """The counts and weights after ``games`` training games (a row of 001 Tables 1 and 2)."""

    games: int
    wins: int
    losses: int
    draws: int
    weights: tuple[float, ...]

    @property
    def win_draw_ratio(self) -> float:
        """001's "Win/Draw" column (inf when no game was drawn)."""
        return self.wins / self.draws if self.draws else float("inf")


@dataclass
class LMSRun:
    """A finished training run: the final weights, the counts, the checkpoints."""

    game: Game
    config: LMSConfig
    seed: int
    weights: FloatArray
    wins: int = 0
    losses: int = 0
    draws: int = 0
    checkpoints: list[LMSCheckpoint] = field(default_factory=list)
    diverged_at: int | None = None

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def agent(self) -> Any:
        """The trained weights as a :class:`noughts.agents.linear.LinearAgent`."""
        from noughts.agents.linear import LinearAgent

        return LinearAgent(self.game, self.weights, training=self.summary(), feature_set=self.config.features)

    def summary(self) -> dict[str, Any]:
        return _summary(self.config, self.seed, self.games, (self.wins, self.losses, self.draws))


class LinearLearner:
    """001's LMS learner as a resumable state (weights, random stream, counts), played in
    chunks by the kernel or the reference; the :class:`noughts.learn.train.Learner` protocol,
    so ``noughts train linear`` drives it, and the engine of :func:`train_lms`.
    """

    kind = "linear"

    def __init__(
        self,
        game: Game,
        config: LMSConfig | None = None,
        *,
        seed: int = 0,
        weights: Sequence[float] | FloatArray | None = None,
        engine: str = "auto",
        **options: Any,
    ):
        self.game = check_claim_game(game)
        if config is None:
            config = LMSConfig(**options)
        elif options:
            raise NoughtsError("give either config or its options, not both")
        if engine not in ("auto", "kernel", "reference"):
            raise NoughtsError(f"engine is 'auto', 'kernel' or 'reference', not {engine!r}")
        fits = game.claim_rule in (Rule.STANDARD, Rule.MISERE) and game.board.num_cells <= 62
        if engine == "kernel" and not fits:
            raise NoughtsError(
                f"the LMS kernel plays standard and misère rules on up to 62 cells, not {game}"
            )
        self.use_kernel = fits and engine != "reference"
        self.config = config
        self.seed = seed
        initial = [config.initial_weight] * NUM_FEATURES if weights is None else list(weights)
        self.weights = np.array(Hypothesis(game, initial, config.features).weights, dtype=np.float64)
        self.rng_state = seed & MASK64
        self.counts = np.zeros(3, dtype=np.int64)  # x's wins, losses, draws
        self.episodes = 0
        self.checkpoints: list[LMSCheckpoint] = []

    @classmethod
    def from_options(cls, game: Game, **options: Any) -> LinearLearner:
        """A learner from command-line options (the :class:`LMSConfig` fields, ``seed``,
        ``engine``), given as numbers or strings; ``alpha`` (the training loop's step size) is
        taken as ``eta``.
        """
        if "alpha" in options:
            if "eta" in options:
                raise NoughtsError("give the LMS learning rate once: eta or alpha, not both")
            options["eta"] = options.pop("alpha")
        kwargs: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        floats = {"eta", "initial_weight", "win", "draw", "loss", "epsilon"}
        for key, value in options.items():
            try:
                if key in floats:
                    kwargs[key] = float(value)
                elif key == "opening_plies":
                    kwargs[key] = int(value)
                elif key in ("features", "opponent"):
                    kwargs[key] = str(value)
                elif key == "normalised":
                    text = str(value).strip().lower()
                    if text not in ("true", "false", "1", "0", "yes", "no"):
                        raise NoughtsError(f"linear option normalised={value!r} is true or false")
                    kwargs[key] = text in ("true", "1", "yes")
                elif key == "seed":
                    extra[key] = int(value)
                elif key == "engine":
                    extra[key] = str(value)
                else:
                    known = ", ".join(
                        sorted(
                            [*floats, "opening_plies", "features", "opponent", "normalised", "seed", "engine"]
                        )
                    )
                    raise NoughtsError(f"the linear learner takes no option {key!r}; known: {known}")
            except (TypeError, ValueError):
                raise NoughtsError(f"linear option {key}={value!r} is not a number") from None
        return cls(game, LMSConfig(**kwargs), **extra)

    @property
    def wins(self) -> int:
        return int(self.counts[0])

    @property
    def losses(self) -> int:
        return int(self.counts[1])

    @property
    def draws(self) -> int:
        return int(self.counts[2])

    def play_games(
        self,
        games: int,
        *,
        marks: Sequence[int] = (),
        rate: Any = None,
        delta: float = 0.0,
        stop_on_rate: bool = False,
        stop_on_divergence: bool = False,
    ) -> tuple[int, bool, int | None]:
        """Play and learn up to ``games`` games; record :class:`LMSCheckpoint` rows at the
        absolute game numbers in ``marks``. Returns (played, rate test held, overflowed game or
        None); an overflow raises :class:`LMSDiverged` unless ``stop_on_divergence``.
        """
        if games < 0:
            raise NoughtsError(f"games must be 0 or more, not {games}")
        wanted = sorted(set(int(m) for m in marks if self.episodes < int(m) <= self.episodes + games))
        if self.use_kernel:
            played, fired, bad = self._kernel(games, wanted, rate, delta, stop_on_rate)
        else:
            played, fired, bad = self._reference(games, wanted, rate, delta, stop_on_rate)
        if bad is not None and not stop_on_divergence:
            raise LMSDiverged(
                f"the LMS weights overflowed after {bad} games (eta={self.config.eta}); LMS over raw "
                f"counts needs eta * |X(b)|^2 < 2, so try a smaller eta"
            )
        return played, fired, bad

    def _record(self, n: int) -> None:
        self.checkpoints.append(
            LMSCheckpoint(n, self.wins, self.losses, self.draws, tuple(float(v) for v in self.weights))
        )

    def _reference(
        self, games: int, marks: list[int], rate: Any, delta: float, stop_on_rate: bool
    ) -> tuple[int, bool, int | None]:
        config = self.config
        rng = SplitMix64(0)
        rng.state = self.rng_state
        hypothesis = Hypothesis(self.game, self.weights, config.features)
        generator = ExperimentGenerator(self.game, config.opening_plies)
        performer = PerformanceSystem(hypothesis, config.epsilon, config.opponent)
        critic = Critic(config)
        generalizer = Generalizer(config.eta, config.normalised)
        played, fired, bad = 0, False, None
        try:
            for _ in range(games):
                n = self.episodes + 1
                trace = performer.play(generator.new_problem(rng), rng)
                outcome = trace[-1].outcome()
                assert outcome is not None
                new = generalizer.update(hypothesis.weights, critic.examples(trace, hypothesis))
                if not all(math.isfinite(v) for v in new):
                    bad = n
                    break
                hypothesis.weights = new
                self.weights = np.array(new, dtype=np.float64)
                code = {Outcome.FIRST: 0, Outcome.SECOND: 1, Outcome.DRAW: 2}[outcome]
                self.counts[code] += 1
                self.episodes = n
                played += 1
                if marks and marks[0] == n:
                    marks.pop(0)
                    self._record(n)
                rate_code = {Outcome.FIRST: 0, Outcome.DRAW: 1, Outcome.SECOND: 2}[outcome]
                if rate is not None and rate.push(rate_code, delta) and stop_on_rate:
                    fired = True
                    break
        finally:
            self.rng_state = rng.state
        return played, fired, bad

    def _kernel(
        self, games: int, marks: list[int], rate: Any, delta: float, stop_on_rate: bool, chunk: int = 20_000
    ) -> tuple[int, bool, int | None]:
        from noughts.learn import _linear_kernels as kernels

        if rate is None:
            from noughts.learn.convergence import RateWindowState

            rate_state, use_rate = RateWindowState.empty(2), False
        else:
            rate_state, use_rate = rate, True
        board = self.game.board
        tables = board.tables
        features = self._feature_masks()
        k = len(board.lines[0])
        config = self.config
        rng = np.array([self.rng_state], dtype=np.uint64)
        finals = np.array([config.win, config.draw, config.loss], dtype=np.float64)
        marks_arr = np.array(marks, dtype=np.int64)
        mark_pos = np.zeros(1, dtype=np.int64)
        cp_counts = np.zeros((len(marks), 3), dtype=np.int64)
        cp_w = np.zeros((len(marks), NUM_FEATURES), dtype=np.float64)
        played, fired, bad = 0, False, None
        while played < games:
            n = min(chunk, games - played)
            ran, overflow, fired = kernels.lms_games(
                n,
                self.episodes + 1,
                board.num_cells,
                int(self.game.claim_rule),  # type: ignore[arg-type]  # use_kernel: standard or misère
                tables.line_bits,
                features,
                tables.through,
                tables.nthrough,
                tables.full_bits,
                k,
                self.weights,
                rng,
                config.eta,
                config.epsilon,
                config.opening_plies,
                finals,
                self.counts,
                marks_arr,
                mark_pos,
                cp_counts,
                cp_w,
                rate_state.counts,
                rate_state.buf,
                rate_state.sums,
                rate_state.shift,
                float(delta),
                use_rate,
                stop_on_rate,
                config.opponent == "random",
                config.normalised,
            )
            played += int(ran)
            self.episodes += int(ran)
            if overflow:
                bad = int(overflow)
                break
            if fired:
                break
        self.rng_state = int(rng[0])
        for j in range(int(mark_pos[0])):
            c = cp_counts[j]
            self.checkpoints.append(
                LMSCheckpoint(marks[j], int(c[0]), int(c[1]), int(c[2]), tuple(float(v) for v in cp_w[j]))
            )
        return played, fired, bad

    def play_traced(self, games: int, every: int) -> dict[str, Any]:
        """Play and learn up to ``games`` games, recording every block of ``every`` games: x's
        cumulative (wins, losses, draws) and the weights at the block's end, and each weight's
        least, greatest and mean value over the block's games, so that swings between two
        samples are seen, not aliased (001 Figures 17-18 drawn densely). Stops before a game
        whose update overflows; ``diverged_at`` names it (None if none did).

        Returns arrays ``games`` (block ends), ``counts`` (blocks x 3), ``weights``, ``low``,
        ``high``, ``mean`` (blocks x 7) and ``diverged_at``.
        """
        if games < 0 or every < 1:
            raise NoughtsError("play_traced needs games >= 0 and every >= 1")
        ends: list[int] = []
        counts: list[npt.NDArray[np.int64]] = []
        w_end: list[FloatArray] = []
        lows: list[FloatArray] = []
        highs: list[FloatArray] = []
        means: list[FloatArray] = []
        diverged: int | None = None
        per_call = max(1, 20_000 // every) * every
        done = 0
        while done < games and diverged is None:
            n = min(per_call, games - done)
            first = self.episodes + 1
            if self.use_kernel:
                ran, bad, cp_counts, cp_w = self._kernel_marked(n)
            else:
                before = len(self.checkpoints)
                ran, _, bad = self._reference(n, list(range(first, first + n)), None, 0.0, False)
                cps = self.checkpoints[before:]
                del self.checkpoints[before:]
                cp_counts = np.array([(c.wins, c.losses, c.draws) for c in cps], dtype=np.int64).reshape(
                    -1, 3
                )
                cp_w = np.array([c.weights for c in cps], dtype=np.float64).reshape(-1, NUM_FEATURES)
            done += ran
            diverged = bad
            for b in range(0, ran - ran % every if bad is not None else ran, every):
                block = cp_w[b : b + every]
                if block.shape[0] < every:
                    break
                ends.append(first + b + every - 1)
                counts.append(cp_counts[b + every - 1])
                w_end.append(block[-1])
                lows.append(block.min(axis=0))
                highs.append(block.max(axis=0))
                means.append(block.mean(axis=0))
        empty = np.zeros((0, NUM_FEATURES))
        return {
            "games": np.array(ends, dtype=np.int64),
            "counts": np.array(counts, dtype=np.int64).reshape(-1, 3),
            "weights": np.array(w_end) if w_end else empty,
            "low": np.array(lows) if lows else empty,
            "high": np.array(highs) if highs else empty,
            "mean": np.array(means) if means else empty,
            "diverged_at": diverged,
        }

    def _feature_masks(self) -> npt.NDArray[np.uint64]:
        """The masks of the lines the features count over, for the kernel."""
        return np.array(LineFeatures(self.game, self.config.features).masks, dtype=np.uint64)

    def _kernel_marked(self, games: int) -> tuple[int, int | None, npt.NDArray[np.int64], FloatArray]:
        """``games`` games through the kernel recording the counts and weights after every one
        (for :meth:`play_traced`): (played, overflowed game or None, counts, weights).
        """
        from noughts.learn import _linear_kernels as kernels
        from noughts.learn.convergence import RateWindowState

        rate_state = RateWindowState.empty(2)
        board = self.game.board
        tables = board.tables
        config = self.config
        rng = np.array([self.rng_state], dtype=np.uint64)
        first = self.episodes + 1
        marks_arr = np.arange(first, first + games, dtype=np.int64)
        mark_pos = np.zeros(1, dtype=np.int64)
        cp_counts = np.zeros((games, 3), dtype=np.int64)
        cp_w = np.zeros((games, NUM_FEATURES), dtype=np.float64)
        ran, overflow, _ = kernels.lms_games(
            games,
            first,
            board.num_cells,
            int(self.game.claim_rule),  # type: ignore[arg-type]  # use_kernel: standard or misère
            tables.line_bits,
            self._feature_masks(),
            tables.through,
            tables.nthrough,
            tables.full_bits,
            len(board.lines[0]),
            self.weights,
            rng,
            config.eta,
            config.epsilon,
            config.opening_plies,
            np.array([config.win, config.draw, config.loss], dtype=np.float64),
            self.counts,
            marks_arr,
            mark_pos,
            cp_counts,
            cp_w,
            rate_state.counts,
            rate_state.buf,
            rate_state.sums,
            rate_state.shift,
            0.0,
            False,
            False,
            config.opponent == "random",
            config.normalised,
        )
        self.episodes += int(ran)
        self.rng_state = int(rng[0])
        played = int(mark_pos[0])
        return int(ran), (int(overflow) if overflow else None), cp_counts[:played], cp_w[:played]

    # -- the training-loop protocol (noughts.learn.train.Learner) ------------------------------

    def play(self, episodes: int, rate: Any, delta: float, stop_on_rate: bool) -> tuple[int, bool]:
        """Play up to ``episodes`` games, pushing each outcome into ``rate`` (000 §4.2)."""
        played, fired, _ = self.play_games(episodes, rate=rate, delta=delta, stop_on_rate=stop_on_rate)
        return played, fired

    def agent(self) -> Any:
        """The current weights as a :class:`noughts.agents.linear.LinearAgent`."""
        from noughts.agents.linear import LinearAgent

        return LinearAgent(self.game, self.weights, training=self.summary(), feature_set=self.config.features)

    def summary(self) -> dict[str, Any]:
        return _summary(self.config, self.seed, self.episodes, (self.wins, self.losses, self.draws))

    def checkpoint(self) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
        meta = {
            "config": {k: v for k, v in asdict(self.config).items()},
            "seed": self.seed,
            "episodes": self.episodes,
            "counts": [int(v) for v in self.counts],
            "rng_state": str(self.rng_state),
            "engine": "kernel" if self.use_kernel else "reference",
        }
        return meta, {"weights": self.weights.copy()}

    @classmethod
    def from_checkpoint(
        cls, game: Game, meta: dict[str, Any], arrays: dict[str, npt.NDArray[Any]]
    ) -> LinearLearner:
        """The learner a :meth:`checkpoint` describes (validated: ``NoughtsError`` if not)."""
        try:
            config = LMSConfig(**meta["config"])
            learner = cls(
                game, config, seed=int(meta["seed"]), weights=arrays["weights"], engine=str(meta["engine"])
            )
            counts = [int(v) for v in meta["counts"]]
            episodes, rng_state = int(meta["episodes"]), int(meta["rng_state"])
        except (KeyError, TypeError, ValueError) as e:
            raise NoughtsError(
                f"a linear checkpoint's training state is incomplete or malformed ({e})"
            ) from None
        if len(counts) != 3 or min(counts) < 0 or sum(counts) != episodes or not 0 <= rng_state <= MASK64:
            raise NoughtsError("a linear checkpoint's counters do not add up")
        if not np.all(np.isfinite(learner.weights)):
            raise NoughtsError("a linear checkpoint's weights must be finite")
        learner.counts[:] = counts
        learner.episodes = episodes
        learner.rng_state = rng_state
        return learner


def train_lms(
    game: Game,
    games: int,
    *,
    config: LMSConfig | None = None,
    seed: int = 0,
    checkpoints: Sequence[int] = (),
    weights: Sequence[float] | None = None,
    stop_on_divergence: bool = False,
    engine: str = "auto",
    **options: Any,
) -> LMSRun:
    """Train 001's LMS agent by ``games`` games of self-play (001 Algorithm 1).

    ``config`` (or its fields as keyword ``options``, e.g. ``eta=0.01``) sets the run;
    ``checkpoints`` lists game counts at which to record counts and weights (001 Tables 1-2);
    ``weights`` starts from earlier weights. The run repeats exactly for a given ``seed``. If
    the weights overflow, :class:`LMSDiverged` is raised, or with ``stop_on_divergence`` the
    run stops and is returned with ``diverged_at`` set (its weights and counts those before
    the game that overflowed).

    ``engine``: ``"reference"`` plays through the public position API with the four parts above;
    ``"kernel"`` runs :mod:`noughts.learn._linear_kernels` (standard and misère rules, boards
    of up to 62 cells), which the tests hold to the reference bit for bit; ``"auto"`` takes
    the kernel where it applies.
    """
    learner = LinearLearner(game, config, seed=seed, weights=weights, engine=engine, **options)
    if games < 0:
        raise NoughtsError(f"games must be 0 or more, not {games}")
    _, _, bad = learner.play_games(games, marks=checkpoints, stop_on_divergence=stop_on_divergence)
    run = LMSRun(game, learner.config, seed, learner.weights.copy())
    run.wins, run.losses, run.draws = learner.wins, learner.losses, learner.draws
    run.checkpoints = list(learner.checkpoints)
    run.diverged_at = bad
    return run
