import csv
import json

import pytest

from noughts.core import NoughtsError
from noughts.learn.experiments import experiment, experiment_names
from noughts.learn.experiments.cumulative_td import PUBLISHED, _published, group_tests


def test_registry_lists_the_experiments():
    assert {"cumulative-td", "linear-lms", "arena"} <= set(experiment_names())
    assert experiment("cumulative-td").NAME == "cumulative-td"
    with pytest.raises(NoughtsError, match="unknown experiment"):
        experiment("astrology")


def test_the_papers_statistics_follow_from_its_raw_tables():
    pub = _published()
    t4 = pub["table4_from_a2"]
    assert round(t4["random"][0]) == 190087 and round(t4["random"][1]) == 24216
    assert round(t4["tcd"][0]) == 146262 and round(t4["tcd"][1]) == 32020
    assert round(t4["reduction"], 3) == PUBLISHED["table_4"]["reduction"]
    tests = pub["tests_from_a2"]
    for key, printed in (
        ("shapiro_baseline", 0.9382),
        ("shapiro_other", 0.6096),
        ("levene", 0.7088),
        ("t_one_sided", 0.0203),
    ):
        assert round(tests[key], 4) == printed
    table3 = {(r["epsilon"], r["alpha"]): (round(r["mean"]), round(r["sd"])) for r in pub["table3_from_a1"]}
    assert table3[(0.05, 0.5)] == (177848, 19414) and table3[(0.3, 0.05)] == (719999, 98152)


def test_group_tests_direction():
    slow, fast = [10.0, 11.0, 12.0, 13.0], [1.0, 2.0, 3.0, 2.5]
    assert group_tests(slow, fast)["t_one_sided"] < 0.01
    assert group_tests(fast, slow)["t_one_sided"] > 0.99
    assert group_tests([1.0, 2.0], [3.0, 4.0])["shapiro_baseline"] is None


def test_quick_run_writes_its_folder(tmp_path):
    out = experiment("cumulative-td").run(
        {"stage1": {"epsilons": [0.1], "seeds": [121, 122, 123]}, "stage2": {"seeds": [126, 127, 128]}},
        tmp_path / "ctd",
        quick=True,
    )
    names = {p.name for p in out.iterdir()}
    assert {
        "config.json",
        "runs.csv",
        "curves.csv",
        "results.md",
        "summary.json",
        "learning_curves.png",
        "window_variance.png",
        "stage2_episodes.png",
        "stage1_grid.png",
        "null_vs_learning.png",
    } <= names
    rows = list(csv.DictReader((out / "runs.csv").read_text().splitlines()))
    assert len(rows) == 3 + 3 * 3  # stage 1, then random / tcd-paper / tcd on three seeds
    stage2 = [r for r in rows if r["stage"] == "2"]
    assert {r["init"] for r in stage2} == {"random", "tcd-paper", "tcd"}
    for r in stage2:
        h2h = float(r["h2h_first"]) + float(r["h2h_draw"]) + float(r["h2h_second"])
        assert abs(h2h - 1) < 1e-9
        for side in ("first", "second"):
            total = sum(float(r[f"vs_perfect_{side}_{k}"]) for k in ("win", "draw", "loss"))
            assert abs(total - 1) < 1e-9
            assert float(r[f"vs_perfect_{side}_win"]) == 0  # nothing beats perfect play
    assert all(0 < float(r["grade"]) <= 1 for r in rows)
    assert all(r["null_episodes"] for r in rows)  # the null baseline "converges" too
    curves = list(csv.DictReader((out / "curves.csv").read_text().splitlines()))
    first = [c for c in curves if c["init"] == "tcd" and c["seed"] == "126"]
    assert [int(c["episodes"]) for c in first][:3] == [0, 2000, 4000]
    assert int(first[-1]["episodes"]) == 40_000  # the curve runs on past convergence
    summary = json.loads((out / "summary.json").read_text())
    assert summary["table1"]["play_lengths"] == [9]
    assert summary["table1"]["score_pairs"] == [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]]
    cfg = json.loads((out / "config.json").read_text())
    assert cfg["quick"] is True and cfg["window"] == 2000
    md = (out / "results.md").read_text()
    head = md.split("## Headline")[1].split("##")[0]
    assert "| claim | 000 (as printed) | paper setting (noughts) | corrected setting (noughts) |" in head
    assert "146,262 ± 32,020" in head and "0.0203" in head and "cannot separate" in head
    with pytest.raises(NoughtsError, match="unknown setting"):
        experiment("cumulative-td").run({"bogus": 1}, tmp_path / "x", quick=True)
    with pytest.raises(NoughtsError, match="unknown initialisation"):
        experiment("cumulative-td").run({"arms": {"paper": ["tcd-papr"]}}, tmp_path / "y", quick=True)
