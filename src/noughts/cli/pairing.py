"""``noughts pairing find|check``, ``noughts potential simulate|criterion`` and
``noughts classify``: thin shells over :mod:`noughts.pairing`.

A pairing that fails ``pairing check`` is a result, not bad input: the command prints why and
exits with status 1, as ``pairing find`` does when no pairing exists and ``potential criterion``
when the criterion does not hold (:mod:`noughts.cli.exits`). Bad input (a spec whose rules have no breaking side, a malformed pairing
file, cells off the board) is a ``NoughtsError``: one line, status 2.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

import noughts
from noughts.cli import plural
from noughts.cli.exits import answer
from noughts.cli.paths import check_writable
from noughts.core import Game, NoughtsError, Player, Position
from noughts.core.registry import hypergraph

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["register"]

SpecArg = Annotated[str, typer.Argument(metavar="SPEC", help="The game, e.g. 'mnk(5,5,5)'.")]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print one JSON document (its keys: docs/cli.md, 'JSON documents').")
]
PositionOpt = Annotated[
    str | None, typer.Option("--position", metavar="TEXT", help="Start from this position (its text form).")
]

pairing_app = typer.Typer(
    help="Pairing strategies: find one by matching (002 §3), or check one.", no_args_is_help=True
)
potential_app = typer.Typer(help="Erdős-Selfridge potentials (002 §6).", no_args_is_help=True)


def _player(name: str | None, what: str) -> Player | None:
    if name is None:
        return None
    key = name.strip().lower()
    if key not in ("first", "second"):
        raise NoughtsError(f"{what} is 'first' or 'second', not {name!r}")
    return Player.FIRST if key == "first" else Player.SECOND


def _coords(game: Game, cells: tuple[int, ...] | list[int]) -> list[list[int]]:
    return [list(game.board.coords[c]) for c in cells]


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def _who(game: Game, player: Player) -> str:
    label = game.player_label(player)
    return label if "(" in label else f"the {player.name.lower()} player ({label})"


# -- pairing find ---------------------------------------------------------------------------------


@pairing_app.command("find")
def find(
    spec: SpecArg,
    position: PositionOpt = None,
    breaker: Annotated[
        str | None,
        typer.Option(
            metavar="first|second",
            help="Who pairs under standard and cumulative rules (default: second).",
        ),
    ] = None,
    save: Annotated[Path | None, typer.Option(metavar="FILE", help="Write the pairing file (JSON).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Find a pairing strategy for the breaking side, or show a set of lines too large for its
    cells (a Hall violator). Exit 1 when there is none.
    """
    from noughts.pairing.files import pairing_grid, pairing_json
    from noughts.pairing.matching import find_pairing

    if save is not None:
        check_writable(save, "--save")
    game = hypergraph(spec)  # boards past the playing limit too
    start = game.start() if position is None else game.parse(position)
    started = time.perf_counter()
    result = find_pairing(start, _player(breaker, "--breaker"))
    seconds = time.perf_counter() - started
    res = result.residual
    if save is not None and result.pairing is not None:
        try:
            save.write_text(json.dumps(pairing_json(result.pairing)) + "\n", encoding="utf-8")
        except OSError as e:
            raise NoughtsError(f"cannot write {save}: {e.strerror or e}") from None
    if as_json:
        doc: dict[str, Any] = {
            "format": "noughts-pairing",
            "version": 1,
            "game": str(game),
            "position": start.text(),
            "breaker": res.breaker.name.lower(),
            "exists": result.exists,
            "survivors": len(res.survivors),
            "free_cells": len(res.free_cells),
            "matched": result.matched,
            "pairs": [] if result.pairing is None else [_coords(game, p) for p in result.pairing.pairs],
        }
        if not result.exists:
            doc["deficient_lines"] = [_coords(game, game.board.lines[j]) for j in result.deficient_lines]
            doc["deficient_cells"] = _coords(game, result.deficient_cells)
        doc["seconds"] = round(seconds, 6)
        typer.echo(json.dumps(doc))
        answer(result.exists)
        return
    console = _console()
    head = (
        f"{game}: {len(res.survivors)} lines {_who(game, res.breaker)} has not touched, "
        f"{len(res.free_cells)} free cells"
    )
    console.print(head, style="bold")
    if result.pairing is not None:
        console.print(f"a pairing strategy for {_who(game, res.breaker)}: {len(result.pairing)} pairs")
        console.print(pairing_grid(start, result.pairing.pairs), soft_wrap=True)
        console.print(
            "the same number marks the two cells of a pair; '.' is a free cell in no pair. Answer a move on "
            "one cell of a pair with the other.",
            style="dim",
        )
        if save is not None:
            console.print(f"saved to {save}", style="dim")
        return
    n, m = len(result.deficient_lines), len(result.deficient_cells)
    console.print(
        f"no pairing strategy: these {n} lines have only {m} free cells between them, fewer than 2 x {n} = {2 * n}:"
    )
    for j in result.deficient_lines:
        console.print(f"  {res.line_names(j)}")
    marks = list(game.marks(start))
    for c in result.deficient_cells:
        marks[c] = "#"
    from noughts.core.text import render_grid

    console.print("\n".join(render_grid(game.board, marks)), soft_wrap=True)
    console.print(
        "'#' marks their free cells (002 §3: a pairing needs two cells of its own per line).", style="dim"
    )
    answer(False)


# -- pairing check --------------------------------------------------------------------------------


@pairing_app.command("check")
def check(
    spec: SpecArg,
    pairing: Annotated[Path, typer.Option("--pairing", metavar="FILE", help="The pairing file (JSON).")],
    role: Annotated[str, typer.Option(metavar="first|second", help="The player who uses the pairing.")],
    fallback: Annotated[
        str,
        typer.Option(
            metavar="rule|any|best",
            help="Moves no pair dictates: the pairing agent's rule, every possible choice, or the best one.",
        ),
    ] = "rule",
    search: Annotated[
        str,
        typer.Option(metavar="auto|always|never", help="Search every reply (auto: 16 free cells or fewer)."),
    ] = "auto",
    max_positions: Annotated[
        int, typer.Option(min=1, help="Stop the search (exit 2) past this many.")
    ] = 2_000_000,
    as_json: JsonOpt = False,
) -> None:
    """Check a pairing: every surviving line holds a pair, and (small games) a search of every
    reply proves the outcome it secures or shows a game that breaks it. Exit 1 if it fails.
    """
    from rich.console import Console

    from noughts.pairing.files import load_pairing, pairing_grid
    from noughts.pairing.verify import FALLBACKS, check_structure, search_pairing

    if fallback not in FALLBACKS:
        raise NoughtsError(f"--fallback is one of {', '.join(FALLBACKS)}, not {fallback!r}")
    if search not in ("auto", "always", "never"):
        raise NoughtsError(f"--search is auto, always or never, not {search!r}")
    game = hypergraph(spec)  # boards past the playing limit too
    player = _player(role, "--role")
    loaded = load_pairing(pairing, game, player)
    structure = check_structure(loaded)
    free = (game.board.full_mask & ~loaded.position.occupied()).bit_count()
    do_search = search == "always" or (search == "auto" and free <= 16)
    report = None
    if do_search:
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (
            TextColumn("searching every reply"),
            BarColumn(),
            TextColumn("{task.completed:,} positions"),
        )
        with Progress(
            *columns, TimeElapsedColumn(), console=Console(stderr=True), transient=True, disable=as_json
        ) as bar:
            task = bar.add_task("search", total=max_positions)
            report = search_pairing(loaded, fallback, max_positions, lambda n: bar.update(task, completed=n))
    ok = structure.holds if report is None else report.secures
    if as_json:
        doc: dict[str, Any] = {
            "game": str(game),
            "position": loaded.position.text(),
            "role": loaded.breaker.name.lower(),
            "pairs": len(loaded),
            "structure": {
                "holds": structure.holds,
                "survivors": structure.survivors,
                "uncovered_lines": [_coords(game, game.board.lines[j]) for j in structure.uncovered],
            },
            "search": None,
            "valid": ok,
        }
        if report is not None:
            doc["search"] = {
                "fallback": report.fallback,
                "outcome": report.outcome.value,
                "claim": "win" if report.claim > 0 else "at least a draw",
                "secures": report.secures,
                "line": [game.format_move(m) for m in report.line],
                "positions": report.positions,
            }
        typer.echo(json.dumps(doc))
    else:
        console = _console()
        console.print(f"{game}: the pairing of {_who(game, loaded.breaker)}", style="bold")
        console.print(pairing_grid(loaded.position, loaded.pairs), soft_wrap=True)
        if structure.holds:
            console.print(f"structure: each of the {structure.survivors} surviving lines holds a pair")
        else:
            names = ", ".join(
                "-".join(game.board.cell_name(c) for c in game.board.lines[j]) for j in structure.uncovered
            )
            console.print(f"structure: {len(structure.uncovered)} surviving lines hold no pair: {names}")
        if report is None:
            console.print(f"search: skipped ({free} free cells; --search always to force it)", style="dim")
        else:
            claim = "a win" if report.claim > 0 else "at least a draw"
            verdict = "secures" if report.secures else "does NOT secure"
            console.print(
                f"search (fallback {report.fallback}): against every reply the pairing {verdict} {claim} for "
                f"{game.player_label(loaded.breaker)}; best the opponent can do: {game.outcome_text(report.outcome)} "
                f"({report.positions:,} positions)"
            )
            line = " ".join(game.format_move(m) for m in report.line)
            label = "a game that breaks it" if not report.secures else "a game with that result"
            console.print(f"{label}: {line}")
            if not report.secures:
                end = loaded.position
                for m in report.line:
                    end = end.play(m)
                console.print(end.render())
    answer(ok)


# -- potential ------------------------------------------------------------------------------------


def _frac(x: Any) -> float:
    return float(x)


@potential_app.command("simulate")
def simulate(
    spec: SpecArg,
    maker: Annotated[str, typer.Option(metavar="greedy|random", help="Maker's strategy.")] = "greedy",
    breaker: Annotated[
        str, typer.Option(metavar="potential|random", help="Breaker's strategy.")
    ] = "potential",
    seed: Annotated[int | None, typer.Option(min=0, help="Seed for random players and random ties.")] = None,
    opening: Annotated[
        str | None, typer.Option(metavar="CELL", help="Maker's first cell, e.g. 4,4,4.")
    ] = None,
    ties: Annotated[
        str, typer.Option(metavar="first|random", help="Break ties by lowest cell or at random.")
    ] = "first",
    plot: Annotated[Path | None, typer.Option(metavar="FILE.png", help="Plot the danger (PNG).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play greedy Maker against potential Breaker and print the danger round by round (002
    §6.1, Figure 4), with the first round where it drops below 1/2.
    """
    from rich import box
    from rich.table import Table

    from noughts.pairing.potential import erdos_selfridge, plot_simulation
    from noughts.pairing.potential import simulate as run

    if plot is not None:
        from noughts.learn.experiments import need_plots

        check_writable(plot, "--plot", (".png",))
        need_plots("potential simulate --plot")  # matplotlib is the plots extra
    game = noughts.game(spec)
    first = None if opening is None else game.board.parse_cell(opening)
    sim = run(game, maker, breaker, seed=seed, opening=first, ties=ties)
    if plot is not None:
        plot_simulation(sim, plot)
    es = erdos_selfridge(game)
    name = game.board.cell_name
    if as_json:
        doc = {
            "game": str(game),
            "board": game.board.spec,
            "maker": maker,
            "breaker": breaker,
            "ties": ties,
            "seed": seed,
            "erdos_selfridge_sum": _frac(es.total),
            "start_danger": _frac(sim.start_danger),
            "rounds": [
                {
                    "round": r.number,
                    "maker": name(r.maker_move),
                    "danger_after_maker": _frac(r.danger_after_maker),
                    "breaker": None if r.breaker_move is None else name(r.breaker_move),
                    "danger_after_breaker": None
                    if r.danger_after_breaker is None
                    else _frac(r.danger_after_breaker),
                }
                for r in sim.rounds
            ],
            "winner": sim.winner,
            "first_round_below_half": sim.first_below_half,
            "first_round_below_half_after_breaker": sim.first_below_half_maker_to_move,
            "first_round_below_one": sim.first_below_one,
            "plot": None if plot is None else str(plot),
        }
        typer.echo(json.dumps(doc))
        return
    console = _console()
    console.print(
        f"{game.board.spec}: {maker} Maker against {breaker} Breaker; danger at the start {float(sim.start_danger):.6g}",
        style="bold",
    )
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for col, justify in (
        ("round", "right"),
        ("Maker", "left"),
        ("D_i", "right"),
        ("Breaker", "left"),
        ("after", "right"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for r in sim.rounds:
        table.add_row(
            str(r.number),
            name(r.maker_move),
            f"{float(r.danger_after_maker):.6g}",
            "" if r.breaker_move is None else name(r.breaker_move),
            "" if r.danger_after_breaker is None else f"{float(r.danger_after_breaker):.6g}",
        )
    console.print(table)
    console.print(
        "D_i: the danger just after Maker's i-th move (002 §6.1); after: just after Breaker's reply.",
        style="dim",
    )
    console.print(f"{sim.winner} wins after {plural(len(sim.rounds), 'round')}")
    below = "never" if sim.first_below_half is None else f"round {sim.first_below_half}"
    console.print(f"first round with D_i < 1/2: {below}")
    one = "never" if sim.first_below_one is None else f"round {sim.first_below_one}"
    console.print(f"first round with D_i < 1 (enough for Breaker's potential strategy to win): {one}")
    if plot is not None:
        console.print(f"plot written to {plot}", style="dim")


@potential_app.command("criterion")
def criterion(spec: SpecArg, position: PositionOpt = None, as_json: JsonOpt = False) -> None:
    """The Erdős-Selfridge sum of a game's lines (Breaker wins when it is below 1/2) and the
    danger of a position. Exit 1 when the criterion does not hold.
    """
    from noughts.pairing.potential import danger, erdos_selfridge

    game = hypergraph(spec)  # boards past the playing limit too
    es = erdos_selfridge(game)
    start: Position | None = None if position is None else game.parse(position)
    d = None if start is None else danger(start)
    if as_json:
        doc = {
            "game": str(game),
            "lines": es.lines,
            "sum": _frac(es.total),
            "sum_exact": str(es.total),
            "threshold": _frac(es.threshold),
            "holds": es.holds,
            "danger": None if d is None else _frac(d),
        }
        typer.echo(json.dumps(doc))
        answer(es.holds)
        return
    console = _console()
    verdict = "below" if es.holds else "not below"
    console.print(
        f"{game}: sum of 2^-|A| over its {es.lines} lines = {es.total} = {float(es.total):.6g}, {verdict} "
        f"{es.threshold}"
        + (": Breaker wins (Erdős-Selfridge)" if es.holds else ": the criterion says nothing")
    )
    if d is not None:
        console.print(f"danger of the position: {d} = {float(d):.6g}")
    answer(es.holds)


# -- classify -------------------------------------------------------------------------------------


ClassifySpec = Annotated[
    str,
    typer.Argument(
        metavar="SPEC", help="The game (at most 12 cells), e.g. 'cumulative(tictactoe)' or tictactoe."
    ),
]


def classify(spec: ClassifySpec, as_json: JsonOpt = False) -> None:
    """Name a game's outcome class (000 §3.1.4), with the pairings that witness it.

    Also checks the pairings of 000 Appendix A.2 for their roles.
    """
    from rich import box
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from noughts.exact.classify import appendix_pairings, check_classifiable
    from noughts.exact.classify import classify as run
    from noughts.pairing.files import pairing_grid
    from noughts.pairing.verify import check_structure, search_pairing

    game = noughts.game(spec)
    check_classifiable(game)
    with Progress(console=Console(stderr=True), transient=True, disable=as_json) as bar:
        task = bar.add_task("pairings", total=None)
        result = run(game, progress=lambda done, total: bar.update(task, completed=done, total=total))
    appendix = []
    if game.board.grid == (3, 3) and game.board.num_cells == 9:
        for who, p in appendix_pairings(game):
            appendix.append(
                (who, p, check_structure(p), {f: search_pairing(p, f) for f in ("rule", "any", "best")})
            )
    coords = game.board.coords
    if as_json:
        doc: dict[str, Any] = {
            "game": str(game),
            "class": result.outcome_class,
            "value": result.value.value,
            "plays_by_outcome": result.plays_by_outcome,
            "pairings": result.pairings,
            "pairings_up_to_symmetry": len(result.orbits),
            "never_lose_as_first": {
                "best": result.count(lambda o: o.first_best),
                "any": result.count(lambda o: o.first_any),
            },
            "never_lose_as_second": {
                "best": result.count(lambda o: o.second_best),
                "any": result.count(lambda o: o.second_any),
            },
            "both_roles": {
                "best": result.count(lambda o: o.both_best),
                "any": result.count(lambda o: o.both_any),
            },
            "witnesses": [
                {
                    "pairs": [[list(coords[a]), list(coords[b])] for a, b in w.pairs],
                    "orbit": w.orbit,
                    "any": w.both_any,
                }
                for w in result.witnesses
            ],
            "appendix_a2": [
                {
                    "who": who,
                    "position": p.position.text(),
                    "role": p.breaker.name.lower(),
                    "pairs": [[list(coords[a]), list(coords[b])] for a, b in p.pairs],
                    "every_line_holds_a_pair": st.holds,
                    "outcome": {f: r.outcome.value for f, r in reps.items()},
                    "never_loses": {f: r.secures for f, r in reps.items()},
                }
                for who, p, st, reps in appendix
            ],
            "seconds": round(result.seconds, 6),
        }
        typer.echo(json.dumps(doc))
        return
    console = _console()
    console.print(f"{game}: {result.outcome_class}", style="bold")
    console.print(f"value under perfect play: {game.outcome_text(result.value)}")
    console.print("plays by outcome: " + ", ".join(f"{k} {v:,}" for k, v in result.plays_by_outcome.items()))
    if result.orbits:
        console.print(
            f"pairings of the board: {result.pairings} ({len(result.orbits)} up to symmetry); never losing, used "
            f"from the first move, with the free choices made well (any way): as first player "
            f"{result.count(lambda o: o.first_best)} ({result.count(lambda o: o.first_any)}), as second player "
            f"{result.count(lambda o: o.second_best)} ({result.count(lambda o: o.second_any)}), in both roles "
            f"{result.count(lambda o: o.both_best)} ({result.count(lambda o: o.both_any)})"
        )
        for w in result.witnesses:
            console.print(
                f"a pairing that serves both roles{' (whatever the free choices)' if w.both_any else ''}:"
            )
            console.print(pairing_grid(game.start(), w.pairs), soft_wrap=True)
    if appendix:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="000 Appendix A.2")
        for col in ("pairing", "from", "every line paired", "rule", "any", "best"):
            table.add_column(col)
        for who, p, st, reps in appendix:
            table.add_row(
                who,
                p.position.text(),
                "yes" if st.holds else "no",
                *[("never loses" if r.secures else "can lose") for r in reps.values()],
            )
        console.print(table)
    console.print(f"{result.seconds:.2f} s", style="dim")


def register(app: typer.Typer) -> None:
    """Add ``pairing``, ``potential`` and ``classify`` to ``app``."""
    app.add_typer(pairing_app, name="pairing")
    app.add_typer(potential_app, name="potential")
    app.command("classify")(classify)
