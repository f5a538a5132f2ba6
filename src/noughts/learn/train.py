"""The training loop every self-play learner runs in: chunks, criteria, progress, checkpoints.

A **learner** (the :class:`Learner` protocol) knows how to play episodes and learn from them;
this loop decides when to stop, reports its progress with live rates to a callback, writes checkpoints,
and reports a :class:`TrainResult`. The contract, for TD here and for the other learners:

* ``kind``: the saved-agent kind of the agent it trains (``noughts.agents.<kind>``);
* ``game``; ``episodes``: episodes played so far (restored on resume);
* ``play(n, rate, delta, stop_on_rate) -> (played, fired)``: play up to ``n`` episodes, passing
  each outcome code (0 first wins, 1 draw, 2 second wins) to ``rate.push(code, delta)`` (or the
  same arithmetic in a kernel) and stopping at once if ``stop_on_rate`` and it returns True;
  ``play(0, ...)`` plays nothing (the loop calls it first, to load compiled kernels before the
  clock starts);
* ``agent()``: the frozen greedy agent now (with ``to_saved()``);
* ``checkpoint() -> (meta, arrays)`` and a class method ``from_checkpoint(game, meta, arrays)``
  that rebuilds the learner exactly (random stream included), so that a run resumed from a
  checkpoint repeats the uninterrupted run bit for bit;
* optionally ``policy_signature() -> array`` (for :class:`PolicyStable`) and
  ``policy_grade() -> float`` (a fast oracle grade for :class:`GradeTarget`; without it the
  loop grades ``agent()`` with :func:`noughts.arena.grade.grade`).

Learners are registered by kind in :data:`LEARNERS` (``"module:Class"``), so a checkpoint names
the class that resumes it.

A checkpoint is a saved agent (:mod:`noughts.agents.saved`) whose metadata carries the training
state under ``training`` and whose arrays carry the learner's arrays and the convergence state
(``state_*``): the file ``--out`` writes can be played, graded, and trained further.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from noughts.core import Game, NoughtsError
from noughts.core.interrupt import Interrupt, deferred_interrupt
from noughts.learn.convergence import (
    Criterion,
    GradeTarget,
    PolicyStable,
    RateWindow,
    RateWindowState,
    criterion_from_json,
)

__all__ = [
    "LEARNERS",
    "Learner",
    "TrainResult",
    "learner_class",
    "oracle_grade",
    "resume",
    "save_checkpoint",
    "train",
]

LEARNERS: dict[str, str] = {
    "td": "noughts.learn.td:TDLearner",
    "qlearning": "noughts.learn.qlearning:QLearner",
    "linear": "noughts.learn.linear:LinearLearner",
}
"""Learner classes by the agent kind they train (checkpoints name the kind; ``noughts train``
takes these names). A learner that follows the contract above, with a class method
``from_options(game, **options)`` for the command line, is added here."""

DEFAULT_RATE = RateWindow()
"""Training always tracks 000 §4.2's window statistics (reported); it stops on them only when
that is the criterion."""


class Learner(Protocol):
    """What :func:`train` drives; see the module docstring."""

    kind: str
    game: Game
    episodes: int

    def play(
        self, episodes: int, rate: RateWindowState, delta: float, stop_on_rate: bool
    ) -> tuple[int, bool]: ...

    def agent(self) -> Any: ...

    def checkpoint(self) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]: ...


def learner_class(kind: str) -> Any:
    """The learner class registered for ``kind``."""
    target = LEARNERS.get(kind)
    if target is None:
        raise NoughtsError(f"no learner trains agents of kind {kind!r}; known: {', '.join(LEARNERS)}")
    module, _, name = target.partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        raise NoughtsError(f"the {kind} learner ({target}) is not available in this noughts") from None


@dataclass
class TrainResult:
    """How a training run went. ``to_json`` is what ``noughts train --json`` prints."""

    game: str
    learner: str
    episodes: int  # in total, including any before a resume
    episodes_this_run: int
    seconds: float
    converged: bool
    criterion: dict[str, Any]
    stopped: str  # "converged", "max-episodes", "max-seconds" or "interrupted" (Ctrl-C)
    outcomes: dict[str, int]  # over all training episodes (exploration included)
    rate_variances: tuple[float, float]
    grade: float | None = None
    checks: list[dict[str, Any]] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    out: str | None = None

    @property
    def episodes_per_second(self) -> float:
        return self.episodes_this_run / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        v1, vd = self.rate_variances
        return {
            "game": self.game,
            "learner": self.learner,
            "config": self.config,
            "episodes": self.episodes,
            "episodes_this_run": self.episodes_this_run,
            "seconds": round(self.seconds, 6),
            "episodes_per_second": round(self.episodes_per_second, 1),
            "converged": self.converged,
            "criterion": self.criterion,
            "stopped": self.stopped,
            "outcomes": self.outcomes,
            "rate_variances": {"first_wins": _finite(v1), "draws": _finite(vd)},
            "grade": self.grade,
            "checks": self.checks,
            "out": self.out,
        }


def _finite(x: float) -> float | None:
    return None if not np.isfinite(x) else float(x)


Progress = Callable[[int, int, str], None]
"""Training's progress callback: ``(episodes, max_episodes, rates)``, told after every chunk, the
rates text being episodes per second and the running first-win, draw and second-win rates (the
command line draws it: :func:`noughts.cli.progress.rates_bar`)."""


CHUNK_SECONDS = 0.25
"""About how long one chunk of episodes plays when no check fixes the chunks (Ctrl-C is taken
between chunks)."""


def train(
    learner: Any,
    *,
    criterion: Criterion | None = None,
    max_episodes: int = 1_000_000,
    max_seconds: float | None = None,
    rate: RateWindowState | None = None,
    chunk: int | None = None,
    progress: Progress | None = None,
    checkpoint: str | Path | None = None,
    checkpoint_seconds: float = 60.0,
    on_chunk: Callable[[int], None] | None = None,
    interruptible: bool = False,
) -> TrainResult:
    """Train ``learner`` until ``criterion`` holds or ``max_episodes`` (counted over the whole
    run, resumes included) or ``max_seconds`` (this call) runs out.

    ``criterion`` None trains for ``max_episodes``. ``rate``: the 000 §4.2 state to continue
    (from :func:`resume`). ``checkpoint``: a ``.json`` path written every ``checkpoint_seconds``
    and at the end. ``progress`` (:data:`Progress`) is told the episodes and the running rates.
    With ``interruptible`` (``noughts train``), Ctrl-C (SIGINT, in the main thread) stops the run
    after the chunk in play (about :data:`CHUNK_SECONDS` of play where no check fixes the chunks):
    ``stopped`` is ``"interrupted"`` and the checkpoint is saved, ready to resume. Without it (an
    experiment's runs), Ctrl-C raises ``KeyboardInterrupt`` as usual.
    """
    if max_episodes < 1:
        raise NoughtsError(f"max_episodes must be at least 1, not {max_episodes}")
    if max_seconds is not None and max_seconds <= 0:
        raise NoughtsError(f"max_seconds must be positive, not {max_seconds}")
    window = criterion if isinstance(criterion, RateWindow) else DEFAULT_RATE
    if rate is None:
        rate = window.new_state()
    elif rate.window != window.window and isinstance(criterion, RateWindow):  # else the window is only kept
        raise NoughtsError(f"the resumed convergence window has {rate.window} episodes, not {window.window}")
    stop_on_rate = isinstance(criterion, RateWindow)
    delta = window.delta
    if isinstance(criterion, PolicyStable) and not hasattr(learner, "policy_signature"):
        raise NoughtsError(f"the {learner.kind} learner cannot report its policy: use another criterion")
    every = None
    if isinstance(criterion, (PolicyStable, GradeTarget)):
        every = criterion.check_every
    if chunk is None:
        chunk = every if every is not None else 50_000
    start_episodes = int(learner.episodes)
    learner.play(0, rate, delta, False)  # load compiled kernels before the clock starts
    started = time.perf_counter()
    last_ckpt = started
    converged = False
    stopped = "max-episodes"
    checks: list[dict[str, Any]] = []
    signature: npt.NDArray[Any] | None = None
    stable_since = start_episodes
    grade_now: float | None = None
    if progress is not None:
        progress(start_episodes, max_episodes, "")
    # without checks to align with, chunks are sized to about CHUNK_SECONDS of play, so Ctrl-C
    # (taken between chunks: the kernels cannot be interrupted) stops the run within about a second
    size = chunk if every is not None else min(chunk, 1_000)
    guard = (
        deferred_interrupt() if interruptible else nullcontext(Interrupt())
    )  # Ctrl-C: stop after this chunk
    stop = guard.__enter__()
    try:
        while learner.episodes < max_episodes:
            n = min(size, max_episodes - learner.episodes)
            before = time.perf_counter()
            played, fired = learner.play(n, rate, delta, stop_on_rate)
            now = time.perf_counter()
            if every is None and played == n:
                per = (now - before) / max(played, 1)
                size = max(1, min(chunk, int(CHUNK_SECONDS / max(per, 1e-9))))
            if fired:
                converged, stopped = True, "converged"
            elif isinstance(criterion, PolicyStable):
                sig = learner.policy_signature()
                if signature is None or not np.array_equal(sig, signature):
                    signature, stable_since = sig, learner.episodes
                checks.append({"episode": learner.episodes, "unchanged_for": learner.episodes - stable_since})
                if learner.episodes - stable_since >= criterion.episodes:
                    converged, stopped = True, "converged"
            elif isinstance(criterion, GradeTarget):
                grade_now = _policy_grade(learner)
                checks.append({"episode": learner.episodes, "grade": grade_now})
                if grade_now >= criterion.target:
                    converged, stopped = True, "converged"
            if on_chunk is not None:
                on_chunk(learner.episodes)
            run = learner.episodes - start_episodes
            c = rate.counts
            total = max(int(c[3]), 1)
            if progress is not None:
                progress(
                    learner.episodes,
                    max_episodes,
                    f"{run / max(now - started, 1e-9):,.0f} ep/s  x {c[0] / total:.3f}  draw {c[1] / total:.3f}  o {c[2] / total:.3f}",
                )
            if converged:
                break
            if stop.requested:
                stopped = "interrupted"
                break
            if max_seconds is not None and now - started >= max_seconds:
                stopped = "max-seconds"
                break
            if checkpoint is not None and now - last_ckpt >= checkpoint_seconds:
                save_checkpoint(learner, rate, criterion, checkpoint)
                last_ckpt = now
    finally:
        guard.__exit__(None, None, None)
    seconds = time.perf_counter() - started
    c = rate.counts
    result = TrainResult(
        game=str(learner.game),
        learner=learner.kind,
        episodes=int(learner.episodes),
        episodes_this_run=int(learner.episodes) - start_episodes,
        seconds=seconds,
        converged=converged,
        criterion=(
            criterion.to_json() if criterion is not None else {"name": "episodes", "episodes": max_episodes}
        ),
        stopped=stopped,
        outcomes={"first_wins": int(c[0]), "draws": int(c[1]), "second_wins": int(c[2])},
        rate_variances=rate.variances(),
        grade=grade_now,
        checks=checks,
        config=_config_of(learner),
    )
    if checkpoint is not None:
        save_checkpoint(learner, rate, criterion, checkpoint, result)
        result.out = str(checkpoint)
    return result


def _config_of(learner: Any) -> dict[str, Any]:
    config = getattr(learner, "config", None)
    to_json = getattr(config, "to_json", None)
    return dict(to_json()) if to_json is not None else {}


def _policy_grade(learner: Any) -> float:
    return oracle_grade(learner)


def oracle_grade(
    learner: Any,
    *,
    oracle: Any = None,
    sample: int | None = None,
    max_seconds: float | None = None,
) -> float:
    """The oracle grade of ``learner``'s greedy policy: its own fast ``policy_grade()`` where it
    has one (every reachable position), else :func:`noughts.arena.grade.grade` of its agent
    (``sample`` positions, all by default; ``oracle``: an exact engine of the game to reuse;
    ``max_seconds`` bounds the work with ``LimitExceeded``). Every learner can be graded this
    way, so a run can chart the grade on a schedule of episodes whatever the learner.
    """
    fast = getattr(learner, "policy_grade", None)
    if fast is not None:
        return float(fast())
    from noughts.arena.grade import grade

    report = grade(
        learner.agent(), learner.game, games=0, seed=0, sample=sample, oracle=oracle, max_seconds=max_seconds
    )
    return float(report.optimal_move_rate)


def save_checkpoint(
    learner: Any,
    rate: RateWindowState,
    criterion: Criterion | None,
    path: str | Path,
    result: TrainResult | None = None,
) -> Path:
    """Save the learner's agent with everything needed to resume (see the module docstring)."""
    from noughts.agents.saved import save_parts

    agent = learner.agent()
    meta, arrays = agent.to_saved()
    learner_meta, learner_arrays = learner.checkpoint()
    training = dict(meta.get("training") or {})
    training.update(
        {
            "learner": learner.kind,
            "state": learner_meta,
            "criterion": criterion.to_json() if criterion is not None else None,
            "episodes": int(learner.episodes),
            "outcomes": {
                "first_wins": int(rate.counts[0]),
                "draws": int(rate.counts[1]),
                "second_wins": int(rate.counts[2]),
            },
            "window": rate.window,
        }
    )
    if result is not None:
        training["result"] = {k: v for k, v in result.to_json().items() if k not in ("checks", "out")}
    meta = {**meta, "training": training}
    arrays = dict(arrays)
    arrays.update({f"state_learner_{k}": v for k, v in learner_arrays.items()})
    arrays.update({f"state_{k}": v for k, v in rate.arrays().items()})
    return save_parts(meta, arrays, path)


def resume(path: str | Path) -> tuple[Any, RateWindowState, Criterion | None]:
    """The learner, convergence state and criterion saved in a checkpoint, ready for :func:`train`."""
    from noughts.agents.saved import load_saved
    from noughts.core import game as make_game

    meta, arrays = load_saved(path)
    training = meta.get("training")
    if not isinstance(training, dict) or "state" not in training or "learner" not in training:
        raise NoughtsError(f"{path} is a saved agent without training state: it cannot be resumed")
    kind = training["learner"]
    if not isinstance(kind, str):
        raise NoughtsError(f"{path}: 'training.learner' is not a string")
    cls = learner_class(kind)
    game = make_game(meta["game"])
    prefix = "state_learner_"
    learner_arrays = {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}
    learner = cls.from_checkpoint(game, training["state"], learner_arrays)
    window = training.get("window")
    if not isinstance(window, int) or window < 2:
        raise NoughtsError(f"{path}: 'training.window' is not a window length")
    rate = RateWindowState.from_arrays(
        {k[len("state_") :]: v for k, v in arrays.items() if k.startswith("state_rate_")}, window
    )
    if int(rate.counts[3]) != int(learner.episodes) or int(rate.counts[:3].sum()) != int(rate.counts[3]):
        raise NoughtsError(f"{path}: the convergence state does not match the episodes played")
    criterion = None if training.get("criterion") is None else criterion_from_json(training["criterion"])
    return learner, rate, criterion
