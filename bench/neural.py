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
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

NOUGHTS = [str(Path(sys.executable).with_name("noughts"))]


def run(args: list[str], out: Path | None = None) -> None:
    print("$ noughts " + " ".join(shlex.quote(a) for a in args), flush=True)
    done = subprocess.run(NOUGHTS + args, capture_output=out is not None, text=True, check=True)
    if out is not None:
        out.write_text(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("bench-neural"))
    parser.add_argument("--quick", action="store_true")
    a = parser.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
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
