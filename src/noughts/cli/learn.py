"""``noughts train`` and ``noughts experiment``: a few lines each over :mod:`noughts.learn`."""

from __future__ import annotations

import json
import math
import shlex
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from noughts.cli import plural
from noughts.cli.paths import check_folder, check_writable
from noughts.cli.stores import DbOpt
from noughts.core import NoughtsError

if TYPE_CHECKING:
    from noughts.learn.train import TrainResult

__all__ = ["register"]

CRITERIA = ("rate-window", "policy-stable", "grade", "none")
FRESH_EPISODES = 1_000_000
"""A new run's cap on episodes when none is given."""
RESUME_EPISODES = 100_000
"""The further episodes a resumed run trains when --episodes is not given."""


def _converged(path: Path) -> bool:
    """Whether the run saved at ``path`` had stopped because its criterion held."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return bool(doc["training"]["result"]["converged"])
    except (OSError, ValueError, KeyError, TypeError):
        return False


NoRecordOpt = Annotated[bool, typer.Option("--no-record", help="Do not record the run in the store.")]


def _store(db: Path | None, no_record: bool) -> Any:
    if no_record:
        return None
    from noughts.store import Store

    return Store(db)


def _options(items: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise NoughtsError(f"cannot read option {item!r}: write key=value")
        out[key.strip()] = value.strip()
    return out


def _criterion(name: str, window: int, delta: float, stable_for: int, target: float, check_every: int) -> Any:
    from noughts.learn.convergence import GradeTarget, PolicyStable, RateWindow

    if name == "rate-window":
        return RateWindow(window, delta)
    if name == "policy-stable":
        return PolicyStable(stable_for, check_every)
    if name == "grade":
        return GradeTarget(target, check_every)
    if name == "none":
        return None
    raise NoughtsError(f"unknown criterion {name!r}; known: {', '.join(CRITERIA)}")


def train(
    learner: Annotated[
        str,
        typer.Argument(
            metavar="LEARNER",
            help="The learner: td, qlearning, linear, or az (AlphaZero) or dqn (the [neural] extra).",
        ),
    ],
    spec: Annotated[str, typer.Argument(metavar="SPEC", help="The game, e.g. 'cumulative(tictactoe)'.")],
    out: Annotated[
        Path, typer.Option("--out", metavar="FILE", help="Save the agent here (.json plus .npz beside it).")
    ],
    init: Annotated[
        str,
        typer.Option(
            help="TD: initial values: zero, random, tcd, wtcd, 2sla, or 000's own scalings tcd-paper, wtcd-paper."
        ),
    ] = "zero",
    epsilon: Annotated[
        float | None,
        typer.Option(help="Exploration rate (td 0.05; qlearning: the starting epsilon, 1.0; linear 0)."),
    ] = None,
    alpha: Annotated[
        float | None, typer.Option(help="Step size (td 0.5; qlearning 0.2; linear: the LMS rate eta, 0.01).")
    ] = None,
    update: Annotated[
        str, typer.Option(help="TD: backward (the authors' code) or online (the paper's text).")
    ] = "backward",
    seed: Annotated[int, typer.Option(min=0, help="Seed: the run repeats bit for bit.")] = 0,
    option: Annotated[
        list[str] | None, typer.Option("--set", metavar="KEY=VALUE", help="A learner-specific option.")
    ] = None,
    criterion: Annotated[
        str | None,
        typer.Option(
            help="Stop at: rate-window (000 §4.2, the default), policy-stable, grade, or none. With --resume:"
            " the saved run's criterion unless given."
        ),
    ] = None,
    window: Annotated[int, typer.Option(min=2, help="rate-window: window W in episodes.")] = 20_000,
    delta: Annotated[float, typer.Option(help="rate-window: variance threshold.")] = 1e-8,
    stable_for: Annotated[
        int, typer.Option(min=1, help="policy-stable: episodes without a policy change.")
    ] = 100_000,
    target: Annotated[float, typer.Option(help="grade: the share of optimal moves to reach.")] = 1.0,
    check_every: Annotated[
        int, typer.Option(min=1, help="policy-stable, grade: episodes between checks.")
    ] = 10_000,
    max_episodes: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Stop after this many episodes in all, a resumed run's included (default 1,000,000;"
            " with --resume, --episodes is the simpler way to ask for more).",
        ),
    ] = None,
    episodes: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Train at most this many episodes in this run: with --resume, this many further"
            f" episodes (default {RESUME_EPISODES:,}).",
        ),
    ] = None,
    max_seconds: Annotated[
        float | None, typer.Option(min=0.001, help="Stop after this many seconds (the agent is saved).")
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue the training saved in --out, with its settings, for --episodes further"
            f" episodes (default {RESUME_EPISODES:,}), stopping early when its criterion holds; a run"
            " that had converged is trained on for those episodes (its criterion already holds).",
        ),
    ] = False,
    name: Annotated[
        str | None, typer.Option(help="Register the agent in the store under this name (default: --out).")
    ] = None,
    db: DbOpt = None,
    no_record: NoRecordOpt = False,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print one JSON document (its keys: docs/cli.md, 'JSON documents')."),
    ] = False,
) -> None:
    """Train a learning agent by self-play until a stopping criterion holds; save it."""
    import noughts

    if episodes is not None and max_episodes is not None:
        raise NoughtsError("give --episodes (this run) or --max-episodes (in all), not both")
    from noughts.cli.neural import NEURAL_LEARNERS, train_neural

    if learner in NEURAL_LEARNERS:  # AlphaZero and DQN (the [neural] extra)
        check_writable(out, "--out", (".json",), make_folder=not resume)
        refused = {"--epsilon": epsilon, "--alpha": alpha, "--criterion": criterion, "--episodes": episodes}
        train_neural(
            learner, spec, out, seed=seed, options=_options(option or []),
            max_episodes=max_episodes or FRESH_EPISODES, max_seconds=max_seconds,
            resume=resume, as_json=as_json, refused=refused, store=_store(db, no_record), name=name,
        )  # fmt: skip
        return
    if criterion is not None and criterion not in CRITERIA:
        raise NoughtsError(f"unknown criterion {criterion!r}; known: {', '.join(CRITERIA)}")
    if not resume:
        noughts.game(spec)  # a bad spec is refused before --out's folder is made
    check_writable(out, "--out", (".json",), make_folder=not resume)
    stop = (window, delta, stable_for, target, check_every)
    if resume:
        learner_obj, rate, crit, max_episodes = _resumed(
            out, learner, spec, criterion, stop, episodes, max_episodes, as_json
        )
    else:
        rate = None
        max_episodes = max_episodes or episodes or FRESH_EPISODES
        options: dict[str, Any] = {"seed": seed, **_options(option or [])}
        if epsilon is not None:
            options["epsilon"] = epsilon
        if alpha is not None:
            options["alpha"] = alpha
        if learner == "td":
            options.update({"init": init, "update": update})
        learner_obj = _fresh(learner, spec, options)
        crit = _criterion(criterion or "rate-window", *stop)
    result, doc = _run_recorded(
        learner, learner_obj, out, crit, rate, max_episodes, max_seconds, _store(db, no_record), name, as_json
    )
    if as_json:
        typer.echo(json.dumps(doc))
    else:
        _print_training(result, doc, out)
    if result.stopped == "interrupted":
        left = max_episodes - result.episodes  # the rest of this run's episodes
        again = (
            f"noughts train {learner} {shlex.quote(str(result.game))} --out {shlex.quote(str(out))} --resume"
            f" --episodes {left}"
        )
        typer.echo(
            f"noughts: stopped by Ctrl-C after {result.episodes_this_run:,} episodes of this run; "
            f"saved to {out}; go on with: {again}",
            err=True,
        )
        raise typer.Exit(130)


def _resumed(
    out: Path,
    learner: str,
    spec: str,
    criterion: str | None,
    stop: tuple[int, float, int, float, int],
    episodes: int | None,
    max_episodes: int | None,
    as_json: bool,
) -> tuple[Any, Any, Any, int]:
    """``train --resume``: the saved learner, its rate, the criterion to stop at and the episodes
    to train to in all.
    """
    import noughts
    from noughts.learn.train import resume as resume_from

    learner_obj, rate, saved_criterion = resume_from(out)
    if learner_obj.kind != learner:
        raise NoughtsError(f"{out} holds a {learner_obj.kind} learner, not {learner}")
    if str(learner_obj.game) != str(noughts.game(spec)):
        raise NoughtsError(f"{out} was trained on {learner_obj.game}, not {noughts.game(spec)}")
    crit = saved_criterion if criterion is None else _criterion(criterion, *stop)
    if max_episodes is None:
        max_episodes = learner_obj.episodes + (episodes or RESUME_EPISODES)
    if learner_obj.episodes >= max_episodes:
        raise NoughtsError(
            f"{out} has already trained {learner_obj.episodes:,} episodes and --max-episodes counts every "
            f"episode of the run, resumes included: ask for more than {learner_obj.episodes:,} "
            f"(e.g. --max-episodes {learner_obj.episodes + 100_000}), or give --episodes N for N more"
        )
    if criterion is None and saved_criterion is not None and _converged(out):
        crit = None  # it holds already: it would stop the run after one episode
        if not as_json:
            typer.echo(
                f"noughts: {out} had converged ({saved_criterion.to_json()['name']} held):"
                f" training {max_episodes - learner_obj.episodes:,} further episodes",
                err=True,
            )
    return learner_obj, rate, crit, max_episodes


def _fresh(learner: str, spec: str, options: dict[str, Any]) -> Any:
    """A new learner of kind ``learner`` on ``spec`` with ``options``."""
    import noughts
    from noughts.learn.train import learner_class

    from_options = getattr(learner_class(learner), "from_options", None)
    if from_options is None:
        raise NoughtsError(f"the {learner} learner cannot be trained by 'noughts train' yet")
    return from_options(noughts.game(spec), **options)


def _run_recorded(
    learner: str,
    learner_obj: Any,
    out: Path,
    crit: Any,
    rate: Any,
    max_episodes: int,
    max_seconds: float | None,
    store: Any,
    name: str | None,
    as_json: bool,
) -> tuple[TrainResult, dict[str, Any]]:
    """Train, with the run and the saved agent recorded in ``store`` (None: not recorded); the
    result and its JSON document.
    """
    from noughts.cli.progress import rates_bar
    from noughts.learn.train import train as run_train

    run_id = None
    if store is not None:
        run_id = store.new_run(f"train {learner}", {"game": str(learner_obj.game), "learner": learner}, out)
    title = f"training {learner_obj.kind} on {learner_obj.game}"
    try:
        with rates_bar(not as_json, title) as progress:
            result = run_train(
                learner_obj,
                criterion=crit,
                max_episodes=max_episodes,
                max_seconds=max_seconds,
                rate=rate,
                progress=progress,
                checkpoint=out,
                interruptible=True,  # Ctrl-C stops after the chunk in play and saves, ready to --resume
            )
    except BaseException:
        if store is not None and run_id is not None:
            store.set_run_status(run_id, "failed")
        raise
    doc = result.to_json()
    if store is not None and run_id is not None:
        store.set_run_status(run_id, "finished" if result.converged else "stopped")
        store.register_agent(
            name or str(out), learner, path=out.resolve(), spec=result.game,
            metadata={"episodes": result.episodes, "converged": result.converged, "criterion": result.criterion},
            replace=True,
        )  # fmt: skip
        doc["run_id"] = run_id
    grade = getattr(learner_obj, "policy_grade", None)
    if grade is not None:
        doc["policy_grade"] = grade()
    return result, doc


def _print_training(result: TrainResult, doc: dict[str, Any], out: Path) -> None:
    """``train``'s labelled table (``--json`` prints ``doc`` instead)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    table = Table(show_header=False, box=None)
    oc = result.outcomes
    n = max(1, sum(oc.values()))
    v1, vd = result.rate_variances
    rows = [
        ("game", result.game),
        ("learner", result.learner),
        ("settings", _pairs(result.config)),
        ("episodes", f"{result.episodes:,} ({result.episodes_this_run:,} this run)"),
        ("time", f"{result.seconds:.2f} s, {result.episodes_per_second:,.0f} episodes/s"),
        ("stopped", f"{result.stopped} ({'converged' if result.converged else 'not converged'})"),
        ("criterion", _criterion_text(result.criterion)),
        (
            "outcomes",
            f"x {oc['first_wins'] / n:.4f}, draw {oc['draws'] / n:.4f}, o {oc['second_wins'] / n:.4f} (exploration included)",
        ),
        (
            "rate variances",
            f"first wins {v1:.3g}, draws {vd:.3g} (000 §4.2 window)"
            if math.isfinite(v1) and math.isfinite(vd)
            else "none yet (fewer episodes than the 000 §4.2 window)",
        ),
    ]
    if "policy_grade" in doc:
        rows.append(("policy grade", f"{doc['policy_grade']:.4f} of positions: every greedy move optimal"))
    rows.append(("saved", str(out)))
    for k, v in rows:
        table.add_row(f"[bold]{k}[/bold]", v)
    console.print(table)


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _pairs(settings: dict[str, Any]) -> str:
    """Settings as ``name value, ...`` (the JSON document keeps them as an object)."""
    return ", ".join(f"{key.replace('_', ' ')} {_word(value)}" for key, value in settings.items()) or "-"


def _criterion_text(criterion: dict[str, Any]) -> str:
    """A stopping criterion as ``name: setting value, ...``."""
    rest = {k: v for k, v in criterion.items() if k != "name"}
    if set(rest) == {criterion.get("name")}:  # {"name": "episodes", "episodes": N}
        return f"{_word(rest[criterion['name']])} {criterion['name']}"
    return str(criterion.get("name", "?")) + (f": {_pairs(rest)}" if rest else "")


def experiment(
    name: Annotated[
        str | None, typer.Argument(metavar="NAME", help="The experiment; leave out to list them.")
    ] = None,
    quick: Annotated[bool, typer.Option("--quick", help="The small version (seconds).")] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", metavar="DIR", help="Write the folder here (default: experiments/NAME, or NAME-quick)."
        ),
    ] = None,
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: the CPUs).")] = None,
    address: Annotated[str | None, typer.Option(help="A Ray cluster address ('local' starts one).")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="KEY=JSON", help="Override a setting, e.g. max_episodes=200000."),
    ] = None,
    db: DbOpt = None,
    no_record: NoRecordOpt = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Run an experiment that reproduces a source's study; it writes CSV, Markdown, PNG and its configuration.

    Each run is saved in OUT/finished/ as it finishes: Ctrl-C stops the experiment at once, and the
    same command goes on from the saved runs. The figures need matplotlib (the plots extra:
    pip install -e '.[plots]'). Each experiment's settings and outputs: docs/learning.md, Experiments.
    """
    from rich.console import Console

    from noughts.learn.experiments import EXPERIMENTS
    from noughts.learn.experiments import experiment as find

    if name is None:
        if as_json:
            typer.echo(json.dumps({n: _description(n) for n in sorted(EXPERIMENTS)}))
            return
        for n in sorted(EXPERIMENTS):
            typer.echo(f"{n:16} {_description(n)}")
        return
    module = find(name)
    config: dict[str, Any] = {}
    for key, value in _options(option or []).items():
        try:
            config[key] = json.loads(value)
        except json.JSONDecodeError:
            raise NoughtsError(f"the value of {key} is not JSON: {value!r}") from None
    from noughts.learn.experiments import need_plots

    need_plots(f"the experiment {name}")  # every experiment draws figures (the plots extra)
    folder = out if out is not None else Path("experiments") / (name + ("-quick" if quick else ""))
    check_folder(folder, "--out")  # made and written in before the work, so the results are not lost
    from noughts.cli.progress import compile_notice, delayed_bar
    from noughts.learn.experiments import FINISHED
    from noughts.parallel import executor as make_executor

    again = shlex.join(
        ["noughts", "experiment", name, *(["--quick"] if quick else []), "--out", str(folder)]
        + [a for item in option or [] for a in ("--set", item)]
        + (["--workers", str(workers)] if workers is not None else [])
        + (["--address", address] if address is not None else [])
        + (["--db", str(db)] if db is not None else [])
        + (["--no-record"] if no_record else [])
    )
    store = _store(db, no_record)
    run_id = None if store is None else store.new_run(name, {"quick": quick, **config}, folder)
    started = time.perf_counter()
    try:
        with (
            compile_notice(),
            delayed_bar(True, name) as progress,
            make_executor(workers, address, progress) as ex,
        ):
            result = module.run(config or None, folder, quick=quick, executor=ex)
    except KeyboardInterrupt:
        if store is not None and run_id is not None:
            store.set_run_status(run_id, "stopped")
        saved = folder / FINISHED
        runs = len(list(saved.glob("*.json"))) if saved.is_dir() else 0
        kept = f"{plural(runs, 'finished run')} saved in {saved}" if runs else "no run had finished yet"
        typer.echo(f"noughts: stopped by Ctrl-C; {kept}; go on with: {again}", err=True)
        raise typer.Exit(130) from None
    except BaseException:
        if store is not None and run_id is not None:
            store.set_run_status(run_id, "failed")
        raise
    if store is not None and run_id is not None:
        store.set_run_status(run_id, "finished")
    seconds = time.perf_counter() - started
    files = sorted(str(p.relative_to(result)) for p in Path(result).rglob("*") if p.is_file())
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "experiment": name,
                    "quick": quick,
                    "out": str(result),
                    "files": files,
                    "seconds": round(seconds, 3),
                }
            )
        )
        return
    console = Console(highlight=False)
    console.print(f"[bold]{name}[/bold]: wrote {plural(len(files), 'file')} to {result} in {seconds:.1f} s")
    for f in files:
        console.print(f"  {f}")


def _description(name: str) -> str:
    try:
        from noughts.learn.experiments import experiment as find

        return str(getattr(find(name), "DESCRIPTION", ""))
    except NoughtsError:
        return "(not available)"


def register(app: typer.Typer) -> None:
    """Add ``train`` and ``experiment`` to ``app``."""
    app.command()(train)
    app.command()(experiment)
