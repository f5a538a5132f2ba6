"""AlphaZero and DQN runs: they learn (graded by the exact solver), save, resume and stop."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("mctx")

import noughts
from noughts.agents import make_agent
from noughts.arena.grade import grade
from noughts.core import NoughtsError
from noughts.neural.run import companion, read_settings, train


def test_a_tiny_alphazero_run_beats_the_random_agent_on_the_exact_grade(tiny_run) -> None:
    out, result = tiny_run
    assert result.iterations == 8 and result.games == 256 and result.stopped == "games"
    first, last = result.grades[0], result.grades[-1]
    assert [r.iteration for r in result.grades] == [4, 8]
    # the random agent's rate, by the same grade on the same positions (all 4,520)
    random_rate = grade("random", "tictactoe", games=0, seed=0).optimal_move_rate
    assert last.random_rate == pytest.approx(random_rate)
    assert last.positions == 4520
    assert result.best is not None and result.best.optimal_move_rate >= last.optimal_move_rate
    assert result.best.optimal_move_rate > random_rate + 0.15, (first, last, random_rate)
    # the saved best checkpoint plays as graded: grade it again through its agent spec
    again = grade(make_agent(f"az:{out},sims=0"), "tictactoe", games=0, seed=0)
    assert again.optimal_move_rate == pytest.approx(result.best.optimal_move_rate)


def test_the_run_writes_its_curve_and_checkpoints(tiny_run) -> None:
    out, result = tiny_run
    rows = list(csv.DictReader(companion(out, ".csv").open()))
    assert [int(r["games"]) for r in rows] == [g.games for g in result.grades]
    assert float(rows[-1]["optimal_move_rate"]) == pytest.approx(
        result.grades[-1].optimal_move_rate, abs=1e-6
    )
    assert companion(out, ".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    meta = json.loads(companion(out, ".last.json").read_text())
    assert meta["kind"] == "az" and meta["neural"]["games"] == 256
    assert meta["neural"]["settings"]["sims"] == 8
    best = json.loads(out.read_text())
    assert best["neural"]["grade"]["optimal_move_rate"] == pytest.approx(result.best.optimal_move_rate)


def test_resume_continues_the_run(tiny_out) -> None:
    game = noughts.game("tictactoe")
    result = train("az", game, tiny_out, resume=True, max_games=10 * 32)
    assert result.games == 320 and result.iterations == 10
    assert [r.games for r in result.grades] == [128, 256, 320]  # the saved grades, then this run's
    with pytest.raises(NoughtsError, match="has played 320 games"):
        train("az", game, tiny_out, resume=True, max_games=320)
    with pytest.raises(NoughtsError, match="give no --set"):
        train("az", game, tiny_out, resume=True, options={"sims": "4"}, max_games=400)
    with pytest.raises(NoughtsError, match="trained on mnk\\(3,3,3\\), not misere"):
        train("az", noughts.game("misere(tictactoe)"), tiny_out, resume=True, max_games=400)
    with pytest.raises(NoughtsError, match="of kind az, not dqn"):
        train("dqn", game, tiny_out, resume=True, max_games=400)


def test_the_time_budget_stops_the_run_and_it_still_saves_a_graded_checkpoint(tmp_path, tiny_options) -> None:
    out = tmp_path / "az.json"
    result = train("az", noughts.game("tictactoe"), out, options=tiny_options, max_seconds=1e-9)
    assert result.stopped == "time" and result.iterations == 0 and len(result.grades) == 1
    assert out.is_file() and companion(out, ".last.json").is_file()


def test_dqn_learns_legal_moves_and_saves(tmp_path) -> None:
    out = tmp_path / "dqn.json"
    options = {"width": "8", "blocks": "1", "games": "32", "updates": "8", "batch": "64", "grade_every": "2",
               "grade_games": "2", "decay": "64"}  # fmt: skip
    result = train("dqn", noughts.game("tictactoe"), out, options=options, seed=1, max_games=64)
    assert result.games == 64 and len(result.grades) == 1
    agent = make_agent(f"dqn:{out}")
    rng = np.random.default_rng(0)
    p = noughts.game("tictactoe").start()
    while not p.is_terminal():
        m = agent.choose(p, rng)
        assert m in p.legal_moves()
        p = p.play(m)


def test_settings_are_read_and_checked() -> None:
    settings, config = read_settings("az", {"sims": "4", "width": "8", "lr": "0.01"})
    assert (settings.width, config.sims, config.lr) == (8, 4, 0.01)
    with pytest.raises(NoughtsError, match="unknown az setting 'simz'"):
        read_settings("az", {"simz": "4"})
    with pytest.raises(NoughtsError, match="sims is a whole number"):
        read_settings("az", {"sims": "many"})
    with pytest.raises(NoughtsError, match="sims is at least 2"):
        read_settings("az", {"sims": "1"})
    with pytest.raises(NoughtsError, match="unknown dqn setting 'sims'"):
        read_settings("dqn", {"sims": "4"})


def _invoke(*args: str):
    from typer.testing import CliRunner

    from noughts.cli.app import app

    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})


def test_the_train_command(tmp_path, tiny_options) -> None:
    out = tmp_path / "c.json"
    sets = [x for k, v in tiny_options.items() for x in ("--set", f"{k}={v}")]
    db = str(tmp_path / "store.db")
    r = _invoke("train", "az", "tictactoe", "--out", str(out), *sets, "--max-episodes", "32", "--json",
                "--db", db, "--name", "tiny")  # fmt: skip
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["games"] == 32 and doc["stopped"] == "games" and len(doc["grades"]) == 1
    assert doc["files"]["best"] == str(out) and out.is_file()
    # recorded in the store: its best checkpoint plays as saved:NAME
    r = _invoke("match", "saved:tiny", "random", "tictactoe", "--games", "2", "--db", db, "--json")
    assert r.exit_code == 0 and json.loads(r.output)["games"] == 2, r.output
    r = _invoke(
        "train", "az", "tictactoe", "--out", str(out), "--resume", "--max-episodes", "64", "--no-record"
    )
    assert r.exit_code == 0, r.output
    assert "64 games" in r.output and "optimal-move rate" in r.output
    for bad, says in (
        (["--epsilon", "0.1"], "takes no --epsilon"),
        (["--set", "simz=3"], "unknown az setting 'simz'"),
        (["--set", "sims=x"], "sims is a whole number"),
    ):
        r = _invoke("train", "az", "tictactoe", "--out", str(tmp_path / "d.json"), *bad)
        assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output, r.output
    r = _invoke("train", "dqn", "cumulative(tictactoe)", "--out", str(tmp_path / "d.json"))
    assert r.exit_code == 2 and "claim games" in r.output
    assert not (tmp_path / "d.json").exists()
