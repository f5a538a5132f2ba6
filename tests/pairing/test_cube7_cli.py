"""``noughts prove cube7`` and ``noughts prove check`` at the command line."""

import json

import numpy as np
from typer.testing import CliRunner

from noughts.cli.app import app

runner = CliRunner()


def test_prove_and_check_json(tmp_path):
    out = tmp_path / "small.json"
    result = runner.invoke(
        app,
        [
            "prove",
            "cube7",
            "--plan",
            "mnk4",
            "--plan",
            "mnk4-2",
            "--workers",
            "1",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["cases"] == {"mnk4": 3, "mnk4-2": 224}
    assert doc["failures"] == 0 and doc["proved"] is True
    assert doc["certificate"] == str(out)
    assert len(doc["sha256"]) == 64
    assert isinstance(doc["seconds"], float)
    check = runner.invoke(app, ["prove", "check", str(out), "--json"])
    assert check.exit_code == 0, check.output
    report = json.loads(check.stdout)
    # the casework checker's fields, beside the report every kind gives (solve check's)
    assert {key: report[key] for key in ("valid", "cases", "verified", "first_failure", "sha256")} == {
        "valid": True,
        "cases": {"mnk4": 3, "mnk4-2": 224},
        "verified": 227,
        "first_failure": None,
        "sha256": doc["sha256"],
    }
    assert (
        report["kind"] == "casework"
        and report["checked"] == 227
        and report["game"] == "maker_breaker(mnk(4,4,4))"
    )
    assert isinstance(report["seconds"], float)
    assert json.loads(runner.invoke(app, ["solve", "check", str(out), "--json"]).stdout) | {"seconds": 0} == (
        report | {"seconds": 0}
    )
    text = runner.invoke(app, ["prove", "check", str(out)])
    assert text.exit_code == 0 and "valid" in text.stdout


def test_tampered_certificate_exits_1_and_names_the_case(tmp_path):
    out = tmp_path / "t.json"
    assert (
        runner.invoke(
            app, ["prove", "cube7", "--plan", "mnk4", "--workers", "1", "--out", str(out), "--json"]
        ).exit_code
        == 0
    )
    npz = out.with_suffix(".npz")
    with np.load(npz) as data:
        arrays = {k: data[k].copy() for k in data.files}
    arrays["mnk4__d1_cell"][0] = (arrays["mnk4__d1_cell"][0] + 5) % 16
    np.savez_compressed(npz, **arrays)
    result = runner.invoke(app, ["prove", "check", str(out)])
    assert result.exit_code == 2  # a damaged file (its digest does not match): bad input
    assert "digest" in result.stderr and "Traceback" not in result.output
    doc = json.loads(out.read_text())
    import hashlib

    doc["sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    out.write_text(json.dumps(doc))
    result = runner.invoke(app, ["prove", "check", str(out)])
    assert result.exit_code == 1  # the answer "no", on stdout as every kind's
    assert result.stdout.count("\n") == 1
    assert "invalid: mnk4 case Maker " in result.stdout
    as_json = runner.invoke(app, ["prove", "check", str(out), "--json"])
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["valid"] is False


def test_failing_casework_exits_1_and_lists_cases(tmp_path):
    result = runner.invoke(
        app, ["prove", "cube7", "--plan", "mnk4-edge", "--workers", "1", "--out", str(tmp_path / "e")]
    )
    assert result.exit_code == 1
    assert "16 cases have no pairing" in result.stdout


def test_bad_input_exit_2(tmp_path):
    cases = [
        ["prove", "check", str(tmp_path / "missing.json")],
        ["prove", "cube7", "--plan", "nonsense", "--out", str(tmp_path / "x")],
        ["prove", "cube7", "--workers", "0"],
        ["prove", "cube7", "--out", str(tmp_path / "x.txt")],
        ["prove", "cube7", "--plan", "mnk4", "--address", " ", "--out", str(tmp_path / "y")],
    ]
    for args in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output
