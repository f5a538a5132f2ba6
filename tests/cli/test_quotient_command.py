"""``noughts quotient`` and ``solve`` on many Notakto boards, through the command line."""

from __future__ import annotations

import json

from cli_cases import invoke

import noughts
from noughts.cgt import notakto_quotient


def test_quotient_json_is_the_librarys_document() -> None:
    result = invoke("quotient", "notakto", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    expected = notakto_quotient(noughts.board("mnk(3,3,3)")).to_json()
    for key in ("game", "board", "play", "complete", "positions", "size", "p_portion", "relations", "table"):
        assert doc[key] == expected[key]
    assert doc["size"] == 18 and len(doc["p_portion"]) == 4 and doc["positions"] == 46
    assert doc["empty_boards"]["outcomes"][:2] == [
        {"boards": 1, "winner": "first"},
        {"boards": 2, "winner": "second"},
    ]
    assert len(doc["single_boards"]) == 46


def test_quotient_prints_the_story_and_checks_it() -> None:
    result = invoke("quotient", "notakto(boards=5)", "--check")
    assert result.exit_code == 0, result.output
    assert "18 elements, 4 of them P" in result.stdout
    assert "notakto(boards=5): the first player wins" in result.stdout
    assert "checked independently" in result.stdout


def test_normal_play_quotient() -> None:
    result = invoke("quotient", "notakto(misere=false)", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["play"] == "normal" and doc["p_portion"] == ["1"]


def test_a_budget_that_runs_out_is_status_3_with_the_figures() -> None:
    result = invoke("quotient", "notakto(mnk(4,4,3))", "--max-seconds", "0.001", "--json")
    assert result.exit_code == 3, result.output
    doc = json.loads(result.stdout)
    assert doc["complete"] is False and "time budget" in doc["error"]
    assert {"positions_placed", "size", "reason"} <= set(doc["reached"])
    result = invoke("quotient", "notakto(mnk(4,4,3))", "--max-seconds", "0.001")
    assert result.exit_code == 3
    assert "positions placed in the quotient" in result.stdout


def test_quotient_refuses_other_games_with_status_2() -> None:
    result = invoke("quotient", "tictactoe")
    assert result.exit_code == 2
    assert "quotient takes a Notakto game" in result.stderr
    assert invoke("quotient", "notakto(boards=99)").exit_code == 2


def test_solve_sixteen_boards_answers_from_the_quotient() -> None:
    result = invoke("solve", "notakto(boards=16)", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["value"] == "second" and doc["plies"] is None and doc["engine"] == "quotient"
    result = invoke("solve", "notakto(boards=15)")
    assert result.exit_code == 0, result.output
    assert "first player wins (distance unknown)" in result.stdout
    assert "answered by the quotient" in result.stdout


def test_explain_marks_cells_without_distances() -> None:
    result = invoke("explain", "notakto(boards=3)")
    assert result.exit_code == 0, result.output
    assert "W = wins, L = loses" in result.stdout


def test_quotient_loads_the_saved_one_rebuilds_and_saves(tmp_path) -> None:
    saved = invoke("quotient", "notakto", "--json")
    assert saved.exit_code == 0 and json.loads(saved.stdout)["source"] == "saved"
    rebuilt = invoke("quotient", "notakto", "--json", "--rebuild", "--save", str(tmp_path))
    assert rebuilt.exit_code == 0, rebuilt.output
    doc = json.loads(rebuilt.stdout)
    assert doc["source"] == "computed"
    assert doc["table"] == json.loads(saved.stdout)["table"]
    (written,) = tmp_path.glob("notakto-*.json")
    assert written.name == "notakto-mnk-3-3-3-misere.json"
    assert json.loads(written.read_text())["format"] == "noughts-notakto-quotient"
