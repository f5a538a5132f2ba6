"""``solve``, ``explain`` and ``count`` at the command line: what they print agrees with the
library, their JSON documents keep the README's keys, and bad input is one message and status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_cases import invoke

import noughts


def test_solve_json_is_the_librarys_answer() -> None:
    r = invoke("solve", "tictactoe", "--position", "x../.o./...", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    expected = noughts.solve("tictactoe", "x../.o./...").to_json()
    assert {k: v for k, v in doc.items() if k not in ("seconds", "nodes")} == {
        k: v for k, v in expected.items() if k not in ("seconds", "nodes")
    }
    assert doc["value"] == "draw" and doc["to_move"] == "first"
    assert {m["move"] for m in doc["moves"]} == {"b1", "c1", "a2", "c2", "a3", "b3", "c3"}
    assert all(set(m) >= {"move", "cells", "value", "plies"} for m in doc["moves"])


def test_solve_prints_every_first_move() -> None:
    r = invoke("solve", "mnk(4,4,4)")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == "mnk(4,4,4): draw"
    for cell in ("a1", "b2", "d4"):
        assert f" {cell} " in r.stdout


def test_explain_marks_every_cell_and_the_centre_is_the_only_safe_misere_opening() -> None:
    r = invoke("explain", "misere(tictactoe)")
    assert r.exit_code == 0, r.output
    grid = [line.split()[1:] for line in r.stdout.splitlines() if line[:1] in "123" and "L" in line]
    assert grid == [["L9", "L9", "L9"], ["L9", "D", "L9"], ["L9", "L9", "L9"]]


def test_count_json_keys_and_figures() -> None:
    r = invoke("count", "tictactoe", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["positions"] == 5478 and doc["positions_up_to_symmetry"] == 765
    assert doc["games_by_outcome"] == {"first": 131184, "second": 77904, "draw": 46080}
    assert doc["terminal_positions"] == 958 and doc["tree_nodes"] == 549946


def test_save_then_answer_from_the_table(tmp_path: Path) -> None:
    path = tmp_path / "t.npz"
    r = invoke("solve", "misere(tictactoe)", "--save", str(path), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["positions"] > 0 and path.exists()
    searched = json.loads(invoke("solve", "misere(tictactoe)", "--position", "x../.../...", "--json").stdout)
    looked_up = invoke(
        "solve", "misere(tictactoe)", "--position", "x../.../...", "--table", str(path), "--json"
    )
    assert looked_up.exit_code == 0, looked_up.output
    assert [(m["move"], m["value"], m["plies"]) for m in json.loads(looked_up.stdout)["moves"]] == [
        (m["move"], m["value"], m["plies"]) for m in searched["moves"]
    ]


def test_prove_agrees_with_the_value() -> None:
    r = invoke("solve", "hypercube(3,3)", "--prove", "first", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["proved"] is True and doc["game"] == "hypercube(3,3)"
    r = invoke("solve", "tictactoe", "--prove", "mover")
    assert r.exit_code == 1 and "x cannot force a win" in r.stdout  # the answer is no: exit 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("solve", "tictactoe", "--position", "xxx/ooo/..."), "position"),
        (("solve", "tictactoe("), "spec"),
        (("solve", "tictactoe", "--prove", "nobody"), "--prove takes first, second or mover"),
        (("solve", "tictactoe", "--table", "/nonexistent/t.npz"), "t.npz"),
    ],
)
def test_bad_input_is_one_message_and_status_2(args: tuple[str, ...], message: str) -> None:
    r = invoke(*args)
    assert r.exit_code == 2, r.output
    # one message (a spec error adds the spec with a caret under the column), no traceback
    assert r.stderr.lstrip().startswith("noughts: error: ") and r.stderr.count("noughts: error") == 1
    assert message in r.stderr and "Traceback" not in r.output


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "mnk(5,5,4)", "--max-seconds", "0.01"),
        ("solve", "mnk(5,5,4)", "--max-cpu-seconds", "0.01"),
        ("count", "mnk(9,9,5)", "--max-seconds", "0.5"),
        ("count", "mnk(9,9,5)", "--max-memory", "1"),
    ],
)
def test_a_budget_that_runs_out_is_status_3_with_how_far_it_got(args: tuple[str, ...]) -> None:
    r = invoke(*args)
    assert r.exit_code == 3, r.output  # was 2, like bad input
    assert r.stderr.lstrip().startswith("noughts: error: stopped") and r.stderr.strip().count("\n") == 0
    assert "budget" in r.stderr and "Traceback" not in r.output


def test_solve_over_budget_prints_what_it_proved_and_exits_3() -> None:
    r = invoke("solve", "mnk(5,5,4)", "--max-seconds", "0.05", "--json")
    assert r.exit_code == 3, r.output
    doc = json.loads(r.stdout)
    assert doc["complete"] is False and "stopped" in doc
    if "value" in doc:  # the value came first; some of the 25 moves may have followed
        assert doc["value"] == "draw" and doc["moves_total"] == 25 and len(doc["moves"]) < 25


def test_value_only_and_the_engine_field() -> None:
    r = invoke("solve", "mnk(7,6,4)", "--value-only", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["value"] == "first" and doc["moves"] == [] and doc["complete"] is True
    assert doc["engine"] == noughts.solving.choose_engine(noughts.game("mnk(7,6,4)"))
    r = invoke("solve", "tictactoe", "--engine", "proof", "--json")
    doc = json.loads(r.stdout)
    assert doc["engine"] == "proof" and doc["value"] == "draw" and doc["plies"] is None
    assert len(doc["moves"]) == 9 and doc["pv"] == []


def test_certificate_then_check(tmp_path: Path) -> None:
    cert = tmp_path / "ttt"
    r = invoke("solve", "tictactoe", "--certificate", str(cert), "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["engine"] == "proof" and doc["certificate"]["file"] == str(tmp_path / "ttt.json")
    r = invoke("solve", "check", str(tmp_path / "ttt.json"))
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("valid: mnk(3,3,3)") and "at least draws" in r.stdout
    r = invoke("solve", "check", str(tmp_path / "ttt.json"), "--json")
    assert json.loads(r.stdout)["valid"] is True
    # prove check takes the same files (and still the 7x7x7 proof's own)
    r = invoke("prove", "check", str(cert), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["valid"] is True and json.loads(r.stdout)["kind"] == "strategy"
    # a changed file: the digest no longer matches (malformed: status 2)
    npz = tmp_path / "ttt.npz"
    npz.write_bytes(npz.read_bytes() + b"x")
    r = invoke("solve", "check", str(tmp_path / "ttt.json"))
    assert r.exit_code == 2 and "digest" in r.stderr
    r = invoke("solve", "check")
    assert r.exit_code == 2 and "name the certificate" in r.stderr
