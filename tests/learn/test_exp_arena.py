"""Experiment arena: 003 §9.1-9.3 and §6.1 re-run (tiny) in both arms, and graded."""

import csv
import json

import pytest

from noughts.core import NoughtsError
from noughts.learn.experiments import arena

TINY = {
    "s91": {"game": "mnk(3,3,3)", "episodes": 200, "runs": 3, "window": 50},
    "s92": {
        "boards": [{"game": "mnk(3,3,3)", "episodes": 200}, {"game": "mnk(4,4,3)", "episodes": 100}],
        "seeds": 3,
        "games": 4,
        "grade_sample": 15,
        "grade_games": 1,
    },
    "s93": {"game": "mnk(4,4,3)", "episodes": 100, "runs": 3, "battle_games": 4, "window": 50},
    "window": 50,
}


def test_quick_run_writes_every_section_in_both_arms(tmp_path):
    out = arena.run(TINY, tmp_path / "arena", quick=True)
    names = {p.name for p in out.iterdir()}
    assert {
        "config.json",
        "runs.json",
        "results.md",
        "s91.csv",
        "s92.csv",
        "s93.csv",
        "s61.csv",
        "training.csv",
    } <= names
    assert {"s92_per_side.png", "s93_iron_wall.png", "training_s91_mnk_3_3_3.png"} <= names
    runs = json.loads((out / "runs.json").read_text())
    assert {(r["section"], r["arm"]) for r in runs} == {
        (s, a) for s in ("9.1", "9.2", "9.3") for a in ("paper", "corrected")
    }
    for r in runs:
        if r["section"] in ("9.1", "9.2"):
            # 003 counts (position, move) entries; every one training updated counts, zero or not
            assert r["visited_pairs"] >= r["positions"] and r["visited_pairs"] >= r["nonzero_values"]
    small = [r for r in runs if r["section"] == "9.2" and r["game"] == "mnk(3,3,3)"]
    for r in small:
        hybrid = r["evaluations"]["hybrid"]
        assert hybrid["exact"] is True
        assert hybrid["grade"] == 1.0  # the 3x3 hybrid searches to the end
        for opp in ("random", "heuristic", "perfect"):
            for side in ("as_first", "as_second"):
                assert abs(sum(hybrid[opp][side][k] for k in ("win", "draw", "loss")) - 1) < 1e-9
        assert hybrid["perfect"]["as_first"]["loss"] == hybrid["perfect"]["as_second"]["loss"] == 0
        # nobody alternating sides against random beats the exact bound
        assert hybrid["random"]["alternated_win"] <= 0.9668
    rows = list(csv.DictReader((out / "s93.csv").read_text().splitlines()))
    assert {r["condition"] for r in rows} == set(arena.CONDITIONS)
    md = (out / "results.md").read_text()
    head = md.split("## Headline")[1].split("\n## ")[0]
    assert "| claim | 003 | paper setting (noughts) | corrected setting (noughts) |" in head
    assert "98.2%" in head and "F(2,12) = 47.3" in head and "as first / as second / alternated" in head
    assert "96.7% with sides alternated" in md
    config = json.loads((out / "config.json").read_text())
    assert config["experiment"] == "arena" and config["quick"] is True


def test_anova_and_stability_helpers():
    same = arena._anova({"a": [0.5, 0.5], "b": [0.5, 0.5], "c": [0.5, 0.5]})
    assert same["F"] is None and "same value" in same["note"]
    apart = arena._anova({"a": [0.7, 0.72, 0.74], "b": [0.6, 0.62, 0.61], "c": [0.5, 0.52, 0.51]})
    assert apart["df"] == [2, 6] and apart["p"] < 0.001 and len(apart["tukey"]) == 3
    # the rolling first-player win rate settles after the first 100 episodes
    outcomes = [2] * 100 + [0, 1] * 200
    assert 100 <= arena._stability(outcomes, 50, tol=0.05) <= 160


def test_unknown_settings_are_refused(tmp_path):
    with pytest.raises(NoughtsError, match="unknown"):
        arena.run({"boardz": []}, tmp_path, quick=True)
    with pytest.raises(NoughtsError, match="arms"):
        arena.run({"arms": {"mine": {}}}, tmp_path, quick=True)
