import json

from typer.testing import CliRunner

from noughts.cli.app import app

runner = CliRunner()


def test_train_json_and_resume(tmp_path):
    out = tmp_path / "td.json"
    args = ["train", "td", "cumulative(tictactoe)", "--init", "tcd", "--epsilon", "0.05", "--alpha", "0.5",
            "--seed", "126", "--window", "2000", "--delta", "1e-6", "--out", str(out), "--json",
            "--db", str(tmp_path / "s.db")]  # fmt: skip
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    for key in ("episodes", "seconds", "episodes_per_second", "converged", "criterion"):
        assert key in doc
    assert doc["converged"] is True and doc["criterion"]["window"] == 2000
    assert out.exists() and out.with_suffix(".npz").exists()
    again = runner.invoke(app, args)
    assert json.loads(again.output)["episodes"] == doc["episodes"]  # seeded: the same run
    more = runner.invoke(app, ["train", "td", "cumulative(tictactoe)", "--resume", "--out", str(out), "--json",
                               "--max-episodes", str(doc["episodes"] + 5000), "--no-record"])  # fmt: skip
    assert more.exit_code == 0, more.output
    assert json.loads(more.output)["episodes"] >= doc["episodes"]
    from noughts.store import Store

    with Store(tmp_path / "s.db") as store:
        record = store.agent(str(out))
        assert record.kind == "td" and record.spec == "cumulative(mnk(3,3,3))"
        assert [r.status for r in store.runs()] == ["finished", "finished"]


def test_train_rich_output(tmp_path):
    r = runner.invoke(app, ["train", "td", "tictactoe", "--criterion", "none", "--max-episodes", "3000",
                            "--out", str(tmp_path / "a.json"), "--no-record"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "episodes/s" in r.output and "policy grade" in r.output


def test_bad_input_is_one_line_and_status_2(tmp_path):
    for args in (
        ["train", "td", "tictactoe", "--init", "bogus", "--out", str(tmp_path / "a.json")],
        ["train", "td", "veto(tictactoe)", "--init", "tcd", "--out", str(tmp_path / "a.json")],
        ["train", "sarsa", "tictactoe", "--out", str(tmp_path / "a.json")],
        ["train", "td", "tictactoe", "--out", str(tmp_path / "a.txt")],
        ["train", "td", "tictactoe", "--resume", "--out", str(tmp_path / "none.json")],
        ["train", "td", "tictactoe", "--set", "gamma=1", "--out", str(tmp_path / "a.json")],
        ["experiment", "astrology"],
    ):
        r = runner.invoke(app, [*args, "--db", str(tmp_path / "s.db")])
        assert r.exit_code == 2, (args, r.output)
        assert "Traceback" not in r.output


def test_experiment_list():
    r = runner.invoke(app, ["experiment", "--json"])
    assert r.exit_code == 0
    assert "cumulative-td" in json.loads(r.output)
