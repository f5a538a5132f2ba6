"""Certificates: the proof engine's value of every game the alpha-beta kernel solves is written
as a certificate that the independent checker accepts; a changed certificate is rejected with
the first failing position named; malformed files are refused before any array is loaded."""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from exact_cases import EXTRA_CORNER, EXTRA_CORNER_SIDE, EXTRA_SIDE

import noughts
from noughts.core.certificates import CertificateError, read_certificate, write_certificate
from noughts.proving.strategy_check import parse_game
from noughts.solving import CERTIFICATE_KINDS, check_certificate

# the games the alpha-beta kernel solves quickly: the 3x3 family, the added squares, 4x4, 3x3x3
GAMES = [
    "tictactoe",
    "misere(tictactoe)",
    "maker_breaker(tictactoe)",
    "maker_breaker(tictactoe,breaker_first=true)",
    "cumulative(tictactoe)",
    EXTRA_SIDE,
    EXTRA_CORNER_SIDE,
    EXTRA_CORNER,
    "mnk(4,4,4)",
    "hypercube(3,3)",
    "maker_breaker(mnk(4,4,4))",
]


def _certify(spec: str, folder: Path, position: str | None = None) -> tuple[noughts.Game, Path, object]:
    path = folder / "cert"
    result = noughts.solve(
        spec, position, engine="proof", certificate=path, value_only=True, max_seconds=None
    )
    return result.game, folder / "cert.json", result


@pytest.mark.parametrize("spec", GAMES)
def test_the_value_comes_with_a_certificate_the_checker_accepts(spec: str, tmp_path: Path) -> None:
    game, path, result = _certify(spec, tmp_path)
    expected = noughts.solve(spec, engine="alpha-beta", value_only=True, max_seconds=None).value
    assert result.value.outcome is expected.outcome and result.value.score == expected.score  # type: ignore[attr-defined]
    report = check_certificate(path)
    assert report.valid, report.first_failure
    assert report.game == str(game) and report.checked > 0
    claim = report.claim
    value = claim["value"]
    if expected.score is not None:
        assert value == {"score": expected.score}
    else:
        assert value == expected.outcome.value
        assert len(claim["strategies"]) == (2 if value == "draw" else 1)


# past the small games: 5x5 and 6x5 with k=4 (the kernel's bench games), and the two boards of
# issue 12's table the proof engine answers (7x7 and 7x6, k=4: first-player wins)
LARGER = ["mnk(5,5,4)", "mnk(6,5,4)", "mnk(7,7,4)", "mnk(7,6,4)"]


@pytest.mark.slow
@pytest.mark.parametrize("spec", LARGER)
def test_larger_boards_are_certified_too(spec: str, tmp_path: Path) -> None:
    test_the_value_comes_with_a_certificate_the_checker_accepts(spec, tmp_path)


def test_a_certificate_from_a_position(tmp_path: Path) -> None:
    _, path, result = _certify("mnk(5,5,4)", tmp_path, "...../.xx../..o../...o./.....")
    assert result.value.outcome is noughts.Outcome.FIRST  # type: ignore[attr-defined]
    report = check_certificate(path)
    assert report.valid and report.position == "...../.xx../..o../...o./....."


def _rewrite(path: Path, new_arrays: dict[str, np.ndarray] | None = None, **header_changes: object) -> None:
    """Change a certificate as someone would who also recomputes its digest."""
    cert = read_certificate(path)
    header = dict(cert.header)
    npz = path.with_suffix(".npz")
    if new_arrays is not None:
        np.savez_compressed(npz, **new_arrays)  # type: ignore[arg-type]
        header["sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    header.update(header_changes)
    path.write_text(json.dumps(header))


def test_a_changed_move_is_found_and_named(tmp_path: Path) -> None:
    _, path, _ = _certify("mnk(4,4,4)", tmp_path)
    arrays = dict(read_certificate(path).arrays)
    moves = arrays["moves0"].copy()
    assert len(moves) > 100
    # send every stored move of the first strategy to the first cell: illegal or losing
    moves[:] = 0
    arrays["moves0"] = moves
    _rewrite(path, arrays)
    report = check_certificate(path)
    assert not report.valid
    assert report.first_failure is not None and "the first player at least draws" in report.first_failure
    assert "position" in report.first_failure


def test_a_missing_move_is_named(tmp_path: Path) -> None:
    _, path, _ = _certify("hypercube(3,3)", tmp_path)
    arrays = dict(read_certificate(path).arrays)
    arrays["keys0"] = arrays["keys0"][1:]
    arrays["moves0"] = arrays["moves0"][1:]
    _rewrite(path, arrays)
    report = check_certificate(path)
    assert not report.valid and "no move is stored for this position" in str(report.first_failure)


def test_a_claim_the_strategies_do_not_prove(tmp_path: Path) -> None:
    _, path, _ = _certify("tictactoe", tmp_path)
    header = read_certificate(path).header
    claim = dict(header["claim"])
    claim["strategies"] = [dict(s, goal="win") for s in claim["strategies"]]
    claim.pop("value")
    _rewrite(path, claim=claim)
    report = check_certificate(path)
    assert not report.valid and "ends the game without reaching the goal" in str(report.first_failure)
    claim = dict(header["claim"], value="first")  # two strategies to draw prove no win
    _rewrite(path, claim=claim)
    with pytest.raises(CertificateError, match="do not prove the value"):
        check_certificate(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 3}, "version 3"),
        ({"format": "other"}, "not a noughts certificate"),
        ({"kind": "sonnet"}, "unknown certificate kind 'sonnet'"),
        ({"arrays": "../elsewhere.npz"}, "beside it"),
        ({"sha256": "0" * 64}, "does not match the certificate's digest"),
        ({"claim": "everything"}, "'claim' is not a dict"),
        ({"game": "veto(tictactoe)"}, "does not know the board"),
        ({"position": "xxx/.../..."}, "cannot be reached"),
        ({"symmetry": "some"}, "'symmetry'"),
    ],
)
def test_malformed_headers_are_refused(tmp_path: Path, change: dict[str, object], message: str) -> None:
    _, path, _ = _certify("tictactoe", tmp_path)
    _rewrite(path, **change)
    with pytest.raises(CertificateError, match=message):
        check_certificate(path)


def test_no_pickle_and_plain_arrays_only(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    write_certificate(path, "strategy", "mnk(3,3,3)", ".../.../...", {}, {"a": np.arange(3)})
    # an object array inside the .npz is refused from its .npy header, before loading
    npz = tmp_path / "c.npz"
    np.savez(npz, a=np.array([{"x": 1}], dtype=object))  # type: ignore[arg-type]
    header = json.loads(path.read_text())
    header["sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    path.write_text(json.dumps(header))
    with pytest.raises(CertificateError, match="not plain numbers"):
        read_certificate(path)
    with pytest.raises(CertificateError, match="no certificate"):
        read_certificate(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(CertificateError, match="cannot read"):
        read_certificate(tmp_path / "bad.json")
    with pytest.raises(CertificateError, match="plain numeric"):
        write_certificate(tmp_path / "d", "strategy", "g", "p", {}, {"a": np.array([object()])})


def test_the_checker_shares_no_code_with_the_search() -> None:
    """It imports nothing of noughts but the certificate reader: no rules, no board, no kernel."""
    import noughts.proving.strategy_check as checker

    tree = ast.parse(Path(checker.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    ours = {m for m in imported if m.split(".")[0] == "noughts"}
    # one narrow exception: a board given by its lines (affine, projective, torus, hypergraph) is
    # built by core's board builder inside given_lines_geometry, whose result the checker then
    # checks on its own (a plane's axioms, a torus's lines built again, each symmetry mapping lines
    # onto lines); nothing of the search, and nothing else of core, anywhere in the module
    assert ours == {"noughts.core.certificates", "noughts.core.errors", "noughts.core.registry"}
    (given,) = [
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "given_lines_geometry"
    ]
    inside = {
        n.module
        for n in ast.walk(given)
        if isinstance(n, ast.ImportFrom) and n.module and "noughts" in n.module
    }
    assert inside == {"noughts.core.errors", "noughts.core.registry"}
    top = {
        n.module
        for n in tree.body
        if isinstance(n, ast.ImportFrom) and n.module and n.module.split(".")[0] == "noughts"
    }
    assert top == {"noughts.core.certificates"}


@pytest.mark.parametrize(
    "spec", ["tictactoe", "hypercube(4,3)", "hypercube(3,3,k=2)", EXTRA_CORNER, "mnk(7,6,4)", "mnk(9,9,3)"]
)
def test_the_checker_builds_the_same_board(spec: str) -> None:
    """Its own geometry has the lines and the symmetry group of noughts' boards."""
    board = noughts.game(spec).board
    mine, _, _ = parse_game(str(noughts.game(spec)))
    assert {frozenset(line) for line in mine.lines} == {frozenset(line) for line in board.lines}
    assert mine.cells == board.coords
    assert set(mine.symmetries()) == set(board.symmetries)


def test_the_rules_the_checker_reads() -> None:
    assert parse_game("maker_breaker(mnk(3,3,3),breaker_first=true)")[1:] == (2, 1)
    assert parse_game("misere(hypercube(3,3))")[1:] == (1, 0)
    assert [k.name for k in CERTIFICATE_KINDS] == ["strategy", "breaker", "casework", "retrograde"]
