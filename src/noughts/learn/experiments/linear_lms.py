"""Experiment ``linear-lms``: 001's Tables 1-2 and Figures 17-18, re-run like with like, corrected,
explored and graded.

001 trains one weight vector over six board features plus a bias by LMS in self-play on 3x3,
learning rate 0.4, 1,500,000 games, and prints the cumulative wins, losses and draws of x
(Table 1) and the weights (Table 2) at 17 checkpoints, drawn as Figures 17 (the Win/Draw ratio)
and 18 (the weights). The arms, each on ``seeds`` (five by default):

* ``paper``: 001 exactly: the features over rows and columns (001 §3.3: "within an open row
  and column"; its Figure 12 is reproduced only so), eta = 0.4, greedy self-play from the empty
  board, weights from 0.5, final values +100 / 0 / -100;
* ``corrected``: noughts' defaults: features over every line (diagonals included) and a
  learning rate LMS can take (eta = 0.01; LMS over raw counts needs eta |X|^2 < 2).
* ``explore``: settings chosen to come closer to 001's Table 1, which no self-play run does:
  the paper's features at a stable eta, exploration, normalised LMS (which keeps eta = 0.4
  stable), and a uniformly random o (x learning against a random player rather than itself).
  Each is ranked by its distance from Table 1 (the mean, over 001's 17 rows, of the summed
  absolute differences of the cumulative x-win, x-loss and draw shares).

Every run is traced densely (:meth:`noughts.learn.linear.LinearLearner.play_traced`: each block
of ``every`` games gives the weights at its end and their least and greatest values inside it),
so the figures show the swings of w0 instead of aliasing them. The final weights are graded
exactly on 3x3 (:mod:`noughts.learn.policy`: every tie weighted): the share of reachable
positions where the agent's move keeps the game's value, its chances as x and as o against the
perfect player and against a random one. 4x4 with four in a row (``board4``) runs the paper and
corrected arms as a check of 001's claim that the method generalises, graded on a sample.

001's Table 1 is checked too: its rows add up and its Win/Draw column is right, but the rates
*between* checkpoints show that from 700,000 games on x wins 86.1-86.5% of every interval: the
"improving" ratio is a cumulative average creeping towards a constant.

Outputs: ``config.json``, ``runs.json``, ``table1.csv``, ``table2.csv`` (001's checkpoints, every
run), ``trace.csv`` (every block, every run), ``published_table1.csv``, ``grades.csv``,
``results.md``, ``figure17.png``, ``figure17_intervals.png``, ``figure18_*.png``.
"""

from __future__ import annotations

import csv
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from noughts.core import NoughtsError
from noughts.learn.experiments._report import grade_markdown, prepare, pyplot, save_figure, write_runs
from noughts.learn.experiments.runs import clear_finished, need_plots, run_jobs

NAME = "linear-lms"
DESCRIPTION = (
    "Generalised Agent Tables 1-2 and Figures 17-18: the LMS linear agent, its settings beside corrected and "
    "explored ones, five seeds each, graded by the solver"
)

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

PUBLISHED_TABLE2 = [  # 001 §5 Table 2: games, w0..w6 (its "110000" row is 1,100,000)
    (1000, 75.2, -8.4, -166.8, -39.4, -171.0, 55.4, -115.1),
    (10000, 70.6, -9.9, -122.3, 31.0, -93.2, 43.0, -208.4),
    (100000, 72.8, -0.2, -23.2, 54.4, -158.2, 45.9, -208.0),
    (200000, 44.3, -9.4, 1.0, 38.0, -85.9, 56.8, -175.5),
    (300000, 81.4, -157.9, -1.1, 16.9, -15.4, 23.6, -202.8),
    (400000, 62.2, -157.9, -19.0, 42.8, -34.0, 41.0, -197.1),
    (500000, 93.6, -17.6, -53.5, 29.5, -135.3, 29.8, -227.4),
    (600000, 97.9, -168.2, -51.2, 29.0, -7.2, 51.5, -218.5),
    (700000, 67.3, -168.2, -41.9, 27.0, -47.5, 40.8, -186.5),
    (800000, 77.1, -168.2, -2.2, 22.9, -20.1, 62.5, -198.9),
    (900000, 84.2, -168.2, -28.9, 29.4, 10.5, 41.0, -197.4),
    (1000000, 67.0, -168.2, 11.4, 16.8, 12.0, 34.1, -197.5),
    (1100000, 61.7, -168.2, -72.9, 21.6, -20.8, 70.0, -203.9),
    (1200000, 95.4, -168.2, -61.6, 76.9, -25.1, 33.0, -160.1),
    (1300000, 58.1, -168.2, -76.4, 21.6, -19.4, 36.6, -183.3),
    (1400000, 60.8, -168.2, -36.4, 30.6, -6.0, 47.3, -209.5),
    (1500000, 93.4, -168.2, -27.3, 12.4, -6.0, 18.9, -198.6),
]

SETTING_KEYS = ("features", "eta", "epsilon", "opponent", "normalised")

DEFAULT_CONFIG: dict[str, Any] = {
    "game": "tictactoe",
    "games": 1_500_000,
    "every": 1_000,
    "seeds": [1, 2, 3, 4, 5],
    "arms": {
        "paper": {"features": "rowcol", "eta": 0.4},
        "corrected": {"features": "lines", "eta": 0.01},
    },
    "explore": {
        "rowcol, eta 0.01": {"features": "rowcol", "eta": 0.01},
        "rowcol, eta 0.01, epsilon 0.1": {"features": "rowcol", "eta": 0.01, "epsilon": 0.1},
        "rowcol, normalised eta 0.4": {"features": "rowcol", "eta": 0.4, "normalised": True},
        "rowcol, eta 0.01, o random": {"features": "rowcol", "eta": 0.01, "opponent": "random"},
        "rowcol, normalised eta 0.4, o random": {
            "features": "rowcol",
            "eta": 0.4,
            "normalised": True,
            "opponent": "random",
        },
        "lines, eta 0.01, o random": {"features": "lines", "eta": 0.01, "opponent": "random"},
    },
    "board4": {
        "game": "mnk(4,4,4)",
        "games": 200_000,
        "every": 1_000,
        "grade_sample": 1_000,
        "grade_games": 10,
        "arms": ["paper", "corrected"],
    },
    "random_games": 200,
}

QUICK_CONFIG: dict[str, Any] = {
    **DEFAULT_CONFIG,
    "games": 3_000,
    "every": 100,
    "seeds": [1, 2, 3, 4, 5],
    "explore": {
        "rowcol, eta 0.01, o random": {"features": "rowcol", "eta": 0.01, "opponent": "random"},
    },
    "board4": {
        "game": "mnk(4,4,4)",
        "games": 200,
        "every": 50,
        "grade_sample": 40,
        "grade_games": 1,
        "arms": ["corrected"],
    },
    "random_games": 10,
}

ARM_NOTE = {
    "paper": "001 exactly: features over rows and columns, eta 0.4, greedy self-play",
    "corrected": "features over every line (diagonals too), eta 0.01 (LMS over raw counts needs eta·|X|² < 2)",
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


def distance_to_table1(checkpoints: dict[int, tuple[int, int, int]]) -> float | None:
    """The mean, over 001's Table 1 rows present in ``checkpoints`` ({games: (wins, losses,
    draws)}), of the summed absolute differences of the three cumulative shares; None if none.
    """
    diffs = []
    for n, w, lo, d, _ in PUBLISHED_TABLE1:
        mine = checkpoints.get(n)
        if mine is None:
            continue
        diffs.append(abs(mine[0] - w) / n + abs(mine[1] - lo) / n + abs(mine[2] - d) / n)
    return float(np.mean(diffs)) if diffs else None


# -- one run -------------------------------------------------------------------------------------


def _one_run(job: dict[str, Any]) -> dict[str, Any]:
    """Train (traced), then grade one (setting, seed) run; plain data in and out."""
    from noughts.core import game as make_game
    from noughts.learn.linear import LinearLearner

    game = make_game(job["game"])
    setting = {k: job["setting"][k] for k in SETTING_KEYS if k in job["setting"]}
    learner = LinearLearner(game, seed=job["seed"], **setting)
    started = time.perf_counter()
    trace = learner.play_traced(job["games"], job["every"])
    seconds = time.perf_counter() - started
    ends = trace["games"].tolist()
    counts = trace["counts"].tolist()
    by_games = {g: (c, w) for g, c, w in zip(ends, counts, trace["weights"].tolist(), strict=True)}
    out: dict[str, Any] = {
        "group": job["group"],
        "arm": job["arm"],
        "game": str(game),
        "setting": setting,
        "seed": job["seed"],
        "games": learner.episodes,
        "diverged_at": trace["diverged_at"],
        "seconds": round(seconds, 3),
        "counts": [learner.wins, learner.losses, learner.draws],
        "weights": learner.weights.tolist(),
        "checkpoints": [
            {
                "games": g,
                "wins": by_games[g][0][0],
                "losses": by_games[g][0][1],
                "draws": by_games[g][0][2],
                "weights": by_games[g][1],
            }
            for g in job["checkpoints"]
            if g in by_games
        ],
        "trace": {
            "games": ends,
            "counts": counts,
            "weights": trace["weights"].tolist(),
            "low": trace["low"].tolist(),
            "high": trace["high"].tolist(),
        },
    }
    graded_at = learner.episodes if trace["diverged_at"] is None else (ends[-1] if ends else None)
    if graded_at is None:
        return out
    weights = learner.weights if trace["diverged_at"] is None else trace["weights"][-1]
    out["graded_at"] = graded_at
    if job["exact"]:
        out["exact"] = _exact_grade(game, weights, setting.get("features", "lines"), job["perfect"])
    else:
        out["sampled"] = _sampled_grade(game, weights, setting.get("features", "lines"), job)
    return out


def _exact_grade(game: Any, weights: Any, feature_set: str, perfect: list[int]) -> dict[str, Any]:
    """The agent's grade and results against perfect and random play, exactly (ties weighted)."""
    from noughts.agents.linear import LinearAgent
    from noughts.exact.states import optimal_action_sets, state_space
    from noughts.learn.policy import all_moves, successor_value_moves, versus
    from noughts.learn.td import grade_sets

    agent = LinearAgent(game, weights, feature_set=feature_set)
    space = state_space(game)
    b0, b1 = space.bits()
    values = np.array(
        [float(agent.weights @ agent.features.of_bits(int(x), int(o))) for x, o in zip(b0, b1, strict=True)]
    )
    sets = successor_value_moves(space, values)
    live = space.nonterminal()
    optimal = optimal_action_sets(space)
    return {
        "grade": grade_sets(sets, optimal, live),
        "grade_strict": grade_sets(sets, optimal, live, strict=True),
        "positions": int(live.sum()),
        "vs_perfect": versus(space, sets, np.array(perfect, dtype=np.uint64)),
        "vs_random": versus(space, sets, all_moves(space)),
    }


def _sampled_grade(game: Any, weights: Any, feature_set: str, job: dict[str, Any]) -> dict[str, Any]:
    from noughts.agents.linear import LinearAgent
    from noughts.arena.grade import grade
    from noughts.arena.match import play_match

    agent = LinearAgent(game, weights, feature_set=feature_set)
    g = grade(agent, game, sample=job["grade_sample"], games=job["grade_games"], seed=job["seed"])
    m = play_match(game, agent, "random", games=job["random_games"], seed=job["seed"])
    return {"grade": g.to_json(), "vs_random": {"wins": m.a_wins, "draws": m.draws, "losses": m.a_losses,
                                                "score": m.score}}  # fmt: skip


# -- the run --------------------------------------------------------------------------------------


def _settings(cfg: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    out = [("arm", name, dict(s)) for name, s in cfg["arms"].items()]
    out += [("explore", name, dict(s)) for name, s in cfg["explore"].items()]
    for _, name, s in out:
        unknown = set(s) - set(SETTING_KEYS)
        if unknown:
            raise NoughtsError(
                f"setting {name!r}: unknown key(s) {sorted(unknown)}; known: {', '.join(SETTING_KEYS)}"
            )
    return out


def run(config: dict[str, Any] | None, out_dir: Path, quick: bool = False, executor: Any = None) -> Path:
    """Run the experiment into ``out_dir`` (created); returns the folder. ``config`` overrides
    keys of the default (or, with ``quick``, of the small CI-sized) configuration.
    """
    from noughts.core import game as make_game
    from noughts.exact.states import state_space
    from noughts.learn.policy import perfect_moves

    need_plots(f"the experiment {NAME}")
    cfg, out_dir = prepare(NAME, config, out_dir, quick, DEFAULT_CONFIG, QUICK_CONFIG)
    if not cfg["seeds"]:
        raise NoughtsError("linear-lms needs at least one seed")
    settings = _settings(cfg)
    started = time.perf_counter()
    perfect = [int(x) for x in perfect_moves(state_space(make_game(cfg["game"])))]
    marks = [c for c in PAPER_CHECKPOINTS if c <= cfg["games"]] or [cfg["games"]]
    jobs = [
        {"group": group, "arm": name, "setting": s, "seed": int(seed), "game": cfg["game"], "games": int(cfg["games"]),
         "every": int(cfg["every"]), "checkpoints": marks, "exact": True, "perfect": perfect}
        for group, name, s in settings
        for seed in cfg["seeds"]
    ]  # fmt: skip
    b4 = cfg["board4"]
    for name in b4["arms"]:
        if name not in cfg["arms"]:
            raise NoughtsError(f"board4 names the arm {name!r}, which is not in arms")
        for seed in cfg["seeds"]:
            jobs.append(
                {"group": "board4", "arm": name, "setting": dict(cfg["arms"][name]), "seed": int(seed),
                 "game": b4["game"], "games": int(b4["games"]), "every": int(b4["every"]),
                 "checkpoints": [c for c in (1000, 10_000, 50_000, 100_000, 150_000, 200_000) if c <= b4["games"]],
                 "exact": False, "grade_sample": b4["grade_sample"], "grade_games": b4["grade_games"],
                 "random_games": cfg["random_games"]}
            )  # fmt: skip
    results = run_jobs(executor, _one_run, jobs, out_dir, NAME)
    wall = time.perf_counter() - started
    _write_tables(results, out_dir)
    summary = _summarise(results, cfg)
    write_runs([{k: v for k, v in r.items() if k != "trace"} for r in results], out_dir)
    with warnings.catch_warnings():  # the overflowing weights of 001's setting are drawn on a symlog axis
        warnings.simplefilter("ignore", RuntimeWarning)
        _write_figures(results, cfg, summary, out_dir)
    _write_markdown(results, cfg, summary, out_dir, wall)
    clear_finished(_one_run, jobs, out_dir)
    return out_dir


# -- summaries -------------------------------------------------------------------------------------


def _mean_ci(xs: list[float]) -> dict[str, float]:
    from noughts.learn.experiments.cumulative_td import mean_ci

    return mean_ci(xs)


def _ttest_1samp(xs: list[float], value: float) -> float | None:
    from scipy import stats

    a = np.array(xs, dtype=float)
    if a.size < 2 or float(a.std(ddof=1)) == 0.0:
        return None
    return float(stats.ttest_1samp(a, value).pvalue)


def _summarise(results: list[dict[str, Any]], cfg: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    final_games = cfg["games"]
    published_final = PUBLISHED_TABLE1[-1]
    for group, name, _ in _settings(cfg):
        runs = [r for r in results if r["group"] == group and r["arm"] == name]
        entry: dict[str, Any] = {
            "group": group,
            "setting": runs[0]["setting"] if runs else {},
            "runs": len(runs),
        }
        diverged = [r["diverged_at"] for r in runs if r["diverged_at"] is not None]
        entry["diverged"] = diverged
        finished = [r for r in runs if r["diverged_at"] is None]
        shares = np.array([[c / max(sum(r["counts"]), 1) for c in r["counts"]] for r in finished]).reshape(
            -1, 3
        )
        entry["final_shares"] = {
            k: _mean_ci(shares[:, i].tolist()) for i, k in enumerate(("wins", "losses", "draws"))
        } if finished else None  # fmt: skip
        ratios = [r["counts"][0] / r["counts"][2] for r in finished if r["counts"][2]]
        entry["final_ratio"] = _mean_ci(ratios) if ratios else None
        first_rows = [
            r["checkpoints"][0] for r in runs if r["checkpoints"] and r["checkpoints"][0]["games"] == 1000
        ]
        entry["shares_1000"] = (
            {k: _mean_ci([c[k] / 1000 for c in first_rows]) for k in ("wins", "losses", "draws")}
            if first_rows
            else None
        )
        found = [
            distance_to_table1({c["games"]: (c["wins"], c["losses"], c["draws"]) for c in r["checkpoints"]})
            for r in finished
        ]
        dists = [d for d in found if d is not None]
        entry["distance"] = _mean_ci(dists) if dists else None
        entry["p_final_win"] = (
            _ttest_1samp(shares[:, 0].tolist(), published_final[1] / published_final[0])
            if finished and final_games >= published_final[0]
            else None
        )
        weights = np.array([r["weights"] for r in finished]).reshape(-1, 7)
        entry["final_weights"] = [_mean_ci(weights[:, i].tolist()) for i in range(7)] if finished else None
        graded = [r for r in runs if "exact" in r]
        if graded:
            entry["grade"] = _mean_ci([r["exact"]["grade"] for r in graded])
            for side in ("as_first", "as_second"):
                entry[f"perfect_loss_{side}"] = _mean_ci(
                    [r["exact"]["vs_perfect"][side]["loss"] for r in graded]
                )
                entry[f"random_win_{side}"] = _mean_ci([r["exact"]["vs_random"][side]["win"] for r in graded])
                entry[f"random_loss_{side}"] = _mean_ci(
                    [r["exact"]["vs_random"][side]["loss"] for r in graded]
                )
            entry["graded_at"] = [r["graded_at"] for r in graded]
        out[name] = entry
    explored = [n for g, n, _ in _settings(cfg) if g == "explore" and out[n]["distance"] is not None]
    ranked = sorted(explored, key=lambda n: out[n]["distance"]["mean"])
    return {"settings": out, "ranked": ranked, "closest": ranked[0] if ranked else None}


# -- tables ---------------------------------------------------------------------------------------


def _write_tables(results: list[dict[str, Any]], out_dir: Path) -> None:
    with (out_dir / "table1.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["group", "arm", "game", "seed", "games", "wins", "losses", "draws", "win_draw_ratio"])
        for r in results:
            for c in r["checkpoints"]:
                ratio = c["wins"] / c["draws"] if c["draws"] else ""
                w.writerow(
                    [
                        r["group"],
                        r["arm"],
                        r["game"],
                        r["seed"],
                        c["games"],
                        c["wins"],
                        c["losses"],
                        c["draws"],
                        ratio,
                    ]
                )
    with (out_dir / "table2.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["group", "arm", "game", "seed", "games", *(f"w{i}" for i in range(7))])
        for r in results:
            for c in r["checkpoints"]:
                w.writerow([r["group"], r["arm"], r["game"], r["seed"], c["games"], *c["weights"]])
    with (out_dir / "trace.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["group", "arm", "game", "seed", "games", "wins", "losses", "draws",
                    *(f"w{i}" for i in range(7)), *(f"w{i}_low" for i in range(7)), *(f"w{i}_high" for i in range(7))])  # fmt: skip
        for r in results:
            t = r["trace"]
            for j, g in enumerate(t["games"]):
                w.writerow([r["group"], r["arm"], r["game"], r["seed"], g, *t["counts"][j], *t["weights"][j], *t["low"][j], *t["high"][j]])  # fmt: skip
    checks = published_checks()
    with (out_dir / "published_table1.csv").open("w", newline="") as f:
        dw = csv.DictWriter(f, fieldnames=list(checks[0]))
        dw.writeheader()
        dw.writerows(checks)
    with (out_dir / "grades.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["group", "arm", "game", "seed", "games", "diverged_at", "graded_at", "optimal_move_rate",
                    "exact", "lose_as_x_vs_perfect", "lose_as_o_vs_perfect", "win_as_x_vs_random", "win_as_o_vs_random"])  # fmt: skip
        for r in results:
            base = [
                r["group"],
                r["arm"],
                r["game"],
                r["seed"],
                r["games"],
                r["diverged_at"],
                r.get("graded_at"),
            ]
            if "exact" in r:
                e = r["exact"]
                w.writerow([*base, e["grade"], True, e["vs_perfect"]["as_first"]["loss"], e["vs_perfect"]["as_second"]["loss"],
                            e["vs_random"]["as_first"]["win"], e["vs_random"]["as_second"]["win"]])  # fmt: skip
            elif "sampled" in r:
                g = r["sampled"]["grade"]
                w.writerow([*base, g["optimal_move_rate"], False, g["as_first"]["losses"] / max(g["as_first"]["games"], 1),
                            g["as_second"]["losses"] / max(g["as_second"]["games"], 1), "", ""])  # fmt: skip
            else:
                w.writerow([*base, "", "", "", "", "", ""])


# -- figures --------------------------------------------------------------------------------------


def _ratio_matrix(runs: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Block ends and the cumulative Win/Draw ratio per run (NaN where no draw yet or diverged)."""
    longest = max(runs, key=lambda r: len(r["trace"]["games"]))
    xs = np.array(longest["trace"]["games"], dtype=float)
    m = np.full((len(runs), xs.size), np.nan)
    for i, r in enumerate(runs):
        c = np.array(r["trace"]["counts"], dtype=float).reshape(-1, 3)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(c[:, 2] > 0, c[:, 0] / c[:, 2], np.nan)
        m[i, : ratio.size] = ratio
    return xs, m


def _band(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mean = np.nanmean(m, axis=0)
        n = np.sum(np.isfinite(m), axis=0)
        sd = np.nanstd(m, axis=0, ddof=1) if m.shape[0] > 1 else np.zeros(m.shape[1])
    half = np.where(n > 1, 1.96 * sd / np.sqrt(np.maximum(n, 1)), 0.0)
    return mean, np.nan_to_num(half)


def _write_figures(
    results: list[dict[str, Any]], cfg: dict[str, Any], summary: dict[str, Any], out_dir: Path
) -> None:
    plt = pyplot()
    names = [n for _, n, _ in _settings(cfg)]
    main = [r for r in results if r["group"] != "board4"]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    px = [row[0] for row in PUBLISHED_TABLE1 if row[0] <= cfg["games"]]
    pratio = [row[4] for row in PUBLISHED_TABLE1 if row[0] <= cfg["games"]]

    # Figure 17 as 001 draws it: the cumulative Win/Draw ratio against games played
    fig, ax = plt.subplots(figsize=(8.5, 4.8))
    for k, name in enumerate(names):
        runs = [r for r in main if r["arm"] == name and r["trace"]["games"]]
        if not runs:
            continue
        xs, m = _ratio_matrix(runs)
        mean, half = _band(m)
        style = "-" if name in cfg["arms"] else "--"
        ax.plot(xs, mean, style, color=colours[k % len(colours)], lw=1.3, label=f"{name} (n={len(runs)})")
        ax.fill_between(xs, mean - half, mean + half, color=colours[k % len(colours)], alpha=0.15, lw=0)
    ax.plot(px, pratio, "o", color="red", ms=5, label="001 Table 1 / Figure 17", zorder=4)
    ax.set_yscale("log")
    ax.set_xlabel("games played")
    ax.set_ylabel("Win/Draw ratio (x's wins / draws, cumulative)")
    ax.set_title(f"001 Figure 17 redrawn: {cfg['game']}, mean and 95% band over {len(cfg['seeds'])} seeds")
    ax.legend(fontsize="x-small", ncol=2)
    ax.grid(alpha=0.3)
    save_figure(fig, out_dir / "figure17.png")

    # what the cumulative ratio hides: the shares inside each interval
    fig, axes = plt.subplots(1, 3, figsize=(13, 4), sharex=True)
    checks = published_checks()
    for col, (key, label) in enumerate((("wins", "x wins"), ("losses", "x loses"), ("draws", "draws"))):
        ax = axes[col]
        for k, name in enumerate(names):
            runs = [r for r in main if r["arm"] == name and len(r["trace"]["games"]) > 1]
            if not runs:
                continue
            longest = max(len(r["trace"]["games"]) for r in runs)
            xs = np.array(max(runs, key=lambda r: len(r["trace"]["games"]))["trace"]["games"], dtype=float)
            m = np.full((len(runs), longest), np.nan)
            for i, r in enumerate(runs):
                c = np.array(r["trace"]["counts"], dtype=float).reshape(-1, 3)
                g = np.array(r["trace"]["games"], dtype=float)
                d = np.diff(np.vstack([np.zeros(3), c]), axis=0)
                width = np.diff(np.concatenate([[0.0], g]))
                m[i, : g.size] = d[:, col] / width
            mean, _ = _band(m)
            ax.plot(xs, mean, color=colours[k % len(colours)], lw=0.8, label=name if col == 0 else None)
        rate = f"interval_{'win' if key == 'wins' else 'loss' if key == 'losses' else 'draw'}_rate"
        ax.plot(px, [c[rate] for c in checks if c["games"] <= cfg["games"]],
                "o", color="red", ms=4, label="001 Table 1, between rows" if col == 0 else None)  # fmt: skip
        ax.set_title(f"{label}: share inside each block of {cfg['every']:,} games")
        ax.set_xlabel("games played")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize="xx-small")
    save_figure(fig, out_dir / "figure17_intervals.png")

    # Figure 18: the weights, densely, with each block's least and greatest value
    t2 = [row for row in PUBLISHED_TABLE2 if row[0] <= cfg["games"]]
    tx = [row[0] for row in t2]
    for name in names:
        runs = [r for r in main if r["arm"] == name and r["trace"]["games"]]
        if not runs:
            continue
        r = runs[0]
        t = r["trace"]
        xs = np.array(t["games"], dtype=float)
        w, lo, hi = (np.array(t[k]).reshape(-1, 7) for k in ("weights", "low", "high"))
        fig, ax = plt.subplots(figsize=(8.5, 4.8))
        for i in range(7):
            c = colours[i % len(colours)]
            ax.fill_between(xs, lo[:, i], hi[:, i], color=c, alpha=0.2, lw=0)
            ax.plot(xs, w[:, i], color=c, lw=0.7, label=f"w{i}")
            ax.plot(tx, [row[i + 1] for row in t2], "o", color=c, ms=4, mec="black", mew=0.4)
        if r["diverged_at"] is not None:
            ax.set_yscale("symlog")
        ax.set_xlabel("games played")
        ax.set_ylabel("weight")
        note = f"; overflowed at game {r['diverged_at']:,}" if r["diverged_at"] is not None else ""
        ax.set_title(f"001 Figure 18 redrawn: {name}, seed {r['seed']}{note}\n"
                     f"lines: end of each {cfg['every']:,}-game block, bands: least to greatest inside it, dots: 001 Table 2",
                     fontsize="small")  # fmt: skip
        ax.legend(ncol=7, fontsize="x-small")
        ax.grid(alpha=0.3)
        save_figure(fig, out_dir / f"figure18_{_file(name)}.png")


def _file(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name).strip("_").replace("__", "_")


# -- results.md -----------------------------------------------------------------------------------


def _pct(s: dict[str, float] | None) -> str:
    """A share's mean and interval in percent, the interval clipped to [0, 100]."""
    if s is None:
        return "—"
    low, high = max(0.0, s["low"]), min(1.0, s["high"])
    return f"{100 * s['mean']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _shares(entry: dict[str, Any], key: str) -> str:
    s = entry.get(key)
    if not s:
        return "—"
    return " / ".join(f"{100 * s[k]['mean']:.1f}%" for k in ("wins", "losses", "draws"))


def _num(s: dict[str, float] | None, digits: int = 2) -> str:
    if s is None:
        return "—"
    return f"{s['mean']:.{digits}f} [{s['low']:.{digits}f}, {s['high']:.{digits}f}]"


def _pv(p: float | None) -> str:
    return "—" if p is None else (f"{p:.2g}" if p < 0.001 else f"{p:.3f}")


def _diverged(entry: dict[str, Any]) -> str:
    d = entry["diverged"]
    if not d:
        return f"yes: finite in {entry['runs']}/{entry['runs']} runs"
    return f"overflowed in {len(d)}/{entry['runs']} runs, at games {min(d):,}-{max(d):,}"


def _first_move_norm(cfg: dict[str, Any], feature_set: str) -> float:
    """The least ``|X|^2`` over the positions after x's first move (LMS over raw counts needs
    ``eta |X|^2 < 2`` there).
    """
    from noughts.agents.linear import features
    from noughts.core import game as make_game

    game = make_game(cfg["game"])
    start = game.start()
    return min(
        float(np.dot(x, x)) for x in (features(start.play(m), feature_set) for m in start.legal_moves())
    )


def _reading(cfg: dict[str, Any], summary: dict[str, Any]) -> str:
    """How to read the headline, from this run's numbers."""
    st = summary["settings"]
    parts = ["How to read it."]
    paper = st.get("paper")
    if paper is not None:
        eta = float(paper["setting"].get("eta", 0.01))
        norm = _first_move_norm(cfg, paper["setting"].get("features", "lines"))
        if paper["diverged"]:
            parts.append(
                f"The paper-setting column is 001's procedure as written: LMS over raw counts needs eta·|X|² < 2, and "
                f"after x's first move |X|² ≥ {norm:g}, so at eta = {eta:g} (eta·|X|² ≥ {eta * norm:g}) the weights "
                f"overflowed in {len(paper['diverged'])} of {paper['runs']} runs, by game {max(paper['diverged']):,}: "
                "Tables 1-2 cannot come from it. Its grade is that of the last finite weights."
            )
        else:
            parts.append(
                "The paper-setting column is 001's procedure as written; its weights stayed finite here."
            )
    if "corrected" in st:
        parts.append("The corrected column is noughts' own finding: a stable LMS over every line.")
    ranked = summary["ranked"]
    if ranked:
        best = st[ranked[0]]
        self_play = [n for n in ranked if st[n]["setting"].get("opponent", "self") == "self"]
        text = f"Of the explored settings, {ranked[0]!r} comes closest to Table 1 (distance {best['distance']['mean']:.3f})"
        if self_play and self_play[0] != ranked[0]:
            text += f"; the closest in which x plays itself, as 001 says it does, is {self_play[0]!r} ({st[self_play[0]]['distance']['mean']:.3f})"
        parts.append(text + ".")
        if best["p_final_win"] is not None:
            verdict = "cannot be told apart from" if best["p_final_win"] > 0.05 else "differs from"
            parts.append(f"Its final x-win share {verdict} Table 1's 84.8% (p = {_pv(best['p_final_win'])}).")
    return " ".join(parts)


def _explored_rows(summary: Any, st: Any) -> list[str]:
    """The explored settings' rows, ranked by distance from Table 1 (then the paper and corrected ones)."""
    lines: list[str] = []
    for n in [*summary["ranked"], *[x for x in ("paper", "corrected") if x in st]]:
        e = st[n]
        lines.append(
            f"| {n} | {_num(e['distance'], 3)} | {_shares(e, 'final_shares') if e['final_shares'] else '— (diverged)'} "
            f"| {_num(e['final_ratio'])} | {_pv(e['p_final_win'])} | {_num(e.get('grade'), 3)} "
            f"| {_pct(e.get('perfect_loss_as_first'))} / {_pct(e.get('perfect_loss_as_second'))} |"
        )
    return lines


def _tables_1_2(results: Any, cfg: Any, cols: Any) -> list[str]:
    """Tables 1 and 2 for each column: 001's rows beside the mean over seeds."""
    lines: list[str] = []
    # Table 1 and 2 per column
    for n in cols:
        runs = [r for r in results if r["arm"] == n and r["group"] != "board4"]
        if not runs:
            continue
        lines += [
            "",
            f"## Table 1 and Table 2: {n} (mean over {len(runs)} seeds; 001's row first)",
            "",
            "| games | wins | losses | draws | Win/Draw | " + " | ".join(f"w{i}" for i in range(7)) + " |",
            "| ---: " * 5 + "| ---: " * 7 + "|",
        ]
        for (g, w, lo, d, ratio), t2 in zip(PUBLISHED_TABLE1, PUBLISHED_TABLE2, strict=True):
            rows = [c for r in runs for c in r["checkpoints"] if c["games"] == g]
            if g > cfg["games"]:
                break
            lines.append(
                f"| {g:,} (001) | {w:,} | {lo:,} | {d:,} | {ratio} | "
                + " | ".join(f"{v}" for v in t2[1:])
                + " |"
            )
            if not rows:
                lines.append(f"| {g:,} | diverged | | | | " + " | ".join("" for _ in range(7)) + " |")
                continue
            m = np.mean([[c["wins"], c["losses"], c["draws"]] for c in rows], axis=0)
            wm = np.mean([c["weights"] for c in rows], axis=0)
            ratio_here = f"{m[0] / m[2]:.2f}" if m[2] else "inf"
            lines.append(
                f"| {g:,} | {m[0]:,.0f} | {m[1]:,.0f} | {m[2]:,.0f} | {ratio_here} | "
                + " | ".join(f"{v:.4g}" for v in wm)
                + " |"
            )
    return lines


def _board4(results: Any, cfg: Any) -> list[str]:
    """The 4x4 section: 001's claim that the method generalises, graded on a sample."""
    lines: list[str] = []
    # 4x4
    b4 = [r for r in results if r["group"] == "board4"]
    if b4:
        lines += [
            "",
            f"## {cfg['board4']['game']}: 001's claim that the method generalises (graded on a sample)",
            "",
            "| arm | seed | games | overflowed at | optimal moves | positions | as x vs perfect (W/D/L) | as o vs perfect (W/D/L) | score vs random |",
            "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |",
        ]
        for r in b4:
            s = r.get("sampled")
            if s is None:
                lines.append(f"| {r['arm']} | {r['seed']} | {r['games']:,} | {r['diverged_at']} | | | | | |")
                continue
            lines.append(
                f"| {r['arm']} | {r['seed']} | {r['games']:,} | {r['diverged_at'] or '—'} | {grade_markdown(s['grade'])} "
                f"| {s['vs_random']['score']:.3f} |"
            )
        lines += ["", "Every game of 4x4 with four in a row is a draw under perfect play: a grade or a result against "
                  "the perfect player separates agents; a draw against perfect play does not make an agent perfect."]  # fmt: skip
    return lines


def _checks_and_figures() -> list[str]:
    """001's Table 1 checked row by row, then the figures and files."""
    lines: list[str] = []
    lines += ["", "## 001's Table 1, checked", ""]
    lines += [
        "| games | wins | losses | draws | Win/Draw printed | computed | rows add up | x wins in the interval | x loses | draws |"
    ]
    lines += ["| ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |"]
    for c in published_checks():
        lines.append(
            f"| {c['games']:,} | {c['wins']:,} | {c['losses']:,} | {c['draws']:,} | {c['win_draw_printed']} "
            f"| {c['win_draw_computed']} | {c['sum_is_games']} | {c['interval_win_rate']:.3f} "
            f"| {c['interval_loss_rate']:.3f} | {c['interval_draw_rate']:.3f} |"
        )
    lines += [
        "",
        "From 700,000 games on x wins 86.1-86.5% of every interval: Figure 17's rising ratio is a cumulative "
        "average creeping towards a constant (about 86.4 / 6.7 = 12.9), not an agent still improving.",
        "",
        "## Figures",
        "",
        "- `figure17.png`: 001 Figure 17 as 001 draws it, the cumulative Win/Draw ratio against games, every setting "
        "(mean and 95% band over seeds), 001's Table 1 ratios as red dots.",
        "- `figure17_intervals.png`: the shares of x's wins, losses and draws inside each block, with 001's between-row "
        "shares: what the cumulative ratio hides.",
        "- `figure18_*.png`: 001 Figure 18 for each setting (first seed): each weight at the end of every block and "
        "its least and greatest value inside the block (no aliasing of w0's swings), 001's Table 2 as dots.",
        "",
        "Configuration: `config.json`; every checkpoint: `table1.csv`, `table2.csv`; every block: `trace.csv`; the "
        "grades: `grades.csv`.",
    ]
    return lines


def _write_markdown(
    results: list[dict[str, Any]], cfg: dict[str, Any], summary: dict[str, Any], out_dir: Path, wall: float
) -> None:
    st = summary["settings"]
    closest = summary["closest"]
    cols = [n for n in ("paper", "corrected") if n in st] + ([closest] if closest else [])
    heads = [f"{n} setting" if n in ("paper", "corrected") else f"closest explored: {n}" for n in cols]
    n_seeds = len(cfg["seeds"])
    lines = [
        f"# {NAME}: 001 on {cfg['game']}, reproduced, corrected and explored",
        "",
        f"{len(results)} runs in {wall:,.1f} s; {n_seeds} seeds per setting ({', '.join(map(str, cfg['seeds']))}); "
        f"{cfg['games']:,} games per run, traced every {cfg['every']:,} games. Intervals: 95% t-intervals of the "
        "mean over seeds. 001 ran one seed and reports no spread or test; the p-value is a one-sample t-test "
        "(SciPy) of the seeds' final x-win share against Table 1's 84.8%.",
        "",
        "Arms:",
        "",
    ]
    for a in ("paper", "corrected"):
        if a in st:
            lines.append(f"- **{a}**: {ARM_NOTE.get(a, st[a]['setting'])}.")
    lines += [
        "- **explored** (ranked by distance from Table 1; see below): "
        + "; ".join(f"{n}" for n in summary["ranked"])
        + ".",
        "",
        "## Headline: 001's figures beside the paper setting, the corrected one and the closest explored one",
        "",
        "| claim | 001 | " + " | ".join(heads) + " |",
        "| --- | --- | " + " | ".join("---" for _ in cols) + " |",
        "| weights stay finite (Table 2 is bounded) | yes | "
        + " | ".join(_diverged(st[n]) for n in cols)
        + " |",
        "| Table 1 after 1,000 games: x wins / x loses / draws | 76.1% / 8.2% / 15.7% | "
        + " | ".join(_shares(st[n], "shares_1000") for n in cols)
        + " |",
        f"| Table 1 after {cfg['games']:,} games: x wins / x loses / draws | 84.8% / 7.2% / 8.0% (at 1,500,000) | "
        + " | ".join(
            _shares(st[n], "final_shares") if st[n]["final_shares"] else "— (diverged)" for n in cols
        )
        + " |",
        "| x-win share at the end (mean [95% CI]); t-test p against 84.8% | 84.8% | "
        + " | ".join(
            f"{_pct(st[n]['final_shares']['wins'])}; p = {_pv(st[n]['p_final_win'])}"
            if st[n]["final_shares"]
            else "—"
            for n in cols
        )
        + " |",
        "| Win/Draw ratio at the end | 10.57 | "
        + " | ".join(_num(st[n]["final_ratio"]) for n in cols)
        + " |",
        "| distance from Table 1 (mean summed share difference over its rows) | 0 | "
        + " | ".join(_num(st[n]["distance"], 3) for n in cols)
        + " |",
        "| final weights w0, w5, w6 (Table 2: 93.4, 18.9, -198.6) | see Table 2 | "
        + " | ".join(
            ", ".join(f"{st[n]['final_weights'][i]['mean']:.1f}" for i in (0, 5, 6))
            if st[n]["final_weights"]
            else "—"
            for n in cols
        )
        + " |",
        "| oracle grade: share of the reachable positions where the move is optimal (exact, ties weighted) | — | "
        + " | ".join(_num(st[n].get("grade"), 3) for n in cols)
        + " |",
        '| chance of losing to perfect play as x / as o (exact) | "never-loss" hoped for | '
        + " | ".join(
            f"{_pct(st[n].get('perfect_loss_as_first'))} / {_pct(st[n].get('perfect_loss_as_second'))}"
            if st[n].get("grade")
            else "—"
            for n in cols
        )
        + " |",
        "| chance of beating a random player as x / as o (exact) | — | "
        + " | ".join(
            f"{_pct(st[n].get('random_win_as_first'))} / {_pct(st[n].get('random_win_as_second'))}"
            if st[n].get("grade")
            else "—"
            for n in cols
        )
        + " |",
        "",
        _reading(cfg, summary),
        "",
        "## Explored settings, ranked by distance from Table 1",
        "",
        "| setting | distance | x wins / x loses / draws at the end | Win/Draw | p vs 84.8% | grade | lose as x / as o vs perfect |",
        "| --- | ---: | --- | ---: | ---: | ---: | --- |",
    ]
    lines += _explored_rows(summary, st)
    lines += _tables_1_2(results, cfg, cols)
    lines += _board4(results, cfg)
    lines += _checks_and_figures()
    (out_dir / "results.md").write_text("\n".join(lines) + "\n")
