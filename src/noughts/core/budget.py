"""Budgets: the one mechanism that bounds every long computation in noughts.

A :class:`Budget` holds the limits of one piece of work: wall-clock seconds, CPU seconds of
this process, and bytes of memory the work's own tables may take. Work checks it
cooperatively: a kernel runs a slice of its loop (a node or step counter), returns to its
driver, and the driver calls :meth:`Budget.check` with the memory it holds and a line saying
how far it got; over budget, ``LimitExceeded`` carries that line. Slices are sized so a check
comes at least every few tenths of a second, which honours a budget within about a second.
Anytime work (an agent's move under a clock) asks :meth:`Budget.expired` or
:meth:`Budget.remaining` instead and returns the best it has.

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

__all__ = ["Budget", "format_bytes"]


@dataclass
class Budget:
    """Limits for one piece of work; ``None`` means no limit of that kind (see the module doc).

    ``max_seconds``: wall-clock seconds from ``started``; ``max_cpu_seconds``: CPU seconds of
    this process from ``cpu_started``; ``max_memory``: bytes of the work's own tables.
    """

    max_seconds: float | None = 60.0
    max_memory: int | None = 2 * 1024**3
    max_cpu_seconds: float | None = None
    started: float = field(default_factory=time.perf_counter)
    cpu_started: float = field(default_factory=time.process_time)

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
            raise LimitExceeded(f"stopped after {self.max_seconds:g} s (the time budget){_so_far(progress)}")
        if self.max_cpu_seconds is not None and self.cpu_elapsed() > self.max_cpu_seconds:
            raise LimitExceeded(
                f"stopped after {self.max_cpu_seconds:g} s of CPU (the CPU budget){_so_far(progress)}"
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


def _so_far(progress: str) -> str:
    return f"; {progress}" if progress else ""
