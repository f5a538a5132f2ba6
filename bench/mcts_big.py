"""MCTS simulations per second on boards past 64 cells: noughts' W-word kernel against its
reference and OpenSpiel's C++ ``MCTSBot``, interleaved.

One search from the start (after one move in the centre, so the tree is not the empty board's)
of ``--sims`` simulations with random rollouts and c = 2 on mnk(15,15,5) (OpenSpiel's
``mnk(m=15,n=15,k=5)``), and the noughts kernel alone on hypercube(4,3) (one word) and
hypercube(7,3) (W = 6 words). The bots take turns, round by round (A, B, C, A, B, C, ...), each
round in a fresh child process (warm-up, then one timed search), so the load on the machine
falls on all alike; the table shows medians over the rounds of the simulations per second of
wall time and per second of the child's CPU time (on a loaded machine the CPU time is the
fairer measure of one core's speed: wall time there counts the time other work held the CPU),
the ratios to OpenSpiel's C++ bot and the child's peak RSS. noughts' reference runs fewer
simulations (it is slow); its rate is per simulation all the same.

Run it as ``python bench/mcts_big.py`` (``--quick``: a smoke test).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from _common import command_line, commit, machine, peak_rss_mib, run_worker, versions

ROOT = Path(__file__).resolve().parent.parent
C = 2.0
ROWS = [  # (bot, game, simulations as a share of --sims)
    ("noughts-kernel", "mnk(15,15,5)", 1.0),
    ("openspiel-cpp", "mnk(15,15,5)", 0.02),
    ("noughts-python", "mnk(15,15,5)", 0.02),
    ("noughts-kernel", "hypercube(4,3)", 1.0),
    ("noughts-kernel", "hypercube(7,3)", 1.0),
]


def _searcher(bot: str, spec: str, sims: int) -> Any:
    """A function that runs one search of ``sims`` simulations and returns the count run."""
    if bot.startswith("noughts"):
        import numpy as np

        import noughts
        from noughts.agents.mcts import MCTSAgent

        game = noughts.game(spec)
        agent = MCTSAgent(sims, C, kernel="python" if bot == "noughts-python" else "numba")
        start = game.start().play(game.board.num_cells // 2)
        rng = np.random.default_rng(0)
        return lambda: agent.search(start, rng).sims
    import pyspiel

    game = pyspiel.load_game("mnk(m=15,n=15,k=5)")
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    cpp = pyspiel.MCTSBot(game, evaluator, C, sims, 1 << 30, False, 0, False)
    state = game.new_initial_state()
    state.apply_action(112)

    def run() -> int:
        return int(cpp.mcts_search(state).explore_count)

    return run


def child(bot: str, spec: str, sims: int) -> None:
    run = _searcher(bot, spec, max(1, sims // 10))
    run()  # warm-up: compile or load the caches
    run = _searcher(bot, spec, sims)
    t, cpu = time.perf_counter(), time.process_time()
    done = run()
    dt, dcpu = time.perf_counter() - t, time.process_time() - cpu
    print(
        json.dumps(
            {
                "rate": done / dt,
                "cpu_rate": done / dcpu,
                "seconds": dt,
                "cpu_seconds": dcpu,
                "sims_run": done,
                "rss_mib": peak_rss_mib(),
            }
        )
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--child", nargs=3, metavar=("BOT", "GAME", "SIMS"), help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sims", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true", help="a smoke test: 2,000 simulations, one round")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "mcts_big.json")
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return
    if args.quick:
        args.sims, args.rounds = 2_000, 1
    results: dict[int, list[dict[str, Any]]] = {i: [] for i in range(len(ROWS))}
    for r in range(args.rounds):
        for i, (bot, spec, share) in enumerate(ROWS):
            sims = max(100, int(args.sims * share))
            res = run_worker([sys.executable, __file__, "--child", bot, spec, str(sims)], 1800)
            results[i].append(res)
            print(f"round {r + 1}: {bot:15} {spec:15} {res.get('rate', res.get('reason'))}", file=sys.stderr)
    print(f"MCTS simulations per second past 64 cells, one search after a centre move, c = {C:g}\n")
    print(f"{machine()}; {versions(('numba', 'numpy', 'open-spiel'))}; commit {commit()}\n")
    print(f"`{command_line('bench/mcts_big.py', argv)}`\n")
    print(
        "| game | bot | simulations | median sims/s | vs OpenSpiel C++ | median sims per CPU second "
        "| vs OpenSpiel C++ | peak RSS (MiB) |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    medians, cpu_medians = {}, {}
    for i in range(len(ROWS)):
        ok = [x for x in results[i] if "rate" in x]
        medians[i] = statistics.median(x["rate"] for x in ok) if ok else None
        cpu_medians[i] = statistics.median(x["cpu_rate"] for x in ok) if ok else None
    ref, cpu_ref = medians[1], cpu_medians[1]
    for i, (bot, spec, _) in enumerate(ROWS):
        ok = [x for x in results[i] if "rate" in x]
        if not ok:
            reason = results[i][0].get("reason", "failed") if results[i] else "not run"
            print(f"| {spec} | {bot} | failed: {reason} | | | | | |")
            continue
        same = spec == "mnk(15,15,5)"
        ratio = f"{medians[i] / ref:,.0f}x" if ref and same else "n/a"
        cpu_ratio = f"{cpu_medians[i] / cpu_ref:,.0f}x" if cpu_ref and same else "n/a"
        rss = max(x["rss_mib"] or 0 for x in ok)
        print(
            f"| {spec} | {bot} | {ok[0]['sims_run']:,} | {medians[i]:,.0f} | {ratio} "
            f"| {cpu_medians[i]:,.0f} | {cpu_ratio} | {rss:.0f} |"
        )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps({"machine": machine(), "commit": commit(), "rows": ROWS, "results": results})
    )


if __name__ == "__main__":
    main()
