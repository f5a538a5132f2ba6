"""Budgets that hold: how long work takes to stop, or to be refused, against the budget it was given.

Each row runs a command as a user would (the console script, in a process of its own: its wall
time includes starting Python and importing noughts) or an agent's move in this process, and
reports wall and CPU seconds, the exit status and the line it printed:

* ``noughts count otrio --max-seconds 20``: the count stops inside a ply (issue 11: it ran 119 s);
* ``noughts count "mnk(5,5,4)" --max-seconds 10``: the kernels refuse a ply they cannot finish;
* ``noughts train td otrio``: refused from random games before any table is built (85 s before);
* ``noughts grade random "mnk(4,4,3)" --games 0``: the notice that it samples (33 s before);
* the perfect player with ``seconds=S`` on 4x4x4, 7x7x7 and 15x15: the solver's half of the clock,
  then its fallback (issue 11: the "10 s" perfect player ran 18-20 s on 7x7x7).

Run: ``.venv/bin/python bench/budgets.py`` (``--json PATH``). The load average is printed too.

``--engine`` measures instead how well the ``engine`` agent keeps its clock (issue 13's follow-up:
``analyse`` asked for 1.04 s took up to 1.57 s under load): on positions drawn by seeded random
play on mnk(15,15,5), hypercube(7,3) and hypercube(4,3) (``bench/forced_wins.py``'s drawing, the
ply count uniform in ``ENGINE_PLIES``) and on the forced-win suite's positions of those boards
(``bench/data/forced_wins.json``), each position is searched by ``EngineAgent.analyse`` and by
``EngineAgent.move_values`` with ``--seconds`` (default 1), a fresh agent per board (the first
search, which loads the compiled kernels, is a warm-up and not counted). The overshoot is the
wall time past the clock; the report gives its median, 90th percentile and worst per board and
call, with CPU seconds beside wall seconds.

``--solver`` runs the exact solver's rows instead: ``FastSolver(game, Budget(max_seconds=S))``
on the start of each game of :data:`SOLVER_ROWS`, each in a child process that first loads the
kernel (a search stopped by a budget of budget checks, so the timed run does not pay for it),
reporting the wall and CPU seconds the solver took to stop, its overshoot past ``S`` and the
positions it searched. ``--before SRC`` (a ``src`` folder of another checkout, e.g. ``git
archive 6f252bd src | tar -x -C /tmp/before``) runs every row under that tree too,
interleaved (this tree, that tree, this tree, ...; ``--repeat N`` times each), with the ratio of
the medians.

``--engines`` gives every exact engine (the alpha-beta kernel ``FastSolver``, the proof engine
``ValueSearches``, the Breaker prover ``prove_breaker``, the Python search ``Searcher``)
``Budget(max_seconds=0.5)`` on each of :data:`ENGINE_GAMES` (issue 30: hypercube(7,3),
mnk(15,15,5), misère mnk(5,5,4), Maker-Breaker Qubic), warm, each in a process of its own, and
reports when it stopped (the wall and CPU seconds, the overshoot past 0.5 s), what it said (it
stopped, it answered, or it refused the game) and the nodes it searched.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from _common import finish

NOUGHTS = Path(sys.executable).with_name("noughts")

COMMANDS = [
    ["count", "otrio", "--max-seconds", "20"],
    ["count", "mnk(5,5,4)", "--max-seconds", "10"],
    ["train", "td", "otrio", "--out", "never.json", "--no-record"],
    ["grade", "random", "mnk(4,4,3)", "--games", "0", "--json"],
]

MOVES = [
    ("hypercube(4,3)", "perfect:seconds=3"),
    ("hypercube(7,3)", "perfect:seconds=10"),
    ("mnk(15,15,5)", "perfect:seconds=3"),
]


def command(args: list[str]) -> dict[str, Any]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run([str(NOUGHTS), *args], capture_output=True, text=True, timeout=600, cwd="/tmp")
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    said = (done.stderr.strip().splitlines() or [""])[-1]
    return {
        "command": "noughts " + " ".join(args),
        "exit": done.returncode,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "peak_mib": round(after.ru_maxrss / 1024, 1),
        "said": said[:300],
    }


def move(spec: str, agent: str) -> dict[str, Any]:
    import noughts
    from noughts.agents import make_agent
    from noughts.agents.base import decide

    game = noughts.game(spec)
    player = make_agent(agent)
    t, c = time.perf_counter(), time.process_time()
    d = decide(player, game.start(), np.random.default_rng(0))
    return {
        "command": f"decide({agent!r}) on {spec}",
        "move": game.format_move(d.move),
        "proven": d.proven,
        "wall_s": round(time.perf_counter() - t, 2),
        "cpu_s": round(time.process_time() - c, 2),
        "said": d.note,
    }


ENGINE_BOARDS = ("mnk(15,15,5)", "hypercube(7,3)", "hypercube(4,3)")
ENGINE_PLIES = {"mnk(15,15,5)": (4, 40), "hypercube(7,3)": (2, 40), "hypercube(4,3)": (2, 16)}
"""The range (inclusive) of the random prefix's length on each board of ``--engine``."""


def engine_positions(spec: str, count: int, suite: int, seed: int) -> list[Any]:
    """``count`` positions of random play (no finished game, no win in one) and the first
    ``suite`` forced-win positions of ``spec`` from the suite."""
    import forced_wins
    from noughts.core import game as make_game

    g = make_game(spec)
    forced_wins.PLIES.setdefault(spec, ENGINE_PLIES[spec])
    rng = np.random.default_rng([seed, ENGINE_BOARDS.index(spec)])
    out: list[Any] = []
    while len(out) < count:
        lo, hi = ENGINE_PLIES[spec]
        p = forced_wins.draw_position(g, spec, rng, int(rng.integers(lo, hi + 1)))
        if p is not None and not forced_wins.wins_in_one(p):
            out.append(p)
    if suite:
        rows = [r for r in json.loads(forced_wins.SUITE.read_text())["positions"] if r["game"] == spec]
        out += [g.parse(r["position"]) for r in rows[:suite]]
    return out


def engine_clock(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--engine`` rows (see the module docstring)."""
    from noughts.agents.engine import EngineAgent

    rows = []
    for spec in ENGINE_BOARDS:
        positions = engine_positions(spec, args.positions, args.suite, args.seed)
        agent = EngineAgent(args.seconds)
        for p in (positions[0], positions[-1]):  # the kernels load (a random and a suite position)
            agent.analyse(p, 0.2)
            agent.move_values(p, 0.2)
        over: dict[str, list[float]] = {"analyse": [], "move_values": []}
        cpu: dict[str, list[float]] = {"analyse": [], "move_values": []}
        for p in positions:  # interleaved: analyse, then move_values, position by position
            for call in ("analyse", "move_values"):
                t, c = time.perf_counter(), time.process_time()
                getattr(agent, call)(p, args.seconds)
                over[call].append(time.perf_counter() - t - args.seconds)
                cpu[call].append(time.process_time() - c)
        for call, xs in over.items():
            xs = sorted(xs)
            row = {
                "board": spec,
                "call": call,
                "positions": len(xs),
                "seconds": args.seconds,
                "median_over_s": round(float(np.median(xs)), 3),
                "p90_over_s": round(float(np.quantile(xs, 0.9)), 3),
                "worst_over_s": round(xs[-1], 3),
                "median_cpu_s": round(float(np.median(cpu[call])), 3),
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
    return {"engine_rows": rows}


SOLVER_ROWS = [
    ("hypercube(7,3)", 0.5),
    ("hypercube(7,3)", 2.0),
    ("hypercube(4,3)", 0.5),
    ("mnk(6,6,5)", 0.5),
    ("misere(mnk(5,5,4))", 0.5),
    ("maker_breaker(mnk(6,6,5))", 0.5),
    ("mnk(15,15,5)", 0.5),
]

_SOLVER_CHILD = """
import json, sys, time
import noughts
from noughts.core import Budget
from noughts.core.errors import LimitExceeded
from noughts.exact.fast import FastSolver

class Checks(Budget):
    def __init__(self, n):
        super().__init__(max_seconds=None)
        self.left = n
    def check(self, memory=0, progress=""):
        self.left -= 1
        if self.left < 0:
            raise LimitExceeded(progress)

spec, seconds = sys.argv[1], float(sys.argv[2])
game = noughts.game(spec)
try:  # load the kernel: two checks before the search, then three slices
    FastSolver(game, Checks(5)).value(game.start())
except LimitExceeded:
    pass
solver = FastSolver(game, Budget(max_seconds=seconds))
t, c = time.perf_counter(), time.process_time()
said = "answered"
try:
    solver.value(game.start())
except LimitExceeded as e:
    said = str(e)
wall, cpu = time.perf_counter() - t, time.process_time() - c
print(json.dumps({"wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "nodes": solver.nodes, "said": said}))
"""


ENGINE_GAMES = ["hypercube(7,3)", "mnk(15,15,5)", "misere(mnk(5,5,4))", "maker_breaker(hypercube(4,3))"]
"""Issue 30's games: every exact engine given 0.5 s must stop within 1.5 s on each."""

ENGINES = ["alpha-beta", "proof engine", "Breaker prover", "Python search"]

_ENGINE_CHILD = """
import json, sys, time
import noughts
from noughts.core import Budget
from noughts.core.errors import LimitExceeded

engine, spec, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
game = noughts.game(spec)

def run(budget):
    if engine == "alpha-beta":
        from noughts.exact.fast import FastSolver
        solver = FastSolver(game, budget)
        try:
            solver.value(game.start())
        finally:
            run.nodes = solver.nodes
    elif engine == "proof engine":
        from noughts.proving.proof import ValueSearches
        searches = ValueSearches(game, budget)
        try:
            searches.value(game.start())
        finally:
            run.nodes = searches.nodes
    elif engine == "Breaker prover":
        from noughts.breaker.prover import prove_breaker
        run.nodes = -1  # (a stopped proof reports its nodes in its message only)
        run.nodes = prove_breaker(game, budget=budget, record=False).nodes
    else:
        from noughts.exact.search import Searcher
        searcher = Searcher(game, budget)
        try:
            searcher.value(game.start())
        finally:
            run.nodes = getattr(searcher, "nodes", 0)

class Checks(Budget):
    def __init__(self, n):
        super().__init__(max_seconds=None)
        self.left = n
    def check(self, memory=0, progress=""):
        self.left -= 1
        if self.left < 0:
            raise LimitExceeded(progress)

run.nodes = 0
try:  # load the compiled kernels first, off the clock: a search stopped after a few slices
    run(Checks(6))
except (LimitExceeded, ValueError):
    pass
t, c = time.perf_counter(), time.process_time()
said = "answered"
try:
    run(Budget(max_seconds=seconds))
except LimitExceeded as e:
    said = "stopped: " + str(e)[:80]
except ValueError as e:
    said = "refused: " + str(e)[:80]
wall, cpu = time.perf_counter() - t, time.process_time() - c
print(json.dumps({"wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "nodes": run.nodes, "said": said}))
"""


def engine_budget_rows(seconds: float) -> list[dict[str, Any]]:
    """Each exact engine on each of :data:`ENGINE_GAMES` under ``Budget(max_seconds=seconds)``,
    warm (the kernels loaded by a first search stopped at once), each in a process of its own."""
    rows = []
    for spec in ENGINE_GAMES:
        for engine in ENGINES:
            done = subprocess.run(
                [sys.executable, "-c", _ENGINE_CHILD, engine, spec, str(seconds)],
                capture_output=True,
                text=True,
                timeout=900,
                cwd="/tmp",
            )
            if done.returncode != 0:
                row: dict[str, Any] = {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
            else:
                row = json.loads(done.stdout.strip().splitlines()[-1])
                row["overshoot_s"] = round(row["wall_s"] - seconds, 3)
            row = {"game": spec, "engine": engine, "budget_s": seconds, **row}
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def solver_row(spec: str, seconds: float, src: Path | None) -> dict[str, Any]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    done = subprocess.run(
        [sys.executable, "-c", _SOLVER_CHILD, spec, str(seconds)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd="/tmp",
        env=env,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    row: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    row["overshoot_s"] = round(row["wall_s"] - seconds, 3)
    return row


def solver_rows(before: Path | None, repeat: int) -> list[dict[str, Any]]:
    trees: list[tuple[str, Path | None]] = [("this tree", None)]
    if before is not None:
        trees.append((str(before), before))
    rows = []
    for spec, seconds in SOLVER_ROWS:
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in trees}
        for _ in range(repeat):
            for name, src in trees:  # interleaved
                runs[name].append(solver_row(spec, seconds, src))
        row: dict[str, Any] = {"game": spec, "budget_s": seconds}
        for name, _ in trees:
            row[name] = {
                "wall_s": float(np.median([r["wall_s"] for r in runs[name]])),
                "cpu_s": float(np.median([r["cpu_s"] for r in runs[name]])),
                "overshoot_s": float(np.median([r["overshoot_s"] for r in runs[name]])),
                "nodes": int(np.median([r["nodes"] for r in runs[name]])),
                "runs": runs[name],
            }
        if before is not None:
            row["wall_ratio_before_over_now"] = round(
                row[str(before)]["wall_s"] / row["this tree"]["wall_s"], 2
            )
        rows.append(row)
        print(
            json.dumps(
                {
                    k: v if not isinstance(v, dict) else {a: b for a, b in v.items() if a != "runs"}
                    for k, v in row.items()
                }
            )
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--engine", action="store_true", help="the engine's clock instead (module docstring)")
    parser.add_argument("--seconds", type=float, default=1.0, help="--engine: the clock of each search")
    parser.add_argument("--positions", type=int, default=30, help="--engine: random positions per board")
    parser.add_argument("--suite", type=int, default=10, help="--engine: forced-win positions per board")
    parser.add_argument("--seed", type=int, default=7, help="--engine: the random stream's seed")
    parser.add_argument("--solver", action="store_true", help="the exact solver's rows (see the docstring)")
    parser.add_argument(
        "--before", type=Path, help="with --solver: a src folder to compare with, interleaved"
    )
    parser.add_argument("--repeat", type=int, default=1, help="with --solver: runs of each row in each tree")
    parser.add_argument(
        "--engines", action="store_true", help="every exact engine under a 0.5 s budget (the docstring)"
    )
    args = parser.parse_args()
    load = os.getloadavg()
    if args.engines:
        return finish({"engine_budget_rows": engine_budget_rows(0.5)}, load, args.json)
    if args.engine or args.solver:
        doc = engine_clock(args) if args.engine else {"solver_rows": solver_rows(args.before, args.repeat)}
        return finish(doc, load, args.json)
    import noughts.web.warmup  # noqa: F401  (the compiled kernels loaded, as in a running arena)

    rows = [command(a) for a in COMMANDS] + [move(s, a) for s, a in MOVES]
    for r in rows:
        print(json.dumps(r))
    return finish({"rows": rows}, load, args.json)


if __name__ == "__main__":
    sys.exit(main())
