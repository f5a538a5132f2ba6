"""Progress bars for the commands: the library reports progress through callbacks, and these
draw it with Rich on stderr.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["step_bar"]


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
