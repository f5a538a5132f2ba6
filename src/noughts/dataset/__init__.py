"""The solver-labelled benchmark: positions of the whole family with the exact value of every move.

``build`` draws positions from varied play on each game of the plan
(:mod:`noughts.dataset.plan`), labels every legal move through the exact solver
(:mod:`noughts.dataset.build`) and writes them as Parquet with a JSON card
(:mod:`noughts.dataset.files`); ``load`` reads one back and checks it; ``grade_dataset``
scores any agent on it (:mod:`noughts.dataset.grade`). Parquet needs the ``dataset`` extra
(pyarrow).

>>> import tempfile, pathlib
>>> from noughts.dataset import build, load, grade_dataset
>>> from noughts.agents import make_agent
>>> out = pathlib.Path(tempfile.mkdtemp()) / "ttt.parquet"
>>> card = build(out, games=["mnk(3,3,3)"], seed=0)
>>> card["games"]["mnk(3,3,3)"]["positions"]     # every non-terminal position up to symmetry
627
>>> data = load(out)
>>> grade_dataset(make_agent("perfect"), "perfect", data).rate
1.0
"""

from __future__ import annotations

import platform
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from noughts.core import NoughtsError
from noughts.core import game as make_game
from noughts.core.budget import Budget
from noughts.dataset.build import GameBuild, Row, build_game
from noughts.dataset.files import FORMAT, SCHEMA, VERSION, Dataset, DatasetError, load, write
from noughts.dataset.grade import DatasetGrade, GameGrade, grade_dataset
from noughts.dataset.plan import PLANS, Plan, plan_for

__all__ = [
    "PLANS",
    "Dataset",
    "DatasetError",
    "DatasetGrade",
    "GameGrade",
    "Plan",
    "Row",
    "build",
    "choose_games",
    "grade_dataset",
    "load",
]


def choose_games(names: list[str] | None) -> list[Plan]:
    """The plans of the games named (any spec of them: ``tictactoe`` is ``mnk(3,3,3)``), in
    the plan's order; all of them for None. ``NoughtsError`` for a game the plan lacks.
    """
    if not names:
        return list(PLANS)
    wanted = set()
    for name in names:
        spec = str(make_game(name.strip()))
        if plan_for(spec) is None:
            raise NoughtsError(
                f"the dataset has no plan for {spec}; its games: {', '.join(p.spec for p in PLANS)}"
            )
        wanted.add(spec)
    return [p for p in PLANS if p.spec in wanted]


def _commit() -> str | None:
    here = Path(__file__).resolve().parent
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    text = done.stdout.strip()
    return text if done.returncode == 0 and len(text) == 40 else None


def build(
    out: Path | str,
    *,
    games: list[str] | None = None,
    seed: int = 0,
    scale: float = 1.0,
    max_seconds: float | None = 1800.0,
    command: str | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Build the dataset of ``games`` (default: every plan) into ``out`` (Parquet) and its card
    (``out`` with ``.json``); returns the card. ``scale`` multiplies every plan's target;
    ``max_seconds`` bounds the whole build (past it, what was labelled is written and the card
    says ``complete: false``); ``progress(game, done, target)``.
    """
    if not 0 < scale <= 100:
        raise NoughtsError(f"--scale is a factor in (0, 100], not {scale}")
    out = Path(out)
    plans = [p.scaled(scale) for p in choose_games(games)]
    started = time.perf_counter()
    budget = Budget(max_seconds=max_seconds, max_memory=None)
    built: list[GameBuild] = []
    for plan in plans:
        index = next(i for i, p in enumerate(PLANS) if p.spec == plan.spec)
        report = (
            None
            if progress is None
            else (lambda done, spec=plan.spec, t=plan.target: progress(spec, done, t))
        )
        built.append(build_game(plan, seed, index, budget, report))
    rows: list[Row] = [r for b in built for r in b.rows]
    card: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "description": (
            "Positions of tic-tac-toe-family games with the exact value of every legal move, "
            "labelled by noughts' solver; deduplicated by symmetry"
        ),
        "command": command or f"noughts dataset build --out {out} --seed {seed} --scale {scale}",
        "seed": seed,
        "scale": scale,
        "noughts_version": _version(),
        "commit": _commit(),
        "python": platform.python_version(),
        "pyarrow": _pyarrow_version(),
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seconds": round(time.perf_counter() - started, 1),
        "complete": all(b.complete for b in built),
        "columns": SCHEMA,
        "games": {b.plan.spec: b.summary() for b in built},
    }
    return write(rows, out, card)


def _version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("noughts")
    except PackageNotFoundError:
        return None


def _pyarrow_version() -> str | None:
    module = sys.modules.get("pyarrow")
    return None if module is None else str(module.__version__)
