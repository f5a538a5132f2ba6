"""Budgets: the one mechanism that bounds every long computation in noughts.

A :class:`Budget` holds the limits of one piece of work: wall-clock seconds, CPU seconds of
this process, and bytes of memory the work's own tables may take. Work checks it
cooperatively: a kernel runs a slice of its loop (a node or step counter), returns to its
driver, and the driver calls :meth:`Budget.check` with the memory it holds and a line saying
how far it got; over budget, ``LimitExceeded`` carries that line. Slices are sized so a check
comes at least every few tenths of a second, which honours a budget within about a second.
Anytime work (an agent's move under a clock) asks :meth:`Budget.expired` or
:meth:`Budget.remaining` instead and returns the best it has.

A budget given no wall-clock limit has :data:`WALL_SECONDS` (60 s) of wall time, unless it is
given a CPU limit alone: then the CPU limit is its only time limit (``Budget(max_cpu_seconds=
600)`` runs 600 s of CPU however long that takes on a busy machine). Every budget made without
arguments is bounded; ``max_seconds=None`` asks for no wall limit explicitly.

>>> Budget().max_seconds, Budget(max_cpu_seconds=600).max_seconds
(60.0, None)
>>> Budget(max_seconds=5, max_cpu_seconds=600).max_seconds
5

>>> b = Budget(max_seconds=None, max_memory=1024)
>>> b.check(memory=512)
>>> b.check(memory=4096, progress="3 of 9 moves solved")
Traceback (most recent call last):
...
noughts.core.errors.LimitExceeded: stopped at 1 KiB (the memory budget); 3 of 9 moves solved
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from noughts.core.errors import LimitExceeded

__all__ = ["AUTO_SECONDS", "WALL_SECONDS", "Budget", "format_bytes"]

WALL_SECONDS = 60.0
"""The wall-clock limit of a budget given neither a wall nor a CPU limit."""


class _Auto(float):
    """The type of :data:`AUTO_SECONDS`: a float, so signatures stay ``float | None``."""

    def __repr__(self) -> str:
        return "AUTO_SECONDS"


AUTO_SECONDS: float = _Auto(WALL_SECONDS)
"""The default of every ``max_seconds`` that feeds a :class:`Budget`: :data:`WALL_SECONDS` of
wall time, or none where the budget has a CPU limit and no wall limit was asked for. Known by
identity (``max_seconds is AUTO_SECONDS``), so an explicit ``60.0`` stays a wall limit."""


@dataclass
class Budget:
    """Limits for one piece of work; ``None`` means no limit of that kind (see the module doc).

    ``max_seconds``: wall-clock seconds from ``started`` (by default :data:`WALL_SECONDS`, or no
    wall limit where ``max_cpu_seconds`` is given alone: :data:`AUTO_SECONDS`);
    ``max_cpu_seconds``: CPU seconds of this process from ``cpu_started``; ``max_memory``:
    bytes of the work's own tables.
    """

    max_seconds: float | None = AUTO_SECONDS
    max_memory: int | None = 2 * 1024**3
    max_cpu_seconds: float | None = None
    started: float = field(default_factory=time.perf_counter)
    cpu_started: float = field(default_factory=time.process_time)

    def __post_init__(self) -> None:
        if self.max_seconds is AUTO_SECONDS:
            self.max_seconds = None if self.max_cpu_seconds is not None else WALL_SECONDS

    def elapsed(self) -> float:
        """Wall-clock seconds since the work started."""
        return time.perf_counter() - self.started

    def cpu_elapsed(self) -> float:
        """CPU seconds this process has used since the work started."""
        return time.process_time() - self.cpu_started

    def remaining(self) -> float | None:
        """Seconds left before the first time limit (wall or CPU) runs out; None if neither is set."""
        left = [
            limit - spent
            for limit, spent in (
                (self.max_seconds, self.elapsed()),
                (self.max_cpu_seconds, self.cpu_elapsed()),
            )
            if limit is not None
        ]
        return max(0.0, min(left)) if left else None

    def expired(self) -> bool:
        """Whether a time limit has run out."""
        left = self.remaining()
        return left is not None and left <= 0.0

    def check(self, memory: int = 0, progress: str = "") -> None:
        """Raise ``LimitExceeded`` if a time limit has run out or ``memory`` (bytes in use) is
        over the memory limit; the message ends with ``progress`` (how far the work got).
        """
        if self.max_seconds is not None and self.elapsed() > self.max_seconds:
            raise LimitExceeded(
                f"stopped after {_seconds(self.max_seconds)} s (the time budget){_so_far(progress)}"
            )
        if self.max_cpu_seconds is not None and self.cpu_elapsed() > self.max_cpu_seconds:
            raise LimitExceeded(
                f"stopped after {_seconds(self.max_cpu_seconds)} s of CPU (the CPU budget){_so_far(progress)}"
            )
        if self.max_memory is not None and memory > self.max_memory:
            raise LimitExceeded(
                f"stopped at {format_bytes(self.max_memory)} (the memory budget){_so_far(progress)}"
            )


def format_bytes(n: int) -> str:
    """Bytes for people: ``512 B``, ``1 KiB``, ``1.5 MiB``, ``2 GiB``."""
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if value == int(value) or unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def _seconds(x: float) -> str:
    """Seconds as a person reads them: ``0.49``, ``2``, ``2.5``, ``3600`` (never ``0.488681``)."""
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.2f}".rstrip("0").rstrip(".") if x >= 1 else f"{x:.2g}"


def _so_far(progress: str) -> str:
    return f"; {progress}" if progress else ""
