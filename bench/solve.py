"""Solving games exactly: noughts side by side with OpenSpiel's Python solvers, in one run.

For each game, each solver runs in its own child process with a wall-clock limit:

- noughts: ``noughts.exact.solve(spec)`` (the value of the start and of every first move),
  timed cold (the first solve in a fresh process, loading the compiled kernels) and warm (the
  median of further solves, each with a fresh solver and table);
- OpenSpiel ``MinimaxSolver(game_string).solve()`` (a memoised minimax over every state);
- OpenSpiel ``alpha_beta_search(game)`` (plain alpha-beta, no table).

A child samples its own resident memory every 50 ms into a file, so the peak is known even
when the parent stops it at the time limit. Nodes are each solver's own count: positions
searched for noughts, table entries for ``MinimaxSolver``; ``alpha_beta_search`` reports none.

Run it as ``python bench/solve.py`` (``make bench``); ``--timeout`` bounds each child
(default 300 s, the limit the issue quotes), ``--quick`` skips the peers on 4x4 and 3x3x3.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
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
DEFAULT_JSON = ROOT / "bench" / "results" / "solve.json"


@dataclass(frozen=True)
class Game:
    label: str
    noughts: str
    openspiel: str


GAMES = (
    Game("tic-tac-toe", "tictactoe", "tic_tac_toe"),
    Game("4x4, 4 in a row", "mnk(4,4,4)", "mnk(m=4,n=4,k=4)"),
    Game("3x3x3", "hypercube(3,3)", "gomoku(size=3,dims=3,connect=3)"),
)
SOLVERS = ("noughts", "openspiel-minimax", "openspiel-alphabeta")


# -- the child side -------------------------------------------------------------------------


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _watch_memory(path: str) -> None:
    peak = 0
    while True:
        peak = max(peak, _rss_bytes())
        with open(path + ".tmp", "w") as f:
            f.write(str(peak))
        os.replace(path + ".tmp", path)  # a reader never sees a half-written file
        time.sleep(0.05)


def child(solver: str, game_id: str, repeats: int) -> dict[str, Any]:
    if solver == "noughts":
        import noughts
        from noughts.exact import solve

        game = noughts.game(game_id)
        t = time.perf_counter()
        first = solve(game, max_seconds=None, max_memory=None)
        cold = time.perf_counter() - t
        warm = []
        for _ in range(repeats):
            t = time.perf_counter()
            solve(game, max_seconds=None, max_memory=None)
            warm.append(time.perf_counter() - t)
        seconds = statistics.median(warm) if warm else cold
        return {
            "value": first.value.outcome.value,
            "nodes": first.nodes,
            "seconds": seconds,
            "cold_seconds": cold,
            "nodes_per_second": first.nodes / seconds if seconds > 0 else None,
        }
    import pyspiel

    if solver == "openspiel-minimax":
        from open_spiel.python.algorithms.minimax_solver import MinimaxSolver

        t = time.perf_counter()
        ms = MinimaxSolver(game_id)
        table = ms.solve()
        seconds = time.perf_counter() - t
        root = ms._game.new_initial_state()
        value = table[str(root)].value
        return {
            "value": _word(value),
            "nodes": len(table),
            "seconds": seconds,
            "nodes_per_second": len(table) / seconds,
        }
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    game = pyspiel.load_game(game_id)
    t = time.perf_counter()
    value, _ = alpha_beta_search(game)
    seconds = time.perf_counter() - t
    return {"value": _word(value), "nodes": None, "seconds": seconds, "nodes_per_second": None}


def _word(value: float) -> str:
    return "first" if value > 0 else "second" if value < 0 else "draw"


# -- the parent side ------------------------------------------------------------------------


def run_case(solver: str, game: Game, timeout: float, repeats: int) -> dict[str, Any]:
    game_id = game.noughts if solver == "noughts" else game.openspiel
    with tempfile.NamedTemporaryFile("r", suffix=".peak") as peak:
        cmd = [sys.executable, __file__, "--child", solver, game_id, "--peak-file", peak.name]
        cmd += ["--repeats", str(repeats)]
        row: dict[str, Any] = {"solver": solver, "game": game.label, "id": game_id}
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            row["status"] = f"did not finish in {timeout:g} s"
        else:
            if out.returncode != 0:
                row["status"] = "failed: " + (out.stderr.strip().splitlines() or ["?"])[-1]
            else:
                row.update(json.loads(out.stdout.strip().splitlines()[-1]))
                row["status"] = "ok"
        text = Path(peak.name).read_text().strip()
        row["peak_mib"] = int(text) / 2**20 if text else None
    return row


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| game | solver | value | wall time | cold (first solve) | nodes | nodes/s | peak RSS (MiB) | noughts faster by |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    by_game: dict[str, float] = {
        r["game"]: r["seconds"] for r in rows if r["solver"] == "noughts" and r["status"] == "ok"
    }
    for r in rows:
        ok = r["status"] == "ok"
        secs = _secs(r["seconds"]) if ok else r["status"]
        cold = _secs(r["cold_seconds"]) if ok and "cold_seconds" in r else ""
        nodes = f"{r['nodes']:,}" if ok and r.get("nodes") is not None else ""
        nps = f"{r['nodes_per_second']:,.0f}" if ok and r.get("nodes_per_second") else ""
        peak = f"{r['peak_mib']:.0f}" if r.get("peak_mib") is not None else ""
        ratio = ""
        if r["solver"] != "noughts" and r["game"] in by_game:
            base = by_game[r["game"]]
            ratio = f"{r['seconds'] / base:,.0f}x" if ok else f"> {float(r['limit']) / base:,.0f}x"
        value = r.get("value", "") if ok else ""
        lines.append(
            f"| {r['game']} | {r['solver']} | {value} | {secs} | {cold} | {nodes} | {nps} | {peak} | {ratio} |"
        )
    return "\n".join(lines)


def _secs(s: float) -> str:
    return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child", nargs=2, metavar=("SOLVER", "GAME"), help=argparse.SUPPRESS)
    parser.add_argument("--peak-file", help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds allowed to each child")
    parser.add_argument("--repeats", type=int, default=5, help="warm repetitions for noughts")
    parser.add_argument("--quick", action="store_true", help="peers on tic-tac-toe only")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write raw results")
    args = parser.parse_args()
    if args.child:
        if args.peak_file:
            threading.Thread(target=_watch_memory, args=(args.peak_file,), daemon=True).start()
        print(json.dumps(child(args.child[0], args.child[1], args.repeats)))
        return
    started = datetime.datetime.now(datetime.UTC)
    rows = []
    for game in GAMES:
        for solver in SOLVERS:
            if args.quick and solver != "noughts" and game.noughts != "tictactoe":
                continue
            print(f"  {solver} {game.label} ...", file=sys.stderr, flush=True)
            row = run_case(solver, game, args.timeout, args.repeats)
            row["limit"] = args.timeout
            rows.append(row)
    header = [
        "# Exact solving: noughts and OpenSpiel",
        "",
        f"command: `{' '.join(['python', 'bench/solve.py', *sys.argv[1:]])}`  ",
        f"date: {started:%Y-%m-%d %H:%M} UTC  ",
        f"machine: {machine()}  ",
        f"versions: {versions(('noughts', 'numba', 'open_spiel', 'numpy'))}; noughts commit {commit()}  ",
        f"limit per child: {args.timeout:g} s; noughts wall time: median of {args.repeats} warm solves",
        "",
        "",
    ]
    print("\n".join(header) + table(rows))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"date": started.isoformat(), "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
