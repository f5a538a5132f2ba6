"""Boards given by their lines at the command line: a user's JSON file read by every command,
bad files refused with one message and exit status 2, the planes solved to the published values
with certificates the checker accepts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_cases import invoke

FANO = [
    ["a", "b", "c"],
    ["a", "d", "e"],
    ["a", "f", "g"],
    ["b", "d", "f"],
    ["b", "e", "g"],
    ["c", "d", "g"],
    ["c", "e", "f"],
]


def _file(tmp_path: Path, data: object) -> str:
    path = tmp_path / "lines.json"
    path.write_text(json.dumps(data))
    return f'hypergraph(file="{path}")'


def test_show_reads_a_file_and_lists_the_lines(tmp_path: Path) -> None:
    r = invoke("show", _file(tmp_path, {"lines": FANO}))
    assert r.exit_code == 0, r.output
    assert "automorphisms                168 (found from the lines)" in r.output
    assert "a b c / a d e / a f g" in r.output and "a point's name, e.g." in r.output


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"lines": [["a", "b"], ["a", "a"]]}, "the point 'a' appears twice in line 2"),
        ({"lines": [["a", "b"], []]}, "line 2 is empty"),
        ({"lines": [["a", "b"], ["b", "a"]]}, "lines 1 and 2 hold the same points"),
        ({"points": ["a", "b"], "lines": [["a", "b"], ["b", "c"]]}, "names the point 'c'"),
        ({"lines": [[f"p{i}" for i in range(5000)]]}, "at most 4096"),
        ({"points": ["a", "b", "a"], "lines": [["a", "b"]]}, "the point 'a' is listed twice in points="),
        ({"lines": [["a", "b", "c"], ["c", "d"]]}, "every line must have the same number of points"),
        ({"lines": [["a", "b"]], "coords": {"z": [0, 0]}}, "coordinates for the unknown point 'z'"),
    ],
)
@pytest.mark.parametrize("command", ["show", "solve"])
def test_bad_files_exit_2_with_one_message(tmp_path: Path, data: object, message: str, command: str) -> None:
    r = invoke(command, _file(tmp_path, data))
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    r = invoke("show", f'hypergraph(file="{tmp_path / "none.json"}")')
    assert r.exit_code == 2 and "cannot read" in r.output


def test_solve_the_fano_plane_from_a_file(tmp_path: Path) -> None:
    r = invoke("solve", _file(tmp_path, {"lines": FANO}), "--value-only")
    assert r.exit_code == 0, r.output
    assert "x wins" in r.output  # PG(2,2): the first player wins (Carroll and Dougherty 2004)


def test_affine_3_certificate_checks(tmp_path: Path) -> None:
    """AG(2,3): a first-player win (Carroll and Dougherty 2004), certified with its group of 432."""
    cert = tmp_path / "a3"
    r = invoke("solve", "affine(3)", "--engine", "proof", "--certificate", str(cert))
    assert r.exit_code == 0, r.output
    assert "affine(3): x wins" in r.output
    header = json.loads(cert.with_suffix(".json").read_text())
    assert header["symmetry"] == "board"
    checked = invoke("solve", "check", str(cert.with_suffix(".json")))
    assert checked.exit_code == 0 and "valid: affine(3)" in checked.output, checked.output


def test_pairing_find_on_a_plane() -> None:
    r = invoke("pairing", "find", "affine(3)")
    assert r.exit_code == 1  # 12 lines need 24 cells of their own; 9 are there: Hall fails
    assert "free cells" in r.output


def test_too_many_points_for_the_chosen_engine_exit_2(tmp_path: Path) -> None:
    """A ring of 100 points: solved tables (--save) hold boards of at most 64 cells."""
    lines = [[f"p{i}", f"p{(i + 1) % 100}", f"p{(i + 3) % 100}"] for i in range(100)]
    r = invoke("solve", _file(tmp_path, {"lines": lines}), "--save", str(tmp_path / "t.npz"))
    assert r.exit_code == 2 and "at most 64 cells" in r.output and "Traceback" not in r.output, r.output
    assert not (tmp_path / "t.npz").exists()
