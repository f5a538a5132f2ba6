"""TD self-play episodes per second, side by side with OpenSpiel's tabular Q-learner.

Rows, each in its own child process (its own imports, caches and peak memory):

* noughts' TD kernel (``noughts.learn.td.TDLearner.play``: numba, one core) on
  ``cumulative(tictactoe)`` and ``tictactoe``, epsilon 0.05, alpha 0.5, TCD start, with the
  000 §4.2 convergence test (W = 20,000) computed after every episode (its threshold set to 0
  so the test runs on every episode and never stops the run);
* noughts' reference loop over the position API (``noughts.learn.td.td_reference``), the
  plain version the kernel is held to;
* OpenSpiel's ``open_spiel.python.algorithms.tabular_qlearner.QLearner`` on ``tic_tac_toe``
  (OpenSpiel has no cumulative tic-tac-toe), two learners in self-play through
  ``rl_environment.Environment``, epsilon 0.05, step size 0.5, as in OpenSpiel's own
  tic-tac-toe Q-learning example: each agent steps on each time step and once more at the end.

Each child warms up, then times ``--repeats`` runs; the table shows the median episodes per
second, the range, and the child's peak RSS. Run: ``python bench/td.py`` (``--quick`` for a
smoke test).
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _common import commit, machine, openspiel_self_play, peak_rss_mib, versions

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = ROOT / "bench" / "results" / "td.json"


def child_kernel(spec: str, episodes: int, repeats: int) -> dict[str, Any]:
    import noughts
    from noughts.learn.convergence import RateWindow
    from noughts.learn.td import TDConfig, TDLearner

    game = noughts.game(spec)
    rates = []
    for r in range(repeats + 1):
        learner = TDLearner(game, TDConfig(epsilon=0.05, alpha=0.5, init="tcd", seed=126 + r))
        rate = RateWindow().new_state()
        learner.play(0, rate, 0.0, True)  # load the compiled kernel
        t = time.perf_counter()
        done, fired = learner.play(episodes, rate, 0.0, True)
        dt = time.perf_counter() - t
        assert done == episodes and not fired and rate.episodes == episodes
        if r:
            rates.append(episodes / dt)
    return {"rates": rates, "peak_mib": peak_rss_mib()}


def child_reference(spec: str, episodes: int, repeats: int) -> dict[str, Any]:
    import noughts
    from noughts.kernels.rng import SplitMix64
    from noughts.learn.convergence import RateWindow
    from noughts.learn.td import TDConfig, TDLearner, td_reference

    game = noughts.game(spec)
    config = TDConfig(epsilon=0.05, alpha=0.5, init="tcd", seed=126)
    learner = TDLearner(game, config)
    sp = learner.space
    positions = [sp.position(i) for i in range(sp.size)]
    rates = []
    for r in range(repeats + 1):
        d1 = dict(zip(positions, learner.v1.tolist(), strict=True))
        d2 = dict(zip(positions, learner.v2.tolist(), strict=True))
        rate = RateWindow().new_state()
        t = time.perf_counter()
        td_reference(sp, d1, d2, config, SplitMix64(126 + r), episodes, rate, 0.0)
        dt = time.perf_counter() - t
        if r:
            rates.append(episodes / dt)
    return {"rates": rates, "peak_mib": peak_rss_mib()}


def child_openspiel(episodes: int, repeats: int) -> dict[str, Any]:
    import numpy as np
    from open_spiel.python import rl_environment, rl_tools
    from open_spiel.python.algorithms import tabular_qlearner

    env = rl_environment.Environment("tic_tac_toe")
    num_actions = env.action_spec()["num_actions"]
    rates = []
    for r in range(repeats + 1):
        np.random.seed(126 + r)
        agents = [
            tabular_qlearner.QLearner(
                player_id=i,
                num_actions=num_actions,
                step_size=0.5,
                epsilon_schedule=rl_tools.ConstantSchedule(0.05),
            )
            for i in range(2)
        ]
        t = time.perf_counter()
        openspiel_self_play(env, agents, episodes)
        dt = time.perf_counter() - t
        if r:
            rates.append(episodes / dt)
    return {"rates": rates, "peak_mib": peak_rss_mib()}


def _run_child(args: list[str]) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", *args], capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        return {
            "error": out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}"
        }
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON)
    ap.add_argument("--child", nargs="*")
    a = ap.parse_args()
    if a.child is not None:
        kind, *rest = a.child
        if kind == "kernel":
            res = child_kernel(rest[0], int(rest[1]), int(rest[2]))
        elif kind == "reference":
            res = child_reference(rest[0], int(rest[1]), int(rest[2]))
        else:
            res = child_openspiel(int(rest[0]), int(rest[1]))
        print(json.dumps(res))
        return
    reps = 2 if a.quick else a.repeats
    n_kernel = 200_000 if a.quick else 2_000_000
    n_slow = 300 if a.quick else 3_000
    rows = [
        (
            "noughts TD kernel (numba), 000 §4.2 test on",
            "cumulative(tictactoe)",
            ["kernel", "cumulative(tictactoe)", str(n_kernel), str(reps)],
            n_kernel,
        ),
        (
            "noughts TD kernel (numba), 000 §4.2 test on",
            "tictactoe",
            ["kernel", "tictactoe", str(n_kernel), str(reps)],
            n_kernel,
        ),
        (
            "noughts TD reference (position API)",
            "cumulative(tictactoe)",
            ["reference", "cumulative(tictactoe)", str(n_slow), str(reps)],
            n_slow,
        ),
        (
            "OpenSpiel tabular_qlearner.QLearner (Python)",
            "tic_tac_toe",
            ["openspiel", str(n_slow), str(reps)],
            n_slow,
        ),
    ]
    results = []
    for label, game, args, n in rows:
        res = _run_child(args)
        res.update({"label": label, "game": game, "episodes": n})
        results.append(res)
    peer = next((r for r in results if r["label"].startswith("OpenSpiel") and "rates" in r), None)
    peer_med = statistics.median(peer["rates"]) if peer else None
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"Machine: {machine()}")
    print(f"Versions: {versions(('numpy', 'numba', 'open_spiel'))}; noughts commit {commit()}; {when}")
    print()
    print(
        "| learner | game | episodes per run | episodes/s (median) | range | vs OpenSpiel | peak RSS (MiB) |"
    )
    print("| --- | --- | ---: | ---: | --- | ---: | ---: |")
    for r in results:
        if "rates" not in r:
            print(f"| {r['label']} | {r['game']} | {r['episodes']:,} | error: {r['error']} | | | |")
            continue
        med = statistics.median(r["rates"])
        ratio = f"{med / peer_med:,.0f}x" if peer_med else "n/a"
        print(
            f"| {r['label']} | {r['game']} | {r['episodes']:,} | {med:,.0f} | {min(r['rates']):,.0f}-{max(r['rates']):,.0f} "
            f"| {ratio} | {r['peak_mib']:.0f} |"
        )
    a.json.parent.mkdir(parents=True, exist_ok=True)
    a.json.write_text(
        json.dumps({"when": when, "machine": machine(), "commit": commit(), "rows": results}, indent=2) + "\n"
    )


if __name__ == "__main__":
    main()
