"""Ctrl-C at a safe point: long loops (training, experiments) stop between steps, save what they
finished, and say how to go on, instead of dying mid-update with a traceback.

>>> with deferred_interrupt() as stop:
...     stop.requested
False
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

__all__ = ["Interrupt", "deferred_interrupt"]


@dataclass
class Interrupt:
    """Whether Ctrl-C was pressed (SIGINT received) inside :func:`deferred_interrupt`."""

    requested: bool = False


@contextmanager
def deferred_interrupt() -> Iterator[Interrupt]:
    """Inside, a first Ctrl-C (SIGINT) only sets ``requested``, for the loop to check between
    steps; a second raises ``KeyboardInterrupt`` at once (a loop that does not check is still
    stoppable). The previous handler is restored on the way out. Outside the main thread, where
    Python cannot take signals, the flag is never set.
    """
    flag = Interrupt()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        if flag.requested:
            raise KeyboardInterrupt
        flag.requested = True

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
