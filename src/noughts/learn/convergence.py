"""When to stop training: three criteria, each a small value object the training loop checks.

* :class:`RateWindow` — the criterion of 000 §4.2: after episode ``n`` append the running
  first-player win rate ``p1(n) = wins/n`` and draw rate ``pd(n) = draws/n`` to a history; once
  ``n >= W``, declare convergence at the first episode where the sample variances (``ddof=1``)
  of the last ``W`` values of both are below ``delta`` (the paper: ``W = 20,000``,
  ``delta = 1e-8``). Computed in constant time per episode by one numba function
  (:func:`noughts.learn._td_kernels.rate_push`, which the learners' kernels call and
  :meth:`RateWindowState.push` calls for the Python loops): a ring buffer of the last ``W`` rates
  and running sums of their deviations from a shift, recomputed from the buffer once every ``W``
  episodes (so rounding cannot build up). Its state lives in NumPy arrays
  (:class:`RateWindowState`) so that the kernels update the same state in place and a
  checkpoint saves it. The reference it is held to, :class:`RateWindowReference`, is the test
  as written: the raw outcomes, the running rates, the sample variances of the last ``W``.

  Read this criterion with care. ``p1(n)`` is a running mean over *all* episodes so far, so it
  moves by at most ``1/n`` per episode whatever the agents do: its variance over a window
  shrinks like ``W/n²`` even when nothing is learned at all. Outcomes drawn at fixed rates, with
  no learning, "converge" too (see :func:`null_convergence` and the ``cumulative-td``
  experiment's null baseline). The test measures the age of the run more than its learning.

* :class:`PolicyStable` — the greedy policy (the set of best moves at every reachable position)
  has not changed for ``episodes`` episodes, checked every ``check_every`` episodes.
* :class:`GradeTarget` — the share of reachable positions where every greedy move keeps the
  exact game value (the oracle grade of the policy) reaches ``target``; checked every
  ``check_every`` episodes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.core import NoughtsError
from noughts.kernels.rng import SplitMix64

__all__ = [
    "Criterion",
    "GradeTarget",
    "PolicyStable",
    "RateWindow",
    "RateWindowReference",
    "RateWindowState",
    "criterion_from_json",
    "null_convergence",
    "window_variances",
]

FIRST_WIN, DRAW, SECOND_WIN = 0, 1, 2


@dataclass(frozen=True)
class RateWindow:
    """000 §4.2: variances of the running win and draw rates over a window below a threshold."""

    window: int = 20_000
    delta: float = 1e-8

    name = "rate-window"

    def __post_init__(self) -> None:
        if self.window < 2:
            raise NoughtsError(f"the convergence window must be at least 2 episodes, not {self.window}")
        if not self.delta > 0:
            raise NoughtsError(f"the convergence threshold must be positive, not {self.delta}")

    def describe(self) -> str:
        return f"000 §4.2: variances of the running first-win and draw rates over {self.window:,} episodes below {self.delta:g}"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "window": self.window, "delta": self.delta}

    def new_state(self) -> RateWindowState:
        return RateWindowState.empty(self.window)

    def new_reference(self) -> RateWindowReference:
        """The plain form of the test (:class:`RateWindowReference`), for the references."""
        return RateWindowReference(self.window)


@dataclass(frozen=True)
class PolicyStable:
    """The greedy policy unchanged for ``episodes`` episodes (checked every ``check_every``)."""

    episodes: int = 100_000
    check_every: int = 10_000

    name = "policy-stable"

    def __post_init__(self) -> None:
        if self.check_every < 1 or self.episodes < self.check_every:
            raise NoughtsError("policy-stable needs 1 <= check_every <= episodes")

    def describe(self) -> str:
        return f"greedy policy unchanged for {self.episodes:,} episodes (checked every {self.check_every:,})"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "episodes": self.episodes, "check_every": self.check_every}


@dataclass(frozen=True)
class GradeTarget:
    """The oracle grade of the greedy policy at least ``target`` (checked every ``check_every``)."""

    target: float = 1.0
    check_every: int = 10_000

    name = "grade"

    def __post_init__(self) -> None:
        if not 0 < self.target <= 1:
            raise NoughtsError(f"the grade target is a share in (0, 1], not {self.target}")
        if self.check_every < 1:
            raise NoughtsError("grade needs check_every >= 1")

    def describe(self) -> str:
        return f"greedy moves optimal at {self.target:.1%} of reachable positions (checked every {self.check_every:,})"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "target": self.target, "check_every": self.check_every}


Criterion = RateWindow | PolicyStable | GradeTarget


def criterion_from_json(data: Any) -> Criterion:
    """A criterion from its ``to_json`` form (checkpoints, experiment configurations)."""
    if not isinstance(data, dict):
        raise NoughtsError("a stopping criterion is a JSON object")
    kinds: dict[str, type[Any]] = {
        "rate-window": RateWindow,
        "policy-stable": PolicyStable,
        "grade": GradeTarget,
    }
    cls = kinds.get(data.get("name"))  # type: ignore[arg-type]
    if cls is None:
        raise NoughtsError(f"unknown stopping criterion {data.get('name')!r}; known: {', '.join(kinds)}")
    fields = {k: v for k, v in data.items() if k != "name"}
    try:
        return cls(**fields)  # type: ignore[no-any-return]
    except TypeError as e:
        raise NoughtsError(f"bad stopping criterion {data!r}: {e}") from None


@dataclass
class RateWindowState:
    """The running state of :class:`RateWindow`, in arrays the TD kernel updates in place.

    ``counts``: first wins, draws, second wins, episodes. ``buf[0]``/``buf[1]``: the last ``W``
    win and draw rates (a ring). ``sums``: sum and sum of squares of ``rate - shift`` for the win
    rates, then for the draw rates. ``shift``: the two shifts.
    """

    counts: npt.NDArray[np.int64]
    buf: npt.NDArray[np.float64]
    sums: npt.NDArray[np.float64]
    shift: npt.NDArray[np.float64]

    @classmethod
    def empty(cls, window: int) -> RateWindowState:
        return cls(np.zeros(4, np.int64), np.zeros((2, window), np.float64), np.zeros(4), np.zeros(2))

    @property
    def window(self) -> int:
        return int(self.buf.shape[1])

    @property
    def episodes(self) -> int:
        return int(self.counts[3])

    def push(self, outcome: int, delta: float) -> bool:
        """Record one episode's outcome code (0 first won, 1 draw, 2 second won); whether the
        criterion now holds. The kernels' own function does the arithmetic
        (:func:`noughts.learn._td_kernels.rate_push`), so a Python loop and a kernel feeding
        one state agree to the bit.
        """
        from noughts.learn._td_kernels import rate_push

        return bool(rate_push(outcome, self.counts, self.buf, self.sums, self.shift, delta))

    def variances(self) -> tuple[float, float]:
        """The current window's sample variances of the win and draw rates (NaN before ``W``)."""
        w = self.window
        if self.episodes < w:
            return float("nan"), float("nan")
        s = self.sums
        return (
            float((s[1] - s[0] * s[0] / w) / (w - 1)),
            float((s[3] - s[2] * s[2] / w) / (w - 1)),
        )

    def arrays(self, prefix: str = "rate_") -> dict[str, npt.NDArray[Any]]:
        return {
            prefix + "counts": self.counts,
            prefix + "buf": self.buf,
            prefix + "sums": self.sums,
            prefix + "shift": self.shift,
        }

    @classmethod
    def from_arrays(
        cls, arrays: dict[str, npt.NDArray[Any]], window: int, prefix: str = "rate_"
    ) -> RateWindowState:
        try:
            state = cls(
                np.array(arrays[prefix + "counts"], dtype=np.int64),
                np.array(arrays[prefix + "buf"], dtype=np.float64),
                np.array(arrays[prefix + "sums"], dtype=np.float64),
                np.array(arrays[prefix + "shift"], dtype=np.float64),
            )
        except KeyError as e:
            raise NoughtsError(f"checkpoint lacks the convergence state {e.args[0]!r}") from None
        if state.counts.shape != (4,) or state.buf.shape != (2, window) or state.sums.shape != (4,):
            raise NoughtsError("checkpoint's convergence state has the wrong shape")
        return state


class RateWindowReference:
    """000 §4.2's test as it is written, the reference of :class:`RateWindowState`: the raw
    outcomes are kept, and after each episode ``n >= W`` the sample variances (``ddof=1``) of
    the last ``W`` running first-win rates ``wins(i)/i`` and draw rates ``draws(i)/i`` are
    computed afresh from them. ``O(W)`` per episode: for the tests and the reference loops.
    """

    def __init__(self, window: int):
        self.window = window
        self.outcomes: list[int] = []
        self.wins = 0
        self.draws = 0
        self.win_rates: list[float] = []
        self.draw_rates: list[float] = []

    @property
    def episodes(self) -> int:
        return len(self.outcomes)

    def push(self, outcome: int, delta: float) -> bool:
        """Record one episode's outcome code; whether the criterion now holds."""
        self.outcomes.append(outcome)
        self.wins += outcome == FIRST_WIN
        self.draws += outcome == DRAW
        n = len(self.outcomes)
        self.win_rates.append(self.wins / n)
        self.draw_rates.append(self.draws / n)
        v1, vd = self.variances()
        return bool(n >= self.window and v1 < delta and vd < delta)

    def variances(self) -> tuple[float, float]:
        """The sample variances of the last ``W`` running win and draw rates (NaN before ``W``)."""
        if len(self.outcomes) < self.window:
            return float("nan"), float("nan")
        w = self.window
        return float(np.var(self.win_rates[-w:], ddof=1)), float(np.var(self.draw_rates[-w:], ddof=1))


def window_variances(
    outcomes: npt.NDArray[np.integer[Any]], window: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Plain two-pass reference: for each episode ``n >= window`` (1-based), the sample variances
    of the last ``window`` running win and draw rates. Index ``n - window`` of each result.
    """
    outcomes = np.asarray(outcomes)
    n = np.arange(1, outcomes.shape[0] + 1)
    p1 = np.cumsum(outcomes == FIRST_WIN) / n
    pd = np.cumsum(outcomes == DRAW) / n
    v1 = np.lib.stride_tricks.sliding_window_view(p1, window).var(axis=1, ddof=1)
    vd = np.lib.stride_tricks.sliding_window_view(pd, window).var(axis=1, ddof=1)
    return v1, vd


def null_convergence(
    p_first: float,
    p_draw: float,
    criterion: RateWindow,
    seed: int,
    max_episodes: int = 1_000_000,
) -> int | None:
    """The episode at which ``criterion`` declares convergence for outcomes drawn independently
    at fixed rates (first win ``p_first``, draw ``p_draw``) — no learning at all — or None.
    This is the null baseline of the ``cumulative-td`` experiment.
    """
    if not (p_first >= 0 and p_draw >= 0 and p_first + p_draw <= 1):
        raise NoughtsError("null_convergence needs rates p_first, p_draw >= 0 with sum <= 1")
    from noughts.learn._td_kernels import null_run

    state = criterion.new_state()
    done, converged = null_run(
        p_first,
        p_draw,
        np.array([seed & (2**64 - 1)], dtype=np.uint64),
        max_episodes,
        state.counts,
        state.buf,
        state.sums,
        state.shift,
        criterion.delta,
    )
    return int(done) if converged else None


def _null_reference(
    p_first: float, p_draw: float, criterion: RateWindow, seed: int, max_episodes: int
) -> int | None:
    """Reference of :func:`null_convergence` in Python (tests hold the kernel to it)."""
    rng = SplitMix64(seed)
    state = criterion.new_reference()
    for n in range(1, max_episodes + 1):
        u = rng.uniform()
        outcome = FIRST_WIN if u < p_first else DRAW if u < p_first + p_draw else SECOND_WIN
        if state.push(outcome, criterion.delta):
            return n
    return None


def null_variances(
    p_first: float, p_draw: float, window: int, seed: int, checkpoints: list[int]
) -> list[tuple[float, float]]:
    """The window variances of the running first-win and draw rates at each episode count in
    ``checkpoints`` (increasing) for outcomes drawn at fixed rates, no learning: the same stream
    as :func:`null_convergence` with the same ``seed``, followed past the point where its test
    fires (for plotting the null baseline beside a learning run). NaN before ``window``.
    """
    if not (p_first >= 0 and p_draw >= 0 and p_first + p_draw <= 1):
        raise NoughtsError("null_variances needs rates p_first, p_draw >= 0 with sum <= 1")
    from noughts.learn._td_kernels import null_run

    state = RateWindowState.empty(window)
    st = np.array([seed & (2**64 - 1)], dtype=np.uint64)
    out: list[tuple[float, float]] = []
    done = 0
    for n in checkpoints:
        if n < done:
            raise NoughtsError("null_variances needs increasing checkpoints")
        if n > done:  # a negative threshold never holds, so the kernel plays every episode asked
            null_run(p_first, p_draw, st, n - done, state.counts, state.buf, state.sums, state.shift, -1.0)
            done = n
        out.append(state.variances())
    return out
