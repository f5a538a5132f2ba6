import json

import pytest
from typer.testing import CliRunner

from noughts.cli.app import app
from noughts.store import Store

ENV = {"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}


def run(*args, tmp_path=None):
    env = dict(ENV)
    if tmp_path is not None:
        env["XDG_DATA_HOME"] = str(tmp_path / "data")
    return CliRunner().invoke(app, list(args), env=env)


def test_grade_json():
    r = run("grade", "perfect", "tictactoe", "--json", "--games", "2")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["optimal_move_rate"] == 1.0 and doc["positions"] == 4520
    assert doc["as_first"]["losses"] == 0 and doc["as_second"]["games"] == 2
    assert doc["agent"] == "perfect"


def test_grade_text():
    r = run("grade", "random", "tictactoe", "--games", "2", "--blunders", "1")
    assert r.exit_code == 0, r.output
    assert "optimal move in" in r.stdout and "against the perfect player" in r.stdout


def test_match_json_and_store(tmp_path):
    db = tmp_path / "m.db"
    same_match = ("match", "random", "minimax:depth=2", "tictactoe", "--games", "6", "--seed", "1", "--json")
    r = run(*same_match, "--db", str(db))
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["games"] == 6 and doc["seed"] == 1 and doc["a_wins"] + doc["draws"] + doc["b_wins"] == 6
    with Store(db) as s:
        assert s.match(doc["match_id"]).games == 6
    again = json.loads(run(*same_match, "--no-record").stdout)
    assert again["match_id"] is None and again["a_as_first"] == doc["a_as_first"]


def test_match_text_default_store(tmp_path):
    r = run("match", "random", "random", "tictactoe", "--games", "4", tmp_path=tmp_path)
    assert r.exit_code == 0, r.output
    assert "A's score" in r.stdout
    assert (tmp_path / "data" / "noughts" / "noughts.db").exists()


def test_tournament_and_ratings(tmp_path):
    db = tmp_path / "t.db"
    agents = ["perfect", "random", "minimax:depth=1"]
    r = run("tournament", "tictactoe", *agents, "--games", "2", "--json", "--db", str(db))
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert len(doc["matches"]) == 3 and {s["agent"] for s in doc["standings"]} == set(agents)
    r = run("ratings", "--db", str(db), "--json")
    assert r.exit_code == 0, r.output
    assert {row["agent"] for row in json.loads(r.stdout)["ratings"]} == set(agents)
    assert run("tournament", "tictactoe", "perfect", "random", "--games", "2", "--db", str(db)).exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ("grade", "nosuch", "tictactoe"),
        ("grade", "random"),
        ("grade", "random", "foo(3)"),
        ("match", "random", "minimax:depth=x", "tictactoe", "--no-record"),
        ("tournament", "tictactoe", "random", "--no-record"),
        ("ratings", "tictactoe"),
    ],
)
def test_bad_input_is_one_line(args, tmp_path):
    r = run(*args, tmp_path=tmp_path)
    assert r.exit_code == 2
    assert r.stderr.startswith("noughts: error: ") and "Traceback" not in r.stderr
    assert r.stdout == ""
