"""Imported by the process the arena's workers are forked from (multiprocessing's forkserver,
:mod:`noughts.web.workers`): runs the kernels' warm-up (:func:`noughts.web.warmup.warm_up`), so
that every worker forked afterwards has every kernel in memory, and writes its progress, one
JSON line a report, to the file named by the ``NOUGHTS_WARMUP_LOG`` environment variable (the
pool follows it: ``warming up (n of m kernels)``).
"""

from __future__ import annotations

import contextlib
import json
import os
import warnings

from noughts.web.warmup import warm_up


def _run() -> None:
    with contextlib.suppress(ImportError):  # numba's pedantic notes are for its developers
        from numba.core.errors import NumbaPedanticWarning

        warnings.simplefilter("ignore", NumbaPedanticWarning)
    path = os.environ.get("NOUGHTS_WARMUP_LOG")
    if not path:
        warm_up()
        return
    with open(path, "a") as log:

        def report(entry: dict[str, object]) -> None:
            log.write(json.dumps(entry) + "\n")
            log.flush()

        warm_up(report)


try:
    _run()
except KeyboardInterrupt:  # Ctrl-C while the server starts: the forkserver ends without a traceback
    raise SystemExit(130) from None
