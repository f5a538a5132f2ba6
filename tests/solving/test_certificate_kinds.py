"""The one table of certificate kinds and its one entry, :func:`noughts.solving.check_certificate`:
every kind's small certificate checks valid through it (and through ``solve check`` and
``prove check``, one command); a corrupted copy of each is rejected with the failure named; a
file that is not a certificate gets one line and exit status 2."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import noughts
from noughts.core.certificates import CertificateError
from noughts.solving import CERTIFICATE_KINDS, check_certificate
from noughts.solving.certificates import identify

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cli"))
from cli_cases import invoke

RETRO_GAME = "vanishing(mnk(3,3,3),keep=2)"


def _strategy(folder: Path) -> Path:
    noughts.solve("tictactoe", engine="proof", certificate=folder / "s", value_only=True, max_seconds=None)
    return folder / "s.json"


def _misere(folder: Path) -> Path:
    noughts.solve("misere(tictactoe)", certificate=folder / "m", value_only=True, max_seconds=None)
    return folder / "m.json"


def _breaker(folder: Path) -> Path:
    from noughts.breaker.prover import prove_breaker

    assert prove_breaker("maker_breaker(mnk(4,4,4))", certificate=str(folder / "b")).proved
    return folder / "b.json"


def _casework(folder: Path) -> Path:
    from noughts.casework.cube7 import prove

    assert prove(("mnk4",), workers=1, out=str(folder / "c.json"), progress=False).failures == 0
    return folder / "c.json"


def _retrograde(folder: Path) -> Path:
    from noughts.retrograde.analysis import solve_table

    solve_table(RETRO_GAME).save(folder / "r.npz")
    return folder / "r.npz"


MAKERS: dict[str, tuple[str, Callable[[Path], Path]]] = {
    "strategy": ("strategy", _strategy),
    "misère strategy with leaves": ("strategy", _misere),
    "breaker": ("breaker", _breaker),
    "casework": ("casework", _casework),
    "retrograde": ("retrograde", _retrograde),
}


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("kinds")
    return {name: make(folder) for name, (_, make) in MAKERS.items()}


def test_the_table_names_each_kind_once_with_its_writers_declaration() -> None:
    from noughts.breaker.certificate import KIND as BREAKER
    from noughts.casework.certificate_file import FORMAT as CASEWORK
    from noughts.core.certificates import FORMAT as CONTAINER
    from noughts.retrograde.analysis import FORMAT as RETROGRADE

    names = [k.name for k in CERTIFICATE_KINDS]
    assert len(set(names)) == len(names) == len({k for k, _ in MAKERS.values()})
    declared = {k.name: (k.file, k.format, k.declared_kind) for k in CERTIFICATE_KINDS}
    assert declared == {
        "strategy": ("json", CONTAINER, "strategy"),
        "breaker": ("json", CONTAINER, BREAKER),
        "casework": ("json", CASEWORK, None),
        "retrograde": ("npz", RETROGRADE, None),
    }


@pytest.mark.parametrize("name", list(MAKERS))
def test_every_kind_checks_valid_through_the_one_entry(certificates: dict[str, Path], name: str) -> None:
    kind, path = MAKERS[name][0], certificates[name]
    assert identify(path)[0].name == kind
    report = check_certificate(path)
    assert report.valid, report.first_failure
    assert report.kind == kind and report.checked > 0 and report.first_failure is None
    assert len(report.sha256) == 64 and report.details["proves"]
    if name == "misère strategy with leaves":
        assert report.details["leaves"] and report.details["leaves_met"] > 0
    # the two commands are one: the same document, status 0
    documents = []
    for command in ("solve", "prove"):
        result = invoke(command, "check", str(path), "--json")
        assert result.exit_code == 0, result.output
        documents.append(json.loads(result.stdout) | {"seconds": 0})
    assert documents[0] == documents[1] == report.to_json() | {"seconds": 0}
    shown = invoke("prove", "check", str(path))
    assert shown.exit_code == 0 and shown.stdout.startswith(f"valid: {report.game} from ")


def _copy_container(path: Path, folder: Path, change: Callable[[dict[str, np.ndarray]], None]) -> Path:
    """A copy of a JSON + .npz certificate with its arrays changed and its digest recomputed
    (as someone would who meant to pass the digest check)."""
    header = json.loads(path.read_text())
    with np.load(path.with_suffix(".npz")) as data:
        arrays = {k: data[k].copy() for k in data.files}
    change(arrays)
    out = folder / path.name
    npz = out.with_suffix(".npz")
    np.savez_compressed(npz, **arrays)  # type: ignore[arg-type]
    header["arrays"] = npz.name
    header["sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    out.write_text(json.dumps(header))
    return out


def _every_move_to_the_first_cell(arrays: dict[str, np.ndarray]) -> None:
    arrays["moves0"][:] = 0


def _a_shrunk_zone(arrays: dict[str, np.ndarray]) -> None:
    makers = np.flatnonzero(arrays["kind"] == 3)
    arrays["b"][int(makers[0])] = 0


def _a_moved_copy(arrays: dict[str, np.ndarray]) -> None:
    arrays["mnk4__d1_cell"][0] = (arrays["mnk4__d1_cell"][0] + 5) % 16


def _corrupt_retrograde(path: Path, folder: Path) -> Path:
    with np.load(path) as npz:
        contents = {k: npz[k].copy() for k in npz.files}
    target = len(contents["outcome"]) // 2  # a draw (every position of the game is one) claimed as a win
    assert contents["outcome"][target] == 0
    contents["outcome"][target], contents["plies"][target] = 1, 1
    out = folder / path.name
    np.savez(out, **contents)  # type: ignore[arg-type]
    return out


CORRUPTIONS: dict[str, tuple[Callable[[Path, Path], Path], str]] = {
    "strategy": (
        lambda p, f: _copy_container(p, f, _every_move_to_the_first_cell),
        "the first player at least draws",
    ),
    "misère strategy with leaves": (
        lambda p, f: _copy_container(p, f, _every_move_to_the_first_cell),
        "position",
    ),
    "breaker": (lambda p, f: _copy_container(p, f, _a_shrunk_zone), "node 0"),
    "casework": (lambda p, f: _copy_container(p, f, _a_moved_copy), "mnk4 case Maker "),
    "retrograde": (_corrupt_retrograde, "the table says"),
}


@pytest.mark.parametrize("name", list(MAKERS))
def test_a_corrupted_copy_is_rejected_with_the_failure_named(
    certificates: dict[str, Path], name: str, tmp_path: Path
) -> None:
    corrupt, named = CORRUPTIONS[name]
    bad = corrupt(certificates[name], tmp_path)
    report = check_certificate(bad)
    assert not report.valid and named in str(report.first_failure), report.first_failure
    result = invoke("solve", "check", str(bad))
    assert result.exit_code == 1
    assert result.stdout.startswith("invalid: ") and named in result.stdout


@pytest.mark.parametrize("name", ["strategy", "breaker", "casework"])
def test_changed_arrays_fail_the_digest_before_any_checker(
    certificates: dict[str, Path], name: str, tmp_path: Path
) -> None:
    path = certificates[name]
    out = tmp_path / path.name
    out.write_text(path.read_text())
    out.with_suffix(".npz").write_bytes(path.with_suffix(".npz").read_bytes() + b"x")
    with pytest.raises(noughts.NoughtsError, match="digest"):
        check_certificate(out)
    result = invoke("prove", "check", str(out))
    assert result.exit_code == 2 and "digest" in result.stderr and "Traceback" not in result.output


def _not_certificates(folder: Path, certificates: dict[str, Path]) -> list[tuple[Path, str]]:
    record = folder / "game.json"
    record.write_text(json.dumps({"format": "noughts-record", "moves": []}))
    unknown = folder / "sonnet.json"
    unknown.write_text(json.dumps({"format": "noughts-certificate", "kind": "sonnet"}))
    listing = folder / "list.json"
    listing.write_text("[1, 2, 3]")
    solved = folder / "solved.npz"
    from noughts.exact.table import build_table

    build_table(noughts.game("tictactoe")).save(solved)
    text = folder / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n")
    return [
        (text, "not a JSON header"),
        (Path("/etc/passwd"), "is not a noughts certificate"),  # whatever it holds
        (record, "declares format 'noughts-record'"),
        (unknown, "unknown certificate kind 'sonnet'"),
        (listing, "no 'format' field"),
        (solved, "declares format 'noughts-solved-table'"),
        (certificates["strategy"].with_suffix(".npz"), "name a certificate by its .json header"),
        (folder / "missing.json", "there is no file"),
        (folder, "is a folder, not a certificate"),
    ]


def test_a_file_that_is_not_a_certificate_gets_one_line_and_status_2(
    certificates: dict[str, Path], tmp_path: Path
) -> None:
    for path, message in _not_certificates(tmp_path, certificates):
        if not path.parent.exists():
            continue
        with pytest.raises(CertificateError, match=message):
            check_certificate(path)
        for command in ("solve", "prove"):
            result = invoke(command, "check", str(path))
            assert result.exit_code == 2, (path, result.output)
            assert message in result.stderr and result.stderr.count("\n") == 1, result.stderr
            assert "Traceback" not in result.output and not result.stdout
