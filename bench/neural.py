"""The neural learners from scratch, graded against the exact solver: the commands behind their
published figures.

Runs, one after another, each as the ``noughts`` command a user would type (``--max-seconds``
of training each; the time a run takes depends on the machine's load, so the figures say it):

1. ``noughts train az tictactoe`` (300 s), then ``noughts grade`` of its best checkpoint with
   the network alone (``sims=0``) and with the search (``sims=32``), 100 games a side against
   the perfect player;
2. ``noughts train az 'mnk(4,4,4)'`` graded on 1,000 positions of random play (600 s), then
   the same two grades on that sample and on a second one (``--seed 1``), and the random agent's;
3. ``noughts train dqn tictactoe`` (240 s), then its grade.

Writes the runs (checkpoints, CSV, PNG) and every grade's JSON under ``--out`` and prints a
Markdown table. ``--quick`` trains 20 s each (a smoke test, not a figure).

``--equal GAME --seconds S --data FILE``: the three learners side by side at **equal wall
time** on one game: ``noughts train az``, ``noughts train dqn`` and ``noughts train qlearning``
(the tabular Q-learner, ``--criterion none``), each with ``--max-seconds S``, one after another
in this one command; then each saved agent graded on the dataset's positions of that game
(``noughts dataset grade AGENT --games GAME --sample N``: the optimal-move rate and the rate on
the critical positions) and in ``--games`` games as each side against the perfect player
(``noughts grade``). The user and system CPU seconds of each training run are measured too
(the machine is shared: its wall seconds are equal, its CPU seconds need not be).

    python bench/neural.py --equal 'mnk(4,4,4)' --seconds 300 --data noughts-dataset.parquet
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

NOUGHTS = [str(Path(sys.executable).with_name("noughts"))]


def run(args: list[str], out: Path | None = None) -> None:
    print("$ noughts " + " ".join(shlex.quote(a) for a in args), flush=True)
    done = subprocess.run(NOUGHTS + args, capture_output=out is not None, text=True, check=True)
    if out is not None:
        out.write_text(done.stdout)


def timed(args: list[str]) -> dict[str, float]:
    """Run ``noughts ARGS``; its wall seconds, its user + system CPU seconds, the load after it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    run(args)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"wall": time.perf_counter() - started, "cpu": cpu, "load": os.getloadavg()[0]}


def equal_time(a: argparse.Namespace) -> None:
    """az, dqn and the tabular Q-learner on one game at equal wall time; see the docstring."""
    runs = a.out / "runs"
    runs.mkdir(exist_ok=True)
    game = a.equal
    tag = "".join(ch for ch in game if ch.isalnum())
    secs = str(a.seconds)
    big = ["--set", "grade_sample=1000", "--set", "grade_games=10"] if game != "tictactoe" else []
    learners = {
        "az": (["train", "az", game, "--out", f"{runs}/az-{tag}.json", "--max-seconds", secs, *big],
               f"az:{runs}/az-{tag}.json,sims=0"),
        "dqn": (["train", "dqn", game, "--out", f"{runs}/dqn-{tag}.json", "--max-seconds", secs, *big],
                f"dqn:{runs}/dqn-{tag}.json"),
        "qlearning": (["train", "qlearning", game, "--out", f"{runs}/q-{tag}.json", "--max-seconds", secs,
                       "--criterion", "none", "--max-episodes", "1000000000"], f"{runs}/q-{tag}.json"),
    }  # fmt: skip
    if a.report:
        report(a, tag, learners)
        return
    for name, (args, agent) in learners.items():
        cost = timed([*args, "--seed", "0", "--no-record"])
        (a.out / f"cost-{name}-{tag}.json").write_text(json.dumps(cost))
        grade_one(a, name, agent, tag)
        if a.search and name == "az":
            grade_one(a, "az-search", f"az:{runs}/az-{tag}.json,sims={a.search}", tag)
    report(a, tag, learners)


def grade_one(a: argparse.Namespace, name: str, agent: str, tag: str) -> None:
    """``agent`` graded on the dataset's positions of the game and against the perfect player."""
    run(["dataset", "grade", agent, "--data", str(a.data), "--games", a.equal, "--sample", str(a.sample),
         "--json"], a.out / f"data-{name}-{tag}.json")  # fmt: skip
    run(["grade", agent, a.equal, "--games", str(a.games), "--sample", "100", "--json"],
        a.out / f"play-{name}-{tag}.json")  # fmt: skip


def report(a: argparse.Namespace, tag: str, learners: dict[str, tuple[list[str], str]]) -> None:
    """The table of an ``--equal`` run from the files it wrote under ``--out``."""
    print(f"\n{a.equal}, {a.seconds:g} s of training each (seed 0); {a.games} games a side against the "
          f"perfect player; load: the load average after each run\n")  # fmt: skip
    print("| learner | agent | wall s | CPU s | load | dataset positions | rate (95% CI) | critical rate (n) | "
          "as first W/D/L | as second W/D/L |")  # fmt: skip
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    names = [*learners, *(["az-search"] if a.search else [])]
    for name in names:
        agent = learners[name][1] if name in learners else f"az:...,sims={a.search}"
        cost_file = a.out / f"cost-{name.removesuffix('-search')}-{tag}.json"
        cost = json.loads(cost_file.read_text()) if cost_file.is_file() else None
        data, play = a.out / f"data-{name}-{tag}.json", a.out / f"play-{name}-{tag}.json"
        if not data.is_file() or not play.is_file():
            continue
        g = json.loads(data.read_text())["games"][0]
        p = json.loads(play.read_text())
        low, high = g["interval95"]
        f, s = p["as_first"], p["as_second"]
        crit = "–" if g["critical_rate"] is None else f"{g['critical_rate']:.4f} ({g['critical']:,})"
        if name == "az-search":
            spent = "(az's network) | | "
        elif cost is None:
            spent = "? | ? | ?"
        else:
            spent = f"{cost['wall']:.0f} | {cost['cpu']:.0f} | {cost['load']:.1f}"
        print(f"| {name} | `{agent}` | {spent} | {g['positions']:,} | "
              f"{g['optimal_move_rate']:.4f} ({low:.3f}-{high:.3f}) | {crit} | "
              f"{f['wins']}/{f['draws']}/{f['losses']} | {s['wins']}/{s['draws']}/{s['losses']} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("bench-neural"))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--equal", metavar="GAME", help="az, dqn and qlearning at equal wall time on GAME")
    parser.add_argument("--seconds", type=float, default=300.0, help="--equal: training seconds each")
    parser.add_argument("--data", type=Path, default=Path("noughts-dataset.parquet"))
    parser.add_argument("--sample", type=int, default=3000, help="--equal: dataset positions graded")
    parser.add_argument("--games", type=int, default=100, help="--equal: games a side against perfect")
    parser.add_argument("--search", type=int, default=0, help="--equal: also az with this many sims")
    parser.add_argument("--report", action="store_true", help="--equal: only print the table of a run")
    a = parser.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    if a.equal:
        equal_time(a)
        return
    runs = a.out / "runs"
    runs.mkdir(exist_ok=True)
    scale = 20 if a.quick else None
    db = ["--db", str(a.out / "store.db")]
    grades: list[tuple[str, Path]] = []

    def grade(agent: str, spec: str, name: str, *extra: str) -> None:
        path = a.out / f"grade-{name}.json"
        run(["grade", agent, spec, "--games", "100", *extra, *db, "--json"], path)
        grades.append((f"{agent} {' '.join(extra)}".strip(), path))

    ttt, big = "tictactoe", "mnk(4,4,4)"
    run(
        [
            "train",
            "az",
            ttt,
            "--out",
            f"{runs}/az-ttt.json",
            "--max-seconds",
            str(scale or 300),
            "--no-record",
        ]
    )
    for sims in (0, 32):
        grade(f"az:{runs}/az-ttt.json,sims={sims}", ttt, f"az-ttt-s{sims}")
    run(["train", "az", big, "--out", f"{runs}/az-444.json", "--max-seconds", str(scale or 600),
         "--set", "grade_sample=1000", "--set", "grade_games=10", "--no-record"])  # fmt: skip
    for seed in ("0", "1"):
        for sims in (0, 32):
            grade(
                f"az:{runs}/az-444.json,sims={sims}",
                big,
                f"az-444-s{sims}-seed{seed}",
                "--sample",
                "1000",
                "--seed",
                seed,
            )
        grade("random", big, f"random-444-seed{seed}", "--sample", "1000", "--seed", seed)
    run(
        [
            "train",
            "dqn",
            ttt,
            "--out",
            f"{runs}/dqn-ttt.json",
            "--max-seconds",
            str(scale or 240),
            "--no-record",
        ]
    )
    grade(f"dqn:{runs}/dqn-ttt.json", ttt, "dqn-ttt")
    print("\n| agent | game | positions | optimal-move rate | as first W/D/L | as second W/D/L |")
    print("| --- | --- | ---: | ---: | --- | --- |")
    for label, path in grades:
        d = json.loads(path.read_text())
        f, s = d["as_first"], d["as_second"]
        print(f"| {label} | {d['game']} | {d['positions']:,} | {d['optimal_move_rate']:.4f} | "
              f"{f['wins']}/{f['draws']}/{f['losses']} | {s['wins']}/{s['draws']}/{s['losses']} |")  # fmt: skip


if __name__ == "__main__":
    main()
