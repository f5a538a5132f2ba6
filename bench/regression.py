"""No speed regression: the same workloads on this tree and on another revision, interleaved.

``python bench/regression.py --base REV`` checks ``REV`` (default ``HEAD``) out into a temporary
git worktree (``git worktree add --detach``) and runs every workload alternately against the
two trees, each run in its own child process with ``PYTHONPATH`` pointing at that tree's
``src`` (so the child imports that tree's noughts, with the same interpreter and libraries) and
a numba cache of its own (warmed up before the first timed run, so no run pays for compiling).
Within a round the order of the two trees alternates (A B, then B A), so drift in the machine's
load falls on both alike. A child times ``--repeats`` runs of its workload after one warm-up
run and reports their median; the table shows, per workload, the median over ``--rounds`` of
those medians for each tree and their ratio (this tree's time over the base's: above 1 is
slower), marked where it is more than ``--tolerance`` (5%) slower.

The workloads are the noughts rows of ``bench/solve_targets.py`` (``FastSolver`` values, with
the first moves where the target has them; one-word and multi-word), ``bench/mcts.py`` (one
search of the empty tic-tac-toe board by the kernel, plain and with the solver),
``bench/mcts_big.py`` (one search after a centre move on mnk(15,15,5), hypercube(4,3) and
hypercube(7,3)),
``bench/batch_playouts.py`` (``random_playouts`` and the ``BatchGame.step`` loop) and
``bench/td.py`` (``TDLearner.play`` with the 000 §4.2 test on every episode), and the proof
engine (``ValueSearches``) and the Breaker prover (``prove_breaker``, no certificate) on a few
games; for the searches the table gives the nodes each tree searched beside the times (the
same search on both trees searches the same nodes). They call only
public interfaces that both trees have. An MCTS search with the solver stops when the root is
proven, and two revisions may draw different random numbers, so the MCTS rows compare time
per simulation, not time per search.

``--only NAME ...`` runs some workloads; ``--list`` names them.
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from _common import commit, machine, versions  # bench/ is sys.path[0] when a script runs

ROOT = Path(__file__).resolve().parent.parent


# -- the workloads (run in a child; each returns the units of work done, timed by the caller) ------


def _solve(spec: str, moves: bool = False, words: int | None = None) -> Callable[[], float]:
    import noughts
    from noughts.exact.fast import FastSolver

    game = noughts.game(spec)
    start = game.start()

    def run() -> float:
        solver = FastSolver(game, words=words)
        solver.value(start)
        if moves:
            for m in start.legal_moves():
                solver.value(start.play(m))
        return float(solver.nodes)

    return run


def _moved(new: str, old: str) -> Any:
    """The module ``new``, or ``old`` on a tree from before the package split (the base)."""
    import importlib

    try:
        return importlib.import_module(new)
    except ModuleNotFoundError:
        return importlib.import_module(old)


def _prove(spec: str) -> Callable[[], float]:
    import noughts

    ValueSearches = _moved("noughts.proving.proof", "noughts.exact.proof").ValueSearches

    game = noughts.game(spec)

    def run() -> float:
        searches = ValueSearches(game)
        searches.value(game.start())
        return float(searches.nodes)

    return run


def _breaker(spec: str) -> Callable[[], float]:
    prove_breaker = _moved("noughts.breaker.prover", "noughts.pairing.breaker").prove_breaker

    def run() -> float:
        return float(prove_breaker(spec, record=False).nodes)

    return run


def _mcts(sims: int, solver: bool, spec: str = "tictactoe") -> Callable[[], float]:
    import numpy as np

    import noughts
    from noughts.agents.mcts import MCTSAgent

    agent = MCTSAgent(sims, 2.0, solver=solver, kernel="numba")
    game = noughts.game(spec)
    start = game.start() if spec == "tictactoe" else game.start().play(game.board.num_cells // 2)
    rng = np.random.default_rng(0)
    return lambda: float(agent.search(start, rng).sims)


def _playouts(n: int) -> Callable[[], float]:
    import noughts
    from noughts.envs.batch import random_playouts

    game = noughts.game("tictactoe")
    seeds = iter(range(1 << 62))

    def run() -> float:
        random_playouts(game, n, seed=next(seeds))
        return float(n)

    return run


def _batchgame(n: int) -> Callable[[], float]:
    import numpy as np

    from noughts.envs.batch import BatchGame

    b = BatchGame("tictactoe")
    rng = np.random.default_rng(0)

    def run() -> float:
        b.reset(n)
        while True:
            mask = b.legal_mask()
            if not mask.any():
                break
            keys = rng.random(mask.shape)
            keys[~mask] = -1.0
            b.step(keys.argmax(axis=1))
        return float(n)

    return run


def _td(spec: str, episodes: int) -> Callable[[], float]:
    import noughts
    from noughts.learn.convergence import RateWindow
    from noughts.learn.td import TDConfig, TDLearner

    game = noughts.game(spec)
    seeds = iter(range(126, 1 << 62))

    def run() -> float:
        learner = TDLearner(game, TDConfig(epsilon=0.05, alpha=0.5, init="tcd", seed=next(seeds)))
        learner.play(episodes, RateWindow().new_state(), 0.0, True)
        return float(episodes)

    return run


WORKLOADS: dict[str, Callable[[], Callable[[], float]]] = {
    "solve mnk(5,5,4)": lambda: _solve("mnk(5,5,4)"),
    "solve mnk(8,8,4)": lambda: _solve("mnk(8,8,4)"),
    "solve misere(mnk(4,4,4))": lambda: _solve("misere(mnk(4,4,4))"),
    "solve maker_breaker(mnk(5,5,5))": lambda: _solve("maker_breaker(mnk(5,5,5))"),
    "solve cumulative(mnk(4,4,3)) +moves": lambda: _solve("cumulative(mnk(4,4,3))", True),
    "solve hypercube(3,3) +moves": lambda: _solve("hypercube(3,3)", True),
    "solve mnk(9,9,3) +moves (multi-word)": lambda: _solve("mnk(9,9,3)", True),
    "solve misere(mnk(4,4,4)) (multi-word, W=1)": lambda: _solve("misere(mnk(4,4,4))", words=1),
    "prove mnk(4,4,4) (proof engine)": lambda: _prove("mnk(4,4,4)"),
    "prove maker_breaker(mnk(4,4,4)) (proof engine)": lambda: _prove("maker_breaker(mnk(4,4,4))"),
    "breaker mnk(7,7,5)": lambda: _breaker("mnk(7,7,5)"),
    "breaker maker_breaker(mnk(5,5,4))": lambda: _breaker("maker_breaker(mnk(5,5,4))"),
    "mcts 20,000 sims": lambda: _mcts(20_000, False),
    "mcts solver 20,000 sims": lambda: _mcts(20_000, True),
    "mcts mnk(15,15,5) 100,000 sims": lambda: _mcts(100_000, False, "mnk(15,15,5)"),
    "mcts hypercube(4,3) 100,000 sims": lambda: _mcts(100_000, False, "hypercube(4,3)"),
    "mcts hypercube(7,3) 100,000 sims": lambda: _mcts(100_000, False, "hypercube(7,3)"),
    "random_playouts 2^20": lambda: _playouts(1 << 20),
    "BatchGame.step 8192": lambda: _batchgame(8192),
    "td tictactoe 50,000": lambda: _td("tictactoe", 50_000),
    "td cumulative(tictactoe) 50,000": lambda: _td("cumulative(tictactoe)", 50_000),
}
PER_UNIT = {name for name in WORKLOADS if name.startswith("mcts")}
"""Workloads compared per unit of work (a simulation) rather than per run."""


def child(name: str, repeats: int) -> None:
    run = WORKLOADS[name]()
    run()  # warm-up: loads (or compiles) the kernels
    seconds, units = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        u = run()
        seconds.append(time.perf_counter() - t)
        units.append(u)
    print(json.dumps({"seconds": seconds, "units": units}))


# -- the parent -------------------------------------------------------------------------------------


@contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """``rev`` checked out (detached) into a temporary git worktree, removed afterwards."""
    base = Path(tempfile.mkdtemp(prefix="noughts-base-"))
    path = base / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(path), rev], cwd=ROOT, check=True)
    try:
        yield path
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, check=False)
        subprocess.run(["rm", "-rf", str(base)], check=False)


def rev_name(rev: str) -> str:
    out = subprocess.run(
        ["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def run_child(tree: Path, cache: Path, name: str, repeats: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), NUMBA_CACHE_DIR=str(cache))
    out = subprocess.run(
        [sys.executable, __file__, "--child", name, "--repeats", str(repeats)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=1800,
    )
    if out.returncode != 0:
        raise RuntimeError(f"{name} on {tree}: {(out.stderr.strip().splitlines() or ['failed'])[-1]}")
    doc: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    per = [s / u for s, u in zip(doc["seconds"], doc["units"], strict=True)]
    return {
        "median": statistics.median(per if name in PER_UNIT else doc["seconds"]),
        "units": doc["units"][-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--base", default="HEAD", help="the revision to compare with (default HEAD)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per child")
    parser.add_argument("--tolerance", type=float, default=0.05)
    parser.add_argument("--only", nargs="+", metavar="NAME", help="workloads whose name contains NAME")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "regression.json")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.repeats)
        return
    if args.list:
        print("\n".join(WORKLOADS))
        return
    names = [n for n in WORKLOADS if not args.only or any(o in n for o in args.only)]
    base_name = rev_name(args.base)
    with worktree(args.base) as base, tempfile.TemporaryDirectory(prefix="noughts-numba-") as caches:
        trees = {"this tree": ROOT, base_name: base}
        cache = {label: Path(caches) / str(i) for i, label in enumerate(trees)}
        for label, tree in trees.items():  # compile each tree's kernels once, untimed
            for name in names:
                run_child(tree, cache[label], name, 1)
        times: dict[str, dict[str, list[float]]] = {n: {label: [] for label in trees} for n in names}
        units: dict[str, dict[str, float]] = {n: {} for n in names}
        for r in range(args.rounds):
            for name in names:
                order = list(trees) if r % 2 == 0 else list(reversed(trees))
                for label in order:
                    got = run_child(trees[label], cache[label], name, args.repeats)
                    times[name][label].append(got["median"])
                    units[name][label] = got["units"]
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(f"Workloads on this tree ({commit()}) against {base_name}, interleaved, {args.rounds} rounds\n")
    print(f"{machine()}; {versions(('numba', 'numpy'))}\n")
    print(f"| workload | this tree | {base_name} | ratio | | nodes (this tree / {base_name}) |")
    print("| --- | ---: | ---: | ---: | --- | --- |")
    rows = []
    for name in names:
        a = statistics.median(times[name]["this tree"])
        b = statistics.median(times[name][base_name])
        ratio = a / b
        unit = "µs/sim" if name in PER_UNIT else "ms"
        scale = 1e6 if name in PER_UNIT else 1e3
        flag = "slower" if ratio > 1 + args.tolerance else ""
        work = units[name]
        nodes = ""
        if name.startswith(("solve", "prove", "breaker")):
            same = "identical" if work["this tree"] == work[base_name] else "differ"
            nodes = f"{work['this tree']:,.0f} / {work[base_name]:,.0f} ({same})"
        print(
            f"| {name} | {a * scale:,.2f} {unit} | {b * scale:,.2f} {unit} | {ratio:.3f} | {flag} | {nodes} |"
        )
        rows.append(
            {"workload": name, "this": a, "base": b, "ratio": ratio, "runs": times[name], "units": work}
        )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    doc = {"machine": machine(), "commit": commit(), "base": base_name, "rows": rows}
    args.json.write_text(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
