"""Proof-number search against the alpha-beta kernel: "can the first player force a win?".

For each game, each method runs in its own child process with a wall-clock limit:

- ``pns``: :func:`noughts.proving.pns.prove_win` with the bitboard generator (df-pn in Python);
- ``pns, position API``: the same search through the public position API (the reference);
- ``alpha-beta kernel``: ``FastSolver(game).value(start)``, the numba kernel's exact value
  (distance included, so it answers more than the yes/no of PNS).

Each child runs its method ``--runs`` times (a fresh prover or solver each time; the kernel
after one untimed run that loads its compiled code), or once where one run takes over 10 s,
and reports the median wall and CPU time, the nodes (PNS: nodes expanded; kernel: positions
searched) and its peak resident memory.

Run it as ``.venv/bin/python bench/pns.py``; ``--slow`` adds mnk(5,5,4) (a draw: PNS must
disprove every first move), ``--games SPEC ...`` replaces the list, ``--timeout`` bounds each
child (default 600 s).
"""

from __future__ import annotations

import argparse
import datetime
import json
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

from _common import commit, machine, versions  # bench/ is sys.path[0] when a script runs

GAMES = (
    "hypercube(3,3)",
    "mnk(9,9,3)",
    "mnk(6,5,4)",
    "maker_breaker(mnk(4,4,4))",
)
SLOW_GAMES = ("mnk(5,5,4)",)
METHODS = ("pns", "pns, position API", "alpha-beta kernel")
API_GAMES = {"hypercube(3,3)"}  # the position-API generator is timed only where it is quick


def _child(spec: str, method: str, runs: int) -> dict[str, Any]:
    import noughts
    from noughts.core import Player
    from noughts.exact.fast import FastSolver
    from noughts.proving.pns import prove_win

    game = noughts.game(spec)
    start = game.start()

    def once() -> tuple[str, int]:
        if method == "alpha-beta kernel":
            solver = FastSolver(game)
            value = solver.value(start)
            return value.describe(game), solver.nodes
        result = prove_win(game, start, Player.FIRST, fast=method == "pns")
        return ("first player wins" if result.proved else "no first-player win"), result.nodes

    if method == "alpha-beta kernel":
        once()  # load the compiled kernels
    walls, cpus = [], []
    answer, nodes = "", 0
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        answer, nodes = once()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        if walls[-1] > 10:
            break
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {
        "game": spec,
        "method": method,
        "answer": answer,
        "nodes": nodes,
        "wall": statistics.median(walls),
        "cpu": statistics.median(cpus),
        "runs": len(walls),
        "peak_rss": peak,
    }


def _run(spec: str, method: str, runs: int, timeout: float) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", spec, method, str(runs)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"game": spec, "method": method, "answer": f"did not finish in {timeout:g} s"}
    if done.returncode != 0:
        return {"game": spec, "method": method, "answer": "failed: " + done.stderr.strip().splitlines()[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _time(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--slow", action="store_true", help="add mnk(5,5,4)")
    parser.add_argument("--games", nargs="+", help="these games (specs) instead of the default list")
    args = parser.parse_args()
    if args.child:
        spec, method, runs = args.child
        print(json.dumps(_child(spec, method, int(runs))))
        return
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{now}; {machine()}; {versions(('numba', 'numpy'))}; noughts commit {commit()}\n")
    rows = []
    games = tuple(args.games) if args.games else GAMES + (SLOW_GAMES if args.slow else ())
    for spec in games:
        kernel: dict[str, Any] | None = None
        for method in METHODS:
            if method == "pns, position API" and spec not in API_GAMES:
                continue
            row = _run(spec, method, args.runs, args.timeout)
            if method == "alpha-beta kernel":
                kernel = row
            rows.append(row)
            print(f"  {spec} / {method}: {row.get('answer')}", file=sys.stderr, flush=True)
        assert kernel is not None
        for row in rows:
            if row["game"] == spec and "cpu" in row and "cpu" in kernel:
                row["ratio"] = row["cpu"] / kernel["cpu"]
    print(
        "| game | method | answer | nodes | wall (median) | CPU (median) | CPU / kernel | runs | peak RSS (MiB) |"
    )
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        if "cpu" not in r:
            print(f"| {r['game']} | {r['method']} | {r['answer']} |  |  |  |  |  |  |")
            continue
        print(
            f"| {r['game']} | {r['method']} | {r['answer']} | {r['nodes']:,} | {_time(r['wall'])} | "
            f"{_time(r['cpu'])} | {r['ratio']:.1f}x | {r['runs']} | {r['peak_rss'] / 2**20:.0f} |"
        )


if __name__ == "__main__":
    main()
