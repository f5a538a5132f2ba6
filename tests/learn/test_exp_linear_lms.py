"""Experiment linear-lms: 001 Tables 1-2 re-run (quick) in its arms, its outputs, 001's table checked."""

import csv
import json

import pytest

from noughts.core import NoughtsError
from noughts.learn.experiments import linear_lms

TINY = {
    "games": 2_000,
    "every": 100,
    "seeds": [1, 2, 3, 4, 5],
    "board4": {
        "game": "mnk(4,4,4)",
        "games": 40,
        "every": 20,
        "grade_sample": 10,
        "grade_games": 1,
        "arms": ["corrected"],
    },
    "random_games": 4,
}


def test_published_table_adds_up_but_its_ratio_is_a_cumulative_average():
    rows = linear_lms.published_checks()
    assert all(r["sum_is_games"] for r in rows)
    assert all(r["win_draw_computed"] == r["win_draw_printed"] for r in rows)
    # from 700,000 games on, x wins the same share of every 100,000-game interval (86.1-86.5%):
    # the rising Win/Draw column is a running average approaching a constant, not learning
    late = [r["interval_win_rate"] for r in rows if r["games"] >= 700_000]
    assert max(late) - min(late) < 0.005
    assert 0.86 < sum(late) / len(late) < 0.87
    assert rows[-1]["win_draw_printed"] < 0.865 / 0.067  # the interval ratio it creeps towards


def test_distance_to_table1():
    exact = {n: (w, lo, d) for n, w, lo, d, _ in linear_lms.PUBLISHED_TABLE1}
    assert linear_lms.distance_to_table1(exact) == 0
    all_draws = {n: (0, 0, n) for n in exact}
    assert linear_lms.distance_to_table1(all_draws) == pytest.approx(
        sum((w + lo + (n - d)) / n for n, w, lo, d, _ in linear_lms.PUBLISHED_TABLE1) / 17
    )
    assert linear_lms.distance_to_table1({}) is None


def test_quick_run_writes_tables_figures_and_grades(tmp_path):
    out = linear_lms.run(TINY, tmp_path / "lms", quick=True)
    names = {p.name for p in out.iterdir()}
    assert {
        "config.json",
        "table1.csv",
        "table2.csv",
        "trace.csv",
        "published_table1.csv",
        "grades.csv",
        "results.md",
        "figure17.png",
        "figure17_intervals.png",
        "figure18_paper.png",
        "figure18_corrected.png",
    } <= names
    runs = json.loads((out / "runs.json").read_text())
    paper = [r for r in runs if r["arm"] == "paper"]
    corrected = [r for r in runs if r["arm"] == "corrected" and r["group"] == "arm"]
    assert len(paper) == len(corrected) == 5
    # 001's own setting (rows and columns, eta = 0.4) overflows; noughts' corrected one does not
    assert all(r["diverged_at"] is not None for r in paper)
    assert all(r["setting"] == {"features": "rowcol", "eta": 0.4} for r in paper)
    for r in corrected:
        assert r["diverged_at"] is None and r["games"] == 2_000
        e = r["exact"]
        assert 0 < e["grade"] <= 1
        for side in ("as_first", "as_second"):
            assert abs(sum(e["vs_perfect"][side].values()) - 1) < 1e-9
            assert e["vs_perfect"][side]["win"] == 0  # nothing beats perfect play
    rows = list(csv.DictReader((out / "table1.csv").read_text().splitlines()))
    mine = [r for r in rows if r["arm"] == "corrected" and r["seed"] == "1" and r["group"] == "arm"]
    assert [int(r["games"]) for r in mine] == [1000]
    trace = [
        r
        for r in csv.DictReader((out / "trace.csv").read_text().splitlines())
        if r["arm"] == "corrected" and r["seed"] == "1"
    ]
    trace = [r for r in trace if r["group"] == "arm"]
    assert [int(r["games"]) for r in trace] == list(range(100, 2_001, 100))
    assert all(float(r["w0_low"]) <= float(r["w0"]) <= float(r["w0_high"]) for r in trace)
    md = (out / "results.md").read_text()
    head = md.split("## Headline")[1].split("##")[0]
    assert "| claim | 001 | paper setting | corrected setting | closest explored:" in head
    assert "76.1% / 8.2% / 15.7%" in head and "overflowed in 5/5 runs" in head
    config = json.loads((out / "config.json").read_text())
    assert config["experiment"] == "linear-lms" and config["quick"] is True


def test_unknown_settings_are_refused(tmp_path):
    with pytest.raises(NoughtsError, match="unknown"):
        linear_lms.run({"speed": 3}, tmp_path, quick=True)
    with pytest.raises(NoughtsError, match="unknown key"):
        linear_lms.run({"explore": {"x": {"gamma": 1}}}, tmp_path, quick=True)
