"""How long numba spent compiling kernels during a piece of work: the first run on a new machine.

Every kernel of noughts is compiled with ``cache=True``: the first call on a machine compiles it
(seconds to a minute for the big searches), later runs load it from numba's cache in well under
a second. A compile cannot be interrupted, so a budget that runs out during one is honoured only
when it ends, and the seconds a first solve reports are mostly compiling. :func:`compile_watch`
measures that time, from numba's own ``numba:compile`` events (loading from the cache raises
none), so that a command can say so instead of leaving a user to wonder:

>>> from noughts.kernels.compiling import compile_watch
>>> with compile_watch() as watch:
...     pass
>>> watch.seconds, watch.compiles
(0.0, 0)

The listener is installed for the ``with`` block only (numba's ``install_listener``), so nothing
is left behind in the process; entering it imports numba, so only commands that run kernels use
it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["CompileWatch", "compile_watch"]


@dataclass
class CompileWatch:
    """What :func:`compile_watch` saw: ``seconds`` of compiling (outermost compiles only: a
    kernel's helpers compiled inside it are not counted twice) and ``compiles``, their number.
    """

    seconds: float = 0.0
    compiles: int = 0


@contextmanager
def compile_watch(on_first: Callable[[], None] | None = None) -> Iterator[CompileWatch]:
    """Measure numba's compiling in the block; ``on_first()`` is called when the first compile
    starts (a command prints its notice then, before the wait).
    """
    from numba.core import event

    watch = CompileWatch()

    class _Listener(event.Listener):
        depth = 0
        started = 0.0

        def on_start(self, ev: object) -> None:
            if self.depth == 0:
                if watch.compiles == 0 and on_first is not None:
                    on_first()
                self.started = time.perf_counter()
            self.depth += 1

        def on_end(self, ev: object) -> None:
            self.depth -= 1
            if self.depth == 0:
                watch.seconds += time.perf_counter() - self.started
                watch.compiles += 1

    with event.install_listener("numba:compile", _Listener()):
        yield watch
