"""The exit statuses of every ``noughts`` command, decided in one place.

======  =====================================================================================
0       done: the command did what was asked (and the answer, if it is a yes/no question, is yes)
1       the answer is "no": a check failed (a pairing that does not hold, an invalid
        certificate), no pairing exists, a proof-number search could not prove the win asked
        about, the Erdős-Selfridge criterion does not hold
2       bad input: a spec, position, agent, option or file that cannot be used (usage errors too)
3       a budget ran out (``--max-seconds``, ``--max-cpu-seconds``, ``--max-memory``, or a limit
        such as the positions a table may hold): the message says how far the work got
======  =====================================================================================

Commands raise :class:`noughts.core.NoughtsError` for 2 and 3 (the command group turns it into
one line on stderr, :func:`status_of` says which status) and call :func:`answer` for 1.
"""

from __future__ import annotations

from enum import IntEnum

import typer

from noughts.core import LimitExceeded, NoughtsError

__all__ = ["Exit", "answer", "status_of"]


class Exit(IntEnum):
    """The exit statuses (see the module docstring)."""

    DONE = 0
    NO = 1
    BAD_INPUT = 2
    BUDGET = 3


def status_of(error: NoughtsError) -> Exit:
    """The exit status for an error: a budget that ran out, else bad input."""
    return Exit.BUDGET if isinstance(error, LimitExceeded) else Exit.BAD_INPUT


def answer(yes: bool) -> None:
    """End a yes/no command: status 0 for yes, 1 for no (after its output is printed)."""
    if not yes:
        raise typer.Exit(Exit.NO)
