"""The ``noughts`` command: show a game, play it, list the games there are.

Each command is a few lines over library calls (see :mod:`noughts.cli.views` for what is
printed and :mod:`noughts.cli.session` for a game at the terminal). Bad input of any kind (a
spec, a position, an agent) is a :class:`noughts.NoughtsError`; it is caught once, at the top
(:class:`NoughtsGroup`), printed as one line on stderr, and ends the command with the status
:mod:`noughts.cli.exits` gives it: 2 for bad input, 3 when a budget ran out (1 is a "no").
"""

from __future__ import annotations

import json
import secrets
import shlex
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer._click.exceptions import UsageError
from typer.core import TyperGroup

import noughts
from noughts.agents import agent_names
from noughts.cli import HUMAN
from noughts.cli.exits import Exit, answer, status_of
from noughts.cli.options import guard_numbers, usage_line
from noughts.cli.paths import check_writable
from noughts.cli.specs import resolve_agent
from noughts.cli.stores import checked_db
from noughts.core import ENTRIES, LimitExceeded, NoughtsError, Player
from noughts.core.budget import Budget

# What the commands print with (Rich), the engines and the kernels are imported inside the
# commands that use them: ``noughts --help`` and the commands that need no kernel start light.
if TYPE_CHECKING:
    from rich.console import Console

    from noughts.agents import Agent
    from noughts.core.values import MoveValue, SolveResult, Value
    from noughts.exact.api import Steps


def load_table(path: Path, game: noughts.Game) -> object:
    """A solved table saved by ``solve --save``, checked against ``game``."""
    from noughts.exact.table import load_table as load

    return load(path, game)


__all__ = ["NoughtsGroup", "app", "main"]

BAD_INPUT = Exit.BAD_INPUT
"""Exit status for bad input (a spec, a position or an agent that cannot be used)."""


class NoughtsGroup(TyperGroup):
    """Runs a command; a ``NoughtsError`` becomes one line on stderr and the exit status of
    :func:`noughts.cli.exits.status_of` (2 bad input, 3 a budget ran out).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        guard_numbers(self)  # bounds on every number option (noughts.cli.options)

    def invoke(self, ctx: Any) -> Any:
        raw = [*getattr(ctx, "_protected_args", ()), *getattr(ctx, "args", ())]  # before click takes them
        try:
            return super().invoke(ctx)
        except NoughtsError as error:
            if (
                isinstance(error, LimitExceeded)
                and "--json" in raw
                and not getattr(error, "json_printed", False)
            ):
                # every --json prints a document, also when a budget stops the work
                typer.echo(json.dumps({"complete": False, "stopped": str(error)}))
                error.json_printed = True  # type: ignore[attr-defined]
            typer.echo(f"noughts: error: {error}", err=True)
            raise typer.Exit(status_of(error)) from None
        except UsageError as error:  # a bad value, an unknown option: one line too
            typer.echo(usage_line(error), err=True)
            raise typer.Exit(BAD_INPUT) from None

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The commands, each with its whole summary (click's own list cuts them short)."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=1000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


app = typer.Typer(
    name="noughts",
    cls=NoughtsGroup,
    help=(
        "Play and study the tic-tac-toe family of games.\n\n"
        "A game is named by a spec: a board (tictactoe, mnk(4,4,4), hypercube(4,3)) or rules around"
        " one (misere(tictactoe), veto(mnk(4,4,4)), notakto(boards=2), otrio). Quote specs in the"
        " shell. 'noughts games' lists them all.\n\n"
        "Exit status: 0 done; 1 the answer is no (a check failed, no pairing exists); 2 bad input;"
        " 3 a budget ran out."
    ),
    no_args_is_help=True,
    add_completion=False,
    # plain help (Rich's help panels load Markdown, tracebacks and more: the help must start light)
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"noughts {noughts.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print noughts' version and exit."
        ),
    ] = False,
) -> None:
    """The options that come before a command."""
    from noughts.core.hypergraphs import allow_user_files

    # hypergraph(file="...") reads the user's file at the command line, never in the web server
    ctx.call_on_close(allow_user_files())


SpecArg = Annotated[
    str, typer.Argument(metavar="SPEC", help="The game, e.g. tictactoe or 'misere(mnk(4,4,4))'.")
]


@app.command()
def show(
    spec: SpecArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document instead.")] = False,
) -> None:
    """Show a game: its rules, board figures, symmetries, move notation and empty board."""
    from rich.console import Console
    from rich.text import Text

    from noughts.cli.views import game_facts, styled_board

    console = Console(highlight=False)
    with console.status(f"building {spec} ...", spinner="dots"):  # large boards take a while
        game = noughts.game(spec)
        facts = game_facts(game)
    if as_json:
        typer.echo(json.dumps(facts, indent=2))
        return
    properties = ", ".join(
        f"{name.replace('_', ' ')}: {_word(value)}" for name, value in facts["properties"].items()
    )
    same_marks = " (both draw the same mark)" if game.properties.same_marks else ""
    rows = [
        ("game", facts["game"]),
        ("rules", facts["rules"]),
        ("cells", str(facts["cells"])),
        ("winning lines", str(facts["lines"])),
        ("most lines through one cell", str(facts["max_lines_through_cell"])),
        ("symmetries", str(facts["symmetries"])),
        ("actions", str(facts["actions"])),
        ("properties", properties),
        ("players", " then ".join(facts["players"]) + same_marks),
        ("moves", facts["notation"]),
    ]
    if "line_list" in facts:  # a board given by its lines: the whole group, and the lines listed
        rows.insert(6, ("automorphisms", f"{facts['automorphisms']:,} (found from the lines)"))
        shown = facts["line_list"][:40]
        more = len(facts["line_list"]) - len(shown)
        rows.append(("lines", " / ".join(shown) + (f" / ... {more} more" if more else "")))
    width = max(len(key) for key, _ in rows) + 2
    for key, value in rows:
        console.print(Text.assemble((key.ljust(width), "bold"), value), soft_wrap=True)
    console.print()
    console.print(styled_board(game.start()))


def _word(value: object) -> str:
    if value is None:
        return "none"
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


PLAY_HELP = (
    "Play a game at the terminal: people type moves, agents choose theirs.\n\n"
    "At a person's turn, type a move in the game's notation (e.g. b2; 'noughts show SPEC' tells it) or"
    " a command: 'moves' lists the legal moves, 'undo' takes back your last move and the reply to it,"
    " 'help', 'quit'. End of input quits too. With two agents nothing is read from stdin."
)


@app.command(help=PLAY_HELP)
def play(
    spec: SpecArg,
    x: Annotated[
        str,
        typer.Option(
            "--x",
            metavar="PLAYER",
            help="Who makes the first move: 'human' or an agent (" + ", ".join(agent_names()) + ", a saved"
            " agent FILE.json or saved:NAME; add seconds=S for a move time limit). "
            "This is the x player, except in notakto, where both players draw x, and in maker_breaker "
            "with breaker_first=true, where the first player is Breaker and draws o.",
        ),
    ] = HUMAN,
    o: Annotated[
        str, typer.Option("--o", metavar="PLAYER", help="Who makes the second move: 'human' or an agent.")
    ] = "random",
    seed: Annotated[
        int | None,
        typer.Option(min=0, help="Seed for the agents' random choices (default: a fresh one, printed)."),
    ] = None,
    position: Annotated[
        str | None,
        typer.Option(
            metavar="TEXT", help="Start from this position, in the game's text form, e.g. 'x../.o./...'."
        ),
    ] = None,
    delay: Annotated[float, typer.Option(min=0.0, help="Seconds to wait after each agent move.")] = 0.0,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            metavar="FILE",
            help=(
                "The store that records the game, move by move, and where saved:NAME agents are"
                " registered (default: the project's .noughts/noughts.db if there is one, else the"
                " per-user store; 'noughts games list' prints which)."
            ),
            callback=checked_db,
        ),
    ] = None,
    no_record: Annotated[
        bool, typer.Option("--no-record", help="Do not record the game in the store.")
    ] = False,
    hint_seconds: Annotated[
        float,
        typer.Option(
            "--hint-seconds",
            min=0.01,
            max=600,
            help="'hint' past the solver's reach (10 s) on claim games: the engine's view within this long.",
        ),
    ] = 1.5,
) -> None:
    """Play a game at the terminal (the help Typer shows is ``PLAY_HELP``)."""
    import numpy as np
    from rich.console import Console
    from rich.text import Text

    from noughts.agents import make_agent
    from noughts.agents.base import check_plays
    from noughts.cli.session import PlaySession

    game = noughts.game(spec)
    start = game.start() if position is None else game.parse(position)
    names = {Player.FIRST: x.strip(), Player.SECOND: o.strip()}
    for name in names.values():
        if name.lower() == HUMAN and name != HUMAN:
            raise NoughtsError(f"unknown player {name!r}: a person is 'human' (names are lower case)")
    players: dict[Player, Agent | None] = {
        p: None if name == HUMAN else make_agent(resolve_agent(name, db)) for p, name in names.items()
    }
    for agent in players.values():  # an agent that cannot play this game says so before the board
        if agent is not None:
            check_plays(agent, game)
    console = Console(highlight=False)
    intro = f"{game}: " + ", ".join(f"{game.player_label(p)} {names[p]}" for p in Player)
    if any(agent is not None for agent in players.values()):
        seed = secrets.randbelow(1_000_000) if seed is None else seed
        intro += f" (seed {seed})"
    with _game_log(db, no_record, game, names, start, seed) as log:  # the store opens before any output
        console.print(Text(intro, style="bold"))
        session = PlaySession(
            game, start, players, names, np.random.default_rng(seed), console, delay, log=log
        )
        session.hint_engine_seconds = hint_seconds
        session.run()
        if log is not None and None in players.values():  # a person played: say where the game is kept
            where = "" if db is None else f" --db {shlex.quote(str(db))}"
            resume = (
                ""
                if session.position.is_terminal()
                else f" (the web arena resumes it: open #/play/{log.id}/{log.token}; without the token it is watched only)"
            )
            typer.echo(
                f"recorded as game {log.id}{resume}; review it: "
                f"noughts games export {log.id}{where} | noughts review -",
                err=True,
            )


@contextmanager
def _game_log(
    db: Path | None,
    no_record: bool,
    game: noughts.Game,
    names: dict[Player, str],
    start: Any,
    seed: int | None,
) -> Iterator[Any]:
    """The store's record of a game played at the terminal (None with ``no_record``)."""
    if no_record:
        yield None
        return
    from noughts.record.store import GameLog
    from noughts.store import Store

    with Store(db) as store:
        log = GameLog(
            store,
            game,
            names[Player.FIRST],
            names[Player.SECOND],
            start,
            metadata=None if seed is None else {"seed": seed},
        )
        yield log


MaxSeconds = Annotated[
    float,
    typer.Option(
        "--max-seconds", min=0.001, help="Stop (exit 3) after this many seconds of wall-clock time."
    ),
]
MaxCpuSeconds = Annotated[
    float | None,
    typer.Option("--max-cpu-seconds", min=0.001, help="Stop (exit 3) after this many seconds of CPU time."),
]
MaxMemory = Annotated[
    int,
    typer.Option("--max-memory", metavar="MIB", min=1, help="Stop (exit 3) past this many MiB of tables."),
]
PositionOpt = Annotated[
    str | None, typer.Option("--position", metavar="TEXT", help="Analyse this position (its text form).")
]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print one JSON document (its keys: docs/cli.md, 'JSON documents').")
]


def _prove(
    spec: str,
    position: str | None,
    who: str,
    as_json: bool,
    max_seconds: float,
    max_memory: int,
    max_cpu_seconds: float | None,
    console: Console,
) -> None:
    from noughts.cli.progress import delayed_bar
    from noughts.exact.api import prove

    players = {"first": Player.FIRST, "second": Player.SECOND, "mover": None}
    if who not in players:
        raise NoughtsError(f"--prove takes first, second or mover, not {who!r}")
    game = noughts.game(spec)
    with delayed_bar(not as_json, f"proof-number search on {game}") as progress:
        result = prove(
            game,
            position,
            players[who],
            max_seconds=max_seconds,
            max_memory=max_memory * 2**20,
            max_cpu_seconds=max_cpu_seconds,
            progress=progress,
        )
    if as_json:
        typer.echo(json.dumps({"game": str(game), **result.to_json()}))
    else:
        console.print(f"{game}: {result.describe()}", style="bold")
        if result.move is not None:
            console.print(f"a winning move: {game.format_move(result.move)}")
        console.print(
            f"{result.nodes:,} nodes expanded in {result.seconds:.3f} s ({result.method})", style="dim"
        )
    answer(result.proved)


SOLVE_HELP = (
    "Solve a position exactly: its value first, then every move's value, then the best line.\n\n"
    "The value is printed as soon as it is proved, then each move as its value is. Over a budget"
    " (--max-seconds, --max-cpu-seconds, --max-memory) what was proved is printed and the command"
    " exits 3. The engine is chosen automatically (the alpha-beta kernel on small boards, the proof"
    " engine beyond: --engine picks one; the JSON names it). --certificate FILE has the proof"
    " engine write a certificate of the value, which 'noughts solve check FILE' verifies (exit 0"
    " valid, 1 invalid, 2 unreadable or not a certificate); it checks every kind noughts writes (a"
    " strategy, a Breaker strategy, a casework proof, a retrograde table), as 'noughts prove check' does."
)


@app.command(help=SOLVE_HELP)
def solve(
    spec: SpecArg,
    file: Annotated[
        Path | None,
        typer.Argument(metavar="[FILE]", help="With 'check' as SPEC: the certificate to verify."),
    ] = None,
    position: PositionOpt = None,
    as_json: JsonOpt = False,
    max_seconds: MaxSeconds = 60.0,
    max_cpu_seconds: MaxCpuSeconds = None,
    max_memory: MaxMemory = 2048,
    value_only: Annotated[
        bool, typer.Option("--value-only", help="Only the position's value (no moves, no best line).")
    ] = False,
    engine: Annotated[
        str,
        typer.Option(
            metavar="ENGINE",
            help="auto, alpha-beta (the kernel), python, proof (the proof engine) or breaker (the Breaker prover).",
        ),
    ] = "auto",
    certificate: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Write a certificate of the value (FILE.json and FILE.npz; the proof engine, or for a misère draw strategies ending at leaves the checker proves).",
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Solve every reachable position from the start and save the table (.npz); checked before the work.",
        ),
    ] = None,
    table: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Answer from a table saved with --save.")
    ] = None,
    prove: Annotated[
        str | None,
        typer.Option(
            metavar="PLAYER",
            help="Only ask whether PLAYER (first, second or mover) can force a win, by proof-number"
            " search: an independent check of the value, sharing no code with alpha-beta. Exit 1 if not.",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Split the solve into independent jobs, one per position --split-depth plies deep (up to"
            " symmetry), run by this many local processes (or by the Ray cluster of --ray).",
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Run the split solve's jobs on the Ray cluster at ADDRESS ('local': a local Ray).",
        ),
    ] = None,
    split_depth: Annotated[
        int,
        typer.Option(min=1, help="With --workers or --ray: plies from the position to the jobs' positions."),
    ] = 1,
) -> None:
    """Solve a position exactly (the help Typer shows is ``SOLVE_HELP``): one mode, one function."""
    from rich.console import Console

    console = Console(highlight=False)
    if spec == "check":
        _solve_check(file, as_json, Budget(max_seconds, max_memory * 2**20, max_cpu_seconds))
        return
    _check_solve_options(file, save, prove, table, position)
    if prove is not None:
        _prove(spec, position, prove, as_json, max_seconds, max_memory, max_cpu_seconds, console)
        return
    if save is not None:
        _save_table(spec, save, Budget(max_seconds, max_memory * 2**20, max_cpu_seconds), as_json, console)
        return
    _solve_position(
        spec,
        position,
        table,
        certificate,
        as_json,
        console,
        workers=workers,
        ray=ray,
        split_depth=split_depth,
        engine=engine,
        max_seconds=max_seconds,
        max_cpu_seconds=max_cpu_seconds,
        max_memory=max_memory,
        value_only=value_only,
    )


def _solve_check(file: Path | None, as_json: bool, budget: Budget) -> None:
    """``solve check FILE``: any certificate noughts writes, verified (as ``prove check``)."""
    if file is None:
        raise NoughtsError("noughts solve check FILE: name the certificate's .json file")
    from noughts.cli.certify import check_command

    check_command(file, as_json, budget)


def _solve_position(
    spec: str,
    position: str | None,
    table: Path | None,
    certificate: Path | None,
    as_json: bool,
    console: Console,
    **options: Any,
) -> None:
    """``solve SPEC``: the value as soon as it is proved, each move as it is, then the best moves,
    the best line and the cost (or one JSON document); over budget, what was proved and status 3.
    ``options`` are :func:`_run_solve`'s.
    """
    from noughts.cli.analysis import move_header, move_line, value_text
    from noughts.cli.progress import compile_notice, delayed_bar
    from noughts.cli.views import styled_line

    if certificate is not None:
        from noughts.core.certificates import certificate_paths

        check_writable(certificate_paths(certificate)[0], "--certificate", (".json",))
    game = noughts.game(spec)
    solved = load_table(table, game) if table is not None else None
    start = game.start() if position is None else game.parse(position)
    mover = start.to_move

    def shown_value(value: Value) -> None:
        if not as_json:
            console.print(styled_line(f"{game}: {value_text(game, value)}"), style="bold")

    def shown_move(mv: MoveValue, i: int, n: int) -> None:
        if not as_json:
            if i == 0:  # the columns' labels, once
                console.print(move_header(game, mover))
            console.print(move_line(game, mover, mv, i, n))

    try:
        with compile_notice(), delayed_bar(not as_json, f"solving {game}") as progress:
            result = _run_solve(
                game, start, solved, shown_value, shown_move, progress, certificate=certificate, **options
            )
    except LimitExceeded as error:
        if as_json:
            typer.echo(
                json.dumps(
                    {"game": str(game), "position": start.text(), "complete": False, "stopped": str(error)}
                )
            )
            error.json_printed = True  # type: ignore[attr-defined]
        raise error from None  # one line on stderr and status 3, as every command over budget
    if as_json:
        typer.echo(json.dumps(result.to_json()))
    else:
        _solve_summary(console, result)
    if not result.complete:
        _stopped_after_the_value(result)


def _check_solve_options(
    file: Path | None, save: Path | None, prove: object, table: object, position: str | None
) -> None:
    """``solve``'s options that do not go together, refused before any work."""
    if file is not None:
        raise NoughtsError(
            f"unexpected argument {str(file)!r} (only 'noughts solve check FILE' takes a file)"
        )
    if save is not None:
        clash = [
            name
            for name, given in (("--prove", prove), ("--table", table), ("--position", position))
            if given
        ]
        if clash:
            raise NoughtsError(
                f"--save builds the whole table from the start; it does not go with {' or '.join(clash)}"
            )
        check_writable(save, "--save", (".npz",))


def _save_table(spec: str, save: Path, budget: Budget, as_json: bool, console: Console) -> None:
    """``solve SPEC --save FILE``: the value of every position reachable from the start, saved."""
    from noughts.exact.table import build_table
    from noughts.retrograde.analysis import solve_table

    game = noughts.game(spec)
    built = build_table(game, budget) if game.properties.bounded else solve_table(game, budget=budget)
    try:
        built.save(save)
    except OSError as e:
        raise NoughtsError(f"cannot write --save {save}: {e.strerror or e}") from None
    summary = {"game": str(game), "positions": len(built), "file": str(save), "seconds": budget.elapsed()}
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        console.print(
            f"saved the value of {len(built):,} positions of {game} to {save} ({budget.elapsed():.2f} s)"
        )


def _stopped_after_the_value(result: SolveResult) -> NoReturn:
    """As every command over budget: one line on stderr, status 3 (what was proved is above)."""
    total = result.moves_total if result.moves_total is not None else len(result.moves)
    typer.echo(
        f"noughts: error: {result.stopped}; the value was proved, and {len(result.moves)} of {total} moves",
        err=True,
    )
    raise typer.Exit(Exit.BUDGET)


def _run_solve(
    game: noughts.Game,
    start: noughts.Position,
    solved: object,
    shown_value: Callable[[Value], None],
    shown_move: Callable[[MoveValue, int, int], None],
    progress: Steps | None,
    *,
    workers: int | None,
    ray: str | None,
    split_depth: int,
    engine: str,
    max_seconds: float,
    max_cpu_seconds: float | None,
    max_memory: int,
    value_only: bool,
    certificate: Path | None,
) -> SolveResult:
    """``solve``'s library call: the split solve with ``--workers``/``--ray``, else one process;
    ``progress`` (None under ``--json``) is told the steps of the one-process solve, and the split
    solve's executor counts its jobs.
    """
    from noughts.solving import solve as run_solve

    if workers is not None or ray is not None:
        from noughts.solving import solve_split

        if solved is not None:
            raise NoughtsError("--workers and --ray split a search; a --table answers without one")
        return solve_split(
            game,
            start,
            workers=workers,
            address=ray,
            depth=split_depth,
            engine=engine,
            max_seconds=max_seconds,
            max_cpu_seconds=max_cpu_seconds,
            max_memory=max_memory * 2**20,
            value_only=value_only,
            certificate=certificate,
            progress=progress,
            on_value=shown_value,
            on_move=shown_move,
        )
    return run_solve(
        game,
        start,
        max_seconds=max_seconds,
        max_cpu_seconds=max_cpu_seconds,
        max_memory=max_memory * 2**20,
        table=solved,
        progress=progress,
        engine=engine,
        value_only=value_only,
        certificate=certificate,
        anytime=True,
        on_value=shown_value,
        on_move=shown_move,
    )


def _solve_summary(console: Console, result: SolveResult) -> None:
    """What ``solve`` prints after the value and the moves: the best moves and line, the cost."""
    from noughts.cli.analysis import best_line, best_moves_text, cost_line

    total = result.moves_total if result.moves_total is not None else len(result.moves)
    if result.moves:
        best = best_moves_text(result)
        console.print(f"best moves: {best}")
    if result.pv:
        console.print(f"best line: {best_line(result)}")
    if result.argument is not None:
        console.print(f"how: {result.argument}")
    if result.certificate is not None:
        console.print(
            f"certificate: {result.certificate['file']} (sha256 {result.certificate['sha256'][:16]}...)"
        )
    console.print(cost_line(result), style="dim")
    if not result.complete:
        console.print(
            f"stopped with {len(result.moves)} of {total} moves proved: {result.stopped}", style="bold yellow"
        )


@app.command()
def explain(
    spec: SpecArg,
    position: PositionOpt = None,
    as_json: JsonOpt = False,
    max_seconds: Annotated[
        float | None,
        typer.Option(
            "--max-seconds",
            min=0.001,
            help="The solver's budget (default 60; 5 on a claim game's position with more than 50 legal"
            " moves, past its reach in practice: the engine's view answers after it).",
        ),
    ] = None,
    max_memory: MaxMemory = 2048,
    max_cpu_seconds: MaxCpuSeconds = None,
    table: Annotated[Path | None, typer.Option(metavar="FILE", help="Answer from a saved table.")] = None,
    engine_seconds: Annotated[
        float,
        typer.Option(
            "--engine-seconds",
            min=0.01,
            max=600,
            help="Where the solver stops on its budget (claim games): the engine's view of every move,"
            " an estimate except where proven, within this long.",
        ),
    ] = 1.5,
) -> None:
    """Explain a position: the board with every empty cell marked by its value, and why (past the
    solver's reach on claim games, the engine's view of every move, labelled as estimates).
    """
    from rich.console import Console

    from noughts.cli.analysis import best_line, engine_view_table, marked_board, moves_table, value_text
    from noughts.cli.progress import delayed_bar
    from noughts.cli.views import styled_board, styled_line
    from noughts.review.advice import advise, default_solve_seconds

    game = noughts.game(spec)
    with delayed_bar(not as_json, f"solving {game}") as progress:
        advice = advise(
            game,
            position,
            solve_seconds=max_seconds if max_seconds is not None else default_solve_seconds(game, position),
            engine_seconds=engine_seconds,
            max_memory=max_memory * 2**20,
            max_cpu_seconds=max_cpu_seconds,
            table=load_table(table, game) if table is not None else None,
            progress=progress,
        )
    if as_json:
        typer.echo(json.dumps(advice.to_json()))
        return
    console = Console(highlight=False)
    if advice.exact is None:
        console.print(styled_board(advice.position))
        console.print()
        console.print(styled_line(f"the solver stopped: {advice.stopped}"), style="yellow")
        console.print(
            styled_line(f"{game.player_label(advice.position.to_move)} to move; {advice.describe()}")
        )
        console.print(engine_view_table(advice))
        console.print(styled_line(f"best by the engine: {' '.join(advice.best_moves())}"))
        return
    result = advice.exact
    game, pos = result.game, result.position
    console.print(styled_board(pos))
    console.print()
    if pos.is_terminal():
        console.print(styled_line(f"the game is over: {game.outcome_text(pos.outcome())}"))  # type: ignore[arg-type]
        return
    mover = game.player_label(pos.to_move)
    console.print(
        styled_line(f"{mover} to move; with perfect play: {value_text(game, result.value)}"), style="bold"
    )
    board = marked_board(result)
    if board is not None:
        console.print()
        console.print(board)
        legend = "W5 = wins in 5 plies, D = draw, L6 = loses in 6"
        if result.value.plies is None:
            legend = "W = wins, L = loses (distances unknown: answered by the quotient, not a search)"
        console.print(
            styled_line(f"each empty cell: the result for {mover} of playing there, {legend}"), style="dim"
        )
    console.print(moves_table(result))
    console.print(f"best line: {best_line(result)}")


@app.command()
def count(
    spec: SpecArg,
    as_json: JsonOpt = False,
    max_seconds: MaxSeconds = 600.0,
    max_memory: MaxMemory = 4096,
    max_cpu_seconds: MaxCpuSeconds = None,
) -> None:
    """Count a game exactly: positions, games by outcome and length, terminal positions, tree nodes.

    Positions are counted per ply and up to symmetry; docs/counting.md defines every count.
    Over budget it stops within about a second, says how far it got, and exits 3 (with --json, after
    a document saying "complete": false and why).
    """
    from rich.console import Console

    from noughts.cli.analysis import count_table
    from noughts.cli.progress import step_bar
    from noughts.exact.count import count as run_count

    game = noughts.game(spec)
    budget = Budget(max_seconds, max_memory * 2**20, max_cpu_seconds)
    try:
        with step_bar(not as_json, f"counting {game}") as progress:
            result = run_count(game, budget=budget, progress=progress)
    except LimitExceeded as error:
        if as_json:  # a document even when the budget stops the count, as solve's
            typer.echo(json.dumps({"game": str(game), "complete": False, "stopped": str(error)}))
            error.json_printed = True  # type: ignore[attr-defined]
        raise
    if as_json:
        typer.echo(json.dumps(result.to_json()))
        return
    console = Console(highlight=False)
    console.print(f"{game}: counted in {result.seconds:.2f} s", style="bold")
    console.print(count_table(result))


games_app = typer.Typer(
    cls=NoughtsGroup,
    help=(
        "List the boards and rules that specs can name, with examples; 'games list' shows the stored"
        " games and their ids; 'games export' and 'games import' move recorded games between the store"
        " and record files."
    ),
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(games_app, name="games")


@games_app.callback(invoke_without_command=True)
def games(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """List the boards and rules that specs can name, with examples."""
    if ctx.invoked_subcommand is not None:
        return
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from noughts.cli.views import example_specs, params_parts, params_text

    if as_json:
        doc = [
            {
                "name": entry.name,
                "makes": entry.makes,
                "parameters": params_text(entry),
                "summary": entry.summary,
                "examples": list(example_specs(entry)),
            }
            for entry in ENTRIES.values()
        ]
        typer.echo(json.dumps(doc))
        return
    console = Console(highlight=False)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("makes")
    table.add_column("parameters")
    # wide enough for the longest example, so Rich wraps between specs and never inside one
    longest = max(len(spec) for entry in ENTRIES.values() for spec in example_specs(entry))
    table.add_column("summary and examples", min_width=longest, overflow="fold")
    for entry in ENTRIES.values():
        examples = Text(" ".join(example_specs(entry)), style="green")
        params = params_text(entry)
        if len(params) > 60:  # one parameter a line
            params = "\n".join(params_parts(entry))
        table.add_row(entry.name, entry.makes, params, Text("\n").join([Text(entry.summary), examples]))
    widest = (  # the narrowest table that cuts no name, parameter or spec: columns and padding
        max(len(e.name) for e in ENTRIES.values())
        + max(len(e.makes) for e in ENTRIES.values())
        + max(len(part) for e in ENTRIES.values() for part in params_parts(e))
        + longest
        + 2 * 4
    )
    if widest <= console.width:
        console.print(table)
    else:  # too narrow for the table without cutting a spec: one entry a paragraph, wrapped by Rich
        for entry in ENTRIES.values():
            console.print(Text.assemble((entry.name, "bold"), f" ({entry.makes}): {entry.summary}"))
            console.print(Text.assemble("  parameters: ", params_text(entry)))
            console.print(Text.assemble("  e.g. ", (" ".join(example_specs(entry)), "green")))
    console.print(
        "A bare board is played under standard rules; rules nest, e.g. veto(misere(mnk(4,4,4))). "
        "Try: noughts show SPEC, noughts play SPEC."
    )


def _register_command_groups() -> None:
    """Commands that live in modules of their own, each a few lines over its library."""
    from noughts.cli import arena, learn, pairing, prove, quotient, records, retro, serve

    for module in (pairing, prove, quotient, arena, learn, serve, retro):
        module.register(app)
    from noughts.cli import brain  # the Gomocup engine (noughts brain, pbrain-noughts)

    brain.register(app)
    from noughts.cli import dataset  # the solver-labelled benchmark (noughts dataset build|grade)

    dataset.register(app)
    records.register(app, games_app)


_register_command_groups()


def main() -> None:
    """Entry point of the ``noughts`` console script."""
    app()
