"""``noughts prove``: Breaker proofs with pairing leaves, draws, the 7x7x7 casework, certificates.

``prove breaker SPEC`` asks whether one side can stop the other from completing a line
(:mod:`noughts.breaker.prover`); ``prove draw SPEC`` proves a standard game drawn;
``prove cube7`` re-runs 002 §4's casework (:mod:`noughts.casework.cube7`); ``prove casework SPEC``
runs such casework with a computed opening on any Maker-Breaker game; ``prove check CERT``
verifies a certificate of any kind without trusting the search (``noughts.cli.certify``, the
command ``solve check`` is too). Exit status: 0 proved (or valid), 1 the answer is no
(disproved, or a certificate fails its check), 2 bad input (a file that is not a certificate, or
whose digest does not match), 3 the budget ran out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from noughts.cli.exits import Exit, answer
from noughts.cli.paths import check_writable
from noughts.core.budget import Budget
from noughts.core.errors import LimitExceeded, NoughtsError

__all__ = ["register"]

prove_app = typer.Typer(
    help="Computer-assisted proofs: Breaker strategies with pairing leaves, draws, the 7x7x7 casework "
    "(002 §4), and their certificates.",
    no_args_is_help=True,
)

JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print one JSON document (its keys: docs/cli.md, 'JSON documents').")
]


CaseWorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", min=1, help="Processes (default: every CPU; 1 runs in this process)."),
]
CaseAddressOpt = Annotated[
    str | None,
    typer.Option(
        "--address", metavar="RAY_ADDR", help="Run on a Ray cluster at this address ('local' starts one)."
    ),
]


@prove_app.command("cube7")
def cube7(
    workers: CaseWorkersOpt = None,
    address: CaseAddressOpt = None,
    out: Annotated[
        Path,
        typer.Option("--out", metavar="CERT", help="Certificate path: CERT.json and CERT.npz are written."),
    ] = Path("cube7-certificate.json"),
    as_json: JsonOpt = False,
    computed: Annotated[
        bool,
        typer.Option(
            "--computed",
            help="No hand-chosen plan: 'prove casework' on 7x7x7 (Breaker's first moves by a greedy rule,"
            " Maker's moves up to the symmetries fixing the position, as many rounds as the pairings need).",
        ),
    ] = False,
    plans: Annotated[
        list[str] | None,
        typer.Option("--plan", hidden=True, help="Run these plans instead (small analogues, for tests)."),
    ] = None,
) -> None:
    """Prove that Breaker wins Maker-Breaker 7x7x7: every case of 002 §4.2-4.3 gets a pairing.

    With --computed the opening is found, not given (see 'prove casework'). Exit status 0 when
    every case has a pairing, 1 when some case fails (listed), 2 on bad input. The certificate's
    path is checked before the work.
    """
    from noughts.casework.cube7 import CUBE7, known_plan, plan_names, prove

    if computed and plans:
        raise NoughtsError("--computed finds its own plans: give it no --plan")
    chosen = tuple(plans) if plans else ("centre", "other")
    for name in chosen:
        if not known_plan(name):
            raise NoughtsError(f"unknown plan {name!r}: choose from {', '.join(plan_names())}")
    _check_out(out)
    if computed:
        _casework(CUBE7, workers, address, out, as_json, None, None)
        return
    from noughts.cli.progress import delayed_bar

    with delayed_bar(not as_json, "casework") as progress:
        result = prove(chosen, workers=workers, address=address, out=str(out), progress=progress)
    _report_casework(result, chosen, as_json)


@prove_app.command("casework")
def casework(
    spec: Annotated[str, typer.Argument(metavar="SPEC", help="A Maker-Breaker game, Maker first.")],
    workers: CaseWorkersOpt = None,
    address: CaseAddressOpt = None,
    out: Annotated[
        Path,
        typer.Option("--out", metavar="CERT", help="Certificate path: CERT.json and CERT.npz are written."),
    ] = Path("casework-certificate.json"),
    max_cases: Annotated[
        int | None,
        typer.Option(
            "--max-cases", min=1, help="The most cases to enumerate (the work budget; exit 3 beyond it)."
        ),
    ] = None,
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", min=0.001, help="Stop (exit 3) after this many seconds.")
    ] = 300.0,
    as_json: JsonOpt = False,
) -> None:
    """Prove that Breaker wins a Maker-Breaker game by casework with a computed opening.

    Breaker's first moves follow one rule (the free cell that eliminates the most surviving
    lines; ties: the most of Maker's earlier cells on them, then the lowest cell), Maker's first
    two moves are taken up to the symmetries fixing the position, later ones every free cell, and
    after Breaker's last move each case must have a pairing. The number of rounds is the least
    that pairs every case, tried 1, 2, ... for Maker opening in the centre and elsewhere (or
    anywhere, on a board with no centre). Exit status 0 proved, 1 some case fails at the deepest
    round allowed, 2 bad input, 3 the case or time budget ran out.
    """
    _check_out(out)
    _casework(spec, workers, address, out, as_json, max_cases, max_seconds)


def _check_out(out: Path) -> None:
    if out.suffix not in ("", ".json"):
        raise NoughtsError(f"--out names the certificate's .json file (or a stem), not {out.name!r}")
    check_writable(out, "--out")


def _casework(
    spec: str,
    workers: int | None,
    address: str | None,
    out: Path,
    as_json: bool,
    max_cases: int | None,
    max_seconds: float | None,
) -> None:
    from noughts.casework.cube7 import GREEDY_MAX_CASES, prove_computed

    def tried(opening: str, depth: int, verdict: str) -> None:
        if not as_json:
            typer.echo(
                f"Maker opening {opening}: {depth} greedy Breaker move(s): {verdict}; one more", err=True
            )

    from noughts.cli.progress import delayed_bar

    with delayed_bar(not as_json, "casework") as progress:
        result, chosen = prove_computed(
            spec,
            workers=workers,
            address=address,
            out=str(out),
            progress=progress,
            max_cases=max_cases or GREEDY_MAX_CASES,
            max_seconds=max_seconds,
            tried=tried,
        )
    _report_casework(result, chosen, as_json)


def _report_casework(result: object, chosen: tuple[str, ...], as_json: bool) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from noughts.casework.cube7 import ProofResult, plan

    assert isinstance(result, ProofResult)
    doc = result.to_json()
    if as_json:
        typer.echo(json.dumps(doc))
    else:
        console = Console(highlight=False)
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for column in ("opening class", "nodes", "cases", "in the source's normalisation", "failures"):
            table.add_column(column, justify="left" if column == "opening class" else "right")
        for name in chosen:
            src = result.source_cases.get(name)
            table.add_row(
                plan(name).title,
                f"{result.nodes[name]:,}",
                f"{result.cases[name]:,}",
                "" if src is None else f"{src:,}",
                f"{result.class_failures[name]:,}",
            )
        console.print(table)
        if result.failures:
            console.print(f"[bold red]{result.failures:,} cases have no pairing[/], e.g.:")
            for example in result.failure_examples[:10]:
                console.print(f"  {example}")
        else:
            console.print(f"[bold green]every one of {sum(result.cases.values()):,} cases has a pairing[/]")
        console.print(
            f"{result.seconds:.1f} s on {result.executor} ({result.workers} workers); "
            f"certificate {result.certificate} (sha256 {result.digest})"
        )
    answer(not result.failures)


@prove_app.command("check")
def check(
    cert: Annotated[
        Path, typer.Argument(metavar="CERT", help="The certificate's .json file (or a .npz table).")
    ],
    as_json: JsonOpt = False,
) -> None:
    """Verify a certificate independently (the same command as ``solve check``): a Breaker
    certificate (every node of the strategy, every pairing), one written by ``solve
    --certificate``, a casework certificate such as 7x7x7's (digest, case set, normalisation,
    every pairing), or a retrograde table. The kind is the one the file declares.

    Exit status 0 when valid; 1 (with the failing node, position or case named) when the certificate does
    not check; 2 when the file cannot be read at all or is not a certificate.
    """
    from noughts.cli.certify import check_command

    check_command(cert, as_json)


SpecArg = Annotated[
    str, typer.Argument(metavar="SPEC", help="The game, e.g. 'mnk(7,7,5)' or 'maker_breaker(mnk(6,6,5))'.")
]
PositionOpt = Annotated[
    str | None, typer.Option("--position", metavar="TEXT", help="Start from this position (its text form).")
]
CertOpt = Annotated[
    Path | None,
    typer.Option(
        "--certificate", metavar="FILE", help="Write the proof's certificate: FILE.json and FILE.npz."
    ),
]
WorkersOpt = Annotated[
    int,
    typer.Option(
        "--workers", min=1, help="Split the proof by the first move over this many processes (1: none)."
    ),
]
AddressOpt = Annotated[
    str | None,
    typer.Option(
        "--address", metavar="RAY_ADDR", help="Split over a Ray cluster at this address ('local' starts one)."
    ),
]
MaxSeconds = Annotated[
    float, typer.Option("--max-seconds", min=0.001, help="Stop (exit 3) after this many seconds.")
]
MaxMemory = Annotated[
    int,
    typer.Option("--max-memory", metavar="MIB", min=1, help="Stop (exit 3) past this many MiB of tables."),
]


def _budget(max_seconds: float, max_memory: int) -> Budget:
    return Budget(max_seconds=max_seconds, max_memory=max_memory * 2**20)


class _Bar:
    """The search's progress on stderr (nodes, pairings, the root's proof and disproof numbers)."""

    def __init__(self, enabled: bool, what: str):
        self.enabled = enabled
        self.what = what
        self.status: object = None

    def __enter__(self) -> _Bar:
        if self.enabled:
            from rich.console import Console

            self.status = Console(stderr=True, highlight=False).status(f"{self.what} ...", spinner="dots")
            self.status.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.status is not None:
            self.status.__exit__(*exc)  # type: ignore[attr-defined]

    def __call__(self, p: object) -> None:
        if self.status is not None:
            self.status.update(  # type: ignore[attr-defined]
                f"{self.what}: {p.nodes:,} nodes, {p.paired:,} pairings found, "  # type: ignore[attr-defined]
                f"{p.seconds:.0f} s"  # type: ignore[attr-defined]
            )


@prove_app.command("breaker")
def breaker(
    spec: SpecArg,
    position: PositionOpt = None,
    breaker_side: Annotated[
        str | None,
        typer.Option(
            "--breaker", metavar="first|second", help="Who breaks in a standard game (default: second)."
        ),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="standard|maker_breaker",
            help="standard: the game's own rules (Breaker may win first); maker_breaker: Breaker never uses its own lines.",
        ),
    ] = None,
    certificate: CertOpt = None,
    workers: WorkersOpt = 1,
    address: AddressOpt = None,
    max_seconds: MaxSeconds = 300.0,
    max_memory: MaxMemory = 2048,
    as_json: JsonOpt = False,
) -> None:
    """Can Breaker stop Maker from completing a line? A search of Breaker's replies until pairings
    settle them, every Maker move answered. Standard games from the empty board: a draw.

    Exit status 0 proved, 1 disproved (Maker wins), 2 bad input, 3 the budget ran out.
    """
    from noughts.breaker.prover import prove_breaker
    from noughts.cli.progress import compile_notice

    _check_certificate_path(certificate)
    with compile_notice(), _Bar(not as_json, "searching") as bar:
        try:
            result = prove_breaker(
                spec,
                position,
                breaker=breaker_side,
                rules=rules,
                budget=_budget(max_seconds, max_memory),
                progress=bar,
                certificate=None if certificate is None else str(certificate),
                workers=workers,
                address=address,
            )
        except LimitExceeded as error:
            _out_of_budget(error, as_json)
    if as_json:
        typer.echo(json.dumps(result.to_json()))
    else:
        from rich.console import Console

        console = Console(highlight=False)
        style = "bold green" if result.proved else "bold red"
        console.print(result.describe(), style=style)
        console.print(
            f"{result.nodes:,} nodes, {result.paired:,} pairings found in {result.pairings:,} searches, "
            f"{result.covered:,} moves answered by zones, {result.seconds:.2f} s ({result.executor}, "
            f"{result.workers} worker{'s' if result.workers != 1 else ''})",
            style="dim",
        )
        if result.certificate:
            console.print(f"certificate {result.certificate} (sha256 {result.digest})", style="dim")
    answer(bool(result.proved))


@prove_app.command("draw")
def draw(
    spec: SpecArg,
    position: PositionOpt = None,
    certificate: CertOpt = None,
    workers: WorkersOpt = 1,
    address: AddressOpt = None,
    max_seconds: MaxSeconds = 300.0,
    max_memory: MaxMemory = 2048,
    as_json: JsonOpt = False,
) -> None:
    """Prove a standard game drawn: the second player stops the first (a Breaker proof) and,
    from the empty board, strategy stealing; elsewhere each side's Breaker proof.

    Exit status 0 a draw, 1 not a draw (a side can force a win), 2 bad input, 3 the budget ran out.
    """
    from noughts.breaker.prover import prove_draw
    from noughts.cli.progress import compile_notice

    _check_certificate_path(certificate)
    with compile_notice(), _Bar(not as_json, "searching") as bar:
        try:
            result = prove_draw(
                spec,
                position,
                budget=_budget(max_seconds, max_memory),
                progress=bar,
                certificate=None if certificate is None else str(certificate),
                workers=workers,
                address=address,
            )
        except LimitExceeded as error:
            _out_of_budget(error, as_json)
    if as_json:
        typer.echo(json.dumps(result.to_json()))
    else:
        from rich.console import Console

        console = Console(highlight=False)
        console.print(result.describe(), style="bold green" if result.draw else "bold red")
        for part in result.parts:
            console.print(
                f"  {part.describe()}: {part.nodes:,} nodes, {part.seconds:.2f} s"
                + (f"; certificate {part.certificate}" if part.certificate else ""),
                style="dim",
            )
    answer(result.draw)


def _check_certificate_path(certificate: Path | None) -> None:
    if certificate is None:
        return
    if certificate.suffix not in ("", ".json"):
        raise NoughtsError(
            f"--certificate names the certificate's .json file (or a stem), not {certificate.name!r}"
        )
    check_writable(certificate.with_suffix(".json"), "--certificate")


def _out_of_budget(error: LimitExceeded, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps({"error": str(error), "proved": None}))
    else:
        typer.echo(f"noughts: {error}", err=True)
    raise typer.Exit(Exit.BUDGET)


def register(app: typer.Typer) -> None:
    """Add the ``prove`` group to ``app``."""
    app.add_typer(prove_app, name="prove")
