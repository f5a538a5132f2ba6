"""``noughts review``, ``noughts games export`` and ``noughts games import``: game records at the
command line, each a few lines over :mod:`noughts.record` and :mod:`noughts.review`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from noughts.cli import plural
from noughts.cli.stores import DbOpt, existing_store, games_list, missing_game
from noughts.core import NoughtsError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from noughts.record import Record
    from noughts.review import Review

__all__ = ["BUDGET", "register"]

BUDGET = 3
"""Exit status when a budget ran out (what was finished is printed first)."""

JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print one JSON document (its keys: docs/cli.md, 'JSON documents').")
]


def _read_records(source: str) -> list[Record]:
    """The games of a record file, or of standard input for ``-``."""
    from noughts.record import RecordError, load_records, read_file

    if source == "-":
        text = sys.stdin.read()
        try:
            return load_records(text)
        except RecordError as e:
            raise RecordError(f"standard input: {e}") from None
    return read_file(source)


# -- review ---------------------------------------------------------------------------------------


def review(
    record: Annotated[
        str, typer.Argument(metavar="RECORD", help="A record file (text or JSON), or - for standard input.")
    ],
    game: Annotated[
        int | None,
        typer.Option("--game", metavar="N", min=1, help="Which game of a file of several (1 for the first)."),
    ] = None,
    as_json: JsonOpt = False,
    max_seconds: Annotated[
        float,
        typer.Option(
            "--max-seconds", min=0.001, help="Stop (exit 3, printing what was reviewed) after this long."
        ),
    ] = 60.0,
    position_seconds: Annotated[
        float,
        typer.Option(
            "--position-seconds",
            min=0.001,
            help="Exact analysis of one position gets this long; past it, the estimator's labelled estimate.",
        ),
    ] = 5.0,
    max_memory: Annotated[
        int,
        typer.Option("--max-memory", metavar="MIB", min=1, help="The solver's tables get at most this much."),
    ] = 2048,
    estimator: Annotated[
        str,
        typer.Option(
            metavar="SPEC",
            help="What estimates positions the solver does not finish: auto, minimax:depth=D, mcts:sims=N,"
            " engine:seconds=S (claim games), or none.",
        ),
    ] = "auto",
    table: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="Take exact values from a table saved by 'noughts solve --save'."),
    ] = None,
    annotate: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Also write the record annotated with the review ($6 inaccuracy, $2 mistake, the best"
            " move as a variation); JSON if FILE ends in .json.",
        ),
    ] = None,
) -> None:
    """Review a recorded game against the exact solver: every move's value before and after,
    best / inaccuracy / mistake, the best moves where another was played, each side's accuracy.
    """
    from noughts.core.budget import Budget
    from noughts.review import ReviewStopped, make_estimator
    from noughts.review import review as run_review

    records = _read_records(record)
    if game is None and len(records) > 1:
        raise NoughtsError(
            f"{record} holds {len(records)} games: choose one with --game N (1 to {len(records)})"
        )
    index = 1 if game is None else game
    if index > len(records):
        raise NoughtsError(
            f"{record} holds {len(records)} game{'s' if len(records) != 1 else ''}, not {index}"
        )
    chosen = records[index - 1]
    if annotate is not None and annotate.is_dir():
        raise NoughtsError(f"{annotate.name} is a folder: --annotate names the file to write")
    oracle = None
    if table is not None:
        from noughts.exact.table import SolvedTable

        oracle = SolvedTable.load(table, chosen.game)
    budget = Budget(max_seconds=max_seconds, max_memory=max_memory * 2**20)
    stopped = None
    with _review_progress(not as_json, f"reviewing {plural(chosen.plies, 'move')} of {chosen.game}") as tick:
        try:
            result = run_review(
                chosen,
                budget=budget,
                position_seconds=position_seconds,
                estimator=make_estimator(estimator),
                oracle=oracle,
                progress=tick,
            )
        except ReviewStopped as e:
            result, stopped = e.review, str(e)
    if annotate is not None:
        from noughts.record import dump_records

        text = dump_records([result.annotated()], as_json=annotate.suffix.lower() == ".json")
        try:
            annotate.write_text(text, encoding="utf-8")
        except OSError as e:
            raise NoughtsError(f"cannot write {annotate.name}: {e.strerror}") from None
    if as_json:
        typer.echo(json.dumps(result.to_json()))
    else:
        _print_review(result)
    if stopped is not None:
        typer.echo(f"noughts: {stopped}", err=True)
        raise typer.Exit(BUDGET)


@contextmanager
def _review_progress(enabled: bool, title: str) -> Iterator[Callable[[int, int], None] | None]:
    """A transient progress bar on stderr (a terminal only) for ``progress(done, total)``."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(title, total=None)

        def show(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield show


_STYLE = {"best": "green", "inaccuracy": "yellow", "mistake": "bold red"}


def _value(r: Review, ev: object) -> str:
    if ev is None:
        return "?"
    text: str = ev.text(r.game)  # type: ignore[attr-defined]
    return text if ev.is_exact else "~" + text  # type: ignore[attr-defined]


def review_table(r: Review) -> Table:
    """The reviewed moves as a table: number, who, move, value before and after, class, best."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from noughts.cli.views import styled_line

    game = r.game
    names = r.record.players()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("#", "player", "move", "before", "after", "class", "best"):
        table.add_column(col, justify="right" if col == "#" else "left", overflow="fold")
    for m in r.moves:
        if not m.reviewed:
            continue
        who = game.player_label(m.player)
        name = names[m.player]
        if name != "?":
            who += f" ({name})"
        word = "forced" if m.forced and m.judgement == "best" else m.judgement or "-"
        judgement = Text(word, style=_STYLE.get(m.judgement or "", "dim"))
        if m.judgement is not None and not m.exact:
            judgement.append("~", style="dim")
        best = ""
        if m.judgement not in (None, "best"):
            shown = list(m.best[:6])
            best = " ".join(shown) + (f" +{len(m.best) - 6} more" if len(m.best) > 6 else "")
        table.add_row(
            str(m.ply),
            styled_line(who),
            m.move,
            styled_line(_value(r, m.before)),
            styled_line(_value(r, m.after)),
            judgement,
            best,
        )
    return table


def _print_review(r: Review) -> None:
    from rich.console import Console

    from noughts.cli.views import styled_line

    console: Console = Console(highlight=False)
    game, record = r.game, r.record
    names = record.players()
    title = f"{game}: {names[next(iter(names))]} vs {names[list(names)[1]]}, {record.result_text}"
    console.print(styled_line(title), style="bold")
    console.print(review_table(r))
    for s in r.players.values():
        who = game.player_label(s.player) + ("" if s.name == "?" else f" ({s.name})")
        if s.accuracy is None:
            line = f"{who}: no move judged"
        else:
            line = (
                f"{who}: accuracy {100 * s.accuracy:.1f}% ({s.best} of {s.judged} best; "
                f"{s.inaccuracies} inaccurac{'y' if s.inaccuracies == 1 else 'ies'}, "
                f"{s.mistakes} mistake{'' if s.mistakes == 1 else 's'}"
                + ("" if s.exact == s.judged else f"; {s.judged - s.exact} judged from estimates")
                + ")"
            )
        console.print(styled_line(line))
    notes = []
    if r.engine is not None:
        notes.append(f"exact values by {r.engine}")
    if any(v is not None and not v.is_exact for v in r.values):
        notes.append(f"~ an estimate by {r.estimator}, not an exact value")
    notes.append(f"{r.reviewed} of {plural(len(r.moves), 'move')} reviewed in {r.seconds:.2f} s")
    console.print("; ".join(notes), style="dim")


# -- games export / import -------------------------------------------------------------------------


def games_export(
    ids: Annotated[
        list[int] | None,
        typer.Argument(metavar="ID...", help="The games to export (their ids in the store)."),
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="Export every game in the store (oldest first).")
    ] = False,
    out: Annotated[
        Path | None, typer.Option("--out", metavar="FILE", help="Write to FILE instead of standard output.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Write one JSON document instead of text.")] = False,
    source: Annotated[
        str | None,
        typer.Option(metavar="SOURCE", help="With --all: only games from play, web, match or import."),
    ] = None,
    status: Annotated[
        str | None, typer.Option(metavar="STATUS", help="With --all: only finished or playing games.")
    ] = None,
    db: DbOpt = None,
) -> None:
    """Export games from the store as records (text, or JSON with --json)."""
    from noughts.record import dump_records
    from noughts.record.store import export_games
    from noughts.store import Store, StoreError

    if bool(ids) == every:
        raise NoughtsError("name the games to export (noughts games export 3 7) or give --all, not both")
    if not every and (source is not None or status is not None):
        raise NoughtsError("--source and --status choose among all games: give --all with them")
    if out is not None and out.is_dir():
        raise NoughtsError(f"{out.name} is a folder: --out names the file to write")
    existing_store(db)
    with Store(db) as store:
        for gid in ids or ():
            try:
                store.game(gid)
            except StoreError:
                raise missing_game(gid, db) from None
        records = list(export_games(store, ids if not every else None, status=status, source=source))
    text = dump_records(records, as_json=as_json)
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as e:
        raise NoughtsError(f"cannot write {out.name}: {e.strerror}") from None
    typer.echo(f"exported {len(records)} game{'s' if len(records) != 1 else ''} to {out}", err=True)


def games_import(
    record: Annotated[
        str, typer.Argument(metavar="FILE", help="A record file (text or JSON), or - for standard input.")
    ],
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Import the games of a record file into the store (finished games as finished, the others
    in play, to resume in the web arena). Every game is checked before any is recorded.
    """
    from noughts.record.store import import_records
    from noughts.store import Store

    records = _read_records(record)
    with Store(db) as store:
        ids = import_records(store, records)
    if as_json:
        typer.echo(json.dumps({"imported": ids, "games": len(ids)}))
        return
    shown = ", ".join(map(str, ids[:20])) + (f", ... {ids[-1]}" if len(ids) > 20 else "")
    typer.echo(f"imported {len(ids)} game{'s' if len(ids) != 1 else ''} as {shown}")


def register(app: typer.Typer, games: typer.Typer) -> None:
    """Add ``review`` to ``app`` and ``list``, ``export``, ``import`` to the ``games`` group."""
    app.command()(review)
    games.command("list")(games_list)
    games.command("export")(games_export)
    games.command("import")(games_import)
