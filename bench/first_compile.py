"""The first run on a new machine: ``noughts solve SPEC`` with an empty numba cache, in CPU seconds.

Each run is a fresh process (``python -c`` calling the CLI's ``main`` with ``noughts solve
SPEC``) with ``NUMBA_CACHE_DIR`` set to a new, empty temporary folder, so it compiles every
kernel the solve needs; its CPU time (user + system, of the child and anything it starts, from
``os.wait4``) and wall time are recorded. A **warm** run follows on the same cache (what every
later run costs: the kernels load from the cache). CPU time is what the issue's target names
(under 4 s for ``mnk(4,4,4)``): on a machine shared with other work it moves less than wall time.

With ``--base REV`` the same runs are made, interleaved (A B, then B A), against ``REV`` checked
out into a temporary git worktree (``bench/regression.py``'s), each child importing that tree's
``src``; the table then shows both and their ratio.

Run it as ``python bench/first_compile.py [--spec "mnk(4,4,4)"] [--rounds 5] [--base REV]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from _common import commit, machine, versions  # bench/ is sys.path[0] when a script runs
from regression import rev_name, worktree

ROOT = Path(__file__).resolve().parent.parent


def run_cli(tree: Path, cache: Path, args: list[str]) -> tuple[float, float]:
    """CPU and wall seconds of one ``noughts ARGS`` in a child importing ``tree``'s noughts."""
    code = f"import sys; sys.argv = ['noughts', *{args!r}]; from noughts.cli.app import main; main()"
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), NUMBA_CACHE_DIR=str(cache))
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"noughts {' '.join(args)} on {tree} failed: {err.strip().splitlines()[-1:]}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spec", default="mnk(4,4,4)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--base", help="also run this revision, interleaved")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "first_compile.json")
    args = parser.parse_args()
    # a generous budget: on a loaded machine the first compile alone can pass the default 60 s
    cli = ["solve", args.spec, "--max-seconds", "900"]
    with ExitStack() as stack:
        trees = {"this tree": ROOT}
        if args.base:
            trees[rev_name(args.base)] = stack.enter_context(worktree(args.base))
        runs: dict[str, dict[str, list[float]]] = {
            label: {"cold_cpu": [], "cold_wall": [], "warm_cpu": [], "warm_wall": []} for label in trees
        }
        for r in range(args.rounds):
            order = list(trees) if r % 2 == 0 else list(reversed(trees))
            for label in order:
                with tempfile.TemporaryDirectory(prefix="noughts-numba-") as cache:
                    cpu, wall = run_cli(trees[label], Path(cache), cli)
                    runs[label]["cold_cpu"].append(cpu)
                    runs[label]["cold_wall"].append(wall)
                    cpu, wall = run_cli(trees[label], Path(cache), cli)
                    runs[label]["warm_cpu"].append(cpu)
                    runs[label]["warm_wall"].append(wall)
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(f"noughts solve {args.spec!r}: the first run on an empty numba cache, then a warm run\n")
    print(f"{machine()}; {versions(('numba', 'numpy', 'llvmlite'))}; commit {commit()}\n")
    print("| tree | cold CPU s (median, range) | cold wall s | warm CPU s | warm wall s |")
    print("| --- | ---: | ---: | ---: | ---: |")
    doc: dict[str, Any] = {"machine": machine(), "commit": commit(), "spec": args.spec, "trees": {}}
    for label, r in runs.items():
        med = {k: statistics.median(v) for k, v in r.items()}
        doc["trees"][label] = {"median": med, "runs": r}
        print(
            f"| {label} | {med['cold_cpu']:.2f} ({min(r['cold_cpu']):.2f}-{max(r['cold_cpu']):.2f}) "
            f"| {med['cold_wall']:.2f} | {med['warm_cpu']:.2f} | {med['warm_wall']:.2f} |"
        )
    if len(runs) == 2:
        (a, ra), (b, rb) = runs.items()
        ratio = statistics.median(ra["cold_cpu"]) / statistics.median(rb["cold_cpu"])
        print(f"\ncold CPU, {a} over {b}: {ratio:.2f}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
