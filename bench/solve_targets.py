"""The exact solver's speed and memory targets (issue 3), measured for noughts alone.

For each game, in its own child process (so the import, the kernels' loading and the peak
memory are its own):

- **value**: ``FastSolver(game).value(game.start())``, the value of the game with its exact
  distance, a fresh solver (and table) each time;
- **+ first moves**: the same, then ``value(start.play(m))`` for every first move ``m`` on the
  same solver: what ``noughts solve SPEC`` needs for the value of every first move;
- **value, multi-word** (``--wide``): the value with the multi-word kernel forced on a board of
  at most 64 cells (``FastSolver(game, words=1)``), beside the one-word kernel's;
- **noughts.solve**: ``noughts.solve(spec, max_seconds=None)``, the whole answer of ``noughts
  solve SPEC`` (the value, every first move, the principal variation) through whichever engine
  the API picks: the games the kernel does not take (veto, Notakto, Otrio) and the 3x3 games,
  which go to the Python search;
- **table**: ``build_table(game)``, the solved table ``noughts solve SPEC --save FILE`` writes
  (the retrograde pass over arrays for claim games); **table, reference**: the same table by
  the memoised minimax through the position API (``build_table_reference``), timed once.

**cold** is the first solve in a fresh process: it loads the compiled kernels from numba's
cache (``cache=True``; the first run on a machine compiles them, see **compile** below); **warm**
is the median (with the range) of ``--repeats`` further solves in the same process. **compile**
is one child run with an empty ``NUMBA_CACHE_DIR``: its first solve of tic-tac-toe compiles
every kernel. Memory is the child's resident set (``/proc/self/statm``, sampled every 20 ms in
a thread, and ``ru_maxrss``): after importing noughts and making the game (**base**), and at
its peak; **table** is the transposition table's size at the end of the last solve (the
kernel's; 0 for the other rows). **CPU** is the median process time of the same warm solves: on
a machine shared with other work it moves less than the wall time.

A row with a time limit (``limit``) solves under ``Budget(max_seconds=limit)`` and is shown as
"did not finish" when it runs out.

Run it as ``python bench/solve_targets.py``; ``--quick`` runs the 3x3 games and mnk(4,4,4);
``--wide`` adds the multi-word kernel's rows; ``--search-against REV`` only times
``noughts.solve`` on the veto games, Notakto on two boards and tic-tac-toe through the Python
search of commit ``REV`` (its ``search.py``, loaded from git) beside today's, in one process.
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
    modes: tuple[str, ...] = ()  # the modes to run (default: value, and moves if `moves`)
    limit: float | None = None  # a time budget (seconds) for each solve


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
    # boards over 64 cells: the multi-word kernel
    Target("mnk(9,9,3)", None, value="first"),
    Target("mnk(11,11,3)", None, value="first"),
    Target("mnk(9,9,4)", None, value="first", moves=False),
    Target("hypercube(5,3)", None, moves=False, limit=60.0),
    # the Python search, through the API (what `noughts solve SPEC` prints)
    Target("veto(tictactoe)", 0.05, value="draw", modes=("api",)),
    Target("veto(misere(tictactoe))", 0.05, modes=("api",)),
    Target("veto(maker_breaker(tictactoe))", 0.05, modes=("api",)),
    Target("veto(cumulative(tictactoe))", 0.05, modes=("api",)),
    Target("notakto", 0.05, value="first", modes=("api",)),
    Target("notakto(boards=2)", None, value="second", modes=("api",)),
    Target("notakto(boards=3)", None, modes=("api",), limit=120.0),
    Target("otrio", None, modes=("api",)),
    Target("tictactoe", 0.05, value="draw", modes=("api",)),
    # solved tables (`noughts solve SPEC --save FILE`)
    Target("tictactoe", None, value="draw", modes=("table", "table-ref")),
    Target("mnk(4,3,3)", None, modes=("table", "table-ref")),
    Target("mnk(4,4,4)", 60.0, value="draw", modes=("table", "table-ref")),
)
QUICK = 6  # --quick: the first six
WIDE = ("mnk(4,4,4)", "hypercube(3,3)", "mnk(5,5,4)", "mnk(6,5,4)", "mnk(8,8,4)")
"""--wide: the boards on which the multi-word kernel (W = 1) is timed beside the one-word one."""


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


def child(spec: str, mode: str, repeats: int, max_seconds: float, limit: float | None) -> dict[str, Any]:
    t = time.perf_counter()
    import noughts
    from noughts.core import LimitExceeded
    from noughts.core.budget import Budget
    from noughts.exact.fast import FastSolver
    from noughts.exact.table import build_table, build_table_reference

    import_seconds = time.perf_counter() - t
    game = noughts.game(spec)
    start = game.start()
    game.symmetries  # noqa: B018  (listed once per game and cached: not part of a solve)
    base = _rss()
    peak = _Peak()

    def solve() -> tuple[Any, int, int]:
        if mode == "api":
            r = noughts.solve(game, max_seconds=limit, max_memory=None)
            return r.value, r.nodes, 0
        if mode in ("table", "table-ref"):
            built = (build_table if mode == "table" else build_table_reference)(game, Budget(limit, None))
            return built.value(start), len(built), 0
        budget = None if limit is None else Budget(max_seconds=limit, max_memory=None)
        solver = FastSolver(game, budget, words=1 if mode == "wide" else None)
        value = solver.value(start)
        if mode == "moves":
            for m in start.legal_moves():
                solver.value(start.play(m))
        return value, solver.nodes, solver.table_bytes

    t, c = time.perf_counter(), time.process_time()
    try:
        value, nodes, table = solve()
    except LimitExceeded as e:
        return {"spec": spec, "mode": mode, "unfinished": str(e), "limit": limit, "base_mib": base / 2**20}
    cold = time.perf_counter() - t
    cold_cpu = time.process_time() - c
    warm: list[float] = []
    cpu: list[float] = []
    began = time.perf_counter()
    least = 0 if mode == "table-ref" else 3  # the reference build is timed once
    while len(warm) < (repeats if least else 0) and (
        len(warm) < least or time.perf_counter() - began < max_seconds
    ):
        t, c = time.perf_counter(), time.process_time()
        solve()
        warm.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    if not warm:
        warm = [cold]
        cpu = [cold_cpu]
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
        "cpu_seconds": statistics.median(cpu),
        "min_seconds": min(warm),
        "max_seconds": max(warm),
        "repeats": len(warm),
        "nodes_per_second": nodes / seconds if seconds > 0 and mode not in ("table", "table-ref") else None,
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


MODE_NAMES = {
    "value": "value",
    "moves": "+ first moves",
    "wide": "value, multi-word",
    "api": "noughts.solve",
    "table": "table",
    "table-ref": "table, reference",
}


def table(rows: list[dict[str, Any]], targets: dict[tuple[str, str], Target]) -> str:
    lines = [
        "| game | solve | value | warm (median, range) | CPU (median) | cold | nodes | nodes/s "
        "| RSS base / peak (MiB) | table (MiB) | target | met |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for r in rows:
        t = targets[r["spec"], r["mode"]]
        solve = MODE_NAMES[r["mode"]]
        if "unfinished" in r:
            lines.append(
                f"| {r['spec']} | {solve} | did not finish in {r['limit']:g} s |  |  |  |  |  |  |  |  |  |"
            )
            continue
        value = r["value"] if r["score"] is None else f"{r['value']} (score {r['score']:+d})"
        value += f" in {r['plies']}" if r["value"] != "draw" else ""
        span = f"{_secs(r['seconds'])} ({_secs(r['min_seconds'])}-{_secs(r['max_seconds'])})"
        if r["repeats"] == 1 and r["mode"] == "table-ref":
            span = f"{_secs(r['seconds'])} (once)"
        nps = f"{r['nodes_per_second']:,.0f}" if r["nodes_per_second"] else ""
        memory = f"{r['base_mib']:.0f} / {r['peak_mib']:.0f}"
        goal, met = "", ""
        if r["mode"] in ("value", "api", "table") and t.seconds is not None:
            goal = f"< {_secs(t.seconds)}" + (f", < {t.mib:.0f} MB" if t.mib and r["mode"] == "value" else "")
            ok = r["seconds"] < t.seconds and (
                t.mib is None or r["mode"] != "value" or r["peak_mib"] * 2**20 < t.mib * 10**6
            )
            met = "yes" if ok else "no"
        count = f"{r['nodes']:,}" + (" positions" if r["mode"].startswith("table") else "")
        lines.append(
            f"| {r['spec']} | {solve} | {value} | {span} | {_secs(r['cpu_seconds'])} | {_secs(r['cold_seconds'])} "
            f"| {count} | {nps} "
            f"| {memory} | {r['table_mib']:.1f} | {goal} | {met} |"
        )
    return "\n".join(lines)


SEARCH_GAMES = (
    "veto(tictactoe)",
    "veto(misere(tictactoe))",
    "veto(maker_breaker(tictactoe))",
    "veto(cumulative(tictactoe))",
    "notakto(boards=2)",
    "tictactoe",
)
"""--search-against: the games on which the Python search is timed against an older one."""


def search_against(rev: str, repeats: int) -> str:
    """``noughts.solve`` through the Python search of commit ``rev`` (its ``search.py`` loaded
    from git) and through today's, side by side in this process: a Markdown table."""
    import importlib.util

    import noughts
    import noughts.exact.search as new
    import noughts.exact.search as search

    source = subprocess.run(
        ["git", "show", f"{rev}:src/noughts/exact/search.py"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    with tempfile.TemporaryDirectory() as where:
        path = Path(where) / "search_then.py"
        path.write_text(source)
        spec = importlib.util.spec_from_file_location("noughts.exact._search_then", path)
        assert spec is not None and spec.loader is not None
        old = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(old)
    lines = ["| game | search | wall (median) | CPU (median) | nodes |", "| --- | --- | ---: | ---: | ---: |"]
    for name in SEARCH_GAMES:
        game = noughts.game(name)
        for label, module in ((f"at {rev}", old), ("now", new)):
            vars(search)["Searcher"] = module.Searcher  # what the policy's python search builds
            try:
                noughts.solve(game, max_seconds=None)
            except AttributeError as error:  # an older search may read what the game no longer has
                lines.append(f"| {name} | {label} | cannot run here ({error}) | | |")
                continue
            wall, cpu = [], []
            for _ in range(repeats):
                t, c = time.perf_counter(), time.process_time()
                r = noughts.solve(game, max_seconds=None)
                wall.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
            lines.append(
                f"| {name} | {label} | {_secs(statistics.median(wall))} | {_secs(statistics.median(cpu))} "
                f"| {r.nodes:,} |"
            )
    vars(search)["Searcher"] = new.Searcher
    return "\n".join(lines)


def _modes(t: Target, wide: bool) -> tuple[str, ...]:
    modes = t.modes or (("value", "moves") if t.moves else ("value",))
    if wide and t.spec in WIDE and "value" in modes:
        modes = (*modes, "wide")
    return modes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child", nargs=2, metavar=("SPEC", "MODE"), help=argparse.SUPPRESS)
    parser.add_argument("--limit", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--compile-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--repeats", type=int, default=7, help="warm solves per game (median)")
    parser.add_argument(
        "--max-seconds", type=float, default=20.0, help="stop repeating after this (>= 3 runs)"
    )
    parser.add_argument("--quick", action="store_true", help="the 3x3 games and mnk(4,4,4) only")
    parser.add_argument("--wide", action="store_true", help="also time the multi-word kernel on small boards")
    parser.add_argument("--only", nargs="*", default=None, metavar="SPEC", help="only these games")
    parser.add_argument(
        "--search-against",
        metavar="REV",
        help="only time noughts.solve through the Python search of commit REV beside today's",
    )
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write the raw results")
    args = parser.parse_args()
    if args.compile_child:
        print(json.dumps(compile_child()))
        return
    if args.search_against:
        print(search_against(args.search_against, args.repeats))
        return
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1], args.repeats, args.max_seconds, args.limit)))
        return

    started = datetime.datetime.now(datetime.UTC)
    targets = TARGETS[:QUICK] if args.quick else TARGETS
    if args.only is not None:
        targets = tuple(t for t in targets if t.spec in args.only)
    rows = []
    for t in targets:
        for mode in _modes(t, args.wide):
            print(f"  {t.spec} {mode} ...", file=sys.stderr, flush=True)
            extra = [] if t.limit is None else ["--limit", str(t.limit)]
            row = run_child(
                [
                    "--child",
                    t.spec,
                    mode,
                    "--repeats",
                    str(args.repeats),
                    "--max-seconds",
                    str(args.max_seconds),
                    *extra,
                ]
            )
            if t.value is not None and row.get("value", t.value) != t.value:
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
    by_mode = {(t.spec, m): t for t in TARGETS for m in _modes(t, True)}
    print("\n".join(header) + table(rows, by_mode))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {"date": started.isoformat(), "machine": machine(), "rows": rows, "compile": compiled}, indent=2
        )
    )


if __name__ == "__main__":
    main()
