"""The one policy (``noughts solve``, a portfolio of the engines that apply) against each engine
alone, in one run, interleaved (policy, engine A, engine B, policy, A, B ...), each solve in a
process of its own after a warm-up that loads the compiled kernels.

The rows are the issue's (issue 30): ``mnk(4,7,4)`` with every first move (a draw; the policy of
a 0.5 s alpha-beta trial then the proof engine had not finished after 280 s, where
``--engine alpha-beta`` answers in seconds), the k=5 draws of ``bench/solve_targets.py``
(mnk(6,6,5), mnk(7,7,5): the Breaker prover), misère 5x5 (``misere(mnk(5,5,4))``, the value; the
alpha-beta kernel's misère pruning) and Notakto on 16 boards (every first move: the quotient).
For each: the median wall and CPU seconds of the solve inside its process (kernels loaded),
the engine that answered, the peak resident memory, and the ratio of the policy's median to the
best single engine's. An engine that does not finish within the row's limit is reported so
(its time is the limit: a lower bound). The target is the policy within 2x of the best engine
(plus start-up).

Run: ``.venv/bin/python bench/policy.py`` (``--quick``: one repetition, the two fastest rows;
``--repeats N``; ``--json PATH`` writes the record). The machine's load average is printed at
the start and the end: on a shared machine the ratios hold better than the seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from _common import finish, peak_rss_mib, run_worker  # bench/ is sys.path[0]

ROWS: list[dict[str, Any]] = [
    {"spec": "mnk(4,7,4)", "value_only": False, "engines": ["alpha-beta", "proof"], "limit": 60.0},
    {"spec": "mnk(6,6,5)", "value_only": True, "engines": ["alpha-beta", "breaker", "proof"], "limit": 30.0},
    {"spec": "mnk(7,7,5)", "value_only": True, "engines": ["alpha-beta", "breaker", "proof"], "limit": 30.0},
    {"spec": "notakto(boards=16)", "value_only": False, "engines": ["python"], "limit": 30.0},
    {"spec": "misere(mnk(5,5,4))", "value_only": True, "engines": ["alpha-beta", "proof"], "limit": 180.0},
]
QUICK = ("mnk(6,6,5)", "notakto(boards=16)")


def one(spec: str, engine: str, value_only: bool, limit: float) -> dict[str, Any]:
    """One solve in this process (the worker's side): seconds, CPU, engine, value, peak memory."""
    import noughts
    from noughts.core import LimitExceeded

    noughts.solve("mnk(4,4,4)", value_only=True, max_seconds=None)  # loads the kernels
    noughts.solve("mnk(4,4,4)", value_only=True, max_seconds=None, engine="proof")
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        r = noughts.solve(spec, engine=engine, value_only=value_only, max_seconds=limit)
    except LimitExceeded:
        return {
            "status": "limit",
            "seconds": limit,
            "cpu": time.process_time() - cpu,
            "peak_mib": peak_rss_mib(),
        }
    return {
        "status": "ok",
        "seconds": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "engine": r.engine,
        "value": r.value.describe(r.game),
        "moves": len(r.moves),
        "peak_mib": peak_rss_mib(),
    }


def row(spec: str, value_only: bool, engines: list[str], limit: float, repeats: int) -> dict[str, Any]:
    """The policy and each engine on ``spec``, interleaved, ``repeats`` times."""
    runs: dict[str, list[dict[str, Any]]] = {e: [] for e in ["auto", *engines]}
    for _ in range(repeats):
        for engine in runs:
            command = [sys.executable, __file__, "--one", spec, engine, str(limit)]
            if value_only:
                command.append("--value-only")
            runs[engine].append(run_worker(command, limit + 120))
    out: dict[str, Any] = {"spec": spec, "value_only": value_only, "limit": limit, "engines": {}}
    for engine, results in runs.items():
        done = [r for r in results if r.get("status") == "ok"]
        secs = [r["seconds"] for r in results if r.get("status") in ("ok", "limit")]
        out["engines"][engine] = {
            "finished": f"{len(done)}/{len(results)}",
            "median_s": statistics.median(secs) if secs else None,
            "median_cpu_s": statistics.median(r["cpu"] for r in results if "cpu" in r) if secs else None,
            "answered_by": sorted({r["engine"] for r in done}),
            "value": sorted({r["value"] for r in done}),
            "peak_mib": max((r.get("peak_mib") or 0 for r in results), default=None),
            "errors": [r["reason"] for r in results if r.get("status") == "error"],
        }
    best = min(
        (
            v["median_s"]
            for e, v in out["engines"].items()
            if e != "auto" and v["finished"].startswith(str(repeats))
        ),
        default=None,
    )
    policy = out["engines"]["auto"]["median_s"]
    out["best_engine_s"] = best
    out["ratio"] = None if best is None or policy is None else policy / best
    return out


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| game | run | finished | median s | median CPU s | answered by | value | peak MiB | policy / best |",
        "| --- | --- | ---: | ---: | ---: | --- | --- | ---: | ---: |",
    ]
    for r in rows:
        what = r["spec"] + ("" if r["value_only"] else " (every first move)")
        for engine, v in r["engines"].items():
            ratio = f"{r['ratio']:.2f}" if engine == "auto" and r["ratio"] is not None else ""
            median = "" if v["median_s"] is None else f"{v['median_s']:.2f}"
            if v["median_s"] is not None and not v["finished"].startswith(v["finished"].split("/")[1]):
                median = (
                    f"> {r['limit']:.0f} (limit)" if not v["answered_by"] else median + " (some at the limit)"
                )
            cpu = "" if v["median_cpu_s"] is None else f"{v['median_cpu_s']:.2f}"
            lines.append(
                f"| {what} | {'policy' if engine == 'auto' else engine} | {v['finished']} | {median} | {cpu}"
                f" | {', '.join(v['answered_by'])} | {', '.join(v['value'])} | {v['peak_mib'] or 0:.0f} | {ratio} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", nargs=3, metavar=("SPEC", "ENGINE", "LIMIT"), help=argparse.SUPPRESS)
    parser.add_argument("--value-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="one repetition of the two fastest rows")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", action="append", help="only this game (repeatable)")
    parser.add_argument("--json", type=Path, help="write the record here")
    args = parser.parse_args(argv)
    if args.one:
        spec, engine, limit = args.one
        print(json.dumps(one(spec, engine, args.value_only, float(limit))))
        return 0
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} at the start")
    repeats = 1 if args.quick else args.repeats
    chosen = [
        r
        for r in ROWS
        if (not args.quick or r["spec"] in QUICK) and (not args.only or r["spec"] in args.only)
    ]
    done = []
    for r in chosen:
        done.append(row(r["spec"], r["value_only"], r["engines"], r["limit"], repeats))
        print("\n".join(table(done[-1:]).splitlines()[2:]), flush=True)
    print(table(done))
    return finish({"rows": done, "repeats": repeats}, load, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
