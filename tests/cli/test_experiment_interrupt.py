"""Issue 29: long work is visible and stoppable, nothing lost. Every ``noughts experiment`` saves
each run as it finishes; Ctrl-C (``signal.raise_signal``, at the start of the third run) stops it,
keeps the two finished runs and says how to go on; the same command then runs only the others and
writes the whole report, as a run in one go does.
"""

from __future__ import annotations

import csv
import functools
import json
import re
import signal
from pathlib import Path
from typing import Any

import pytest
from cli_cases import invoke

from noughts.learn.experiments import arena, cumulative_td, linear_lms

# the smallest settings of each kind (a few seconds each); the job function that each runs per run
KINDS: dict[str, tuple[Any, str, list[str]]] = {
    "linear-lms": (
        linear_lms,
        "_one_run",
        [
            "games=600",
            "every=100",
            "seeds=[1,2]",
            "random_games=2",
            'board4={"game": "mnk(4,4,4)", "games": 20, "every": 10, "grade_sample": 5,'
            ' "grade_games": 1, "arms": ["corrected"]}',
        ],
    ),
    "arena": (
        arena,
        "_run_job",
        [
            's91={"game": "mnk(3,3,3)", "episodes": 100, "runs": 2, "window": 50}',
            's92={"boards": [{"game": "mnk(3,3,3)", "episodes": 100}], "seeds": 2, "games": 2,'
            ' "grade_sample": 10, "grade_games": 1}',
            's93={"game": "mnk(3,3,3)", "episodes": 100, "runs": 1, "battle_games": 2, "window": 50}',
            "window=50",
        ],
    ),
    "cumulative-td": (
        cumulative_td,
        "run_one",
        ['stage1={"epsilons": [0.1], "seeds": [121, 122]}', 'stage2={"seeds": [126, 127], "extra_seeds": 0}'],
    ),
}


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, stop_at: int | None) -> list[int]:
    """Replace the module's job function by one that counts its calls and, at call ``stop_at``,
    sends this process a Ctrl-C before the job starts (same name, so the saved runs' keys hold).
    """
    original = getattr(module, name)
    calls: list[int] = []

    @functools.wraps(original)
    def job(spec: dict[str, Any]) -> dict[str, Any]:
        calls.append(1)
        if len(calls) == stop_at:
            signal.raise_signal(signal.SIGINT)
        return original(spec)  # type: ignore[no-any-return]

    monkeypatch.setattr(module, name, job)
    return calls


def _command(kind: str, out: Path) -> list[str]:
    settings = [a for s in KINDS[kind][2] for a in ("--set", s)]
    return ["experiment", kind, "--quick", "--out", str(out), "--workers", "1", "--no-record", *settings]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_ctrl_c_keeps_the_finished_runs_and_the_same_command_goes_on(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module, name, _ = KINDS[kind]
    out = tmp_path / kind
    calls = _counting(monkeypatch, module, name, stop_at=3)
    r = invoke(*_command(kind, out))
    assert r.exit_code == 130, r.output
    assert "Traceback" not in r.output
    start = re.search(
        rf"^noughts: {kind}: (\d+) runs into {re.escape(str(out))}; each is saved as it finishes",
        r.stderr,
        re.M,
    )
    assert start is not None, r.stderr  # said before the work
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith(
        f"noughts: stopped by Ctrl-C; 2 finished runs saved in {out / 'finished'}; go on with: "
    )
    again = last.split("go on with: ", 1)[1]
    assert again.startswith(f"noughts experiment {kind} --quick --out {out} --set ")
    saved = {p.name: json.loads(p.read_text()) for p in (out / "finished").glob("*.json")}
    assert len(saved) == 2 and len(calls) == 3  # the third run was stopped before it started

    monkeypatch.undo()
    calls = _counting(monkeypatch, module, name, stop_at=None)
    r = invoke(*_command(kind, out))
    assert r.exit_code == 0, r.output
    total = len(calls) + 2
    assert total == int(start[1])
    assert f"2 of {total} runs were finished by an earlier start" in r.stderr
    assert not (out / "finished").exists()  # the report holds them now
    assert (out / "results.md").is_file()
    if (out / "runs.json").is_file():  # the two saved runs are in the report as they were saved
        runs = json.loads((out / "runs.json").read_text())
        for run in saved.values():
            assert {k: v for k, v in run.items() if k != "trace"} in runs


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open() as f:
        return [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(f)]


def test_a_resumed_experiment_reports_what_a_run_in_one_go_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module, name, _ = KINDS["cumulative-td"]
    whole = tmp_path / "whole"
    assert invoke(*_command("cumulative-td", whole)).exit_code == 0
    parts = tmp_path / "parts"
    _counting(monkeypatch, module, name, stop_at=2)
    assert invoke(*_command("cumulative-td", parts)).exit_code == 130
    monkeypatch.undo()
    assert invoke(*_command("cumulative-td", parts)).exit_code == 0
    assert _rows(parts / "runs.csv") == _rows(whole / "runs.csv")
    assert len(_rows(whole / "runs.csv")) == 8  # 2 in stage 1, 3 initialisations x 2 seeds in stage 2


def test_a_run_cut_short_in_its_file_is_run_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module, name, _ = KINDS["cumulative-td"]
    out = tmp_path / "ctd"
    _counting(monkeypatch, module, name, stop_at=3)
    assert invoke(*_command("cumulative-td", out)).exit_code == 130
    first = sorted((out / "finished").glob("*.json"))[0]
    first.write_text(first.read_text()[:20])  # a file cut short (a full disk)
    monkeypatch.undo()
    calls = _counting(monkeypatch, module, name, stop_at=None)
    r = invoke(*_command("cumulative-td", out))
    assert r.exit_code == 0, r.output
    assert "1 of 8 runs were finished by an earlier start" in r.stderr and len(calls) == 7


def _without_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    find = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else find(name, *a)
    )


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_without_the_plots_extra_an_experiment_is_refused_before_any_work(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module, name, _ = KINDS[kind]
    calls = _counting(monkeypatch, module, name, stop_at=None)
    _without_matplotlib(monkeypatch)
    r = invoke(*_command(kind, tmp_path / kind))
    assert r.exit_code == 2, r.output
    assert r.stderr.strip().splitlines() == [  # one line, nothing before it
        f"noughts: error: the experiment {kind} draws its figures with matplotlib, which this install lacks:"
        " pip install -e '.[plots]' in the clone (make test installs it too), or pip install 'noughts[plots]'"
    ]
    assert calls == [] and not (tmp_path / kind / "config.json").exists()


def test_without_the_plots_extra_potential_plot_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _without_matplotlib(monkeypatch)
    r = invoke("potential", "simulate", "tictactoe", "--plot", str(tmp_path / "d.png"))
    assert r.exit_code == 2 and "potential simulate --plot draws its figures with matplotlib" in r.stderr
    assert invoke("potential", "simulate", "tictactoe").exit_code == 0  # without --plot it needs none
