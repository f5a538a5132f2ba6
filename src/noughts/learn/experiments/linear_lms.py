"""Experiment ``linear-lms``: 001's Tables 1-2 and Figures 17-18, re-run and graded.

For each board (3x3 and 4x4 with k = 4 by default) and each learning rate, 001's LMS learner
(:mod:`noughts.learn.linear`) plays itself; at each checkpoint the cumulative wins, losses and
draws of x (Table 1) and the weights (Table 2) are recorded, and the figures plot them against
games played (Figures 17-18). The final weights are then graded by the exact solver
(:func:`noughts.arena.grade.grade`): the share of positions where the agent's move is optimal
and its results as each side against the perfect player, and they play a random player.

001's own Table 1 is checked too: its rows add up and its Win/Draw column is right, but the
rates *between* checkpoints show that from 700,000 games on x wins 86.1-86.5% of every
100,000-game interval (and 84-87% from 400,000): the "improving" ratio is a cumulative
average creeping towards a constant (about 86.4 / 6.7 = 12.9),
and a self-play agent whose first player wins 86% of games against itself plays the second
side badly (perfect play draws every game of 3x3).

Outputs: ``config.json``, ``table1.csv`` (counts by games), ``table2.csv`` (weights by games),
``published_table1.csv`` (001's table with the checks), ``grades.csv``, ``results.md``, and
``figure17_*.png`` / ``figure18_*.png``.
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
    write_runs,
)

NAME = "linear-lms"
DESCRIPTION = "001 Tables 1-2 and Figures 17-18: the LMS linear agent by games played, graded by the solver"

PUBLISHED_TABLE1 = [  # 001 §5 Table 1: games, wins, losses, draws, win/draw (as printed)
    (1000, 761, 82, 157, 4.85),
    (10000, 7524, 827, 1649, 4.56),
    (100000, 78241, 8323, 13436, 5.82),
    (200000, 159053, 16288, 24659, 6.45),
    (300000, 240136, 24202, 35662, 6.73),
    (400000, 326749, 30979, 42272, 7.73),
    (500000, 410749, 38336, 50915, 8.07),
    (600000, 494598, 45645, 59757, 8.28),
    (700000, 580906, 52567, 66527, 8.73),
    (800000, 667257, 59554, 73189, 9.12),
    (900000, 753805, 66316, 79879, 9.44),
    (1000000, 840239, 73203, 86558, 9.71),
    (1100000, 926767, 79939, 93294, 9.93),
    (1200000, 1013183, 86815, 100002, 10.13),
    (1300000, 1099240, 93803, 106957, 10.28),
    (1400000, 1185745, 100555, 113700, 10.43),
    (1500000, 1272279, 107315, 120406, 10.57),
]
PAPER_CHECKPOINTS = [row[0] for row in PUBLISHED_TABLE1]

DEFAULT_CONFIG: dict[str, Any] = {
    "boards": [
        {"game": "tictactoe", "games": 1_500_000, "checkpoints": PAPER_CHECKPOINTS, "grade_sample": None},
        {
            "game": "mnk(4,4,4)",
            "games": 200_000,
            "checkpoints": [1000, 10000, 50000, 100000, 150000, 200000],
            "grade_sample": 2000,
        },
    ],
    "etas": [0.4, 0.01, 0.001],  # 001's 0.4, then two that LMS over raw counts can take
    "epsilon": 0.0,  # 001's performance system is greedy
    "seed": 1,
    "grade_games": 20,
    "random_games": 200,
}

QUICK_CONFIG: dict[str, Any] = {
    "boards": [
        {"game": "tictactoe", "games": 1000, "checkpoints": [100, 250, 500, 1000], "grade_sample": None},
        {"game": "mnk(4,4,4)", "games": 150, "checkpoints": [50, 100, 150], "grade_sample": 60},
    ],
    "etas": [0.4, 0.01],
    "epsilon": 0.0,
    "seed": 1,
    "grade_games": 2,
    "random_games": 20,
}


def published_checks() -> list[dict[str, Any]]:
    """001's Table 1 with what the numbers imply: row sums, the ratio, and rates per interval."""
    rows = []
    prev = (0, 0, 0, 0)
    for n, w, lo, d, ratio in PUBLISHED_TABLE1:
        dn = n - prev[0]
        rows.append(
            {
                "games": n,
                "wins": w,
                "losses": lo,
                "draws": d,
                "win_draw_printed": ratio,
                "sum_is_games": w + lo + d == n,
                "win_draw_computed": round(w / d, 2),
                "interval_win_rate": (w - prev[1]) / dn,
                "interval_loss_rate": (lo - prev[2]) / dn,
                "interval_draw_rate": (d - prev[3]) / dn,
            }
        )
        prev = (n, w, lo, d)
    return rows


def _one_run(job: dict[str, Any]) -> dict[str, Any]:
    """Train, grade and play one (board, eta) run; a plain function of plain data (for executors)."""
    from noughts.arena.grade import grade
    from noughts.arena.match import play_match
    from noughts.core import game as make_game
    from noughts.learn.linear import train_lms

    game = make_game(job["game"])
    marks = [c for c in job["checkpoints"] if c <= job["games"]]
    started = time.perf_counter()
    run = train_lms(
        game,
        job["games"],
        eta=job["eta"],
        epsilon=job["epsilon"],
        seed=job["seed"],
        checkpoints=marks,
        stop_on_divergence=True,
    )
    diverged_at = run.diverged_at
    seconds = time.perf_counter() - started
    out: dict[str, Any] = {
        "game": str(game),
        "eta": job["eta"],
        "games": run.games,
        "diverged_at": diverged_at,
        "seconds": seconds,
        "checkpoints": [
            {
                "games": c.games,
                "wins": c.wins,
                "losses": c.losses,
                "draws": c.draws,
                "weights": list(c.weights),
            }
            for c in run.checkpoints
        ],
        "weights": run.weights.tolist(),
    }
    if diverged_at is None:
        agent = run.agent()
        g = grade(agent, game, sample=job["grade_sample"], games=job["grade_games"], seed=job["seed"])
        out["grade"] = g.to_json()
        m = play_match(game, agent, "random", games=job["random_games"], seed=job["seed"])
        out["vs_random"] = {"wins": m.a_wins, "draws": m.draws, "losses": m.a_losses, "score": m.score}
    return out


def _slug(game: str, eta: float) -> str:
    return f"{slug(game)}_eta{eta:g}"


def run(config: dict[str, Any] | None, out_dir: Path, quick: bool = False, executor: Any = None) -> Path:
    """Run the experiment into ``out_dir`` (created); returns the folder. ``config`` overrides
    keys of the default (or, with ``quick``, of the small CI-sized) configuration.
    """
    cfg, out_dir = prepare(NAME, config, out_dir, quick, DEFAULT_CONFIG, QUICK_CONFIG)
    jobs = [
        {
            "game": board["game"],
            "games": int(board["games"]),
            "checkpoints": list(board["checkpoints"]),
            "grade_sample": board.get("grade_sample"),
            "eta": float(eta),
            "epsilon": float(cfg["epsilon"]),
            "seed": int(cfg["seed"]),
            "grade_games": int(cfg["grade_games"]),
            "random_games": int(cfg["random_games"]),
        }
        for board in cfg["boards"]
        for eta in cfg["etas"]
    ]
    results = run_jobs(executor, _one_run, jobs)
    write_runs(results, out_dir)
    _write_tables(results, out_dir)
    _write_figures(results, out_dir)
    _write_markdown(results, cfg, out_dir)
    return out_dir


def _write_tables(results: list[dict[str, Any]], out_dir: Path) -> None:
    with (out_dir / "table1.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game", "eta", "games", "wins", "losses", "draws", "win_draw_ratio"])
        for r in results:
            for c in r["checkpoints"]:
                ratio = c["wins"] / c["draws"] if c["draws"] else ""
                w.writerow([r["game"], r["eta"], c["games"], c["wins"], c["losses"], c["draws"], ratio])
    with (out_dir / "table2.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game", "eta", "games", *(f"w{i}" for i in range(7))])
        for r in results:
            for c in r["checkpoints"]:
                w.writerow([r["game"], r["eta"], c["games"], *c["weights"]])
    checks = published_checks()
    with (out_dir / "published_table1.csv").open("w", newline="") as f:
        dw = csv.DictWriter(f, fieldnames=list(checks[0]))
        dw.writeheader()
        dw.writerows(checks)
    with (out_dir / "grades.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "game",
                "eta",
                "games",
                "diverged_at",
                "optimal_move_rate",
                "positions",
                "sampled",
                "first_w_d_l",
                "second_w_d_l",
                "vs_random_score",
            ]
        )
        for r in results:
            g = r.get("grade")
            if g is None:
                w.writerow([r["game"], r["eta"], r["games"], r["diverged_at"], "", "", "", "", "", ""])
                continue
            w.writerow([r["game"], r["eta"], r["games"], "", *grade_cells(g), r["vs_random"]["score"]])


def _write_figures(results: list[dict[str, Any]], out_dir: Path) -> None:
    plt = pyplot()
    for r in results:
        cps = r["checkpoints"]
        if not cps:
            continue
        name = _slug(r["game"], r["eta"])
        xs = [c["games"] for c in cps]
        fig, ax = plt.subplots(figsize=(7, 4))
        for key, label in (("wins", "x wins"), ("losses", "x losses"), ("draws", "draws")):
            ax.plot(xs, [c[key] for c in cps], marker="o", label=label)
        ax.set_xlabel("games played")
        ax.set_ylabel("games (cumulative)")
        ax.set_title(f"{r['game']}, eta={r['eta']:g}: self-play results (cf. 001 Fig. 17)")
        ax.legend()
        save_figure(fig, out_dir / f"figure17_{name}.png")
        fig, ax = plt.subplots(figsize=(7, 4))
        for i in range(7):
            ax.plot(xs, [c["weights"][i] for c in cps], marker=".", label=f"w{i}")
        ax.set_xlabel("games played")
        ax.set_ylabel("weight")
        ax.set_title(f"{r['game']}, eta={r['eta']:g}: weights (cf. 001 Fig. 18)")
        ax.legend(ncol=4, fontsize="small")
        save_figure(fig, out_dir / f"figure18_{name}.png")


def _write_markdown(results: list[dict[str, Any]], cfg: dict[str, Any], out_dir: Path) -> None:
    lines = [f"# {NAME}", "", DESCRIPTION + ".", ""]
    lines += ["## Grades of the final weights", ""]
    lines += [
        "| game | eta | games | optimal moves | positions | as x vs perfect (W/D/L) | as o vs perfect (W/D/L) | score vs random |",
        "| --- | --- | ---: | ---: | ---: | --- | --- | ---: |",
    ]
    for r in results:
        g = r.get("grade")
        if g is None:
            lines.append(f"| {r['game']} | {r['eta']:g} | diverged at game {r['diverged_at']} | | | | | |")
            continue
        lines.append(
            f"| {r['game']} | {r['eta']:g} | {r['games']:,} | {grade_markdown(g)} "
            f"| {r['vs_random']['score']:.3f} |"
        )
    for r in results:
        if not r["checkpoints"]:
            continue
        lines += ["", f"## {r['game']}, eta = {r['eta']:g}", ""]
        if r["diverged_at"]:
            lines += [f"The weights overflowed at game {r['diverged_at']:,}; rows stop before it.", ""]
        lines += [
            "| games | wins | losses | draws | win/draw | " + " | ".join(f"w{i}" for i in range(7)) + " |"
        ]
        lines += ["| ---: " * 5 + "| ---: " * 7 + "|"]
        for c in r["checkpoints"]:
            ratio = f"{c['wins'] / c['draws']:.2f}" if c["draws"] else "inf"
            ws = " | ".join(f"{v:.4g}" for v in c["weights"])
            lines.append(
                f"| {c['games']:,} | {c['wins']:,} | {c['losses']:,} | {c['draws']:,} | {ratio} | {ws} |"
            )
    lines += ["", "## 001's Table 1, checked", ""]
    lines += [
        "| games | wins | losses | draws | win/draw printed | computed | rows add up | x wins in the interval | draws in the interval |"
    ]
    lines += ["| ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
    for c in published_checks():
        lines.append(
            f"| {c['games']:,} | {c['wins']:,} | {c['losses']:,} | {c['draws']:,} | {c['win_draw_printed']} "
            f"| {c['win_draw_computed']} | {c['sum_is_games']} | {c['interval_win_rate']:.3f} | {c['interval_draw_rate']:.3f} |"
        )
    lines += ["", f"Configuration: `config.json` (seed {cfg['seed']}).", ""]
    (out_dir / "results.md").write_text("\n".join(lines))
