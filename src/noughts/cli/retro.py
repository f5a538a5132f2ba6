"""``noughts retro``: solve a game whose positions repeat by retrograde analysis, and report.

Every state reachable from the start, how many there are (also up to symmetry), who wins from
each, the value of the start and of every first move, and the longest forced win of any state.
``--check`` enumerates again through the position API and computes every value again by the
plain value iteration, and fails (exit 1) unless both agree with the kernels on every state.
``--verify FILE`` checks a saved table as a certificate, by a checker that shares no code with
the solver (:mod:`noughts.retrograde.check`), exit 1 if it fails. Library:
:func:`noughts.retrograde.analysis.analyse`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import noughts
from noughts.cli.paths import check_writable
from noughts.core.budget import Budget

# Rich and the views are imported inside the command: ``noughts --help`` starts light.
if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["register"]

CHECK_FAILED = 1


def retro(
    spec: Annotated[
        str, typer.Argument(metavar="SPEC", help="The game, e.g. 'forget(tictactoe)' or morris.")
    ],
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Also enumerate and solve by the plain references; exit 1 unless they agree everywhere.",
        ),
    ] = False,
    method: Annotated[
        str, typer.Option(help="auto, fast (numba kernels) or reference (the position API) to enumerate.")
    ] = "auto",
    save: Annotated[Path | None, typer.Option(metavar="FILE", help="Save the solved table (.npz).")] = None,
    verify: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="Only check a saved table of SPEC, independently of the solver."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", min=0.001, help="Stop (exit 3) after this.")
    ] = 600.0,
    max_memory: Annotated[
        int, typer.Option("--max-memory", metavar="MIB", min=1, help="Stop (exit 3) past this many MiB.")
    ] = 4096,
) -> None:
    """Solve a game that need not end (forget, vanishing, morris) by retrograde analysis."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from noughts.cli.analysis import value_text
    from noughts.cli.views import rules_summary, styled_line
    from noughts.exact.reference import after_move
    from noughts.retrograde.analysis import analyse

    game = noughts.game(spec)
    if save is not None:
        check_writable(save, "--save")  # before the solve, not after it
    console = Console(highlight=False, stderr=as_json)
    budget = Budget(max_seconds, max_memory * 2**20)
    if verify is not None:
        _verify(game, verify, budget, as_json, console)
        return
    with console.status(f"solving {game} by retrograde analysis ...", spinner="dots") as status:

        def progress(stage: str, done: int) -> None:
            status.update(f"solving {game} by retrograde analysis: {stage}, {done:,} states")

        try:
            report, table = analyse(game, budget=budget, method=method, check=check, progress=progress)
        except AssertionError as e:
            typer.echo(f"noughts: check failed: {e}", err=True)
            raise typer.Exit(CHECK_FAILED) from None
    if save is not None and table is not None:
        table.save(save)
    if as_json:
        typer.echo(json.dumps({**report.to_json(), "saved": None if save is None else str(save)}))
        return
    console.print(styled_line(f"{game}: {value_text(game, report.start)}"), style="bold")
    console.print(styled_line(rules_summary(game)), style="dim")
    facts = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_header=False)
    facts.add_column("what", style="bold")
    facts.add_column("value", justify="right")
    facts.add_row("reachable states", f"{report.states:,}")
    if report.states_up_to_symmetry is not None:
        facts.add_row("states up to symmetry", f"{report.states_up_to_symmetry:,}")
    facts.add_row("moves between them", f"{report.edges:,}")
    words = {"first": "won by x", "second": "won by o", "draw": "drawn"}
    for key, n in report.finished_by_outcome.items():
        facts.add_row(f"finished states {words[key]}", f"{n:,}")
    for key, n in report.states_by_value.items():
        facts.add_row(
            f"states {words[key].replace('won by', 'won for')}" if key != "draw" else "states drawn", f"{n:,}"
        )
    if report.longest_win is not None:
        facts.add_row("longest forced win (plies)", str(report.longest_win))
    console.print(facts)
    if report.longest_win_position is not None:
        console.print(f"a state with the longest forced win: {report.longest_win_position}")
    moves = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="first moves", title_justify="left")
    moves.add_column("move", style="bold")
    moves.add_column("value with perfect play")
    for move, value in report.moves:
        moves.add_row(move, styled_line(value_text(game, after_move(value))))
    console.print(moves)
    timing = f"{report.method} enumeration {report.enumerate_seconds:.2f} s, propagation {report.propagate_seconds:.3f} s"
    if report.checked:
        timing += "; the references agree on every state"
    console.print(timing, style="dim")
    if save is not None:
        console.print(f"saved the table of {report.states:,} states to {save}")


def _verify(game: noughts.Game, path: Path, budget: Budget, as_json: bool, console: Console) -> None:
    from noughts.exact.table import load_table
    from noughts.retrograde.check import check_table

    load_table(path, game)  # the file is a valid table of this game (format, checksum, spec)
    with console.status(f"checking {path} against the rules of {game} ...", spinner="dots"):
        result = check_table(path, budget)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "game": result.game,
                    "positions": result.positions,
                    "ok": result.ok,
                    "failure": result.failure,
                }
            )
        )
    elif result.ok:
        console.print(
            f"{path}: every one of the {result.positions:,} reachable positions of {game} obeys the rules"
        )
    else:
        console.print(f"{path}: check failed at {result.failure}")
    if not result.ok:
        raise typer.Exit(CHECK_FAILED)


def register(app: typer.Typer) -> None:
    """Add the ``retro`` command to ``app``."""
    app.command("retro")(retro)
