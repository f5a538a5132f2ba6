"""The full reproduction experiments, timed: ``noughts experiment NAME`` for each of
``cumulative-td`` (000 §4), ``linear-lms`` (001) and ``arena`` (003), one at a time.

Each experiment runs in its own child process, exactly as a user runs it
(``noughts experiment NAME --workers W --json --no-record --out DIR``), under a wall-clock
budget; the table shows its wall time, its peak memory (the largest of the child's processes,
workers included) and the files it wrote. The target is 15 minutes each on 2 cores. There is
no peer to compare with: the sources publish no running times for their experiments (003's
figures of "5-8 minutes" are for 3,000 training episodes in its web app, not for §9).

Run: ``python bench/experiments.py`` (``--quick`` times the ``--quick`` versions, as in CI;
``--only NAME`` for one).
"""

from __future__ import annotations

import argparse
import datetime
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import ROOT, command_line, commit, machine, versions  # bench/ is sys.path[0] when a script runs

EXPERIMENTS = ("cumulative-td", "linear-lms", "arena")
TARGET_SECONDS = 15 * 60


def run_one(name: str, quick: bool, workers: int, budget: float) -> dict[str, Any]:
    """Run experiment ``name`` in a child process; its wall time, peak memory and files."""
    noughts = Path(sys.executable).parent / "noughts"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / name
        command = [
            str(noughts),
            "experiment",
            name,
            "--workers",
            str(workers),
            "--json",
            "--no-record",
            "--out",
            str(out),
        ]
        if quick:
            command.append("--quick")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=budget, check=False)
        except subprocess.TimeoutExpired:
            return {"experiment": name, "status": "error", "reason": f"timed out after {budget:.0f} s"}
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return {"experiment": name, "status": "error", "reason": f"exit {done.returncode}: {tail}"}
        doc = json.loads(done.stdout.strip().splitlines()[-1])
        return {
            "experiment": name,
            "status": "ok",
            "quick": quick,
            "workers": workers,
            "wall_seconds": round(wall, 1),
            "cpu_seconds": round((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), 1),
            "peak_rss_mib": round(after.ru_maxrss / 1024, 0),
            "files": len(doc.get("files", [])),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="time the --quick versions (CI-sized)")
    parser.add_argument("--only", choices=EXPERIMENTS, help="one experiment")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds allowed per experiment")
    args = parser.parse_args(argv)
    names = [args.only] if args.only else list(EXPERIMENTS)
    rows = []
    for name in names:  # one at a time: they share the machine with nothing of ours
        row = run_one(name, args.quick, args.workers, args.budget)
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    doc = {
        "benchmark": "experiments",
        "command": command_line("bench/experiments.py", argv),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "versions": versions(("numpy", "numba", "scipy", "matplotlib")),
        "commit": commit(),
        "target_seconds": None if args.quick else TARGET_SECONDS,
        "rows": rows,
    }
    results = ROOT / "bench" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / ("experiments_quick.json" if args.quick else "experiments.json")).write_text(
        json.dumps(doc, indent=2)
    )
    print(
        f"| experiment | version | workers | wall (s) | CPU (s) | peak RSS (MiB) | files | within {TARGET_SECONDS // 60} min |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        if r["status"] != "ok":
            print(
                f"| {r['experiment']} | {'quick' if args.quick else 'full'} | {args.workers} | {r['reason']} | | | | no |"
            )
            continue
        ok = "—" if args.quick else ("yes" if r["wall_seconds"] <= TARGET_SECONDS else "no")
        print(
            f"| {r['experiment']} | {'quick' if r['quick'] else 'full'} | {r['workers']} | {r['wall_seconds']:,.1f} "
            f"| {r['cpu_seconds']:,.1f} | {r['peak_rss_mib']:,.0f} | {r['files']} | {ok} |"
        )
    return 0 if all(r["status"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
