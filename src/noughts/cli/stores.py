"""The store at the command line: which store a command uses, the ``--db`` option every
recording command shares, and ``noughts games list`` (the stored games and their ids).

Without ``--db`` a command uses the project's store (``.noughts/noughts.db`` in the nearest
folder, from the current one up, that has a ``.noughts`` folder: ``make run`` makes one in a
clone) or else the per-user store (:func:`noughts.store.default_path`); see
:func:`noughts.store.store_path`. A ``--db`` whose folder does not exist is refused before any
work (it used to make the folders and an empty store in silence).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from noughts.cli.paths import check_db
from noughts.core import NoughtsError

__all__ = [
    "DB_HELP",
    "DbOpt",
    "checked_db",
    "existing_store",
    "games_list",
    "missing_game",
    "store_label",
    "where_stored",
]

DB_HELP = (
    "The SQLite store (default: .noughts/noughts.db in the nearest folder up from here that has a"
    " .noughts folder, else the per-user store; 'noughts games list' prints which)."
)


def checked_db(value: Path | None) -> Path | None:
    """``--db``'s callback: :func:`noughts.cli.paths.check_db` as the option is read."""
    return check_db(value)


DbOpt = Annotated[Path | None, typer.Option("--db", metavar="FILE", help=DB_HELP, callback=checked_db)]
"""``--db FILE``: checked as it is read (its folder must exist)."""

MAX_LIST = 100_000
"""The most games ``games list`` shows at once."""


def where_stored(db: Path | None) -> tuple[Path, str]:
    """The store a command with ``--db db`` uses, and how it was chosen (for messages)."""
    from noughts.store import default_path, project_path

    if db is not None:
        return db, "--db"
    project = project_path()
    if project is not None:
        return project, "the project's store"
    return default_path(), "the per-user store"


def store_label(db: Path | None) -> str:
    """``PATH (how it was chosen)``: where a command's records are, in its words."""
    path, why = where_stored(db)
    return str(path) if why == "--db" else f"{path} ({why})"


def existing_store(db: Path | None) -> None:
    """For commands that only read: ``NoughtsError`` if ``--db`` names a file that does not exist
    (opening it would make an empty store and answer from it, hiding the typo).
    """
    if db is not None and str(db) != ":memory:" and not db.exists():
        raise NoughtsError(
            f"there is no store at {db} (a store is made when the first game is recorded in it)"
        )


def missing_game(game_id: int, db: Path | None) -> NoughtsError:
    """The error for a game id that is not in the store: says where to find the ids."""
    return NoughtsError(
        f"there is no game {game_id} in {store_label(db)}: 'noughts games list' shows the stored games"
        " and their ids"
    )


def _result(spec: str, outcome: str | None, status: str, labels: dict[str, Any]) -> str:
    if outcome is None:
        return "in play" if status == "playing" else "-"
    game = labels.get(spec)
    if spec not in labels:
        import noughts

        try:
            game = noughts.game(spec)
        except NoughtsError:  # a spec this noughts cannot build: the store's own word
            game = None
        labels[spec] = game
    if game is None:
        return {"first": "first player wins", "second": "second player wins"}.get(outcome, outcome)
    from noughts.core import Outcome

    return str(game.outcome_text(Outcome(outcome)))


def games_list(
    spec: Annotated[
        str | None,
        typer.Option(
            "--spec", metavar="SPEC", help="Only games of this game (any spelling: tictactoe is mnk(3,3,3))."
        ),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(
            metavar="NAME", help="Only games this player played, on either side (human, perfect, ...)."
        ),
    ] = None,
    status: Annotated[
        str | None, typer.Option(metavar="STATUS", help="Only finished or playing (unfinished) games.")
    ] = None,
    source: Annotated[
        str | None, typer.Option(metavar="SOURCE", help="Only games from play, web, match or import.")
    ] = None,
    limit: Annotated[
        int, typer.Option(min=1, max=MAX_LIST, metavar="N", help="Show at most N games, the newest first.")
    ] = 20,
    db: DbOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """List the stored games, newest first: id, game, players, result, moves, date; the store's path.

    The JSON document (--json) also gives each game's status and source (play, web, match, import).

    The ids are what 'noughts games export ID' and the web arena's Games page take. Without
    --db the store is the project's (.noughts/noughts.db in the nearest folder up from here
    that has a .noughts folder; 'make run' makes one in a clone), else the per-user store.
    """
    import noughts
    from noughts.store import Store

    if status is not None and status not in ("finished", "playing"):
        raise NoughtsError(f"--status is finished or playing, not {status!r}")
    canonical = None if spec is None else str(noughts.game(spec))
    existing_store(db)
    path, why = where_stored(db)
    if db is None and not path.exists():  # do not make a store only to say it is empty
        records: list[Any] = []
        more = False
    else:
        with Store(path) as store:
            found = store.games(status, spec=canonical, source=source, player=player, limit=limit + 1)
        records, more = found[:limit], len(found) > limit
    labels: dict[str, Any] = {}
    if as_json:
        doc = {
            "store": str(path),
            "games": [
                {
                    "id": r.id,
                    "spec": r.spec,
                    "first": r.first,
                    "second": r.second,
                    "status": r.status,
                    "outcome": r.outcome,
                    "result": _result(r.spec, r.outcome, r.status, labels),
                    "plies": r.plies,
                    "source": r.source,
                    "created": r.created,
                    "updated": r.updated,
                }
                for r in records
            ],
            "more": more,
        }
        typer.echo(json.dumps(doc))
        return
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    console.print(f"store: {path}" + ("" if why == "--db" else f" ({why})"), style="dim", soft_wrap=True)
    if not records:
        asked = any(x is not None for x in (spec, player, status, source))
        console.print(
            "no games match" if asked else "no games yet: 'noughts play tictactoe' plays one and records it"
        )
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    table.add_column("id", justify="right", no_wrap=True)
    table.add_column("game", no_wrap=True)  # a spec whole (the players' names give way first)
    table.add_column("players (first vs second)", overflow="fold", ratio=1)
    table.add_column("result")
    table.add_column("moves", justify="right")
    table.add_column("updated (UTC)", no_wrap=True)
    for r in records:
        table.add_row(
            str(r.id),
            r.spec,
            f"{r.first} vs {r.second}",
            _result(r.spec, r.outcome, r.status, labels),
            str(r.plies),
            r.updated[:16].replace("T", " "),
        )
    console.print(table)
    shown = f"{len(records)} game{'' if len(records) == 1 else 's'}, the newest first"
    tail = f"; more with --limit {min(MAX_LIST, 2 * limit)}" if more else ""
    console.print(f"{shown}{tail}. Export one: noughts games export ID --out game.ntr", style="dim")
