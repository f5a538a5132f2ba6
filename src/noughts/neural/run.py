"""A training run of a neural learner, graded against the exact solver while it learns.

:func:`train` runs :class:`~noughts.neural.az.AZTrainer` or
:class:`~noughts.neural.dqn.DQNTrainer` iteration by iteration, and every ``grade_every``
iterations grades the network with the oracle grade of :mod:`noughts.arena.grade` (every
reachable position of a small game, or a fixed sample of positions of random play on a big one;
games against the perfect player from both sides). The moves of the positions graded are asked
of the network in one batch, and the grade itself is the arena's, unchanged. Files, for
``--out runs/az.json``:

* ``runs/az.json`` (+ ``.npz``): the best checkpoint so far (the highest optimal-move rate, then
  the fewest losses to the perfect player, then the latest): checkpoint selection;
* ``runs/az.last.json`` (+ ``.npz``): the latest weights with the optimiser's state, what
  ``--resume`` continues from;
* ``runs/az.csv``: one row per grade (games, seconds, optimal-move rate, blunders, results
  against the perfect player, the random agent's rate on the same positions, losses);
* ``runs/az.png``: the learning curve, with the random agent's rate on the same axes.

The run stops after ``max_games`` self-play games in all (a resumed run's included) or once
``max_seconds`` of training have passed (then it grades and saves what it has).
"""

from __future__ import annotations

import csv
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from noughts.arena.grade import grade, reachable_positions, sample_positions
from noughts.core import Game, Move, NoughtsError, Position
from noughts.neural.agents import NeuralAgent
from noughts.neural.az import AZConfig, AZTrainer
from noughts.neural.checkpoint import Checkpoint, init_params, load_checkpoint, save_checkpoint
from noughts.neural.dqn import DQNConfig, DQNTrainer
from noughts.neural.model import Model
from noughts.neural.net import NetConfig

__all__ = ["GradeRow", "RunSettings", "TrainResult", "companion", "read_settings", "train"]

CONFIGS: dict[str, type[AZConfig] | type[DQNConfig]] = {"az": AZConfig, "dqn": DQNConfig}


@dataclass(frozen=True)
class RunSettings:
    """What the run does besides the learner's own settings (``--set`` keys too)."""

    width: int = 32
    blocks: int = 3
    grade_every: int = 10
    grade_sample: int = 0  # 0: every reachable position (small games); else a sample of this many
    grade_games: int = 20
    grade_sims: int = 0  # 0: grade the network's own moves; else the search of this many simulations


def read_settings(kind: str, options: dict[str, str]) -> tuple[RunSettings, AZConfig | DQNConfig]:
    """The run's and the learner's settings from ``--set KEY=VALUE`` texts; ``NoughtsError``
    naming an unknown key or an unreadable value.
    """
    cls = CONFIGS[kind]
    known: dict[str, tuple[str, type]] = {}
    for f in fields(RunSettings):
        known[f.name] = ("run", int)
    for f in fields(cls):
        known[f.name] = ("learner", float if f.type in ("float", float) else int)
    run: dict[str, Any] = {}
    learner: dict[str, Any] = {}
    for key, text in options.items():
        if key not in known:
            raise NoughtsError(f"unknown {kind} setting {key!r}; known: {', '.join(sorted(known))}")
        where, typ = known[key]
        try:
            value = typ(text)
        except ValueError:
            what = "a whole number" if typ is int else "a number"
            raise NoughtsError(f"{kind} setting {key} is {what}, not {text!r}") from None
        (run if where == "run" else learner)[key] = value
    settings = RunSettings(**run)
    for name in ("width", "blocks", "grade_every", "grade_games"):
        if not 1 <= getattr(settings, name) <= 100_000:
            raise NoughtsError(f"{kind} setting {name} is a whole number from 1 to 100,000")
    if settings.grade_sample < 0 or settings.grade_sims < 0 or settings.grade_sims == 1:
        raise NoughtsError(f"{kind} settings grade_sample is 0 or more, grade_sims 0 or at least 2")
    config = cls(**learner)
    config.check()
    return settings, config


@dataclass
class GradeRow:
    """One grade of the run (a row of the CSV)."""

    iteration: int
    games: int
    seconds: float
    optimal_move_rate: float
    positions: int
    blunders: int
    first_wins: int
    first_draws: int
    first_losses: int
    second_wins: int
    second_draws: int
    second_losses: int
    random_rate: float
    loss: float

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass
class TrainResult:
    """What :func:`train` did: the grades, the best one, where the files are, why it stopped."""

    kind: str
    game: str
    grades: list[GradeRow] = field(default_factory=list)
    best: GradeRow | None = None
    games: int = 0
    iterations: int = 0
    seconds: float = 0.0
    stopped: str = ""
    files: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "game": self.game,
            "games": self.games,
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
            "stopped": self.stopped,
            "best": None if self.best is None else self.best.to_json(),
            "grades": [g.to_json() for g in self.grades],
            "files": self.files,
        }


def companion(out: Path, suffix: str) -> Path:
    """``runs/az.json`` -> ``runs/az<suffix>`` (``.last.json``, ``.csv``, ``.png``)."""
    return out.with_name(out.stem + suffix)


class _Lookup:
    """An agent that answers the positions asked of the network in one batch, and asks the network
    itself for any other (the games against the perfect player may leave the sample).
    """

    def __init__(self, agent: NeuralAgent, answers: dict[Position, Move]):
        self.agent = agent
        self.answers = answers
        self.name = agent.name

    def choose(self, position: Position, rng: np.random.Generator) -> Move:
        move = self.answers.get(position)
        return move if move is not None else self.agent.choose(position, rng)


class _Grader:
    """Grades checkpoints of one game on a fixed set of positions, with one exact engine."""

    def __init__(self, game: Game, settings: RunSettings, seed: int):
        self.game = game
        self.settings = settings
        self.seed = seed
        from noughts.solving import PolicyOracle

        self.oracle = PolicyOracle(game)
        n = settings.grade_sample
        # the positions grade() itself lists (all reachable ones) or samples (same rng, same seed)
        self.positions = (
            sample_positions(game, n, np.random.default_rng(seed)) if n else reachable_positions(game)
        )
        self.random_rate = self._grade("random", games=0).optimal_move_rate

    def _grade(self, agent: Any, games: int) -> Any:
        n = self.settings.grade_sample or None
        return grade(agent, self.game, sample=n, games=games, seed=self.seed, oracle=self.oracle)

    def __call__(self, agent: NeuralAgent) -> Any:
        answers = dict(zip(self.positions, agent.moves(self.positions), strict=True))
        return self._grade(_Lookup(agent, answers), games=self.settings.grade_games)


def _plot(rows: list[GradeRow], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
    x = [r.games for r in rows]
    ax.plot(x, [r.optimal_move_rate for r in rows], marker="o", label="network")
    ax.axhline(rows[-1].random_rate, color="grey", linestyle="--", label="random agent")
    ax.set_xlabel("self-play games")
    ax.set_ylabel("optimal-move rate")
    ax.set_ylim(min(0.0, min(r.random_rate for r in rows)), 1.0)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    tmp = path.with_name(".tmp-" + path.name)
    fig.savefig(tmp, format="png")
    plt.close(fig)
    tmp.replace(path)


def _write_csv(rows: list[GradeRow], path: Path) -> None:
    names = [f.name for f in fields(GradeRow)]
    tmp = path.with_name(".tmp-" + path.name)
    with tmp.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(names)
        for r in rows:
            w.writerow([round(v, 6) if isinstance(v, float) else v for v in (getattr(r, n) for n in names)])
    tmp.replace(path)


def _read_csv(path: Path) -> list[GradeRow]:
    if not path.is_file():
        return []
    out = []
    with path.open(newline="") as f:
        for rec in csv.DictReader(f):
            try:
                values: dict[str, Any] = {
                    fl.name: (float if fl.type in ("float", float) else int)(rec[fl.name])
                    for fl in fields(GradeRow)
                }
                out.append(GradeRow(**values))
            except (KeyError, ValueError, TypeError):
                raise NoughtsError(f"cannot resume: {path.name} is not a grade file of this run") from None
    return out


def _score(row: GradeRow) -> tuple[float, int]:
    return (row.optimal_move_rate, -(row.first_losses + row.second_losses))


def _resumed(
    kind: str, game: Game, options: dict[str, str] | None, last: Path, csv_path: Path, max_games: int
) -> tuple[Any, Any, Model, Any, Any, list[GradeRow], int, int, float, int]:
    """A resumed run's state from its last checkpoint ``last`` and its grades in ``csv_path``:
    settings, config, model, params, optimiser state, grades, games, iterations, seconds, seed.
    """
    if options:
        raise NoughtsError("--resume continues with the saved run's settings; give no --set")
    if not last.is_file():
        raise NoughtsError(f"cannot resume: there is no {last.name} beside it (train without --resume first)")
    ckpt = load_checkpoint(last, kind)
    if ckpt.game != game:
        raise NoughtsError(f"{last.name} was trained on {ckpt.game}, not {game}")
    saved = ckpt.info
    try:
        settings, config = read_settings(kind, {k: str(v) for k, v in saved["settings"].items()})
        games, iterations, elapsed = int(saved["games"]), int(saved["iterations"]), float(saved["seconds"])
        seed = int(saved["seed"])
    except (KeyError, TypeError, ValueError):
        raise NoughtsError(f"cannot resume: {last.name} does not record its run's settings") from None
    if games >= max_games:
        raise NoughtsError(
            f"{last.name} has played {games:,} games and --max-episodes counts every game of the run: "
            f"ask for more (e.g. --max-episodes {games + 10_000})"
        )
    model = Model(game, ckpt.config)
    return (
        settings,
        config,
        model,
        ckpt.params,
        ckpt.opt_state,
        _read_csv(csv_path),
        games,
        iterations,
        elapsed,
        seed,
    )


def _fresh(
    kind: str, game: Game, options: dict[str, str] | None, seed: int, init: Path | None
) -> tuple[Any, Any, Model, Any]:
    """A new run's settings, config, model and first parameters (``init``'s where given)."""
    settings, config = read_settings(kind, dict(options or {}))
    net = NetConfig(settings.width, settings.blocks)
    model = Model(game, net)
    params = init_params(net, model.env, seed)
    if init is not None:
        start = load_checkpoint(init)
        if start.config != net:
            raise NoughtsError(
                f"{init.name} holds a network of width {start.config.width} and {start.config.blocks} blocks; "
                f"set width={start.config.width} blocks={start.config.blocks} to continue from it"
            )
        params = start.params
    return settings, config, model, params


def train(
    kind: str,
    game: Game,
    out: Path,
    *,
    options: dict[str, str] | None = None,
    seed: int = 0,
    max_games: int = 1_000_000,
    max_seconds: float | None = None,
    resume: bool = False,
    init: Path | None = None,
    on_grade: Callable[[GradeRow, dict[str, float]], None] | None = None,
) -> TrainResult:
    """Train a ``kind`` (``az`` or ``dqn``) learner on ``game``; see the module docstring.

    ``options``: ``--set`` texts (:func:`read_settings`). ``resume``: continue the run saved in
    ``out`` (its settings; ``options`` may not change them). ``init``: start from another
    checkpoint's weights (any board: the network fits every board). ``on_grade(row, seen)`` is
    called at every grade.
    """
    if kind not in CONFIGS:
        raise NoughtsError(f"unknown neural learner {kind!r}; known: {', '.join(CONFIGS)}")
    last = companion(out, ".last.json")
    csv_path, png_path = companion(out, ".csv"), companion(out, ".png")
    rows: list[GradeRow] = []
    games = iterations = 0
    elapsed = 0.0
    opt_state = None
    if resume:
        settings, config, model, params, opt_state, rows, games, iterations, elapsed, seed = _resumed(
            kind, game, options, last, csv_path, max_games
        )
    else:
        settings, config, model, params = _fresh(kind, game, options, seed, init)
    trainer: AZTrainer | DQNTrainer
    if kind == "az":
        assert isinstance(config, AZConfig)
        trainer = AZTrainer(model, config, params, seed + iterations, opt_state)
    else:
        assert isinstance(config, DQNConfig)
        trainer = DQNTrainer(model, config, params, seed + iterations, opt_state)
        trainer.games_played = games
    ckpt_config = model.config
    grader = _Grader(game, settings, seed)
    best = max(rows, key=_score) if rows else None
    result = TrainResult(kind, str(game), grades=rows, best=best, files={
        "best": str(out), "last": str(last), "csv": str(csv_path), "png": str(png_path)})  # fmt: skip
    agent = NeuralAgent(Checkpoint(kind, game, ckpt_config, trainer.params), settings.grade_sims)
    started = time.perf_counter()

    def info(row: GradeRow | None) -> dict[str, Any]:
        return {
            "games": games,
            "iterations": iterations,
            "seconds": round(elapsed + time.perf_counter() - started, 3),
            "seed": seed,
            "settings": {**{f.name: getattr(settings, f.name) for f in fields(settings)}, **config.to_json()},
            "grade": None if row is None else row.to_json(),
        }

    def grade_now(seen: dict[str, float]) -> None:
        nonlocal best
        agent.set_params(trainer.params)
        g = grader(agent)
        row = GradeRow(
            iteration=iterations,
            games=games,
            seconds=round(elapsed + time.perf_counter() - started, 3),
            optimal_move_rate=g.optimal_move_rate,
            positions=g.positions,
            blunders=g.positions - g.optimal,
            first_wins=g.as_first.wins,
            first_draws=g.as_first.draws,
            first_losses=g.as_first.losses,
            second_wins=g.as_second.wins,
            second_draws=g.as_second.draws,
            second_losses=g.as_second.losses,
            random_rate=grader.random_rate,
            loss=float(seen.get("policy_loss", 0.0) + seen.get("value_loss", 0.0) + seen.get("loss", 0.0)),
        )
        rows.append(row)
        if best is None or _score(row) >= _score(best):
            best = row
            save_checkpoint(Checkpoint(kind, game, ckpt_config, trainer.params, info(row)), out)
        _write_csv(rows, csv_path)
        _plot(rows, png_path, f"{kind} on {game}")
        if on_grade is not None:
            on_grade(row, seen)

    seen: dict[str, float] = {}
    stopped = "games"
    graded_at = iterations if rows else -1
    while games < max_games:
        if max_seconds is not None and time.perf_counter() - started >= max_seconds:
            stopped = "time"
            break
        seen = trainer.iterate()
        iterations += 1
        games += int(seen["games"])
        if iterations % settings.grade_every == 0:
            grade_now(seen)
            graded_at = iterations
        save_checkpoint(
            Checkpoint(kind, game, ckpt_config, trainer.params, info(None), trainer.packed_state()), last
        )
    if graded_at != iterations:
        grade_now(seen)
    save_checkpoint(
        Checkpoint(
            kind, game, ckpt_config, trainer.params, info(rows[-1] if rows else None), trainer.packed_state()
        ),
        last,
    )
    result.best = best
    result.games = games
    result.iterations = iterations
    result.seconds = elapsed + time.perf_counter() - started
    result.stopped = stopped
    return result
