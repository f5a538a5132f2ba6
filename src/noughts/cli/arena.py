"""``noughts grade``, ``match``, ``tournament`` and ``ratings``: agents against the truth and
against each other. Each command is a few lines over :mod:`noughts.arena`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

import noughts
from noughts.cli import plural
from noughts.cli.specs import resolve_agent
from noughts.cli.stores import DbOpt, existing_store, store_label
from noughts.core import NoughtsError

if TYPE_CHECKING:
    from rich.table import Table

__all__ = ["register"]

AgentArg = Annotated[
    str,
    typer.Argument(
        metavar="AGENT",
        help="An agent spec: random, perfect, minimax:depth=3, mcts:sims=2000,solver=true, a saved agent"
        " x.json or saved:NAME; any of them with seconds=S for a move time limit.",
    ),
]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print one JSON document (its keys: docs/cli.md, 'JSON documents').")
]
SeedOpt = Annotated[
    int | None, typer.Option(min=0, help="Seed for every random choice (default: a fresh one, printed).")
]
NoRecordOpt = Annotated[bool, typer.Option("--no-record", help="Do not record the games in the store.")]
WorkersOpt = Annotated[
    int,
    typer.Option(
        min=0, help="Processes to play on (0: one per CPU; agents given as specs are rebuilt in each)."
    ),
]


@contextmanager
def _progress(enabled: bool, title: str) -> Iterator[Callable[[int, int], None]]:
    """A Rich progress bar on stderr (when it is a terminal); yields ``progress(done, total)``."""
    from rich.console import Console

    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield lambda done, total: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    task = bar.add_task(title, total=None)
    with bar:

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


@contextmanager
def _recording(db: Path | None, no_record: bool) -> Iterator[Any]:
    """The store that records the games (``db``, or the per-user one), closed on the way out;
    None with ``no_record``.
    """
    if no_record:
        yield None
        return
    from noughts.store import Store

    store = Store(db)
    try:
        yield store
    finally:
        store.close()


def _play_recorded(
    play: Callable[..., Any],
    args: tuple[Any, ...],
    *,
    title: str,
    show: bool,
    db: Path | None,
    no_record: bool,
    workers: int,
    **options: Any,
) -> dict[str, Any]:
    """Run ``play(*args, **options)`` (a match or a tournament) recording in the store, with a
    progress bar when ``show``; its result as JSON. ``workers`` 0 means one per CPU.
    """
    with _recording(db, no_record) as store, _progress(show, title) as tick:
        result = play(*args, store=store, progress=tick, workers=None if workers == 0 else workers, **options)
    doc: dict[str, Any] = result.to_json()
    return doc


def _rating(rating: float, stderr: float | None) -> str:
    """A rating on the Elo scale with its standard error when there is one."""
    return f"{rating:+.0f}" + ("" if stderr is None else f" ± {stderr:.0f}")


def _pct(x: float | None) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _elo(x: float | None) -> str:
    return "inf" if x is None else f"{x:+.0f}"


DEFAULT_SAMPLE = 2000
"""Positions graded when a game has too many to list and no ``--sample`` was given."""


def grade(
    agent: AgentArg,
    spec: Annotated[
        str | None,
        typer.Argument(metavar="SPEC", help="The game (a saved agent knows its own game)."),
    ] = None,
    sample: Annotated[
        int | None,
        typer.Option(min=1, metavar="N", help="Grade N positions met in random games instead of all."),
    ] = None,
    games: Annotated[int, typer.Option(min=0, help="Games as each side against the perfect player.")] = 20,
    seed: Annotated[int, typer.Option(min=0, help="Seed for the agent, the sample and the games.")] = 0,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="Optimal also means as fast a win (as slow a loss) as the solver."),
    ] = False,
    blunders: Annotated[int, typer.Option(min=0, help="How many of the worst moves to show.")] = 5,
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", min=0.001, help="Stop (exit 3) after this many seconds.")
    ] = 600.0,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Grade an agent against the exact solver: optimal-move rate, results against perfect play.

    The share of reachable positions where its move is optimal, its results as each side
    against the perfect player, and its worst blunders. A game with too many positions to list
    (found out in about a second) is graded on a sample, with a notice.
    """
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from noughts.agents import make_agent
    from noughts.arena.grade import grade as run_grade
    from noughts.exact.estimate import TooManyPositions

    player = make_agent(resolve_agent(agent, db))
    if spec is None:
        known = getattr(player, "game", None) or getattr(player, "spec", None)
        if known is None:
            raise NoughtsError(f"name the game to grade {agent} on, e.g. noughts grade {agent} tictactoe")
        spec = str(known)
    game = noughts.game(spec)

    def run(size: int | None) -> Any:
        with _progress(not as_json, f"grading {agent} on {game}") as tick:
            return run_grade(
                player,
                game,
                sample=size,
                games=games,
                seed=seed,
                strict=strict,
                blunders=blunders,
                max_seconds=max_seconds,
                progress=tick,
            )

    try:
        result = run(sample)
    except TooManyPositions as e:
        if sample is not None:
            raise
        typer.echo(
            f"noughts: notice: {e}; grading a sample of {DEFAULT_SAMPLE:,} positions met in random games "
            "instead (--sample N to choose)",
            err=True,
        )
        result = run(DEFAULT_SAMPLE)
    if as_json:
        doc = result.to_json()
        doc["agent"] = agent.strip()
        typer.echo(json.dumps(doc))
        return
    console = Console(highlight=False)
    what = "sampled positions" if result.sampled else "reachable positions"
    console.print(
        f"[bold]{agent}[/] on [bold]{game}[/] (start: {result.start_value}): optimal move in "
        f"[bold]{_pct(result.optimal_move_rate)}[/] of {result.positions:,} {what} "
        f"({result.optimal:,}){' [strict]' if strict else ''}"
    )
    table = Table(box=box.SIMPLE_HEAD, title="against the perfect player")
    for col in ("as", "games", "wins", "draws", "losses"):
        table.add_column(col, justify="right" if col != "as" else "left")
    for label, side in (("first", result.as_first), ("second", result.as_second)):
        table.add_row(label, str(side.games), str(side.wins), str(side.draws), str(side.losses))
    console.print(table)
    for b in result.blunders:
        console.print(
            f"[bold red]{b.to_move} played {b.move}[/] ({b.value_after}); best {', '.join(b.best_moves)} "
            f"({b.value})  [dim]{b.position}[/]"
        )
        console.print(b.board, style="dim")
    console.print(f"{result.seconds:.2f} s", style="dim")


def match(
    agent_a: Annotated[str, typer.Argument(metavar="A", help="The first agent spec.")],
    agent_b: Annotated[str, typer.Argument(metavar="B", help="The second agent spec.")],
    spec: Annotated[str, typer.Argument(metavar="SPEC", help="The game.")],
    games: Annotated[int, typer.Option(min=1, help="Games to play.")] = 100,
    swap: Annotated[
        bool, typer.Option("--swap/--no-swap", help="Alternate who moves first (A first in even games).")
    ] = True,
    seed: SeedOpt = None,
    db: DbOpt = None,
    no_record: NoRecordOpt = False,
    workers: WorkersOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Play a match between two agents: results with 95% confidence intervals, by side."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from noughts.arena.match import play_match

    game = noughts.game(spec)
    doc = _play_recorded(
        play_match,
        (game, resolve_agent(agent_a, db), resolve_agent(agent_b, db)),
        title=f"{agent_a} vs {agent_b}",
        show=not as_json,
        db=db,
        no_record=no_record,
        workers=workers,
        games=games,
        swap=swap,
        seed=seed,
    )
    if as_json:
        typer.echo(json.dumps(doc))
        return
    console = Console(highlight=False)
    console.print(
        f"[bold]{game}[/]: {doc['a']} (A) vs {doc['b']} (B), {plural(doc['games'], 'game')}, seed {doc['seed']}"
    )
    table = Table(box=box.SIMPLE_HEAD)
    for col in ("A moved", "games", "A wins", "draws", "B wins", "A win rate (95% CI)"):
        table.add_column(col, justify="left" if col == "A moved" else "right")
    for label, key in (("first", "a_as_first"), ("second", "a_as_second")):
        side = doc[key]
        if side["games"]:
            lo, hi = side["win_rate_ci"]
            rate = side["wins"] / side["games"]
            table.add_row(
                label,
                str(side["games"]),
                str(side["wins"]),
                str(side["draws"]),
                str(side["losses"]),
                f"{_pct(rate)} ({_pct(lo)}-{_pct(hi)})",
            )
    table.add_row("all", str(doc["games"]), str(doc["a_wins"]), str(doc["draws"]), str(doc["b_wins"]), "")
    console.print(table)
    lo, hi = doc["a_score_ci"]
    console.print(
        f"A's score {_pct(doc['a_score'])} (95% CI {_pct(lo)}-{_pct(hi)}); Elo difference "
        f"{_elo(doc['elo_difference'])} ({_elo(doc['elo_difference_ci'][0])} to {_elo(doc['elo_difference_ci'][1])})"
    )
    for forfeit in doc["forfeits"]:  # engines that crashed, hung or played an illegal move
        console.print(f"game {forfeit['game'] + 1}: {forfeit['reason']}", markup=False)
    if doc["match_id"] is not None:
        console.print(f"recorded as match {doc['match_id']} in {store_label(db)}", style="dim")
    console.print(f"{doc['seconds']:.2f} s", style="dim")


def tournament(
    spec: Annotated[str, typer.Argument(metavar="SPEC", help="The game.")],
    agents: Annotated[list[str], typer.Argument(metavar="AGENT...", help="Two or more agent specs.")],
    games: Annotated[int, typer.Option(min=1, help="Games per pair (sides alternate).")] = 20,
    seed: SeedOpt = None,
    db: DbOpt = None,
    no_record: NoRecordOpt = False,
    workers: WorkersOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Play a round robin: every pair plays a match; standings and Bradley-Terry ratings."""
    from rich.console import Console

    from noughts.arena.tournament import play_tournament

    game = noughts.game(spec)
    doc = _play_recorded(
        play_tournament,
        (game, [resolve_agent(a, db) for a in agents]),
        title=f"tournament on {game}",
        show=not as_json,
        db=db,
        no_record=no_record,
        workers=workers,
        games=games,
        seed=seed,
    )
    if as_json:
        typer.echo(json.dumps(doc))
        return
    console = Console(highlight=False)
    console.print(
        f"[bold]{game}[/]: {len(agents)} agents, {plural(games, 'game')} per pair, seed {doc['seed']}"
    )
    console.print(_standings_table(doc["standings"]))
    console.print(
        "rating: Bradley-Terry on the Elo scale (mean 0) ± its standard error; elo: sequential Elo (k=16)",
        style="dim",
    )
    console.print(f"{doc['seconds']:.2f} s", style="dim")


def _standings_table(rows: list[dict[str, Any]]) -> Table:
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD)
    for col in ("agent", "games", "wins", "draws", "losses", "score", "rating", "elo"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for r in rows:
        rating = "-" if r["rating"] is None else _rating(r["rating"], r.get("rating_stderr"))
        table.add_row(
            r["agent"],
            str(r["games"]),
            str(r["wins"]),
            str(r["draws"]),
            str(r["losses"]),
            _pct(r["score"]),
            rating,
            "-" if r.get("elo") is None else f"{r['elo']:+.0f}",
        )
    return table


def ratings(
    spec: Annotated[
        str | None, typer.Argument(metavar="SPEC", help="The game whose games are rated.")
    ] = None,
    all_games: Annotated[
        bool, typer.Option("--all-games", help="Pool the games of every game into one table instead.")
    ] = False,
    db: DbOpt = None,
    source: Annotated[str | None, typer.Option(help="Only games from this source (match, web, ...).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Rate the agents of one game from its finished games recorded in the store (Bradley-Terry).

    Ratings are per game (an agent strong at tic-tac-toe may be weak at 4x4x4): name the game,
    unless the store holds games of one game only; --all-games pools every game into one table,
    saying so.
    """
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from noughts.arena.ratings import bradley_terry
    from noughts.store import Store

    if spec is not None and all_games:
        raise NoughtsError("give a game or --all-games, not both")
    canonical = None if spec is None else str(noughts.game(spec))
    existing_store(db)
    with Store(db) as store:
        played = store.game_counts(source=source)
        if canonical is None and not all_games and len(played) == 1:
            canonical = next(iter(played))  # one game recorded: that is the game
        if canonical is None and not all_games:
            games_list = ", ".join(f"{k} ({v:,})" for k, v in list(played.items())[:8])
            raise NoughtsError(
                "ratings are per game: name one (noughts ratings SPEC), or pool them all with --all-games"
                + (f"; recorded: {games_list}" if games_list else "; no finished games are recorded yet")
            )
        results = store.match_results(spec=canonical, source=source)
    if not results:
        raise NoughtsError("no finished games recorded" + (f" for {canonical}" if canonical else ""))
    bt = bradley_terry(results)
    if as_json:
        typer.echo(
            json.dumps({"game": canonical, "all_games": all_games, "games": len(results)} | bt.to_json())
        )
        return
    console = Console(highlight=False)
    if all_games:
        kinds = len(played)
        console.print(
            f"every game pooled: {plural(len(results), 'game')} of {plural(kinds, 'kind')} of game in one table",
            style="bold",
        )
    else:
        console.print(f"{canonical}: {plural(len(results), 'game')}", style="bold")
    console.print(f"from {store_label(db)}", style="dim")  # a fresh clone's store holds only its games
    table = Table(box=box.SIMPLE_HEAD)
    for col in ("agent", "games", "rating"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for name, rating, se, n in bt.table():
        table.add_row(name, str(n), _rating(rating, se))
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``grade``, ``match``, ``tournament`` and ``ratings`` to ``app``."""
    app.command()(grade)
    app.command()(match)
    app.command()(tournament)
    app.command()(ratings)
