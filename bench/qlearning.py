"""Tabular Q-learning and LMS self-play speed, side by side with OpenSpiel's tabular Q-learner.

Episodes per second of self-play training on ``tictactoe`` (and 4x4, 5x5 with k = 3 for the
noughts learners):

* ``noughts QLearner`` (numba kernel, 003 §5 backward propagation, epsilon-greedy);
* ``noughts train_reference`` (the plain loop over the public Position API it is held to);
* OpenSpiel ``tabular_qlearner.QLearner`` (PyPI ``open-spiel``): two learners in self-play on
  ``tic_tac_toe`` through ``rl_environment``, the loop of OpenSpiel's own example;
* ``noughts train_lms`` (001's LMS linear agent: the numba kernel and the reference loop).

Each row: the median of ``--repeats`` timed runs after a warm-up, and the peak RSS of this
process at the end (KiB; one process for all rows, so it only grows). Run it as
``python bench/qlearning.py``; ``--quick`` is a smoke test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from _common import commit, machine, openspiel_self_play, versions  # bench/ is sys.path[0] when a script runs

try:
    import resource
except ImportError:  # pragma: no cover
    resource = None  # type: ignore[assignment]


def peak_kib() -> int | None:
    return None if resource is None else int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def timed(fn: Callable[[], int], repeats: int) -> float:
    """Median episodes per second of ``fn`` (which returns how many episodes it ran)."""
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        n = fn()
        rates.append(n / (time.perf_counter() - t))
    return statistics.median(rates)


def noughts_kernel(spec: str, episodes: int) -> Callable[[], int]:
    import noughts
    from noughts.learn.qlearning import QLearner

    game = noughts.game(spec)
    QLearner(game, seed=0).train(10)  # compile / load the kernel

    def run() -> int:
        QLearner(game, seed=1).train(episodes)
        return episodes

    return run


def noughts_reference(spec: str, episodes: int) -> Callable[[], int]:
    import noughts
    from noughts.learn.qlearning import train_reference

    game = noughts.game(spec)

    def run() -> int:
        train_reference(game, episodes, seed=1)
        return episodes

    return run


def noughts_lms(spec: str, episodes: int, engine: str) -> Callable[[], int]:
    import noughts
    from noughts.learn.linear import train_lms

    game = noughts.game(spec)
    train_lms(game, 10, eta=0.001, seed=0, engine=engine)  # compile / load the kernel

    def run() -> int:
        train_lms(game, episodes, eta=0.001, seed=1, engine=engine)
        return episodes

    return run


def openspiel_qlearner(episodes: int) -> Callable[[], int] | None:
    try:
        from open_spiel.python import rl_environment
        from open_spiel.python.algorithms import tabular_qlearner
    except ImportError:
        return None
    env = rl_environment.Environment("tic_tac_toe")
    num_actions = env.action_spec()["num_actions"]

    def run() -> int:
        agents = [
            tabular_qlearner.QLearner(
                player_id=i, num_actions=num_actions, step_size=0.2, discount_factor=0.95
            )
            for i in range(2)
        ]
        openspiel_self_play(env, agents, episodes)
        return episodes

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    repeats = 1 if args.quick else args.repeats
    rows: list[tuple[str, str, int, float | None]] = []

    def add(name: str, spec: str, episodes: int, make: Callable[[], Callable[[], int] | None]) -> None:
        fn = make()
        rate = None if fn is None else timed(fn, repeats)
        rows.append((name, spec, episodes, rate))
        print(f"  {name} {spec}: {rate}", file=sys.stderr)

    n = 200_000 // scale
    add("noughts QLearner (numba)", "tictactoe", n, lambda: noughts_kernel("tictactoe", n))
    add("noughts QLearner (numba)", "mnk(4,4,3)", n, lambda: noughts_kernel("mnk(4,4,3)", n))
    add("noughts QLearner (numba)", "mnk(5,5,3)", n, lambda: noughts_kernel("mnk(5,5,3)", n))
    m = 5_000 // scale
    add("noughts train_reference (Python)", "tictactoe", m, lambda: noughts_reference("tictactoe", m))
    o = 5_000 // scale
    add("OpenSpiel tabular_qlearner", "tic_tac_toe", o, lambda: openspiel_qlearner(o))
    lk = 200_000 // scale
    add("noughts train_lms (numba)", "tictactoe", lk, lambda: noughts_lms("tictactoe", lk, "kernel"))
    add(
        "noughts train_lms (numba)",
        "mnk(4,4,4)",
        lk // 4,
        lambda: noughts_lms("mnk(4,4,4)", lk // 4, "kernel"),
    )
    lm = 2_000 // scale
    add("noughts train_lms (reference)", "tictactoe", lm, lambda: noughts_lms("tictactoe", lm, "reference"))
    add(
        "noughts train_lms (reference)",
        "mnk(4,4,4)",
        lm // 4,
        lambda: noughts_lms("mnk(4,4,4)", lm // 4, "reference"),
    )

    print("| learner | game | episodes per run | episodes per second (median) | vs OpenSpiel |")
    print("| --- | --- | ---: | ---: | ---: |")
    peer = next((r[3] for r in rows if r[0].startswith("OpenSpiel")), None)
    for name, spec, episodes, rate in rows:
        ratio = f"{rate / peer:.1f}x" if rate and peer else "n/a"
        shown = f"{rate:,.0f}" if rate else "n/a (not installed)"
        print(f"| {name} | `{spec}` | {episodes:,} | {shown} | {ratio} |")
    print()
    print(f"Peak RSS of the process: {peak_kib()} KiB. Median of {repeats} run(s).")
    print(f"Machine: {machine()}.")
    print(f"Versions: {versions(('numpy', 'numba', 'open-spiel'))}; commit {commit()}.")


if __name__ == "__main__":
    main()
