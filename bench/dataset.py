"""The published grades on the solver-labelled benchmark: every built-in agent, one table.

Each agent is graded by the command a user would type, ``noughts dataset grade AGENT --data
FILE --sample N --seed 0 --json`` (``--sample``: at most N positions of each game, the same
positions for every agent, since the sample depends on the seed and the game only), and the
table prints the overall optimal-move rate with its 95% Wilson interval, the mean of the
games' rates, the blunders, and each game's rate. Build the set first:
``noughts dataset build --out FILE``.

    python bench/dataset.py --data noughts-dataset.parquet --sample 300
    python bench/dataset.py --data noughts-dataset.parquet --agents random perfect --sample 0   # every position

A trained tabular Q-learner joins with ``--qlearning``: ``noughts train qlearning tictactoe``
for ``--train-episodes`` episodes, then graded on the tic-tac-toe positions only (a table of
one game). Grades do not depend on the machine's load; the seconds do.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

NOUGHTS = [str(Path(sys.executable).with_name("noughts"))]
AGENTS = [
    "random",
    "minimax:depth=1",
    "minimax:depth=2",
    "minimax:depth=4",
    "mcts:sims=200",
    "mcts:sims=2000",
    "perfect",
]


def grade(agent: str, data: Path, sample: int, games: str | None = None) -> dict:
    args = ["dataset", "grade", agent, "--data", str(data), "--seed", "0", "--json"]
    if sample:
        args += ["--sample", str(sample)]
    if games:
        args += ["--games", games]
    print("$ noughts " + " ".join(shlex.quote(a) for a in args), file=sys.stderr, flush=True)
    done = subprocess.run(NOUGHTS + args, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"noughts {' '.join(args)} failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("noughts-dataset.parquet"))
    parser.add_argument("--agents", nargs="+", default=AGENTS)
    parser.add_argument("--sample", type=int, default=300, help="positions per game (0: all)")
    parser.add_argument(
        "--qlearning", action="store_true", help="also train and grade a tabular Q-learner on tic-tac-toe"
    )
    parser.add_argument("--train-episodes", type=int, default=200_000)
    parser.add_argument("--out", type=Path, default=Path("/tmp/noughts-dataset-bench"))
    a = parser.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    docs = [(agent, grade(agent, a.data, a.sample)) for agent in a.agents]
    if a.qlearning:
        table = a.out / "q-ttt.json"
        subprocess.run(
            NOUGHTS
            + [
                "train",
                "qlearning",
                "tictactoe",
                "--out",
                str(table),
                "--max-episodes",
                str(a.train_episodes),
                "--no-record",
            ],
            check=True,
            capture_output=True,
        )
        docs.append(
            (
                f"qlearning table ({a.train_episodes:,} episodes)",
                grade(str(table), a.data, a.sample, "tictactoe"),
            )
        )
    (a.out / "grades.json").write_text(json.dumps([d for _, d in docs], indent=1))
    games = [g["game"] for g in docs[0][1]["games"]]
    print(
        "| agent | positions | optimal-move rate (95% CI) | mean of games | blunders | "
        + " | ".join(games)
        + " |"
    )
    print("| --- | ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in games) + " |")
    for agent, d in docs:
        low, high = d["interval95"]
        rates = {
            g["game"]: ("–" if g["skipped"] or not g["positions"] else f"{g['optimal_move_rate']:.3f}")
            for g in d["games"]
        }
        print(
            f"| `{agent}` | {d['positions']:,} | {d['optimal_move_rate']:.4f} ({low:.3f}-{high:.3f}) | {d['mean_game_rate']:.4f} | "
            f"{d['blunders']:,} | " + " | ".join(rates.get(g, "–") for g in games) + " |"
        )


if __name__ == "__main__":
    main()
