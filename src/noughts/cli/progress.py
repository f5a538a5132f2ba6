"""Progress bars for the commands: the library reports progress through callbacks, and these
draw it with Rich on stderr.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["DELAY", "compile_notice", "delayed_bar", "rates_bar", "step_bar"]

DELAY = 1.0
"""Seconds of work before :func:`delayed_bar` draws: a quick answer shows no bar."""


@contextmanager
def step_bar(enabled: bool, title: str) -> Iterator[Any]:
    """A transient Rich progress bar on stderr, for a ``(done, total, description)`` callback
    such as :data:`noughts.exact.count.Progress`; yields the callback (None when not
    ``enabled``, so nothing is drawn and Rich is not loaded).
    """
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(title, total=None)

        def show(done: int, total: int, description: str) -> None:
            bar.update(task, completed=done, total=total, description=description)

        yield show


@contextmanager
def delayed_bar(enabled: bool, title: str) -> Iterator[Any]:
    """A transient Rich progress bar on stderr for a ``(done, total, description)`` callback
    (:data:`noughts.exact.api.Steps`: a solve's or a proof's steps), drawn only once the work has
    taken :data:`DELAY` seconds; yields the callback (None when not ``enabled``). Rich's progress
    bars are loaded only when one is drawn.
    """
    if not enabled:
        yield None
        return
    import time

    started = time.perf_counter()
    shown: list[Any] = []  # the bar and its task, once drawn

    def show(done: int, total: int, description: str) -> None:
        if not shown:
            if time.perf_counter() - started < DELAY:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.completed}/{task.total}"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            bar.start()
            shown.extend((bar, bar.add_task(title, total=total)))
        shown[0].update(shown[1], completed=done, total=total, description=description)

    try:
        yield show
    finally:
        if shown:
            shown[0].stop()


@contextmanager
def rates_bar(enabled: bool, title: str) -> Iterator[Any]:
    """Training's Rich bar on stderr (it stays on screen at the end): the episodes of the most,
    and the rates text a :data:`noughts.learn.train.Progress` callback is told; yields the
    callback (None when not ``enabled``).
    """
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    task: Any = None

    def show(done: int, total: int, rates: str) -> None:
        nonlocal task
        if task is None:
            task = bar.add_task(title, total=total, rate="")
            bar.start()
        bar.update(task, completed=done, rate=rates)

    try:
        yield show
    finally:
        if task is not None:
            bar.stop()


@contextmanager
def compile_notice() -> Iterator[None]:
    """Around a command that runs kernels: when numba starts compiling one (the first run on a
    machine), say so on stderr before the wait, and afterwards how long it took, so that a first
    solve's minute is not read as the solve's (:func:`noughts.kernels.compiling.compile_watch`).
    Loading kernels from the cache, every later run, prints nothing.
    """
    import sys

    from noughts.kernels.compiling import compile_watch

    def first() -> None:
        print(
            "noughts: compiling the kernels for this machine (once: later runs load them from"
            " numba's cache)...",
            file=sys.stderr,
            flush=True,
        )

    with compile_watch(first) as watch:
        try:
            yield
        finally:
            if watch.compiles:
                kernels = "1 kernel" if watch.compiles == 1 else f"{watch.compiles} kernels"
                print(
                    f"noughts: compiling took {watch.seconds:.1f} s of this run ({kernels}, cached now)",
                    file=sys.stderr,
                    flush=True,
                )
