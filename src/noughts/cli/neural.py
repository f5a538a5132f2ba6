"""``noughts train az SPEC`` and ``noughts train dqn SPEC``: a few lines over :mod:`noughts.neural.run`.

``noughts train`` (in :mod:`noughts.cli.learn`) hands these two learners here; they share its
options where they mean the same (``--out``, ``--seed``, ``--set``, ``--max-episodes`` counted in
self-play games, ``--max-seconds``, ``--resume``, ``--json``; ``--db``, ``--no-record`` and
``--name``: the run and its best checkpoint recorded in the store) and refuse the tabular learners'
own (``--epsilon``, ``--alpha``, ``--criterion``: set ``epsilon`` with ``--set`` for dqn).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from noughts.core import NoughtsError

__all__ = ["NEURAL_LEARNERS", "train_neural"]

NEURAL_LEARNERS = ("az", "dqn")


def train_neural(
    learner: str,
    spec: str,
    out: Path,
    *,
    seed: int,
    options: dict[str, str],
    max_episodes: int,
    max_seconds: float | None,
    resume: bool,
    as_json: bool,
    refused: dict[str, Any],
    store: Any = None,
    name: str | None = None,
) -> None:
    """Run the neural learner ``learner`` (see the module docstring) and print its grades."""
    given = [name for name, value in refused.items() if value is not None]
    if given:
        raise NoughtsError(
            f"the {learner} learner takes no {', '.join(given)}: its settings go with --set KEY=VALUE "
            "(noughts train az --help lists the options; see the docs for the keys)"
        )
    import noughts

    game = noughts.game(spec)
    init = options.pop("init", None)
    init_path = None
    if init is not None:
        init_path = Path(init)
        if resume:
            raise NoughtsError("--resume continues the run's own weights; give no init")
    from noughts.neural.env import supports

    if not supports(game):
        raise NoughtsError(
            f"the neural learners play standard, misère and Maker-Breaker claim games and Notakto; not {game}"
        )
    from rich.console import Console

    from noughts.neural.run import train

    console = Console(highlight=False, stderr=as_json)

    def show(row: Any, seen: dict[str, float]) -> None:
        if as_json:
            return
        console.print(
            f"[bold]{row.games:>8,}[/bold] games {row.seconds:8.1f} s  optimal-move rate "
            f"[bold]{row.optimal_move_rate:.4f}[/bold] ({row.blunders:,} blunders in {row.positions:,}; "
            f"random {row.random_rate:.4f})  vs perfect as first W/D/L {row.first_wins}/{row.first_draws}/"
            f"{row.first_losses}, as second {row.second_wins}/{row.second_draws}/{row.second_losses}  "
            f"loss {row.loss:.3f}"
        )

    if not as_json:
        console.print(f"training {learner} on {game}{' (resumed)' if resume else ''}; grades as it learns:")
    run_id = (
        None
        if store is None
        else store.new_run(f"train {learner}", {"game": str(game), "learner": learner}, out.resolve())
    )
    try:
        result = train(
            learner, game, out, options=options, seed=seed, max_games=max_episodes, max_seconds=max_seconds,
            resume=resume, init=init_path, on_grade=show,
        )  # fmt: skip
    except BaseException:
        if store is not None and run_id is not None:
            store.set_run_status(run_id, "failed")
        raise
    if store is not None and run_id is not None:  # the best checkpoint, as saved:NAME (the web arena's list)
        store.set_run_status(run_id, "finished" if result.stopped == "games" else "stopped")
        best_rate = None if result.best is None else result.best.optimal_move_rate
        store.register_agent(
            name or str(out), learner, path=out.resolve(), spec=result.game,
            metadata={"games": result.games, "optimal_move_rate": best_rate}, replace=True,
        )  # fmt: skip
    if as_json:
        typer.echo(json.dumps(result.to_json()))
        return
    best = result.best
    console.print(
        f"stopped ({'time' if result.stopped == 'time' else 'games'}) after {result.games:,} games, "
        f"{result.iterations:,} iterations, {result.seconds:.1f} s"
    )
    if best is not None:
        console.print(
            f"best: optimal-move rate {best.optimal_move_rate:.4f} at {best.games:,} games, saved as {out} "
            f"(play it: az:{out}); last: {result.files['last']}; curve: {result.files['png']}, {result.files['csv']}"
            if learner == "az"
            else f"best: optimal-move rate {best.optimal_move_rate:.4f} at {best.games:,} games, saved as {out} "
            f"(play it: dqn:{out}); curve: {result.files['png']}, {result.files['csv']}"
        )
