"""Checking a certificate from the command line: ``noughts solve check FILE`` and, for the same
files, ``noughts prove check FILE``.

A few lines over :func:`noughts.solving.check_certificate`, which reads the file,
validates it and hands it to the checker of its kind (a checker that shares no code with the
search that wrote it). Exit status 0 valid, 1 invalid (the first failing node named), 2 a file
that cannot be read or is malformed.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

__all__ = ["CHECK_FAILED", "check_command", "is_container"]

CHECK_FAILED = 1
"""Exit status when the answer is "no": a certificate does not prove its claim."""


def is_container(path: Path) -> bool:
    """Whether ``path`` (a ``.json`` header or its stem) names a certificate in the one
    container format of :mod:`noughts.core.certificates` (rather than the 7x7x7 pairing proof's
    own format).
    """
    from noughts.core.certificates import FORMAT, certificate_paths

    json_path, _ = certificate_paths(path)
    try:
        with json_path.open("rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    return f'"format": "{FORMAT}"' in head or f'"format":"{FORMAT}"' in head


def check_command(file: Path, as_json: bool) -> None:
    """Check the certificate ``file`` and print the verdict (one JSON document with ``as_json``)."""
    from rich.console import Console

    from noughts.solving import check_certificate

    with Console(stderr=True).status(f"checking {file} ...", spinner="dots"):
        report = check_certificate(file)
    if as_json:
        typer.echo(json.dumps(report.to_json()))
    elif report.valid:
        proves = report.details.get("proves", report.kind)
        Console(highlight=False).print(
            f"[bold green]valid[/]: {report.game} from {report.position}: {proves} "
            f"({report.checked:,} positions checked in {report.seconds:.2f} s)"
        )
    else:
        Console(highlight=False).print(f"[bold red]invalid[/]: {report.first_failure}")
    if not report.valid:
        raise typer.Exit(CHECK_FAILED)
