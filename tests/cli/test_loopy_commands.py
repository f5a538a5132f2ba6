"""The commands on games that need not end: retro, solve (and its tables), count, play, games."""

from __future__ import annotations

import json
from pathlib import Path

from cli_cases import invoke

import noughts
from noughts.exact.table import load_table
from noughts.retrograde import analysis as retro


def test_retro_json_is_the_librarys_report() -> None:
    r = invoke("retro", "morris", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    report, _ = retro.analyse("morris")
    expected = report.to_json()
    for key in (
        "states",
        "states_up_to_symmetry",
        "edges",
        "finished_by_outcome",
        "states_by_value",
        "start",
    ):
        assert data[key] == expected[key], key
    assert data["moves"] == expected["moves"] and data["longest_win"] == expected["longest_win"]


def test_retro_check_agrees_and_prints_the_first_moves() -> None:
    r = invoke("retro", "vanishing(mnk(3,3,3),keep=2)", "--check")
    assert r.exit_code == 0, r.output
    assert "the references agree on every state" in r.output
    assert "reachable states" in r.output and "first moves" in r.output


def test_solve_save_and_table_for_a_game_that_need_not_end(tmp_path: Path) -> None:
    path = tmp_path / "m.npz"
    r = invoke("solve", "morris", "--save", str(path))
    assert r.exit_code == 0, r.output
    assert isinstance(load_table(path), retro.RetroTable)
    a = json.loads(invoke("solve", "morris", "--json").output)
    b = json.loads(invoke("solve", "morris", "--json", "--table", str(path)).output)
    assert a["value"] == b["value"] == "first" and a["plies"] == b["plies"] == 9
    assert [m["move"] for m in a["moves"]] == [m["move"] for m in b["moves"]]
    assert a["moves"][0]["move"] == "b2"
    wrong = invoke("solve", "morris(jump=true)", "--table", str(path))
    assert wrong.exit_code == 2 and "not of" in wrong.output


def test_count_gives_states_and_no_games() -> None:
    r = invoke("count", 'forget(tictactoe,count="plies")', "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["games"] is None and data["tree_nodes"] is None
    assert data["positions"] == noughts.count('forget(tictactoe,count="plies")').positions
    assert data["terminal_positions"] == 0


def test_two_agents_stop_at_the_move_cap() -> None:
    r = invoke("play", 'forget(tictactoe,count="plies")', "--x", "random", "--o", "random", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "a draw by the move cap" in r.output


def test_bad_loopy_input_is_one_message() -> None:
    r = invoke("solve", "forget(tictactoe,count=rounds)")
    assert r.exit_code == 2 and "count must be one of" in r.output
    r = invoke("solve", "morris", "--prove", "first")
    assert r.exit_code == 2 and "need not end" in r.output
    r = invoke("games")
    assert "forget" in r.output and "vanishing" in r.output and "morris" in r.output


def test_retro_verify_checks_a_saved_table(tmp_path: Path) -> None:
    path = tmp_path / "m.npz"
    assert invoke("retro", "morris", "--save", str(path)).exit_code == 0
    r = invoke("retro", "morris", "--verify", str(path), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["ok"] is True
    other = invoke("retro", "morris(jump=true)", "--verify", str(path))
    assert other.exit_code == 2 and "not of" in other.output
