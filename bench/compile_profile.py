"""Where the first solve's compile goes: numba's compile time per function, nested as numba
compiled them, for the alpha-beta kernel's first value of a game on an empty numba cache.

The parent starts a child with ``NUMBA_CACHE_DIR`` a new empty folder; the child listens to
numba's ``numba:compile`` events (start and end of every function's compile, helpers inside the
kernel that calls them), computes ``FastSolver(game).value(start)`` and prints one line per
compile: its depth, its function and its seconds (a parent's time includes its helpers'). The
total CPU of the child is printed last. It is what the hand-off of the cold-start work quotes
(``_search_for.<locals>.search`` 3.8 s for ``mnk(4,4,4)``, of which ``_evaluate_standard`` 0.9 s).

Run it as ``python bench/compile_profile.py [--spec "mnk(4,4,4)"] [--min 0.05]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

CHILD = """
import json, sys, time
from numba.core import event
rows, stack = [], []
class Listener(event.Listener):
    def on_start(self, ev):
        f = getattr(ev.data.get("dispatcher"), "py_func", None)
        stack.append((getattr(f, "__qualname__", "?"), time.perf_counter()))
    def on_end(self, ev):
        name, began = stack.pop()
        rows.append((len(stack), name, time.perf_counter() - began))
event.register("numba:compile", Listener())
import noughts
from noughts.core.budget import Budget
from noughts.exact.fast import FastSolver
game = noughts.game(sys.argv[1])
value = FastSolver(game, Budget(max_seconds=3600)).value(game.start())
print(json.dumps({"value": str(value), "rows": rows, "cpu": time.process_time()}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spec", default="mnk(4,4,4)")
    parser.add_argument("--min", type=float, default=0.05, help="hide compiles shorter than this (seconds)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="noughts-numba-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run(
            [sys.executable, "-W", "ignore", "-c", CHILD, args.spec],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    doc: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"FastSolver({args.spec!r}).value(start) = {doc['value']}, on an empty numba cache")
    rows = doc["rows"]
    # numba reports a compile when it ends: a parent after its helpers; print parents first
    for depth, name, seconds in reversed(rows):
        if seconds >= args.min:
            print(f"{'  ' * depth}{name}: {seconds:.2f} s")
    top = sum(s for d, _, s in rows if d == 0)
    print(
        f"compiling: {top:.2f} s in {sum(1 for d, _, _ in rows if d == 0)} kernels; the child's CPU: {doc['cpu']:.2f} s"
    )
    print(f"(at {time.strftime('%Y-%m-%d %H:%M')})")


if __name__ == "__main__":
    main()
