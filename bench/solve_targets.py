"""The exact solver's speed and memory targets (issue 3), measured for noughts alone.

For each game, in its own child process (so the import, the kernels' loading and the peak
memory are its own):

- **value**: ``FastSolver(game).value(game.start())``, the value of the game with its exact
  distance, a fresh solver (and table) each time;
- **+ first moves**: the same, then ``value(start.play(m))`` for every first move ``m`` on the
  same solver: what ``noughts solve SPEC`` needs for the value of every first move.

**cold** is the first solve in a fresh process: it loads the compiled kernels from numba's
cache (``cache=True``; the first run on a machine compiles them, see **compile** below); **warm**
is the median (with the range) of ``--repeats`` further solves in the same process. **compile**
is one child run with an empty ``NUMBA_CACHE_DIR``: its first solve of tic-tac-toe compiles
every kernel. Memory is the child's resident set (``/proc/self/statm``, sampled every 20 ms in
a thread, and ``ru_maxrss``): after importing noughts and making the game (**base**), and at
its peak; **table** is the transposition table's size at the end of the last solve.

Run it as ``python bench/solve_targets.py``; ``--quick`` runs the 3x3 games and mnk(4,4,4).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _common import commit, machine, versions  # bench/ is sys.path[0] when a script runs

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = ROOT / "bench" / "results" / "solve_targets.json"


@dataclass(frozen=True)
class Target:
    spec: str
    seconds: float | None  # the target for the value (None: shown, no target)
    mib: float | None = None  # the memory target (peak resident set), if any
    value: str | None = None  # the published outcome, checked
    moves: bool = True  # also time the value of every first move


TARGETS = (
    Target("tictactoe", 0.05, value="draw"),
    Target("misere(tictactoe)", 0.05, value="draw"),
    Target("maker_breaker(tictactoe)", 0.05, value="first"),
    Target("maker_breaker(tictactoe,breaker_first=true)", 0.05),
    Target("cumulative(tictactoe)", 0.05, value="draw"),
    Target("mnk(4,4,4)", 0.1, mib=200, value="draw"),
    Target("hypercube(3,3)", 0.1, value="first"),
    Target("mnk(5,5,4)", 2.0, value="draw"),
    Target("mnk(6,5,4)", 5.0, value="first"),
    # not a target: the largest board the kernel takes (its first moves take over 10 minutes)
    Target("mnk(8,8,4)", None, value="first", moves=False),
)
QUICK = 6  # --quick: the first six


# -- the child side -------------------------------------------------------------------------------


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class _Peak:
    """The resident set's peak, sampled in a thread (ru_maxrss cannot be reset)."""

    def __init__(self) -> None:
        self.peak = _rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, _rss())

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return max(self.peak, _rss())


def child(spec: str, mode: str, repeats: int, max_seconds: float) -> dict[str, Any]:
    t = time.perf_counter()
    import noughts
    from noughts.exact.fast import FastSolver

    import_seconds = time.perf_counter() - t
    game = noughts.game(spec)
    start = game.start()
    game.symmetries  # noqa: B018  (listed once per game and cached: not part of a solve)
    base = _rss()
    peak = _Peak()

    def solve() -> tuple[Any, int, int]:
        solver = FastSolver(game)
        value = solver.value(start)
        if mode == "moves":
            for m in start.legal_moves():
                solver.value(start.play(m))
        return value, solver.nodes, solver.table_bytes

    t = time.perf_counter()
    value, nodes, table = solve()
    cold = time.perf_counter() - t
    warm: list[float] = []
    began = time.perf_counter()
    while len(warm) < repeats and (len(warm) < 3 or time.perf_counter() - began < max_seconds):
        t = time.perf_counter()
        solve()
        warm.append(time.perf_counter() - t)
    seconds = statistics.median(warm)
    return {
        "spec": spec,
        "mode": mode,
        "value": value.outcome.value,
        "plies": value.plies,
        "score": value.score,
        "nodes": nodes,
        "cold_seconds": cold,
        "seconds": seconds,
        "min_seconds": min(warm),
        "max_seconds": max(warm),
        "repeats": len(warm),
        "nodes_per_second": nodes / seconds if seconds > 0 else None,
        "import_seconds": import_seconds,
        "base_mib": base / 2**20,
        "peak_mib": max(peak.stop(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024) / 2**20,
        "table_mib": table / 2**20,
    }


def compile_child() -> dict[str, Any]:
    import noughts
    from noughts.exact.fast import FastSolver

    game = noughts.game("tictactoe")
    t = time.perf_counter()
    FastSolver(game).value(game.start())
    first = time.perf_counter() - t
    t = time.perf_counter()
    FastSolver(game).value(game.start())
    again = time.perf_counter() - t
    return {"compile_seconds": first - again, "first_seconds": first, "warm_seconds": again}


# -- the parent side ------------------------------------------------------------------------------


def run_child(args: list[str], env: dict[str, str] | None = None, timeout: float = 600) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, env=env, timeout=timeout, cwd=ROOT
    )
    if out.returncode != 0:
        raise RuntimeError(f"child {args} failed:\n{out.stderr}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _secs(s: float) -> str:
    return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"


def table(rows: list[dict[str, Any]], targets: dict[str, Target]) -> str:
    lines = [
        "| game | solve | value | warm (median, range) | cold | nodes | nodes/s | RSS base / peak (MiB) "
        "| table (MiB) | target | met |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for r in rows:
        t = targets[r["spec"]]
        value = r["value"] if r["score"] is None else f"{r['value']} (score {r['score']:+d})"
        value += f" in {r['plies']}" if r["value"] != "draw" else ""
        span = f"{_secs(r['seconds'])} ({_secs(r['min_seconds'])}-{_secs(r['max_seconds'])})"
        nps = f"{r['nodes_per_second']:,.0f}" if r["nodes_per_second"] else ""
        memory = f"{r['base_mib']:.0f} / {r['peak_mib']:.0f}"
        goal, met = "", ""
        if r["mode"] == "value" and t.seconds is not None:
            goal = f"< {_secs(t.seconds)}" + (f", < {t.mib:.0f} MB" if t.mib else "")
            ok = r["seconds"] < t.seconds and (t.mib is None or r["peak_mib"] * 2**20 < t.mib * 10**6)
            met = "yes" if ok else "no"
        solve = "value" if r["mode"] == "value" else "+ first moves"
        lines.append(
            f"| {r['spec']} | {solve} | {value} | {span} | {_secs(r['cold_seconds'])} | {r['nodes']:,} | {nps} "
            f"| {memory} | {r['table_mib']:.1f} | {goal} | {met} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child", nargs=2, metavar=("SPEC", "MODE"), help=argparse.SUPPRESS)
    parser.add_argument("--compile-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--repeats", type=int, default=7, help="warm solves per game (median)")
    parser.add_argument(
        "--max-seconds", type=float, default=20.0, help="stop repeating after this (>= 3 runs)"
    )
    parser.add_argument("--quick", action="store_true", help="the 3x3 games and mnk(4,4,4) only")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write the raw results")
    args = parser.parse_args()
    if args.compile_child:
        print(json.dumps(compile_child()))
        return
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1], args.repeats, args.max_seconds)))
        return

    started = datetime.datetime.now(datetime.UTC)
    targets = TARGETS[:QUICK] if args.quick else TARGETS
    rows = []
    for t in targets:
        for mode in ("value", "moves") if t.moves else ("value",):
            print(f"  {t.spec} {mode} ...", file=sys.stderr, flush=True)
            row = run_child(
                [
                    "--child",
                    t.spec,
                    mode,
                    "--repeats",
                    str(args.repeats),
                    "--max-seconds",
                    str(args.max_seconds),
                ]
            )
            if t.value is not None and row["value"] != t.value:
                raise AssertionError(f"{t.spec}: solved as {row['value']}, published as {t.value}")
            rows.append(row)
    print("  compile ...", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as cache:
        compiled = run_child(["--compile-child"], env={**os.environ, "NUMBA_CACHE_DIR": cache})
    header = [
        "# The exact solver's targets (noughts alone)",
        "",
        f"command: `{' '.join(['python', 'bench/solve_targets.py', *sys.argv[1:]])}`  ",
        f"date: {started:%Y-%m-%d %H:%M} UTC  ",
        f"machine: {machine()}  ",
        f"versions: {versions(('noughts', 'numba', 'numpy'))}; noughts commit {commit()}  ",
        f"warm: median of up to {args.repeats} solves (at least 3, more while under {args.max_seconds:g} s), "
        "each with a fresh solver and table; cold: the first solve in a fresh process (kernels loaded "
        "from numba's cache)  ",
        f"compile (empty numba cache, first solve of tic-tac-toe): {compiled['compile_seconds']:.1f} s",
        "",
    ]
    by_spec = {t.spec: t for t in TARGETS}
    print("\n".join(header) + table(rows, by_spec))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {"date": started.isoformat(), "machine": machine(), "rows": rows, "compile": compiled}, indent=2
        )
    )


if __name__ == "__main__":
    main()
