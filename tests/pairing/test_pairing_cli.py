"""``noughts pairing find|check``, ``noughts potential simulate|criterion``, ``noughts classify``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cli"))
from cli_cases import invoke

import noughts
from noughts.pairing.files import load_pairing, pairing_grid
from noughts.pairing.matching import find_pairing


def test_find_prints_the_numbered_grid() -> None:
    result = invoke("pairing", "find", "mnk(5,5,5)")
    assert result.exit_code == 0, result.output
    pairing = find_pairing(noughts.game("mnk(5,5,5)").start()).pairing
    assert pairing is not None
    assert pairing_grid(pairing.position, pairing.pairs) in result.stdout
    assert "12 pairs" in result.stdout


def test_find_json_and_save_then_check(tmp_path: Path) -> None:
    spec, position = "maker_breaker(mnk(4,4,4))", "..../..o./..../x..."
    save = tmp_path / "p.json"
    result = invoke("pairing", "find", spec, "--position", position, "--json", "--save", str(save))
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["game"] == spec and doc["exists"] is True and len(doc["pairs"]) == 7
    assert all(len(p) == 2 and all(len(c) == 2 for c in p) for p in doc["pairs"])
    assert "deficient_lines" not in doc
    # the JSON document is itself a pairing file, and equals the saved one
    (tmp_path / "doc.json").write_text(result.stdout)
    assert load_pairing(tmp_path / "doc.json") == load_pairing(save)
    checked = invoke("pairing", "check", spec, "--pairing", str(save), "--role", "second", "--json")
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.stdout)
    assert report["valid"] and report["structure"]["holds"] and report["search"]["secures"]
    assert report["search"]["outcome"] == "second"


def test_find_without_a_pairing_shows_the_deficient_lines() -> None:
    result = invoke("pairing", "find", "mnk(4,4,4)", "--json")
    doc = json.loads(result.stdout)
    assert doc["exists"] is False and doc["pairs"] == []
    cells = {tuple(c) for line in doc["deficient_lines"] for c in line}
    assert cells == {tuple(c) for c in doc["deficient_cells"]}
    assert len(cells) < 2 * len(doc["deficient_lines"])
    text = invoke("pairing", "find", "mnk(4,4,4)").stdout
    assert "no pairing strategy" in text and "a1-b1-c1-d1" in text


def test_check_reports_a_breaking_game_with_status_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "format": "noughts-pairing",
                "version": 1,
                "game": "maker_breaker(mnk(4,4,4))",
                "position": "..../..o./..../x...",
                "pairs": [],
            }
        )
    )
    result = invoke(
        "pairing", "check", "maker_breaker(mnk(4,4,4))", "--pairing", str(path), "--role", "second"
    )
    assert result.exit_code == 1
    assert "does NOT secure" in result.stdout and "a game that breaks it" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pairing", "find", "misere(tictactoe)"], "has no breaking side"),
        (["pairing", "find", "tictactoe", "--breaker", "third"], "--breaker is 'first' or 'second'"),
        (
            ["pairing", "find", "maker_breaker(tictactoe)", "--breaker", "first"],
            "the breaking side is Breaker",
        ),
        (["potential", "simulate", "tictactoe", "--maker", "clever"], "Maker plays one of"),
        (["potential", "simulate", "otrio"], "has no breaking side"),
        (["classify", "misere(tictactoe)"], "has no breaking side"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("noughts: error: ") and message in result.stderr
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{oops", "not valid JSON"),
        (
            '{"format": "noughts-pairing", "version": 1, "game": "mnk(5,5,5)", "pairs": [[[0, 0], [9, 9]]]}',
            "off the board",
        ),
        (
            '{"format": "noughts-pairing", "version": 1, "game": "mnk(5,5,5)", "pairs": [[[0, 0], [0, 1]], [[0, 1], [0, 2]]]}',
            "overlap",
        ),
        (
            '{"format": "noughts-pairing", "version": 1, "game": "mnk(6,6,6)", "pairs": []}',
            "not of mnk(5,5,5)",
        ),
    ],
)
def test_bad_pairing_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(content)
    result = invoke("pairing", "check", "mnk(5,5,5)", "--pairing", str(path), "--role", "second")
    assert result.exit_code == 2 and message in result.stderr and len(result.stderr.splitlines()) == 1


def test_check_without_search_on_a_large_board(tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    assert invoke("pairing", "find", "hypercube(8,3)", "--save", str(save)).exit_code == 0
    result = invoke(
        "pairing", "check", "hypercube(8,3)", "--pairing", str(save), "--role", "second", "--json"
    )
    doc = json.loads(result.stdout)
    assert doc["valid"] and doc["search"] is None and doc["structure"]["survivors"] == 244


def test_potential_simulate_json_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "d.png"
    result = invoke(
        "potential",
        "simulate",
        "hypercube(7,3)",
        "--maker",
        "greedy",
        "--breaker",
        "potential",
        "--plot",
        str(plot),
        "--json",
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["first_round_below_half"] == 46 and doc["winner"] == "Breaker"
    assert doc["rounds"][0]["maker"] == "4,4,4" and doc["start_danger"] == 193 / 128
    assert plot.read_bytes()[:4] == b"\x89PNG"
    text = invoke("potential", "simulate", "hypercube(5,3)").stdout
    assert "first round with D_i < 1/2: round" in text


def test_potential_criterion() -> None:
    doc = json.loads(invoke("potential", "criterion", "mnk(9,9,9)", "--json").stdout)
    assert doc["holds"] and doc["sum_exact"] == "5/128"
    doc = json.loads(
        invoke(
            "potential",
            "criterion",
            "maker_breaker(mnk(4,4,4))",
            "--position",
            "x.../..../..../....",
            "--json",
        ).stdout
    )
    assert doc["danger"] == 3 / 8 + 7 / 16  # three lines through a1 at 1/8, seven others at 1/16


def test_classify_cumulative_tictactoe() -> None:
    result = invoke("classify", "cumulative(tictactoe)", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["class"] == "pairing-strategy draw" and doc["value"] == "draw"
    assert doc["both_roles"] == {"best": 1, "any": 1}
    assert [a["never_loses"]["any"] for a in doc["appendix_a2"]] == [True] * 4
    assert [a["every_line_holds_a_pair"] for a in doc["appendix_a2"]] == [True, False, False, False]
