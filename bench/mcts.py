"""MCTS simulations per second on tictactoe: noughts against OpenSpiel, side by side.

Every bot searches the empty tic-tac-toe board for a given number of simulations (one move's
search), with random rollouts (one per simulation) and the same exploration constant c = 2:

* noughts ``mcts`` kernel (numba over bitboards), plain UCT and with ``solver=true``
  (score-bounded MCTS);
* noughts' reference MCTS over the public position API (``kernel=python``);
* OpenSpiel's C++ ``pyspiel.MCTSBot`` with ``RandomRolloutEvaluator(1)``, without and with
  its solver;
* OpenSpiel's Python ``open_spiel.python.algorithms.mcts.MCTSBot``.

Each (bot, simulations) pair runs in its own child process: warm up (numba compiles or loads
its cache), then ``--repeats`` timed searches from the start position; the table shows the
median simulations actually run, the median time per search, the median simulations per
second, its ratio to OpenSpiel's C++ bot at the same budget, and the child's peak RSS (the
whole interpreter). A solver may stop early once the root is proven (noughts' proves the empty
board a draw in about 18,000 simulations); its rate counts the simulations it actually ran,
and the time column shows what stopping early saves.

Run it as ``python bench/mcts.py`` (``--quick`` is a smoke test).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _common import commit, machine, versions  # bench/ is sys.path[0] when a script runs

try:
    import resource
except ImportError:  # pragma: no cover
    resource = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parent.parent
C = 2.0
BOTS = (
    "noughts-kernel",
    "noughts-kernel-solver",
    "noughts-python",
    "openspiel-cpp",
    "openspiel-cpp-solver",
    "openspiel-python",
)
SLOW = {"noughts-python", "openspiel-python"}  # only at small budgets


def _searcher(bot: str, sims: int) -> Any:
    """A function that runs one search of ``sims`` simulations and returns the count run."""
    if bot.startswith("noughts"):
        import numpy as np

        import noughts
        from noughts.agents.mcts import MCTSAgent

        kernel = "python" if bot == "noughts-python" else "numba"
        agent = MCTSAgent(sims, C, solver=bot.endswith("solver"), kernel=kernel)
        start = noughts.game("tictactoe").start()
        rng = np.random.default_rng(0)
        return lambda: agent.search(start, rng).sims
    import pyspiel

    game = pyspiel.load_game("tic_tac_toe")
    if bot.startswith("openspiel-cpp"):
        solve = bot.endswith("solver")
        evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
        # MCTSBot(game, evaluator, uct_c, max_simulations, max_memory_mb, solve, seed, verbose)
        cpp = pyspiel.MCTSBot(game, evaluator, C, sims, 1 << 30, solve, 0, False)

        def run_cpp() -> int:
            root = cpp.mcts_search(game.new_initial_state())  # what step() runs before it picks
            return int(root.explore_count)  # the simulations run (its solver may stop early)

        return run_cpp
    import numpy as np
    from open_spiel.python.algorithms import mcts

    rs = np.random.RandomState(0)
    py = mcts.MCTSBot(game, C, sims, mcts.RandomRolloutEvaluator(1, rs), random_state=rs, solve=False)

    def run_py() -> int:
        py.step(game.new_initial_state())
        return sims

    return run_py


def child(bot: str, sims: int, repeats: int) -> None:
    run = _searcher(bot, sims)
    run()  # warm-up: compile or load caches
    rates, seconds, runs = [], [], []
    for _ in range(repeats):
        t = time.perf_counter()
        done = run()
        dt = time.perf_counter() - t
        rates.append(done / dt)
        seconds.append(dt)
        runs.append(done)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 if resource else None
    print(json.dumps({"rates": rates, "seconds": seconds, "sims_run": runs, "rss_mib": rss}))


def measure(bot: str, sims: int, repeats: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", bot, str(sims), str(repeats)],
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
    doc: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    doc["median"] = statistics.median(doc["rates"])
    doc["median_ms"] = 1000 * statistics.median(doc["seconds"])
    doc["median_run"] = statistics.median(doc["sims_run"])
    return doc


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--child", nargs=3, metavar=("BOT", "SIMS", "REPEATS"), help=argparse.SUPPRESS)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sims", type=int, nargs="+", default=[1000, 10_000, 100_000, 1_000_000])
    parser.add_argument("--quick", action="store_true", help="tiny budgets, one repeat")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "mcts.json")
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), int(args.child[2]))
        return
    if args.quick:
        args.sims, args.repeats = [1000], 1
    rows = []
    for sims in args.sims:
        for bot in BOTS:
            if bot in SLOW and sims > 10_000:
                continue
            reps = args.repeats if not (bot in SLOW and sims > 1000) else 1
            rows.append({"bot": bot, "sims": sims, **measure(bot, sims, reps)})
            print(f"{bot:22} {sims:>9,} {rows[-1].get('median', rows[-1].get('error'))}", file=sys.stderr)
    print(f"MCTS simulations per second on tictactoe, one search from the empty board, c = {C:g}\n")
    print(f"{machine()}; {versions(('numba', 'numpy', 'open-spiel'))}; commit {commit()}\n")
    print(
        "| simulations per search | bot | simulations run | median ms per search | median sims/s "
        "| vs OpenSpiel C++ | peak RSS (MiB) |"
    )
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for sims in args.sims:
        ref = next((r.get("median") for r in rows if r["sims"] == sims and r["bot"] == "openspiel-cpp"), None)
        for r in (r for r in rows if r["sims"] == sims):
            if "error" in r:
                print(f"| {sims:,} | {r['bot']} | failed: {r['error']} | | | | |")
                continue
            ratio = f"{r['median'] / ref:.2f}x" if ref else "n/a"
            rss = f"{r['rss_mib']:.0f}" if r.get("rss_mib") else "?"
            print(
                f"| {sims:,} | {r['bot']} | {r['median_run']:,.0f} | {r['median_ms']:,.1f} "
                f"| {r['median']:,.0f} | {ratio} | {rss} |"
            )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"machine": machine(), "commit": commit(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
