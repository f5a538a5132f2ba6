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

from noughts.core import NoughtsError

__all__ = ["CHECK_FAILED", "certificate_file", "check_command", "is_container"]

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


def certificate_file(file: Path) -> Path:
    """``file`` if it can name a certificate (its ``.json`` header, or the stem of one), else
    ``NoughtsError`` saying what it is instead: ``/etc/passwd`` is not a certificate (it was
    read as the stem of ``/etc/passwd.json``, which does not exist), a folder is a folder, an
    ``.npz`` is the arrays, not the header.
    """
    from noughts.core.certificates import certificate_paths

    written_by = "'noughts solve --certificate FILE' writes FILE.json and FILE.npz; check FILE.json"
    if file.is_dir():
        raise NoughtsError(f"{file} is a folder, not a certificate ({written_by})")
    if file.suffix == ".npz" and file.exists():
        raise NoughtsError(
            f"{file} holds a certificate's arrays; check its header {file.with_suffix('.json')}"
        )
    json_path, _ = certificate_paths(file)
    if file.is_file() and file != json_path:  # a file given whole, not a certificate's stem
        raise NoughtsError(f"{file} is not a noughts certificate ({written_by})")
    if not json_path.exists():
        also = "" if json_path == file else f" (nor {json_path})"
        raise NoughtsError(f"there is no file {file}{also}: {written_by}")
    return file


def check_command(file: Path, as_json: bool) -> None:
    """Check the certificate ``file`` and print the verdict (one JSON document with ``as_json``)."""
    from rich.console import Console

    from noughts.solving import check_certificate

    certificate_file(file)

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
