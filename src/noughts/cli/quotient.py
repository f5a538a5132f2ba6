"""``noughts quotient``: the misère quotient of one Notakto board, and what it says.

A few lines over :func:`noughts.cgt.notakto_quotient` (and :func:`noughts.cgt.check.check_quotient`
with ``--check``). A quotient noughts ships (:mod:`noughts.cgt.saved`) is loaded instead of
computed unless ``--rebuild`` is given; ``--save DIR`` writes the versioned JSON file there
(``--save src/noughts/cgt/quotients`` rebuilds the shipped ones). Exit status 0 with the quotient, 2 on a bad spec, 3 when the budget ran out
(the figures reached are printed), 1 when ``--check`` finds the quotient wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, cast

import typer

import noughts
from noughts.core import Budget, NotaktoGame, NoughtsError

__all__ = ["register"]

OVER_BUDGET = 3
"""Exit status when the budget ran out before the quotient was found."""

CHECK_FAILED = 1
"""Exit status when ``--check`` finds the quotient wrong."""

_LIST_POSITIONS = 60
"""Boards with at most this many positions list each one's element; larger ones count them."""


def quotient(
    spec: Annotated[
        str,
        typer.Argument(metavar="SPEC", help="A Notakto game, e.g. notakto or 'notakto(mnk(4,4,3))'."),
    ],
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print one JSON document (its keys: docs/cli.md, 'JSON documents')."),
    ] = False,
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", min=0.001, help="Stop (exit 3) after this many seconds.")
    ] = 600.0,
    max_memory: Annotated[
        int, typer.Option("--max-memory", metavar="MIB", min=1, help="Stop (exit 3) past this many MiB.")
    ] = 4096,
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="Verify the quotient again, independently, from the rules (exit 1 if wrong)."
        ),
    ] = False,
    rebuild: Annotated[
        bool,
        typer.Option("--rebuild", help="Compute the quotient from the rules even if noughts ships it saved."),
    ] = False,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            metavar="DIR",
            file_okay=False,
            help="Write the quotient as versioned JSON into DIR (src/noughts/cgt/quotients: the shipped ones).",
        ),
    ] = None,
) -> None:
    """The misère quotient of one Notakto board: its elements, presentation, P-portion, each
    position's element, and who wins N empty boards for every N (normal play with misere=false).
    """
    from noughts.cgt import QuotientStopped, notakto_quotient
    from noughts.cgt.saved import save_quotient, saved_quotient

    if save is not None:
        from noughts.cli.paths import check_folder

        check_folder(save, "--save")  # before any work: a folder that cannot be written is refused
    game = noughts.game(spec)
    if not game.board_sum:
        raise NoughtsError(
            f"quotient takes a Notakto game, e.g. notakto or 'notakto(mnk(4,4,3))', not {game}"
        )
    game = cast(NotaktoGame, game)
    budget = Budget(max_seconds=max_seconds, max_memory=max_memory * 2**20)
    result = None if rebuild else saved_quotient(game.board, game.misere)
    source = "saved" if result is not None else "computed"
    if result is None:
        with _Progress(not as_json, f"quotient of {game.board.spec}") as bar:
            try:
                result = notakto_quotient(game.board, game.misere, budget=budget, progress=bar.update)
            except QuotientStopped as stop:
                _stopped(game, stop, as_json)
                raise typer.Exit(OVER_BUDGET) from None
    if save is not None:
        written = save_quotient(result, save)
        if not as_json:
            typer.echo(f"saved: {written}")
    doc = result.to_json()
    doc["source"] = source
    report = None
    if check:
        from noughts.cgt.check import check_quotient

        report = check_quotient(doc, Budget(max_seconds=max_seconds, max_memory=max_memory * 2**20))
    if as_json:
        if report is not None:
            doc["check"] = report.to_json()
        if game.boards > 1:
            doc["boards"] = {"boards": game.boards, "winner": result.empty_boards().winner(game.boards)}
        typer.echo(json.dumps(doc))
    else:
        _show(game, result, doc)
        if report is not None:
            from rich.console import Console

            console = Console(highlight=False)
            if report.ok:
                console.print(
                    f"[bold green]checked independently[/]: a reduced, faithful quotient "
                    f"({report.states:,} states of sums visited)"
                )
            else:
                console.print(f"[bold red]the check failed[/]: {'; '.join(report.failures)}")
    if report is not None and not report.ok:
        raise typer.Exit(CHECK_FAILED)


def _stopped(game: NotaktoGame, stop: Any, as_json: bool) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    reached = stop.reached
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "game": str(NotaktoGame(game.board, 1, game.misere)),
                    "board": game.board.spec,
                    "play": "misere" if game.misere else "normal",
                    "complete": False,
                    "error": str(stop),
                    "reached": reached,
                }
            )
        )
        return
    typer.echo(f"noughts: stopped: {stop}", err=True)
    labels = {
        "positions": "single-board positions (up to symmetry)",
        "positions_placed": "positions placed in the quotient",
        "size": "elements of the quotient of those",
        "p_portion": "of them P",
        "expansions": "times the quotient grew",
        "candidates": "candidates tried",
        "last_candidate_size": "elements of the last candidate (before reduction)",
        "seconds": "seconds",
    }
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_header=False)
    table.add_column("what", style="bold")
    table.add_column("figure", justify="right")
    for key, label in labels.items():
        if reached.get(key) is not None:
            value = reached[key]
            table.add_row(label, f"{value:,}" if isinstance(value, int) else str(value))
    Console(highlight=False).print(table)


def _show(game: NotaktoGame, result: Any, doc: dict[str, Any]) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    q = result.quotient
    play = "misère" if game.misere else "normal-play"
    console.print(
        f"{doc['game']}: the {play} quotient of {doc['positions']:,} single-board positions (up to symmetry)",
        style="bold",
    )
    console.print(f"{doc['size']} elements, {len(doc['p_portion'])} of them P: {', '.join(doc['p_portion'])}")
    gens = ", ".join(f"{g['name']} = {g['position']}" for g in doc["generators"])
    console.print(f"generators: {gens}")
    relations = ", ".join(f"{u} = {v}" for u, v in doc["relations"])
    console.print(f"relations: {relations}")
    empty = result.empty_boards()
    table = Table(title="N empty boards", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("N", justify="right")
    table.add_column("element")
    table.add_column("winner")
    for b in empty.outcomes:
        table.add_row(str(b.boards), q.name(q.monoid.power(int(q.images[-1]), b.boards)), b.winner)
    console.print(table)
    console.print(f"for every N: {empty.rule()}")
    if game.boards > 1:
        console.print(f"{game}: the {empty.winner(game.boards)} player wins", style="bold")
    singles = doc.get("single_boards", [])
    if len(singles) <= _LIST_POSITIONS:
        positions = Table(title="single-board positions", box=box.SIMPLE_HEAD, pad_edge=False)
        positions.add_column("position")
        positions.add_column("element")
        for entry in singles:
            positions.add_row(entry["position"], entry["element"])
        console.print(positions)
    else:
        counts: dict[str, int] = {}
        for entry in singles:
            counts[entry["element"]] = counts.get(entry["element"], 0) + 1
        tally = Table(title="single-board positions per element", box=box.SIMPLE_HEAD, pad_edge=False)
        tally.add_column("element")
        tally.add_column("positions", justify="right")
        for name, count in sorted(counts.items(), key=lambda kv: -kv[1]):
            tally.add_row(name, f"{count:,}")
        console.print(tally)
    how = "loaded from the saved file; built in " if doc.get("source") == "saved" else ""
    console.print(
        f"{how}{doc['seconds']:.3f} s; the quotient grew {doc['expansions']} times ({doc['candidates']} candidates tried)",
        style="dim",
    )


class _Progress:
    """A transient Rich bar on stderr while the positions are placed (only after a second)."""

    def __init__(self, enabled: bool, title: str):
        import time

        self.enabled = enabled
        self.title = title
        self.started = time.perf_counter()
        self._clock = time.perf_counter
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> _Progress:
        return self

    def update(self, done: int, total: int, size: int) -> None:
        if not self.enabled or self._clock() - self.started < 1.0:
            return
        if self._bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.completed:,}/{task.total:,} positions"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self.title, total=total)
        self._bar.update(self._task, completed=done, description=f"{self.title}: {size:,} elements")

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


def register(app: typer.Typer) -> None:
    """Add the ``quotient`` command to ``app``."""
    app.command("quotient")(quotient)
