"""Every command's options, held to sane bounds in one place, and usage errors as one line.

Typer checks each option's type and its ``min``/``max`` where one is given; this module adds
what no option should accept, on every command (:func:`guard_numbers`, applied by the command
group to all its commands):

* a float that is not finite (``nan``, ``inf``, ``1e400``) or beyond :data:`MAX_FLOAT` (a
  ``--delay`` or ``--max-seconds`` of 1e300 ended in an ``OverflowError`` of the clock);
* a file named by nothing (``--out ''``, which is the current folder);
* an integer past what a 64-bit integer holds (NumPy and the kernels would overflow), and past
  the bound :data:`CAPS` gives an option of that name (``--games 99999999999999999999`` ran
  until killed; ``--workers 10**9`` would start that many processes).

:func:`usage_line` prints a usage error (a bad value, an unknown option, a missing argument) as
the one line ``noughts: error: ...`` that every other error is.
"""

from __future__ import annotations

import math
from pathlib import PurePath
from typing import Any

import typer

__all__ = ["CAPS", "MAX_FLOAT", "MAX_INT", "guard_numbers", "usage_line"]

MAX_INT = 2**63 - 1
"""The largest integer any option takes (a 64-bit integer)."""

MAX_FLOAT = 1e9
"""The largest float any option takes (seconds: about 31 years; every other float is a rate)."""

CAPS: dict[str, int] = {
    "--games": 10_000_000,  # games of a match, per pair of a tournament, or graded
    "--sample": 10_000_000,  # positions graded
    "--blunders": 10_000,
    "--workers": 1024,  # processes started
    "--split-depth": 64,  # plies to the split's jobs
    "--max-memory": 2**42,  # MiB: the bytes (MiB * 2**20) must fit a 64-bit integer
    "--max-episodes": 10**12,
    "--max-cases": 10**9,
    "--max-positions": 10**12,
    "--window": 10**9,
    "--stable-for": 10**12,
    "--check-every": 10**12,
    "--per-client": 10_000,
}
"""Bounds on options by name, on every command that has one (help texts name the defaults)."""


def _check(param: Any, value: object) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, PurePath) and str(value) == "." and getattr(param, "metavar", None) != "DIR":
        raise typer.BadParameter(
            "give a file name (an empty name, or '.', is the current folder)", param=param
        )
    name = next((o for o in getattr(param, "opts", ()) if o.startswith("--")), None)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise typer.BadParameter(f"{value} is not a finite number", param=param)
        if abs(value) > MAX_FLOAT:
            raise typer.BadParameter(f"{value:g} is too large (at most {MAX_FLOAT:g})", param=param)
    elif isinstance(value, int):
        cap = CAPS.get(name or "", MAX_INT)
        if abs(value) > cap:
            raise typer.BadParameter(f"{value} is too large (at most {cap:,})", param=param)


def _guard(param: Any) -> None:
    if getattr(param, "_noughts_guarded", False):
        return
    inner = param.callback

    def guarded(ctx: Any, p: Any, value: Any) -> Any:
        for item in value if isinstance(value, list | tuple) else (value,):
            _check(p, item)
        return value if inner is None else inner(ctx, p, value)

    param.callback = guarded
    param._noughts_guarded = True


def guard_numbers(command: Any) -> None:
    """Hold every number option of ``command`` (and of its subcommands) to the bounds above."""
    for param in getattr(command, "params", ()):
        _guard(param)
    for sub in getattr(command, "commands", {}).values():
        guard_numbers(sub)


def usage_line(error: Any) -> str:
    """A usage error as one line: its message and where the help is."""
    ctx = getattr(error, "ctx", None)
    where = f" (see '{ctx.command_path} -h')" if ctx is not None else ""
    message = error.format_message() if hasattr(error, "format_message") else str(error)
    return f"noughts: error: {' '.join(message.split())}{where}"
