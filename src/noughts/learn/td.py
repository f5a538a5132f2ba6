"""One-step TD self-play with one value table per player (000 §3.2.3, §3.2.5).

Both players learn by self-play. ``V1(s)`` is the first player's estimate of its final payoff
(+1 win, 0 draw, -1 loss) from position ``s``, ``V2`` the second player's; finished positions
hold their true payoffs. The player to move picks, with probability ``epsilon``, a uniformly
random legal move, else a move whose successor has the greatest value in its own table, ties
broken uniformly at random. After each transition ``s -> s'`` *both* tables move toward the
successor: ``V(s) += alpha * (V(s') - V(s))``.

What the paper says and what its code does differ, and noughts offers both:

* The paper's text (§3.2.3) updates only the mover's table, and only at the positions where
  that player moves. Taken literally no learning reaches the greedy choice, which reads the
  mover's table at the *successors* (positions where the opponent moves), never updated. The
  authors' code updates both tables along every transition of the episode.
* The paper says the update happens "immediately" (``update="online"``: each transition as it
  is made, toward the successor's current value); the authors' code sweeps the finished
  episode backwards (``update="backward"``, the default here: the terminal payoff reaches the
  start of the episode in one sweep). The published convergence figures come from the code.
* With a symmetric start (zero, TCD, WTCD, 2SLA: ``V2 = -V1``) both tables receive the same
  update negated, so ``V2`` stays exactly ``-V1``: the two tables are one. Only the random start
  (independent tables) makes them differ — so stage 2 of 000 §4.2 compares one table against
  two as well as a prior against none.

Everything random comes from one SplitMix64 stream (:mod:`noughts.kernels.rng`), so a run
repeats bit for bit from its seed, resumes bit for bit from a checkpoint, and the numba kernel
(:mod:`noughts.learn._td_kernels`) makes exactly the choices of :func:`td_reference`, the plain
loop over the position API that defines the algorithm.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.core import Game, NoughtsError, Position, require_bounded
from noughts.exact.states import (
    DEFAULT_MAX_STATES,
    OUTCOME_CODES,
    StateSpace,
    optimal_action_sets,
    state_space,
)
from noughts.kernels.rng import MASK64, SplitMix64
from noughts.learn.convergence import RateWindowReference, RateWindowState
from noughts.learn.evaluation import INITS, initial_values

__all__ = ["UPDATES", "TDConfig", "TDLearner", "td_reference"]

UPDATES = ("backward", "online")

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class TDConfig:
    """The hyper-parameters of a TD run (000 §4.2's best pair is epsilon 0.05, alpha 0.5)."""

    epsilon: float = 0.05
    alpha: float = 0.5
    init: str = "zero"
    update: str = "backward"
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.epsilon <= 1:
            raise NoughtsError(f"epsilon is a probability in [0, 1], not {self.epsilon}")
        if not 0 < self.alpha <= 1:
            raise NoughtsError(f"alpha (the step size) must be in (0, 1], not {self.alpha}")
        if self.init not in INITS:
            raise NoughtsError(f"unknown initialisation {self.init!r}; known: {', '.join(INITS)}")
        if self.update not in UPDATES:
            raise NoughtsError(f"unknown update {self.update!r}; known: {', '.join(UPDATES)}")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 0:
            raise NoughtsError(f"the seed is a non-negative integer, not {self.seed!r}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def td_reference(
    space: StateSpace,
    v1: dict[Position, float],
    v2: dict[Position, float],
    config: TDConfig,
    rng: SplitMix64,
    episodes: int,
    rate: RateWindowReference | RateWindowState | None = None,
    delta: float = 1e-8,
) -> tuple[list[int], bool]:
    """The algorithm, plainly, over positions.

    Play ``episodes`` episodes updating the value dicts in place; stop early if the ``rate``
    criterion holds. Returns the outcome codes of the episodes played and whether the criterion
    fired. (``space`` only supplies the game.)
    """
    game = space.game
    start = game.start()
    outcomes: list[int] = []
    eps, alpha, backward = config.epsilon, config.alpha, config.update == "backward"
    for _ in range(episodes):
        s = start
        path = [s]
        while not s.is_terminal():
            v = v1 if s.to_move == 0 else v2
            moves = sorted(s.legal_moves(), key=game.action)  # the kernel's order: by action
            children = [s.play(m) for m in moves]
            if rng.uniform() < eps:
                chosen = children[rng.below(len(children))]
            else:
                best = -np.inf
                ties: list[Position] = []
                for c in children:
                    x = v[c]
                    if x > best:
                        best, ties = x, [c]
                    elif x == best:
                        ties.append(c)
                chosen = ties[rng.below(len(ties))] if len(ties) > 1 else ties[0]
            if not backward:
                v1[s] += alpha * (v1[chosen] - v1[s])
                v2[s] += alpha * (v2[chosen] - v2[s])
            s = chosen
            path.append(s)
        if backward:
            for i in range(len(path) - 2, -1, -1):
                p, q = path[i], path[i + 1]
                v1[p] += alpha * (v1[q] - v1[p])
                v2[p] += alpha * (v2[q] - v2[p])
        code = OUTCOME_CODES[s.outcome()]
        outcomes.append(code)
        if rate is not None and rate.push(code, delta):
            return outcomes, True
    return outcomes, False


class TDLearner:
    """TD self-play on one game, driven by :func:`noughts.learn.train.train` in chunks.

    Its whole state (the two tables, the random stream, the convergence state, the episode
    count) is arrays and a few numbers, so a checkpoint is a saved agent and training resumes
    from it bit for bit.
    """

    kind = "td"

    def __init__(
        self,
        game: Game,
        config: TDConfig,
        *,
        space: StateSpace | None = None,
        max_states: int = DEFAULT_MAX_STATES,
        tables: tuple[FloatArray, FloatArray] | None = None,
        rng_state: int | None = None,
        episodes: int = 0,
    ):
        self.game = game
        self.config = config
        self.space = space if space is not None else state_space(game, max_states)
        if tables is None:
            tables = initial_values(self.space, config.init, config.seed)
        self.v1, self.v2 = (np.ascontiguousarray(t, dtype=np.float64) for t in tables)
        if self.v1.shape != (self.space.size,) or self.v2.shape != (self.space.size,):
            raise NoughtsError("value tables do not match the game's reachable positions")
        self.rng = np.array([config.seed if rng_state is None else rng_state], dtype=np.uint64)
        self.episodes = episodes
        self._path_len = require_bounded(game, "TD learning (episodes played to their end)") + 2
        self._optimal: npt.NDArray[np.uint64] | None = None

    @classmethod
    def from_options(cls, game: Game, **options: Any) -> TDLearner:
        """A learner from command-line options (``epsilon``, ``alpha``, ``init``, ``update``,
        ``seed``, ``max_states``), given as numbers or strings.
        """
        known = {"epsilon": float, "alpha": float, "init": str, "update": str, "seed": int, "max_states": int}
        kwargs: dict[str, Any] = {}
        for key, value in options.items():
            conv = known.get(key)
            if conv is None:
                raise NoughtsError(f"the td learner takes no option {key!r}; known: {', '.join(known)}")
            try:
                kwargs[key] = conv(value)
            except (TypeError, ValueError):
                raise NoughtsError(f"td option {key}={value!r} is not a {conv.__name__}") from None
        max_states = kwargs.pop("max_states", DEFAULT_MAX_STATES)
        return cls(game, TDConfig(**kwargs), max_states=max_states)

    # -- the training-loop protocol (see noughts.learn.train.Learner) ------------------------

    def play(
        self, episodes: int, rate: RateWindowState, delta: float, stop_on_rate: bool
    ) -> tuple[int, bool]:
        """Play up to ``episodes`` episodes (numba kernel), feeding each outcome to ``rate``;
        stop early when ``stop_on_rate`` and the 000 §4.2 test holds. Returns (played, fired).
        """
        from noughts.learn._td_kernels import td_run

        sp = self.space
        done, fired = td_run(
            sp.next, sp.outcome, sp.to_move, sp.start, self.v1, self.v2,
            self.config.epsilon, self.config.alpha, self.config.update == "backward", self.rng,
            episodes, stop_on_rate, rate.counts, rate.buf, rate.sums, rate.shift, delta,
            np.empty(0, np.int8), self._path_len,
        )  # fmt: skip
        self.episodes += int(done)
        return int(done), bool(fired)

    def policy_signature(self) -> npt.NDArray[np.uint64]:
        """The greedy policy as one bit set of best actions per position (ties included)."""
        return greedy_sets(self.space, self.v1, self.v2)

    def agent(self) -> Any:
        """The frozen greedy agent of the current tables."""
        from noughts.agents.td import TDAgent

        return TDAgent(self.game, self.space, self.v1.copy(), self.v2.copy(), config=self.config.to_json())

    def checkpoint(self) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
        """JSON-able metadata and arrays from which :meth:`restore` rebuilds this learner."""
        meta = {
            "config": self.config.to_json(),
            "episodes": self.episodes,
            "rng_state": str(int(self.rng[0])),
            "positions": self.space.size,
            "numbering": self.space.fingerprint(),
        }
        return meta, {"v1": self.v1, "v2": self.v2}

    def policy_grade(self, strict: bool = False) -> float:
        """The oracle grade of the greedy policy over every reachable unfinished position: the
        share where its move keeps the exact value, ties broken at random (in expectation, so
        the figure :func:`noughts.arena.grade.grade` estimates by sampling the ties). With
        ``strict``, a position counts only if every tied greedy move keeps the value.
        """
        if self._optimal is None:
            self._optimal = optimal_action_sets(self.space)
        return grade_sets(self.policy_signature(), self._optimal, self.space.nonterminal(), strict)

    @classmethod
    def from_checkpoint(
        cls, game: Game, meta: dict[str, Any], arrays: dict[str, npt.NDArray[Any]]
    ) -> TDLearner:
        """Rebuild a learner from :meth:`checkpoint` (validated; ``NoughtsError`` if bad)."""
        from noughts.agents.td import from_saved

        if not isinstance(meta, dict):
            raise NoughtsError("cannot resume TD training: its state is not an object")
        agent = from_saved(
            {"game": str(game), "positions": meta.get("positions"), "numbering": meta.get("numbering")},
            {"v1": arrays.get("v1"), "v2": arrays.get("v2")},  # type: ignore[dict-item]
        )
        try:
            config = TDConfig(**meta["config"])
            rng_state = int(meta["rng_state"])
            episodes = int(meta["episodes"])
        except (KeyError, TypeError, ValueError) as e:
            raise NoughtsError(f"cannot resume TD training: bad training state ({e})") from None
        if not 0 <= rng_state <= MASK64 or episodes < 0:
            raise NoughtsError("cannot resume TD training: bad random state or episode count")
        return cls(
            game,
            config,
            space=agent.space,
            tables=(agent.v1, agent.v2),
            rng_state=rng_state,
            episodes=episodes,
        )


def greedy_sets(space: StateSpace, v1: FloatArray, v2: FloatArray) -> npt.NDArray[np.uint64]:
    """Per position, the bit set of actions leading to the mover's best-valued successor."""
    if space.num_actions > 64:
        raise NoughtsError("greedy action sets need at most 64 actions")
    from noughts.learn._td_kernels import greedy_sets as kernel

    return kernel(space.next, space.outcome, space.to_move, v1, v2)  # type: ignore[no-any-return]


def grade_sets(
    greedy: npt.NDArray[np.uint64],
    optimal: npt.NDArray[np.uint64],
    live: npt.NDArray[np.bool_],
    strict: bool = False,
) -> float:
    """The grade of a policy given as action bit sets: the mean over ``live`` positions of the
    share of its (tied) moves that are optimal, or with ``strict`` of "all of them are".
    """
    g, o = greedy[live], optimal[live]
    if strict:
        return float(np.mean((g & ~o) == 0))
    return float(np.mean(np.bitwise_count(g & o) / np.maximum(np.bitwise_count(g), 1)))
