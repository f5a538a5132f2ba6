"""Experiment ``arena``: 003 §9.2 ("scaling to larger boards") re-run, and graded by the solver.

003 trains Q-learning agents on 3x3, 4x4 and 5x5 boards with three in a row (3,000, 5,000 and
10,000 episodes) and reports the win rate against a random player and against a greedy
heuristic player, the average game length and the Q-table size. This experiment trains
:class:`noughts.learn.qlearning.QLearner` with 003's hyper-parameters on each board and
measures, for two players built from the same table:

* ``learned``: the table alone (greedy in Q, random ties): what Q-learning learned;
* ``hybrid``: 003's tiers, reflexes + depth-limited search + Q tie-break
  (:class:`noughts.agents.qlearning.QAgent`), and the same tiers with an *empty* table, which
  shows how much of the hybrid's strength the learning supplies;

against ``random`` and against the greedy heuristic player (003 §A.1's evaluation, one ply:
``QAgent(depth=1)`` with no table), with sides swapped every game. The wins count games won
by the agent over all games, with 95% Wilson intervals. The game lengths are those of the
games against random. The table size is the number of positions visited (003 counts
``(state, action)`` entries; both are given).

The exact solver then grades the learned and hybrid players (every reachable position on 3x3,
a sample of positions met in random play on 4x4 and 5x5) and gives each board's value: 4x4
and 5x5 with three in a row are first-player wins in 5 plies, so a second player that "holds
its own" there only meets a first player that does not know how to win.

Outputs: ``config.json``, ``results.csv``, ``grades.csv``, ``training.csv`` (outcome rates by
episode window), ``results.md`` (with 003's table beside ours), ``training_*.png``.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path
from typing import Any

from noughts.learn.experiments._report import (
    grade_cells,
    grade_markdown,
    prepare,
    pyplot,
    run_jobs,
    save_figure,
    slug,
    wdl,
    write_runs,
)

NAME = "arena"
DESCRIPTION = (
    "003 §9.2 on 3x3, 4x4 and 5x5 with k = 3: Q-learning against random and a heuristic player, graded"
)

PUBLISHED = [  # 003 §9.2: board, episodes, win vs random, win vs heuristic, avg length, Q-states
    ("3x3", 3000, 0.982, 0.894, 6.3, 11238),
    ("4x4", 5000, 0.947, 0.762, 9.1, 38651),
    ("5x5", 10000, 0.873, 0.618, 12.7, 127492),
]

DEFAULT_CONFIG: dict[str, Any] = {
    "boards": [
        {"game": "mnk(3,3,3)", "episodes": 3000, "depth": 9, "grade_sample": None},
        {"game": "mnk(4,4,3)", "episodes": 5000, "depth": 2, "grade_sample": 2000},
        {"game": "mnk(5,5,3)", "episodes": 10000, "depth": 2, "grade_sample": 2000},
    ],
    "training": {
        "alpha": 0.2,
        "gamma": 0.95,
        "epsilon": 1.0,
        "epsilon_decay": 0.998,
        "epsilon_min": 0.01,
        "reflexes": True,
    },
    "games": 1000,  # per evaluation of the learned player
    "hybrid_games": 300,  # per evaluation of a hybrid player (its search runs in Python)
    "grade_games": 20,
    "seed": 7,
    "window": 500,
}

QUICK_CONFIG: dict[str, Any] = {
    **DEFAULT_CONFIG,
    "boards": [
        {"game": "mnk(3,3,3)", "episodes": 300, "depth": 2, "grade_sample": 200},
        {"game": "mnk(4,4,3)", "episodes": 300, "depth": 1, "grade_sample": 40},
        {"game": "mnk(5,5,3)", "episodes": 300, "depth": 1, "grade_sample": 40},
    ],
    "games": 20,
    "hybrid_games": 6,
    "grade_games": 2,
    "window": 100,
}


def _side_rates(result: Any) -> dict[str, Any]:
    from noughts.arena.match import wilson_interval

    n = result.games
    low, high = wilson_interval(result.a_wins, n)
    doc = result.to_json()
    return {
        "as_first": wdl(doc["a_as_first"]),
        "as_second": wdl(doc["a_as_second"]),
        "games": n,
        "wins": result.a_wins,
        "draws": result.draws,
        "losses": result.a_losses,
        "win_rate": result.a_wins / n,
        "win_rate_ci": [low, high],
        "mean_length": sum(len(g.moves) for g in result.played) / n,
    }


def _one_board(job: dict[str, Any]) -> dict[str, Any]:
    """Train on one board and evaluate; plain data in and out (for executors)."""
    import numpy as np

    from noughts.agents.qlearning import QAgent
    from noughts.arena.grade import grade
    from noughts.arena.match import play_match
    from noughts.core import game as make_game
    from noughts.exact.api import solve
    from noughts.learn.qlearning import QConfig, QLearner

    game = make_game(job["game"])
    seed = job["seed"]
    QLearner(game, QConfig(**job["training"]), seed=seed).train(1)  # load the compiled kernel first
    learner = QLearner(game, QConfig(**job["training"]), seed=seed)
    started = time.perf_counter()
    learner.train(job["episodes"])
    train_seconds = time.perf_counter() - started
    table = learner.table.trimmed()
    heuristic = QAgent(game, None, depth=1)
    heuristic.name = "heuristic"
    players = {
        "learned": QAgent(game, table),
        "hybrid": QAgent(game, table, reflexes=True, depth=job["depth"]),
        "hybrid, empty table": QAgent(game, None, reflexes=True, depth=job["depth"]),
    }
    evals: dict[str, Any] = {}
    for name, agent in players.items():
        n = job["games"] if name == "learned" else job["hybrid_games"]
        evals[name] = {
            "vs_random": _side_rates(play_match(game, agent, "random", games=n, seed=seed)),
            "vs_heuristic": _side_rates(play_match(game, agent, heuristic, games=n, seed=seed + 1)),
        }
    grades = {}
    for name in ("learned", "hybrid"):
        g = grade(players[name], game, sample=job["grade_sample"], games=job["grade_games"], seed=seed)
        grades[name] = g.to_json()
    w = job["window"]
    outcomes = learner.stats.outcomes
    windows = []
    for start in range(0, outcomes.shape[0], w):
        part = outcomes[start : start + w]
        counts = np.bincount(part.astype(np.int64), minlength=3) / part.shape[0]
        windows.append(
            {
                "episodes": start + part.shape[0],
                "first": float(counts[0]),
                "draw": float(counts[1]),
                "second": float(counts[2]),
                "mean_length": float(learner.stats.lengths[start : start + w].mean()),
            }
        )
    value = solve(game).value
    return {
        "game": str(game),
        "episodes": job["episodes"],
        "depth": job["depth"],
        "train_seconds": train_seconds,
        "episodes_per_second": job["episodes"] / train_seconds if train_seconds > 0 else None,
        "positions": int(table.size),
        "state_actions": int(np.count_nonzero(table.q)),
        "final_epsilon": learner.epsilon,
        "evaluations": evals,
        "grades": grades,
        "windows": windows,
        "value": {"outcome": value.outcome.value, "plies": value.plies},
    }


def run(config: dict[str, Any] | None, out_dir: Path, quick: bool = False, executor: Any = None) -> Path:
    """Run the experiment into ``out_dir`` (created); returns the folder. ``config`` overrides
    keys of the default (or, with ``quick``, of the small CI-sized) configuration.
    """
    cfg, out_dir = prepare(NAME, config, out_dir, quick, DEFAULT_CONFIG, QUICK_CONFIG)
    jobs = [
        {
            "game": b["game"],
            "episodes": int(b["episodes"]),
            "depth": int(b["depth"]),
            "grade_sample": b.get("grade_sample"),
            "training": dict(cfg["training"]),
            "games": int(cfg["games"]),
            "hybrid_games": int(cfg["hybrid_games"]),
            "grade_games": int(cfg["grade_games"]),
            "seed": int(cfg["seed"]),
            "window": int(cfg["window"]),
        }
        for b in cfg["boards"]
    ]
    results = run_jobs(executor, _one_board, jobs)
    write_runs(results, out_dir)
    _write_csv(results, out_dir)
    _write_figures(results, out_dir)
    _write_markdown(results, cfg, out_dir)
    return out_dir


def _write_csv(results: list[dict[str, Any]], out_dir: Path) -> None:
    with (out_dir / "results.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "game",
                "episodes",
                "player",
                "opponent",
                "games",
                "wins",
                "draws",
                "losses",
                "win_rate",
                "win_ci_low",
                "win_ci_high",
                "mean_length",
                "positions",
                "state_actions",
            ]
        )
        for r in results:
            for player, ev in r["evaluations"].items():
                for opponent, s in ev.items():
                    w.writerow(
                        [
                            r["game"],
                            r["episodes"],
                            player,
                            opponent.removeprefix("vs_"),
                            s["games"],
                            s["wins"],
                            s["draws"],
                            s["losses"],
                            s["win_rate"],
                            *s["win_rate_ci"],
                            s["mean_length"],
                            r["positions"],
                            r["state_actions"],
                        ]
                    )
    with (out_dir / "grades.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "game",
                "value",
                "player",
                "optimal_move_rate",
                "positions",
                "sampled",
                "first_w_d_l",
                "second_w_d_l",
            ]
        )
        for r in results:
            for player, g in r["grades"].items():
                value = f"{r['value']['outcome']} in {r['value']['plies']}"
                w.writerow([r["game"], value, player, *grade_cells(g)])
    with (out_dir / "training.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game", "episodes", "first_rate", "draw_rate", "second_rate", "mean_length"])
        for r in results:
            for win in r["windows"]:
                w.writerow(
                    [r["game"], win["episodes"], win["first"], win["draw"], win["second"], win["mean_length"]]
                )


def _write_figures(results: list[dict[str, Any]], out_dir: Path) -> None:
    plt = pyplot()
    for r in results:
        xs = [w["episodes"] for w in r["windows"]]
        fig, ax = plt.subplots(figsize=(7, 4))
        for key, label in (
            ("first", "first player wins"),
            ("draw", "draws"),
            ("second", "second player wins"),
        ):
            ax.plot(xs, [w[key] for w in r["windows"]], marker=".", label=label)
        ax.set_xlabel("episodes")
        ax.set_ylabel("share of the window's episodes")
        ax.set_ylim(0, 1)
        ax.set_title(f"{r['game']}: self-play outcomes while training")
        ax.legend()
        save_figure(fig, out_dir / f"training_{slug(r['game'])}.png")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _write_markdown(results: list[dict[str, Any]], cfg: dict[str, Any], out_dir: Path) -> None:
    lines = [f"# {NAME}", "", DESCRIPTION + ".", ""]
    lines += ["## 003 §9.2 as published", ""]
    lines += ["| board | episodes | win vs random | win vs heuristic | avg game length | Q-states |"]
    lines += ["| --- | ---: | ---: | ---: | ---: | ---: |"]
    for board, eps, wr, wh, length, states in PUBLISHED:
        lines.append(f"| {board} | {eps:,} | {_pct(wr)} | {_pct(wh)} | {length} | {states:,} |")
    lines += ["", "## Measured here", ""]
    lines += [
        "| game | episodes | player | win vs random [95% CI] | win vs heuristic [95% CI] "
        "| vs heuristic as first, as second (W/D/L) | avg length vs random | positions | (state, action) entries |"
    ]
    lines += ["| --- | ---: | --- | ---: | ---: | --- | ---: | ---: | ---: |"]
    for r in results:
        for player, ev in r["evaluations"].items():
            vr, vh = ev["vs_random"], ev["vs_heuristic"]
            lines.append(
                f"| {r['game']} | {r['episodes']:,} | {player} "
                f"| {_pct(vr['win_rate'])} [{_pct(vr['win_rate_ci'][0])}, {_pct(vr['win_rate_ci'][1])}] ({vr['games']} games) "
                f"| {_pct(vh['win_rate'])} [{_pct(vh['win_rate_ci'][0])}, {_pct(vh['win_rate_ci'][1])}] ({vh['games']} games) "
                f"| {vh['as_first']}, {vh['as_second']} | {vr['mean_length']:.1f} | {r['positions']:,} | {r['state_actions']:,} |"
            )
    lines += ["", "## Graded by the exact solver", ""]
    lines += [
        "| game | value from the start | player | optimal moves | positions | as first vs perfect (W/D/L) | as second vs perfect (W/D/L) |"
    ]
    lines += ["| --- | --- | --- | ---: | ---: | --- | --- |"]
    for r in results:
        for player, g in r["grades"].items():
            lines.append(f"| {r['game']} | {_value_text(r['value'])} | {player} | {grade_markdown(g)} |")
    lines += ["", "## Training speed", ""]
    lines += ["| game | episodes | seconds | episodes per second |", "| --- | ---: | ---: | ---: |"]
    for r in results:
        eps = r["episodes_per_second"]
        lines.append(
            f"| {r['game']} | {r['episodes']:,} | {r['train_seconds']:.3f} | {eps:,.0f} |" if eps else ""
        )
    lines += ["", f"Configuration: `config.json` (seed {cfg['seed']}).", ""]
    (out_dir / "results.md").write_text("\n".join(lines))


def _value_text(value: dict[str, Any]) -> str:
    if value["outcome"] == "draw":
        return f"draw ({value['plies']} plies)"
    return f"{value['outcome']} player wins in {value['plies']} plies"
