"""Experiment arena: 003 §9.2 re-run (quick) and graded."""

import csv
import json

import pytest

from noughts.core import NoughtsError
from noughts.learn.experiments import arena

TINY = {
    "boards": [
        {"game": "mnk(3,3,3)", "episodes": 200, "depth": 9, "grade_sample": 30},
        {"game": "mnk(4,4,3)", "episodes": 200, "depth": 1, "grade_sample": 10},
    ],
    "games": 10,
    "hybrid_games": 4,
    "grade_games": 1,
    "window": 50,
}


def test_quick_run_writes_results_and_grades(tmp_path):
    out = arena.run(TINY, tmp_path / "arena", quick=True)
    names = {p.name for p in out.iterdir()}
    assert {"config.json", "results.csv", "grades.csv", "training.csv", "results.md", "runs.json"} <= names
    assert "training_mnk_3_3_3.png" in names
    runs = {r["game"]: r for r in json.loads((out / "runs.json").read_text())}
    assert runs["mnk(3,3,3)"]["value"] == {"outcome": "draw", "plies": 9}
    assert runs["mnk(4,4,3)"]["value"]["outcome"] == "first"  # 4x4 with three in a row: x wins
    # the hybrid searches 3x3 to the end (depth 9): it never plays a losing move
    hybrid = runs["mnk(3,3,3)"]["grades"]["hybrid"]
    assert hybrid["optimal_move_rate"] == 1.0
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert {r["player"] for r in rows} == {"learned", "hybrid", "hybrid, empty table"}
    assert {r["opponent"] for r in rows} == {"random", "heuristic"}
    for r in rows:
        assert int(r["wins"]) + int(r["draws"]) + int(r["losses"]) == int(r["games"])
        assert float(r["win_ci_low"]) <= float(r["win_rate"]) <= float(r["win_ci_high"])
    windows = [r for r in csv.DictReader((out / "training.csv").open()) if r["game"] == "mnk(3,3,3)"]
    assert [int(r["episodes"]) for r in windows] == [50, 100, 150, 200]


def test_unknown_settings_are_refused(tmp_path):
    with pytest.raises(NoughtsError, match="unknown"):
        arena.run({"boardz": []}, tmp_path, quick=True)
