"""Checking a certificate from the command line: ``noughts solve check FILE`` and
``noughts prove check FILE`` are this one command.

A few lines over :func:`noughts.solving.check_certificate`, which recognises the file's kind
from the kind or format it declares (the one table, :mod:`noughts.solving.certificates`: a
strategy, a Breaker strategy with pairing leaves, a Maker-Breaker casework proof, a retrograde
table) and hands it to that kind's checker (one that shares no code with the search that wrote
it). Exit status 0 valid; 1 invalid (the first failure named, on stdout); 2 a file that cannot be
read, is malformed, or is not a certificate (one line on stderr).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from noughts.cli.exits import answer
from noughts.core.budget import Budget

__all__ = ["check_command"]


def check_command(file: Path, as_json: bool, budget: Budget | None = None) -> None:
    """Check the certificate ``file`` and print the verdict (one JSON document with ``as_json``);
    ``budget`` bounds the checkers that walk a whole game (``solve check`` passes its own).
    """
    from rich.console import Console

    from noughts.solving.certificates import check_certificate, identify

    kind, _ = identify(file)  # not a certificate: one line and status 2, before the spinner
    with Console(stderr=True).status(f"checking {file} ...", spinner="dots"):
        report = check_certificate(file, budget)
    if as_json:
        typer.echo(json.dumps(report.to_json()))
    elif report.valid:
        proves = report.details.get("proves", report.kind)
        Console(highlight=False).print(
            f"[bold green]valid[/]: {report.game} from {report.position}: {proves} "
            f"({report.checked:,} {kind.counts} checked in {report.seconds:.2f} s; sha256 {report.sha256})",
            soft_wrap=True,
        )
    else:
        Console(highlight=False).print(f"[bold red]invalid[/]: {report.first_failure}", soft_wrap=True)
    answer(report.valid)
