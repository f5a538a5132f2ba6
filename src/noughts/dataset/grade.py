"""Grading any agent on the benchmark: how often its move keeps the exact value.

For each position of the dataset (or a seeded sample of each game's positions) the agent is
asked for its move; the move is **optimal** when its labelled value for the mover equals the
position's value (it wins a won position, draws a drawn one; in a lost position every move
is), a **blunder** otherwise (won thrown to a draw or a loss, drawn thrown to a loss). The
rates come per game and overall (over all graded positions, and the mean of the games' rates,
so a large game does not drown the small ones), with a 95% Wilson interval for each rate.

Most positions of varied play are easy: every legal move keeps the value (a lost position, a
won one where nothing throws the win away). A position is **critical** when some legal move
changes its value; the **critical rate** (the optimal-move rate on the critical positions
graded) is reported beside the overall one, and ``critical=True`` grades only those (the
sample, if any, drawn among them).

An agent that cannot play a game of the set (a checkpoint made for another board) is graded
on the games it plays; the others are listed with its reason.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from noughts.core import NoughtsError
from noughts.core import game as make_game
from noughts.core.budget import Budget
from noughts.dataset.files import Dataset

__all__ = ["DatasetGrade", "GameGrade", "grade_dataset", "is_critical", "wilson"]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate ``k/n`` (95% by default).

    >>> [round(x, 3) for x in wilson(90, 100)]
    [0.826, 0.945]
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class GameGrade:
    """One game's grade."""

    game: str
    positions: int = 0
    optimal: int = 0
    won_thrown: int = 0
    drawn_lost: int = 0
    critical: int = 0  # positions graded where some legal move changes the value
    critical_optimal: int = 0  # ... and the agent's move kept it
    skipped: str | None = None

    @property
    def blunders(self) -> int:
        """Moves that change the value (every move that is not optimal)."""
        return self.positions - self.optimal

    @property
    def rate(self) -> float:
        """The optimal-move rate (0 where nothing was graded)."""
        return self.optimal / self.positions if self.positions else 0.0

    @property
    def critical_rate(self) -> float | None:
        """The optimal-move rate on the critical positions (None where none was graded)."""
        return self.critical_optimal / self.critical if self.critical else None

    def to_json(self) -> dict[str, Any]:
        low, high = wilson(self.optimal, self.positions)
        return {
            "game": self.game,
            "positions": self.positions,
            "optimal": self.optimal,
            "optimal_move_rate": round(self.rate, 6),
            "interval95": [round(low, 6), round(high, 6)],
            "blunders": self.blunders,
            "won_thrown": self.won_thrown,
            "drawn_lost": self.drawn_lost,
            **_critical_json(self.critical, self.critical_optimal),
            "skipped": self.skipped,
        }


def _critical_json(critical: int, optimal: int) -> dict[str, Any]:
    low, high = wilson(optimal, critical)
    return {
        "critical": critical,
        "critical_optimal": optimal,
        "critical_rate": round(optimal / critical, 6) if critical else None,
        "critical_interval95": [round(low, 6), round(high, 6)] if critical else None,
    }


@dataclass
class DatasetGrade:
    """An agent's grade on a dataset: per game and overall."""

    agent: str
    data: str
    sha256: str
    games: list[GameGrade] = field(default_factory=list)
    seconds: float = 0.0
    sample: int | None = None
    seed: int = 0
    critical_only: bool = False

    @property
    def positions(self) -> int:
        return sum(g.positions for g in self.games)

    @property
    def critical(self) -> int:
        return sum(g.critical for g in self.games)

    @property
    def critical_optimal(self) -> int:
        return sum(g.critical_optimal for g in self.games)

    @property
    def optimal(self) -> int:
        return sum(g.optimal for g in self.games)

    @property
    def rate(self) -> float:
        """The optimal-move rate over every graded position."""
        return self.optimal / self.positions if self.positions else 0.0

    @property
    def mean_rate(self) -> float:
        """The mean of the graded games' rates."""
        graded = [g.rate for g in self.games if g.positions]
        return sum(graded) / len(graded) if graded else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = wilson(self.optimal, self.positions)
        return {
            "agent": self.agent,
            "data": self.data,
            "sha256": self.sha256,
            "sample": self.sample,
            "seed": self.seed,
            "critical_only": self.critical_only,
            "positions": self.positions,
            "optimal": self.optimal,
            "optimal_move_rate": round(self.rate, 6),
            "interval95": [round(low, 6), round(high, 6)],
            "mean_game_rate": round(self.mean_rate, 6),
            "blunders": self.positions - self.optimal,
            **_critical_json(self.critical, self.critical_optimal),
            "games": [g.to_json() for g in self.games],
            "seconds": round(self.seconds, 2),
        }


def is_critical(value: int, move_values: list[int]) -> bool:
    """Whether some legal move changes the position's value (for the mover).

    >>> is_critical(0, [0, 0, -1]), is_critical(-1, [-1, -1]), is_critical(1, [1, 1])
    (True, False, False)
    """
    return any(v != value for v in move_values)


def grade_dataset(
    agent: Any,
    name: str,
    data: Dataset,
    *,
    games: list[str] | None = None,
    sample: int | None = None,
    seed: int = 0,
    max_seconds: float | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    critical: bool = False,
) -> DatasetGrade:
    """Grade ``agent`` (anything with ``choose(position, rng)``) named ``name`` on ``data``.

    ``games`` (canonical specs) picks games; ``sample`` grades at most that many positions of
    each game, drawn by ``seed``; ``seed`` also drives the agent's random choices.
    ``max_seconds`` bounds the work (``LimitExceeded``); ``progress(game, done, total)``.
    ``critical``: grade only the critical positions (where some legal move changes the value).
    """
    started = time.perf_counter()
    budget = Budget(max_seconds=max_seconds, max_memory=None)
    rng = np.random.default_rng(seed)
    chosen = data.games() if games is None else games
    unknown = [g for g in chosen if g not in data.games()]
    if unknown:
        raise NoughtsError(f"the dataset has no game {unknown[0]!r}; it has {', '.join(data.games())}")
    result = DatasetGrade(
        name, data.path.name, str(data.card["sha256"]), sample=sample, seed=seed, critical_only=critical
    )
    c = data.columns
    hard = [is_critical(v, mv) for v, mv in zip(c["value"], c["move_values"], strict=True)]
    by_game: dict[str, list[int]] = {g: [] for g in chosen}
    for i, g in enumerate(c["game"]):
        if g in by_game and (hard[i] or not critical):
            by_game[g].append(i)
    for spec in chosen:
        rows = by_game[spec]
        if sample is not None and len(rows) > sample:
            pick = np.random.default_rng([seed, len(rows)]).choice(len(rows), size=sample, replace=False)
            rows = [rows[j] for j in sorted(pick)]
        game = make_game(spec)
        grade = GameGrade(spec)
        result.games.append(grade)
        for done, i in enumerate(rows, 1):
            budget.check(progress=f"{result.positions:,} positions graded")
            position = game.parse(c["position"][i])
            try:
                move = agent.choose(position, rng)
            except NoughtsError as e:
                if grade.positions == 0:  # it cannot play this game: say so, grade the others
                    grade.skipped = str(e)
                    break
                raise
            text = game.format_move(move)
            moves = c["moves"][i]
            if text not in moves:
                raise NoughtsError(
                    f"agent {name!r} chose {text!r}, not a legal move of {c['position'][i]!r} ({spec})"
                )
            got, value = c["move_values"][i][moves.index(text)], c["value"][i]
            grade.positions += 1
            grade.critical += hard[i]
            if got == value:
                grade.optimal += 1
                grade.critical_optimal += hard[i]
            elif value == 1:
                grade.won_thrown += 1
            else:
                grade.drawn_lost += 1
            if progress is not None:
                progress(spec, done, len(rows))
    result.seconds = time.perf_counter() - started
    return result
