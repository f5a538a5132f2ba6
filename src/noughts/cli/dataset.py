"""``noughts dataset build|grade``: the solver-labelled benchmark, built and graded.

A few lines over :mod:`noughts.dataset`: ``build`` writes the Parquet file and its card
(progress on stderr; exit 3 when ``--max-seconds`` stops it, after writing what was labelled),
``grade AGENT`` scores an agent on it per game and overall (a table, or ``--json``). A missing,
damaged or tampered file, an unknown game or agent: one line, exit 2.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from noughts.cli.paths import check_writable
from noughts.cli.stores import DbOpt
from noughts.core import LimitExceeded, NoughtsError

__all__ = ["register"]

DEFAULT_DATA = Path("noughts-dataset.parquet")

dataset_app = typer.Typer(
    help="The solver-labelled benchmark: positions of the family with the exact value of every move.",
    no_args_is_help=True,
)


def _games(text: str | None) -> list[str] | None:
    if text is None:
        return None
    names = [part for part in _split(text) if part]
    if not names:
        raise NoughtsError("--games names at least one game, e.g. --games 'tictactoe;mnk(4,4,4)'")
    return names


def _split(text: str) -> list[str]:
    """Games separated by ';' or by commas outside parentheses."""
    parts, depth, word = [], 0, ""
    for ch in text:
        if ch in ",;" and depth == 0:
            parts.append(word.strip())
            word = ""
            continue
        depth += (ch == "(") - (ch == ")")
        word += ch
    parts.append(word.strip())
    return parts


@dataset_app.command("build")
def build_command(
    out: Annotated[
        Path, typer.Option("--out", metavar="FILE", help="The Parquet file (its card: FILE with .json).")
    ] = DEFAULT_DATA,
    games: Annotated[
        str | None,
        typer.Option(
            "--games",
            metavar="SPECS",
            help="Only these games, e.g. 'tictactoe,mnk(4,4,4)' (default: all 15).",
        ),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", min=0, max=2**32 - 1, help="Seed of the walks (the build is deterministic given it)."
        ),
    ] = 0,
    scale: Annotated[
        float, typer.Option("--scale", min=0.0001, max=100.0, help="Multiply every game's target positions.")
    ] = 1.0,
    max_seconds: Annotated[
        float,
        typer.Option("--max-seconds", min=0.001, help="Stop after this (exit 3), writing what was labelled."),
    ] = 1800.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the card as one JSON document.")] = False,
) -> None:
    """Build the dataset: positions from varied play on 15 games, every legal move labelled exactly."""
    from rich.console import Console

    from noughts.dataset import build, choose_games

    chosen = _games(games)
    choose_games(chosen)  # unknown games refused before any work
    check_writable(out, "--out", (".parquet",))
    command = (
        "noughts dataset " + " ".join(shlex.quote(a) for a in sys.argv[sys.argv.index("build") :])
        if "build" in sys.argv
        else None
    )
    console = Console(stderr=True, highlight=False)
    with console.status("building the dataset ...", spinner="dots") as status:

        def progress(game: str, done: int, target: int) -> None:
            if done % 100 == 0 or done == target:
                status.update(f"{game}: {done:,} of {target:,} positions labelled")

        card = build(
            out,
            games=chosen,
            seed=seed,
            scale=scale,
            max_seconds=max_seconds,
            command=command,
            progress=progress,
        )
    if as_json:
        typer.echo(json.dumps(card))
    else:
        _print_card(card, out)
    if not card["complete"]:
        stopped = next((g["stopped"] for g in card["games"].values() if g["stopped"]), "")
        raise LimitExceeded(
            f"the build stopped before every game reached its target ({stopped}); {out} holds what was labelled"
        )


def _print_card(card: dict[str, object], out: Path) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name, justify in (
        ("game", "left"),
        ("positions", "right"),
        ("moves", "right"),
        ("engines", "left"),
        ("skipped", "right"),
        ("seconds", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    games = card["games"]
    assert isinstance(games, dict)
    for spec, g in games.items():
        table.add_row(
            spec,
            f"{g['positions']:,}",
            f"{g['moves']:,}",
            ", ".join(g["engines"]),
            str(g["skipped_over_budget"]),
            str(g["seconds"]),
        )
    console.print(table)
    console.print(
        f"{card['rows']:,} positions of {len(games)} games in {out} (sha256 {str(card['sha256'])[:16]}..., card {out.with_suffix('.json')}), {card['seconds']} s"
    )


@dataset_app.command("grade")
def grade_command(
    agent: Annotated[
        str,
        typer.Argument(
            metavar="AGENT", help="random, perfect, minimax:depth=2, az:FILE, saved:NAME, module:function ..."
        ),
    ],
    data: Annotated[
        Path, typer.Option("--data", metavar="FILE", help="The dataset's Parquet file.")
    ] = DEFAULT_DATA,
    games: Annotated[
        str | None, typer.Option("--games", metavar="SPECS", help="Only these games of the set.")
    ] = None,
    sample: Annotated[
        int | None,
        typer.Option("--sample", min=1, max=10**9, help="At most this many positions of each game (seeded)."),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=2**32 - 1, help="Seed of the sample and the agent.")
    ] = 0,
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", min=0.001, help="Stop (exit 3) after this.")
    ] = 3600.0,
    critical: Annotated[
        bool,
        typer.Option(
            "--critical",
            help="Grade only the critical positions (where some legal move changes the value).",
        ),
    ] = False,
    db: DbOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Grade an agent on the dataset: optimal-move rate, blunders and critical rate, per game and overall."""
    import noughts
    from noughts.cli.specs import resolve_agent
    from noughts.dataset import grade_dataset, load
    from noughts.dataset.agents import grading_agent

    chosen = None if games is None else [str(noughts.game(g)) for g in _games(games) or []]
    dataset = load(data)
    the_agent, _ = grading_agent(resolve_agent(agent, db))
    name = agent.strip()  # as the user wrote it (a saved agent's resolved spec is a path)
    from rich.console import Console

    console = Console(stderr=True, highlight=False)
    with console.status("grading ...", spinner="dots") as status:

        def progress(game: str, done: int, total: int) -> None:
            if done % 200 == 0 or done == total:
                status.update(f"{game}: {done:,} of {total:,} positions graded")

        result = grade_dataset(
            the_agent,
            name,
            dataset,
            games=chosen,
            sample=sample,
            seed=seed,
            max_seconds=max_seconds,
            progress=progress,
            critical=critical,
        )
    if as_json:
        typer.echo(json.dumps(result.to_json()))
        return
    _print_grade(result)


def _print_grade(result: object) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    doc = result.to_json()  # type: ignore[attr-defined]
    console = Console(highlight=False)
    table = Table(
        box=box.SIMPLE_HEAD, pad_edge=False, title=f"{doc['agent']} on {doc['data']}", title_justify="left"
    )
    for name, justify in (
        ("game", "left"),
        ("positions", "right"),
        ("optimal-move rate", "right"),
        ("95% interval", "right"),
        ("blunders", "right"),
        ("won thrown", "right"),
        ("drawn lost", "right"),
        ("critical", "right"),
        ("critical rate", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]

    def rate(d: dict[str, Any]) -> str:
        return "-" if d["critical_rate"] is None else f"{d['critical_rate']:.4f}"

    for g in doc["games"]:
        if g["skipped"]:
            table.add_row(g["game"], "-", "not graded", g["skipped"][:60], "", "", "", "", "")
            continue
        low, high = g["interval95"]
        table.add_row(
            g["game"],
            f"{g['positions']:,}",
            f"{g['optimal_move_rate']:.4f}",
            f"{low:.3f}-{high:.3f}",
            f"{g['blunders']:,}",
            f"{g['won_thrown']:,}",
            f"{g['drawn_lost']:,}",
            f"{g['critical']:,}",
            rate(g),
        )
    low, high = doc["interval95"]
    table.add_row(
        "all",
        f"{doc['positions']:,}",
        f"{doc['optimal_move_rate']:.4f}",
        f"{low:.3f}-{high:.3f}",
        f"{doc['blunders']:,}",
        "",
        "",
        f"{doc['critical']:,}",
        rate(doc),
        style="bold",
    )
    console.print(table)
    only = "; critical positions only" if doc["critical_only"] else ""
    console.print(f"mean of the games' rates {doc['mean_game_rate']:.4f}{only}; {doc['seconds']} s")


def register(app: typer.Typer) -> None:
    """Add ``noughts dataset build|grade`` to the command."""
    app.add_typer(dataset_app, name="dataset")
