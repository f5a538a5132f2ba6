"""The published grades on the solver-labelled benchmark: every agent, per game, one table.

Each agent is graded game by game with :func:`noughts.dataset.grade_dataset` (what ``noughts
dataset grade AGENT --data FILE --games GAME --sample N --seed 0`` runs): at most ``--sample``
positions of each game, **the same positions for every agent** (the sample depends on the seed
and the game only). Each cell is printed (stderr) and saved as soon as it is graded, so an
interrupted run loses nothing: rerun the same command and the cells already in
``--out/grades.jsonl`` are reused (same dataset checksum, sample, seed and agent spec).

The table (stdout, Markdown): one row per game with the sample size and how many of the sampled
positions are **critical** (some legal move changes the value); one column per agent, each cell
``rate / critical rate`` (the optimal-move rate on every sampled position, then on the critical
ones only); then the pooled rate over every game the agent graded. "–": the agent does not
play that game (a checkpoint of another board); "over": the game's ``--max-seconds`` ran out.

    python bench/dataset.py --data noughts-dataset.parquet --sample 200
    python bench/dataset.py --data noughts-dataset.parquet --agents random perfect --sample 0   # every position
    python bench/dataset.py --data D --agent 'az 4x4=az:runs/az-444.json,sims=0' --agent 'q 4x4=runs/q-444.json'

``--agent LABEL=SPEC`` adds any agent spec (a checkpoint, a saved table's path, a Python
``module:function``) under a short label. Grades do not depend on the machine's load; the
seconds do.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

AGENTS = ["random", "perfect", "minimax:depth=2", "mcts:sims=200", "engine:seconds=0.2"]


def _load_cells(path: Path) -> dict[tuple[str, ...], dict[str, Any]]:
    cells: dict[tuple[str, ...], dict[str, Any]] = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            if line.strip():
                d = json.loads(line)
                cells[tuple(d["key"])] = d
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("noughts-dataset.parquet"))
    parser.add_argument("--agents", nargs="*", default=AGENTS, help="agent specs (their own labels)")
    parser.add_argument("--agent", action="append", default=[], metavar="LABEL=SPEC", help="a labelled agent")
    parser.add_argument("--games", default=None, help="only these games (';'-separated specs)")
    parser.add_argument("--sample", type=int, default=200, help="positions per game (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=600.0, help="per agent and game")
    parser.add_argument("--out", type=Path, default=Path("bench/results/dataset"))
    a = parser.parse_args()

    from noughts.core import LimitExceeded, NoughtsError
    from noughts.dataset import grade_dataset, load
    from noughts.dataset.agents import grading_agent
    from noughts.dataset.grade import is_critical

    data = load(a.data)
    sha = str(data.card["sha256"])
    from noughts.core import game as make_game

    games = data.games() if a.games is None else [str(make_game(g)) for g in a.games.split(";") if g.strip()]
    missing = [g for g in games if g not in data.games()]
    if missing:
        raise SystemExit(f"the dataset has no game {missing[0]}; it has {', '.join(data.games())}")
    agents = [(spec, spec) for spec in a.agents] + [tuple(x.split("=", 1)) for x in a.agent]
    a.out.mkdir(parents=True, exist_ok=True)
    store = a.out / "grades.jsonl"
    cells = _load_cells(store)
    sample = a.sample or None
    print(
        f"# {a.data} (sha256 {sha[:16]}...), sample {a.sample or 'all'} per game, seed {a.seed}",
        file=sys.stderr,
    )
    print(f"# load average at start: {os.getloadavg()}", file=sys.stderr)
    for label, spec in agents:
        agent = None
        for game in games:
            key = (sha, str(a.sample), str(a.seed), spec, game)
            if key in cells:
                continue
            if agent is None:
                agent, _ = grading_agent(spec)
            started = time.perf_counter()
            try:
                g = grade_dataset(agent, label, data, games=[game], sample=sample, seed=a.seed,
                                  max_seconds=a.max_seconds)  # fmt: skip
                doc: dict[str, Any] = g.games[0].to_json()
            except LimitExceeded:
                doc = {"game": game, "over": True}
            except NoughtsError as e:
                doc = {"game": game, "skipped": str(e)}
            doc.update(key=list(key), label=label, seconds=round(time.perf_counter() - started, 2),
                       load=os.getloadavg()[0])  # fmt: skip
            cells[key] = doc
            with store.open("a") as f:
                f.write(json.dumps(doc) + "\n")
            rate = doc.get("optimal_move_rate")
            print(f"{label:>28} {game:>28}: {rate} (critical {doc.get('critical_rate')}) "
                  f"{doc['seconds']} s", file=sys.stderr, flush=True)  # fmt: skip

    # the sample's size and critical count per game (the same for every agent)
    c = data.columns
    print(f"Grades on `{a.data.name}` (sha256 `{sha[:12]}...`), at most {a.sample or 'all'} positions of each "
          f"game (seed {a.seed}); each cell: optimal-move rate / rate on the critical positions\n")  # fmt: skip
    labels = [label for label, _ in agents]
    print("| game | positions (critical) | " + " | ".join(f"`{x}`" for x in labels) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in labels) + " |")
    pooled: dict[str, list[int]] = {x: [0, 0, 0, 0] for x in labels}
    for game in games:
        n = crit = None
        cols = []
        for label, spec in agents:
            d = cells[(sha, str(a.sample), str(a.seed), spec, game)]
            if d.get("over"):
                cols.append("over")
            elif d.get("skipped") or not d.get("positions"):
                cols.append("–")
            else:
                n, crit = d["positions"], d["critical"]
                cr = "–" if d["critical_rate"] is None else f"{d['critical_rate']:.3f}"
                cols.append(f"{d['optimal_move_rate']:.3f} / {cr}")
                p = pooled[label]
                p[0] += d["positions"]
                p[1] += d["optimal"]
                p[2] += d["critical"]
                p[3] += d["critical_optimal"]
        if n is None:  # no agent graded it: count the rows themselves
            rows = [i for i, g in enumerate(c["game"]) if g == game]
            n = min(len(rows), a.sample) if a.sample else len(rows)
            crit = sum(is_critical(c["value"][i], c["move_values"][i]) for i in rows)
        print(f"| {game} | {n:,} ({crit:,}) | " + " | ".join(cols) + " |")
    cols = []
    for label in labels:
        n, k, cn, ck = pooled[label]
        cols.append(f"{k / n:.4f} / {ck / cn:.4f} ({n:,})" if n and cn else "–")
    print("| **pooled** (positions graded) | | " + " | ".join(cols) + " |")


if __name__ == "__main__":
    main()
