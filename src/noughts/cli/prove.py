"""``noughts prove``: re-run the 7x7x7 casework (002 §4) and check its certificate.

``prove cube7`` settles every case of Breaker's strategy over the parallel executor (local
processes, or Ray with ``--address``) and writes a certificate; ``prove check CERT`` verifies a
certificate without trusting the search. Library: :mod:`noughts.pairing.cube7`,
:mod:`noughts.pairing.certificate`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from noughts.cli.exits import answer
from noughts.cli.paths import check_writable
from noughts.core.errors import NoughtsError

__all__ = ["register"]

prove_app = typer.Typer(
    help="Computer-assisted proofs: the 7x7x7 Maker-Breaker casework (002 §4) and its certificate.",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document (schema in the README).")]


@prove_app.command("cube7")
def cube7(
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=1, help="Processes (default: every CPU; 1 runs in this process)."),
    ] = None,
    address: Annotated[
        str | None,
        typer.Option(
            "--address", metavar="RAY_ADDR", help="Run on a Ray cluster at this address ('local' starts one)."
        ),
    ] = None,
    out: Annotated[
        Path,
        typer.Option("--out", metavar="CERT", help="Certificate path: CERT.json and CERT.npz are written."),
    ] = Path("cube7-certificate.json"),
    as_json: JsonOpt = False,
    plans: Annotated[
        list[str] | None,
        typer.Option("--plan", hidden=True, help="Run these plans instead (small analogues, for tests)."),
    ] = None,
) -> None:
    """Prove that Breaker wins Maker-Breaker 7x7x7: every case of 002 §4.2-4.3 gets a pairing.

    Exit status 0 when every case has a pairing, 1 when some case fails (listed), 2 on bad input.
    The certificate's path is checked before the work.
    """
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from noughts.pairing.cube7 import plan_names, prove

    chosen = tuple(plans) if plans else ("centre", "other")
    for name in chosen:
        if name not in plan_names():
            raise NoughtsError(f"unknown plan {name!r}: choose from {', '.join(plan_names())}")
    if out.suffix not in ("", ".json"):
        raise NoughtsError(f"--out names the certificate's .json file (or a stem), not {out.name!r}")
    check_writable(out, "--out")
    result = prove(chosen, workers=workers, address=address, out=str(out), progress=not as_json)
    doc = result.to_json()
    if as_json:
        typer.echo(json.dumps(doc))
    else:
        console = Console(highlight=False)
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for column in ("opening class", "nodes", "cases", "in the source's normalisation", "failures"):
            table.add_column(column, justify="left" if column == "opening class" else "right")
        from noughts.pairing.cube7 import plan

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
    cert: Annotated[Path, typer.Argument(metavar="CERT", help="The certificate's .json file.")],
    as_json: JsonOpt = False,
) -> None:
    """Verify a certificate independently: the 7x7x7 proof's (digest, case set, normalisation,
    every pairing) or one written by ``solve --certificate`` (as ``solve check`` does).

    Exit status 0 when valid; 1 (the failing case or position named) when the certificate does
    not check; 2 when the file cannot be read at all.
    """
    from rich.console import Console

    from noughts.cli.certify import check_command, is_container

    if is_container(cert):
        check_command(cert, as_json)
        return

    from noughts.pairing.certificate import check_certificate

    console = Console(stderr=True, highlight=False)
    with console.status(f"checking {cert} ...", spinner="dots"):
        result = check_certificate(cert)
    if as_json:
        typer.echo(json.dumps(result.to_json()))
        answer(result.valid)
        return
    if not result.valid:
        typer.echo(f"noughts: certificate {cert} is invalid: {result.first_failure}", err=True)
        answer(False)
    cases = ", ".join(f"{name} {count:,}" for name, count in result.cases.items())
    Console(highlight=False).print(
        f"[bold green]valid[/]: {result.verified:,} cases verified ({cases}) in {result.seconds:.1f} s; sha256 {result.digest}"
    )


def register(app: typer.Typer) -> None:
    """Add the ``prove`` group to ``app``."""
    app.add_typer(prove_app, name="prove")
